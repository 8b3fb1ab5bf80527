package wire

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// An Attest is its tic, the chain and the signature, in order; a Signer
// the game and the key; an AttestFetch the tics it asks about. A body cut short, or of another kind, is an error
// naming the field.
func TestAnAttestAndASignerAreTheirFieldsInOrder(t *testing.T) {
	a := &Attest{Tic: 0x01020304}
	for i := range a.Chain {
		a.Chain[i] = byte(0x10 + i)
	}
	for i := range a.Sig {
		a.Sig[i] = byte(0x80 + i)
	}
	want := append([]byte{TicnetKindAttest, 1, 2, 3, 4}, a.Chain[:]...)
	want = append(want, a.Sig[:]...)
	require.Equal(t, want, a.AppendBody(nil))
	sg := &Signer{Game: 0x0a0b0c0d, Key: [SignerLen]byte(bytes.Repeat([]byte{7}, SignerLen))}
	require.Equal(t, append([]byte{TicnetKindSigner, 0x0a, 0x0b, 0x0c, 0x0d}, sg.Key[:]...), sg.AppendBody(nil))
	af := &AttestFetch{From: 0x05060708, Tic: 0x01020304}
	require.Equal(t, []byte{TicnetKindAttestFetch, 5, 6, 7, 8, 1, 2, 3, 4}, af.AppendBody(nil))
	for _, m := range []Message{a, sg, af} {
		pkt := Encode(nil, m, false, 0)
		_, dm, err := DecodePacket(pkt, ServerToClient, false)
		require.NoError(t, err, "%T", m)
		require.True(t, sameMessage(dm, m), "%T: decoded %+v", m, dm)
		checkTruncations(t, m, false, nil)
	}
	var de *DecodeError
	body := a.AppendBody(nil)
	body[0] = TicnetKindSigner
	require.ErrorAs(t, (&Attest{}).DecodeBody(body), &de)
	require.Equal(t, "kind", de.Field)
	require.ErrorAs(t, (&Attest{}).DecodeBody(a.AppendBody(nil)[:5+ChainLen+3]), &de)
	require.Equal(t, "signature", de.Field)
	require.ErrorAs(t, (&Signer{}).DecodeBody(sg.AppendBody(nil)[:9]), &de)
	require.Equal(t, "key", de.Field)
}

func FuzzAttest(f *testing.F)      { fuzzBody(f, func() Message { return &Attest{} }) }
func FuzzSigner(f *testing.F)      { fuzzBody(f, func() Message { return &Signer{} }) }
func FuzzAttestFetch(f *testing.F) { fuzzBody(f, func() Message { return &AttestFetch{} }) }
