package session

import (
	"fmt"
	"testing"

	"github.com/ticnet/ticnet/netcore/scenario"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// Two servers of one game, one of them hidden, in two ways. Cut off: a
// partition cuts the server from the other copy, which takes the game
// over (migration by silence), and the old server's page is hidden while
// it serves on alone (it has no client to hand the game to). Took back:
// the server's page is hidden, it hands the game over to the other copy,
// then a partition cuts it off and, alone, it takes its game back while
// its successor serves on. When they hear each other again, the visible
// server keeps the game (no yield, no migration, it serves throughout),
// though the hidden one comes first by identity (it started first); the
// hidden one yields and joins the visible one's game again through late
// join with its token, as its own player. Every copy's tics check, from
// where it last joined. 5 seeds each, quiet channel.
func TestAVisibleServerKeepsTheGameAgainstAHiddenServerOfIt(t *testing.T) {
	for _, tookBack := range []bool{false, true} {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(fmt.Sprintf("tookBack=%v/seed%d", tookBack, seed), func(t *testing.T) { visibleAgainstHidden(t, seed, tookBack) })
		}
	}
}

// visibleAgainstHidden plays TestAVisibleServerKeepsTheGameAgainstAHiddenServerOfIt's game.
func visibleAgainstHidden(t *testing.T, seed uint64, tookBack bool) {
	quiet := simnet.Link{LatencyMS: 2, JitterMS: 2}
	c := launchGame(t, seed, 2, quiet)
	defer func() {
		if t.Failed() {
			dumpEvents(t, c)
		}
	}()
	c.runUntil(t, "tic 200 everywhere", 60000, func() bool { return c.allAt(200) })
	hid, vis := c.peers[0], c.peers[1]
	require.Same(t, hid, c.serverOf(), "the server is not the first copy")
	require.True(t, hid.s.Election().Self().Before(vis.s.Election().Self()), "the first copy does not come first by identity")
	if tookBack {
		hid.hidden = true
		hid.s.SetHidden(true)
		c.runUntil(t, "the successor serves, the hidden copy resumed under it", 10000, func() bool {
			return vis.s.Role() == RoleServer && hid.s.Role() == RoleClient && len(eventsOf(hid, "resumed")) == 1
		})
		// A second under the successor: the successor's roster (which
		// names the successor's player as the server's) has reached the
		// hidden copy. Cut off before that,
		// the hidden copy's resumed server takes the copy's own player for
		// the server that left, and refuses its own client.
		played := c.net.Now()
		c.runUntil(t, "a second under the successor", 2000, func() bool { return c.net.Now() >= played+1000 })
	}
	c.net.Partition([]*simnet.Node{hid.node}, []*simnet.Node{vis.node})
	cut := c.net.Now()
	if tookBack {
		c.runUntil(t, "the hidden copy serves its game again, alone", 20000, func() bool {
			return hid.s.Role() == RoleServer && len(eventsOf(hid, "resumed")) == 2
		})
	} else {
		c.runUntil(t, "the cut-off copy resumed the game as its server", 20000, func() bool {
			return vis.s.Role() == RoleServer && len(eventsOf(vis, "resumed")) == 1
		})
		hid.hidden = true
		hid.s.SetHidden(true)
	}
	c.runUntil(t, "6 s of partition", 20000, func() bool { return c.net.Now() >= cut+6000 })
	require.Equal(t, RoleServer, hid.s.Role(), "before the heal: the hidden copy")
	require.Equal(t, RoleServer, vis.s.Role(), "before the heal: the visible copy")
	seen := []int{len(hid.events), len(vis.events)}
	c.net.Heal()
	healed := c.net.Now()
	c.runUntil(t, "the hidden copy in the visible server's game again", 30000, func() bool {
		require.Equal(t, RoleServer, vis.s.Role(), "the visible server %d ms after the heal, want the server throughout", c.net.Now()-healed)
		return hid.s.Role() == RoleClient && len(eventsFrom(hid, seen[0], "start")) == 1 &&
			hid.s.Client().GameTic() >= vis.s.Client().GameTic()-5
	})
	end := vis.s.Client().GameTic() + 300
	c.runUntil(t, fmt.Sprintf("tic %d everywhere", end), 60000, func() bool { return c.allAt(end) })
	for _, kind := range []string{"yielded", "migrating", "start", "role"} {
		require.Empty(t, eventsFrom(vis, seen[1], kind), "the visible server's %q events after the heal", kind)
	}
	require.Equal(t, RoleServer, vis.s.Role(), "after the heal: the visible server")
	require.Equal(t, RoleClient, hid.s.Role(), "after the heal: the hidden copy")
	// One yield to the visible server and one rejoin as its player.
	ys, starts := eventsFrom(hid, seen[0], "yielded"), eventsFrom(hid, seen[0], "start")
	require.Len(t, ys, 1, "the hidden copy's yields after the heal")
	require.Equal(t, vis.s.Election().Self().Tie, ys[0].ServerUID, "the server the hidden copy yielded to")
	require.Len(t, starts, 1, "the hidden copy's starts after the heal")
	require.True(t, starts[0].Rejoined, "the hidden copy's start after the heal: %+v", starts[0])
	require.Equal(t, *eventsOf(hid, "start")[0].Player, *starts[0].Player, "the hidden copy's player after the heal")
	// The hidden copy's first life is checked up to the tic the visible
	// one resumed the game at: from there on, each decided its own.
	resumedAt := eventsOf(vis, "resumed")[0].Tic
	if tookBack {
		resumedAt = 0 // its first resume ends it (checkedLives)
	}
	copies := append(checkedLives(0, hid, resumedAt, 0), checkedLives(1, vis, 0, 0)...)
	_, err := scenario.CheckCommandsAgainst(copies, true, c.recordsOf, c.allRecords())
	require.NoError(t, err)
	require.GreaterOrEqual(t, sameSumsOf(t, copies), 300, "tics compared")
}
