package netcore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/wire"
)

// sourcesServer returns a server in a game of the extension with one
// player and n watchers in the game, connected in slot order.
func sourcesServer(n int) *Server {
	srv, _ := NewLoopback(1)
	s := NewServer(ServerConfig{}, srv)
	add := func(i int, drone bool) {
		sc := &serverClient{addr: link.Addr(0x100 + i), protocol: wire.ProtocolTicnet, connectMS: int64(i), player: -1, phase: slotPlaying}
		sc.data.Drone = drone
		sc.conn = reliable.NewConn(sc.addr, srv, reliable.Timers{}, 0, reliable.Connected, &s.stats.Counters)
		s.slots.put(i, sc)
	}
	add(0, false)
	s.slots[0].player = 0
	for i := 1; i <= n; i++ {
		add(i, true)
	}
	s.ext.reset()
	return s
}

// Each watcher in the game gets another watcher for its tic source,
// never a player; no watcher is the source of more than MaxServes, and
// those that are the sources of fewest are chosen, the earliest to
// connect first: the load spreads. A watcher alone has none (the server
// is its source). A source that leaves is replaced at the next check,
// and the others keep theirs.
func TestEachWatcherGetsAnotherForItsTicSource(t *testing.T) {
	s := sourcesServer(1)
	s.ext.sources.pass(SourceCheckMS)
	assert.Nil(t, s.slots[1].source, "a watcher alone: the server")

	s = sourcesServer(12)
	s.ext.sources.pass(SourceCheckMS)
	serves := map[*serverClient]int{}
	for _, sc := range s.slots[1:13] {
		require.NotNil(t, sc.source, "watcher %v's source", sc.addr)
		require.NotSame(t, sc, sc.source, "a watcher is not its own source")
		require.True(t, sc.source.watcher(), "watcher %v's source watches", sc.addr)
		serves[sc.source]++
	}
	for o, n := range serves {
		assert.LessOrEqual(t, n, MaxServes, "watchers %v is the source of", o.addr)
		assert.Equal(t, n, o.serves, "watchers %v counts as the source of", o.addr)
	}
	assert.Len(t, serves, 12, "every watcher the source of one: the load spread")

	gone := s.slots[1]
	var orphans []*serverClient
	keep := map[*serverClient]*serverClient{}
	for _, sc := range s.slots[2:13] {
		if sc.source == gone {
			orphans = append(orphans, sc)
		} else {
			keep[sc] = sc.source
		}
	}
	require.NotEmpty(t, orphans, "watchers whose source leaves")
	gone.conn.Drop("")
	s.ext.sources.pass(2*SourceCheckMS - 1)
	assert.Same(t, gone, orphans[0].source, "no check before SourceCheckMS")
	s.ext.sources.pass(2 * SourceCheckMS)
	for _, sc := range orphans {
		require.NotNil(t, sc.source, "watcher %v's new source", sc.addr)
		assert.NotSame(t, gone, sc.source, "watcher %v's new source", sc.addr)
	}
	for sc, src := range keep {
		assert.Same(t, src, sc.source, "watcher %v keeps its source", sc.addr)
	}
}

// watching returns a client in a game, as a watcher, under the
// extension.
func watching(t *testing.T) *Client {
	t.Helper()
	_, c := connected(t)
	c.phase.move(stepLaunched)
	c.phase.move(stepStarted)
	require.Equal(t, ClientInGame, c.State())
	return c
}

// A copy answers at most MaxServes watchers: told to answer one more, it
// forgets the one that asked least lately. The server's word is checked:
// a copy is never told to answer the server or everyone, and a
// watcher takes a source only with its own connection's tag, and never
// as a player; each refusal counts as unexpected, and changes nothing.
func TestACopyAnswersAtMostMaxServesWatchers(t *testing.T) {
	c := watching(t)
	own := wire.ConnTag(c.conn.Ident().Conn)
	source := func(m wire.TicSource) error { return c.src.onTicSource(0, m.AppendBody(nil)) }
	for i := range MaxServes {
		require.NoError(t, source(wire.TicSource{To: uint32(0x200 + i), Tag: 7, Serve: true}))
		c.src.serves[i].usedMS = int64(10 - i) // the last told asked least lately
	}
	require.NoError(t, source(wire.TicSource{To: 0x2ff, Tag: 9, Serve: true}))
	require.Len(t, c.src.serves, MaxServes)
	var to []link.Addr
	for _, sv := range c.src.serves {
		to = append(to, sv.to)
	}
	assert.ElementsMatch(t, []link.Addr{0x200, 0x201, 0x202, 0x2ff}, to, "the watchers answered")

	for _, m := range []wire.TicSource{
		{To: 1, Tag: 7, Serve: true}, // the server
		{To: uint32(link.Broadcast), Tag: 7, Serve: true},
		{To: 0x300, Tag: own%127 + 1}, // another connection's
	} {
		assert.ErrorIs(t, source(m), errUnexpected{}, "%+v", m)
	}
	require.Zero(t, c.src.src, "no source taken")
	require.NoError(t, source(wire.TicSource{To: 0x300, Tag: own}))
	assert.Equal(t, link.Addr(0x300), c.src.src, "the watcher's source")
	require.NoError(t, source(wire.TicSource{To: 0, Tag: own}))
	assert.Zero(t, c.src.src, "the server again")
	c.player = 2
	assert.ErrorIs(t, source(wire.TicSource{To: 0x300, Tag: own}), errUnexpected{}, "a player's source")
}
