package netcore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ticnet/ticnet/netcore/wire"
)

// connected returns a server of term 5 and its client, connected under
// the extension at time 0-100.
func connected(t *testing.T) (*Server, *Client) {
	t.Helper()
	srvEnd, cliEnd := NewLoopback(1)
	s := NewServer(ServerConfig{Term: 5}, srvEnd)
	c := NewClient(ClientConfig{}, cliEnd, 1, &tapeGame{}, 0)
	for now := int64(0); now <= 100 && c.State() != ClientWaitingLaunch; now += 5 {
		s.Update(now)
		c.Update(now)
	}
	require.Equal(t, ClientWaitingLaunch, c.State(), "the client is in the lobby")
	require.Equal(t, wire.ProtocolTicnet, c.Protocol())
	return s, c
}

// The connection's tag rides on every frame after the handshake, and the
// one filter at each end drops and counts (Stale) a frame of another
// connection or of another term: a late copy of an old connection's, or
// of the server before (a broadcast carries its term's tag).
func TestTheConnectionFilterDropsFramesOfAnotherConnectionOrTerm(t *testing.T) {
	s, c := connected(t)
	require.Equal(t, uint16(5), c.conn.Ident().Term, "the term the server's reply named")
	mine := c.conn.Ident()
	require.NotZero(t, mine.Conn)
	sc := s.slots.find(LocalClientAddr)
	require.NotNil(t, sc, "the client's slot")
	require.Equal(t, mine, sc.conn.Ident(), "the server's slot and the client name one connection and term")

	keepalive := wire.Encode(nil, wire.Keepalive, false, 0)
	frame := func(tag uint8) []byte {
		f := append([]byte(nil), keepalive...)
		wire.SetTag(f, tag)
		return f
	}
	other := mine.Conn + 1
	for wire.ConnTag(other) == wire.ConnTag(mine.Conn) {
		other++
	}
	require.NotEqual(t, wire.TermTag(4), wire.TermTag(5), "the terms' tags")
	for _, tc := range []struct {
		name  string
		tag   uint8
		stale bool
	}{
		{"this connection", wire.ConnTag(mine.Conn), false},
		{"a broadcast of this term", wire.TermTag(5), false},
		{"another connection", wire.ConnTag(other), true},
		{"a broadcast of an earlier term", wire.TermTag(4), true},
		{"a broadcast of a later term", wire.TermTag(6), true},
		{"no tag", 0, true},
	} {
		before := c.Counters()
		c.receive(200, 1, frame(tc.tag))
		after := c.Counters()
		if tc.stale {
			assert.Equal(t, before.Stale+1, after.Stale, "client, %s: stale frames", tc.name)
			assert.Equal(t, before.Malformed, after.Malformed, "client, %s: malformed frames", tc.name)
		} else {
			assert.Equal(t, before.Stale, after.Stale, "client, %s: stale frames", tc.name)
		}
	}
	// The server's end: a client's frame carries its connection's tag; a
	// broadcast is the server's alone.
	for _, tc := range []struct {
		name  string
		tag   uint8
		stale bool
	}{
		{"this connection", wire.ConnTag(mine.Conn), false},
		{"another connection", wire.ConnTag(other), true},
		{"a broadcast", wire.TermTag(5), true},
		{"no tag", 0, true},
	} {
		before := s.Counters().Stale
		s.receive(200, LocalClientAddr, frame(tc.tag))
		want := before
		if tc.stale {
			want++
		}
		assert.Equal(t, want, s.Counters().Stale, "server, %s: stale frames", tc.name)
	}
	// A frame of the connection, as received, is left as it was: the
	// tag is cleared in a copy (a broadcast frame may be shared).
	f := frame(wire.ConnTag(mine.Conn))
	kept := append([]byte(nil), f...)
	c.receive(200, 1, f)
	assert.Equal(t, kept, f, "the received frame")
}

// A copy's connections, numbered in turn (ClientConfig.ConnSeq, then one
// more per reattach), carry tags of their own for 127 in a row, whatever
// the time they were made: no late frame of one passes another's filter.
func TestACopysLast127ConnectionsHaveTagsOfTheirOwn(t *testing.T) {
	cfg := ClientConfig{Name: "copy", Token: [16]byte{7}}
	cfg.fill()
	seen := map[uint8]int{}
	for seq := 300; seq < 300+127; seq++ {
		id := connID(&cfg, int64(seq)*7919, seq)
		require.NotZero(t, id)
		tag := wire.ConnTag(id)
		prev, dup := seen[tag]
		require.False(t, dup, "connections %d and %d share tag %d", prev, seq, tag)
		seen[tag] = seq
	}
}
