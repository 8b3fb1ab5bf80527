package auth

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// A signer's chain checks under its key, for its game and tic; another
// key, game, tic, chain or a bit of the signature does not. The same key
// pair gives the same signer.
func TestASignedChainChecksOnlyAsSigned(t *testing.T) {
	s := NewSigner(KeyFromSecret([]byte("server")))
	require.Equal(t, s.Public(), NewSigner(KeyFromSecret([]byte("server"))).Public(), "the same key pair, the same signer")
	other := NewSigner(KeyFromSecret([]byte("member")))
	chain := bytes.Repeat([]byte{7}, 16)
	sig := s.Sign(9, 1234, chain)
	pub, otherPub := s.Public(), other.Public()
	require.True(t, CheckChain(&pub, 9, 1234, chain, &sig))
	require.False(t, CheckChain(&otherPub, 9, 1234, chain, &sig), "another key")
	require.False(t, CheckChain(&pub, 10, 1234, chain, &sig), "another game")
	require.False(t, CheckChain(&pub, 9, 1235, chain, &sig), "another tic")
	bad := bytes.Clone(chain)
	bad[15] ^= 1
	require.False(t, CheckChain(&pub, 9, 1234, bad, &sig), "another chain")
	for i := range sig {
		flipped := sig
		flipped[i] ^= 0x10
		require.False(t, CheckChain(&pub, 9, 1234, chain, &flipped), "signature byte %d changed", i)
	}
	forged := other.Sign(9, 1234, chain)
	require.False(t, CheckChain(&pub, 9, 1234, chain, &forged), "signed by another")
}

// BenchmarkSignChain and BenchmarkCheckChain time an attest's signature at
// the server and its check at a watcher.
func BenchmarkSignChain(b *testing.B) {
	s := NewSigner(KeyFromSecret([]byte("server")))
	chain := make([]byte, 16)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Sign(1, uint32(i), chain)
	}
}

func BenchmarkCheckChain(b *testing.B) {
	s := NewSigner(KeyFromSecret([]byte("server")))
	chain := make([]byte, 16)
	sig, pub := s.Sign(1, 2, chain), s.Public()
	b.ReportAllocs()
	for b.Loop() {
		CheckChain(&pub, 1, 2, chain, &sig)
	}
}
