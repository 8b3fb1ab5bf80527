package wire

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A connection's tag rides in the bits of the type field that no type
// uses, costs no byte, and comes off leaving the frame as it was; no tag
// is 0, and a connection's differs from a term's.
func TestATagRidesInTheTypeFieldAndComesOffIntact(t *testing.T) {
	for _, reliable := range []bool{false, true} {
		frame := Encode(nil, &TicSet{Start: 9, Tics: []SetTic{{}}}, reliable, 3)
		orig := append([]byte(nil), frame...)
		require.Zero(t, TagOf(frame), "a frame as encoded carries no tag")
		SetTag(frame, 0xa5)
		require.Len(t, frame, len(orig), "a tag costs no byte")
		assert.Equal(t, uint8(0xa5), TagOf(frame))
		h, _, err := ParseHeader(frame)
		require.NoError(t, err)
		assert.NotEqual(t, TypeTicnet, h.Type, "a tagged frame is no type the reference knows")
		assert.Equal(t, reliable, h.Reliable, "the reliable flag stays")
		SetTag(frame, 0)
		assert.Equal(t, orig, frame, "untagged, the frame is as it was")
	}
	for v := range uint32(2000) {
		require.True(t, ConnTag(v) >= 1 && ConnTag(v) <= 127, "a connection's tag, %d", ConnTag(v))
		require.True(t, TermTag(uint16(v)) >= 128, "a term's tag, %d", TermTag(uint16(v)))
	}
	seen := map[uint8]bool{}
	for conn := uint32(1000); conn < 1127; conn++ {
		require.False(t, seen[ConnTag(conn)], "127 connections numbered in turn share tag %d", ConnTag(conn))
		seen[ConnTag(conn)] = true
	}
	assert.NotEqual(t, TermTag(4), TermTag(5))
	assert.Zero(t, TagOf([]byte{0x80}), "too short to have a type field")
}

// The names that carry the identity through the handshake: a client's
// offer gives its connection, a server's reply the connection and its
// term; any other name reads as itself, and a malformed one never as the
// extension.
func TestTheHandshakeNamesCarryTheConnectionAndTerm(t *testing.T) {
	key := &PublicKey{0x01, 0xab, 31: 0xff}
	hexKey := "01ab" + strings.Repeat("00", 29) + "ff"
	assert.Equal(t, "TICNET_1/001a2b3c", OfferName(0x1a2b3c, nil))
	assert.Equal(t, "TICNET_1/001a2b3c/"+hexKey, OfferName(0x1a2b3c, key))
	assert.Equal(t, "TICNET_1/001a2b3c.0005", ReplyName(0x1a2b3c, 5, nil))
	assert.Equal(t, "TICNET_1/001a2b3c.0005/"+hexKey, ReplyName(0x1a2b3c, 5, key))
	for _, k := range []*PublicKey{nil, key} {
		proto, conn, got := ParseOffer(OfferName(0xdeadbeef, k))
		assert.Equal(t, ProtocolTicnet, proto)
		assert.Equal(t, uint32(0xdeadbeef), conn)
		assert.Equal(t, k, got)
		id, got, ok := ParseReply(ReplyName(0xdeadbeef, 0xffff, k))
		require.True(t, ok)
		assert.Equal(t, Ident{Conn: 0xdeadbeef, Term: 0xffff}, id)
		assert.Equal(t, k, got)
	}
	for _, name := range []string{ProtocolChocolate, ProtocolTicnet, "TICNET_1/00000000", "TICNET_1/1a2b3c4", "TICNET_1/1A2B3C4D",
		"TICNET_1/1a2b3c4dd", "TICNET_1/+a2b3c4d", "TICNET_2/1a2b3c4d", OfferName(7, nil) + "/" + hexKey[2:],
		OfferName(7, nil) + "/" + strings.ToUpper(hexKey), OfferName(7, nil) + "/", OfferName(7, key) + "/" + hexKey} {
		proto, conn, key := ParseOffer(name)
		assert.Equal(t, name, proto, "offer %q", name)
		assert.Zero(t, conn, "offer %q", name)
		assert.Nil(t, key, "offer %q", name)
	}
	for _, name := range []string{ProtocolChocolate, ProtocolTicnet, OfferName(7, nil), OfferName(7, nil) + ".5", OfferName(7, nil) + ".00005",
		"TICNET_1/00000000.0001", OfferName(7, nil) + ".000g", OfferName(7, key) + ".0001", ReplyName(7, 1, nil) + "/00"} {
		_, _, ok := ParseReply(name)
		assert.False(t, ok, "reply %q", name)
	}
}

func FuzzIdentNames(f *testing.F) {
	f.Add(ReplyName(0x1a2b3c4d, 3, nil))
	f.Add(ReplyName(0x1a2b3c4d, 3, &PublicKey{1}))
	f.Add(OfferName(1, nil))
	f.Add(OfferName(1, &PublicKey{2}))
	f.Add(ProtocolChocolate)
	f.Fuzz(func(t *testing.T, name string) {
		if proto, conn, key := ParseOffer(name); conn != 0 {
			require.Equal(t, ProtocolTicnet, proto)
			require.Equal(t, name, OfferName(conn, key), "an accepted offer is the one name of its connection and key")
		}
		if id, key, ok := ParseReply(name); ok {
			require.Equal(t, name, ReplyName(id.Conn, id.Term, key), "an accepted reply is the one name of its connection, term and key")
		}
		frame := []byte(name)
		SetTag(frame, TagOf(frame))
		require.Equal(t, []byte(name), frame, "a frame's own tag written back changes nothing")
	})
}
