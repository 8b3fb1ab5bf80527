package session

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// Every copy's page hears of a desync, with the server's verdict: the tic
// and the player whose copy diverged, the same everywhere, once; only the
// diverged copy is told that it is the one.
func TestEveryCopyHearsTheServersDesyncVerdict(t *testing.T) {
	c := launchGame(t, 31, 4, simnet.Link{LatencyMS: 5, JitterMS: 5})
	c.runUntil(t, "tic 50 everywhere", 20000, func() bool { return c.allAt(50) })
	const breakAt = 300
	broken := c.peers[2]
	broken.game.BreakAt = breakAt
	c.runUntil(t, "tic 500 everywhere", 60000, func() bool { return c.allAt(500) })
	bp := *eventsOf(broken, "start")[0].Player
	for i, p := range c.peers {
		got := eventsOf(p, "desync")
		require.Len(t, got, 1, "copy %d: desync events", i)
		e := got[0]
		require.Equal(t, uint32(breakAt), e.Tic, "copy %d: the desync's tic", i)
		require.Equal(t, []int{bp}, e.Players, "copy %d: the desync's players", i)
		require.Equal(t, p == broken, e.Diverged, "copy %d: diverged", i)
		require.Empty(t, eventsOf(p, "desyncStates"), "copy %d: states it did not keep", i)
	}
	// And the copy that diverged is set right: every page hears
	// "repaired" once, for the broken player, with the state's tic (after
	// the desync's), its bytes and the time it took; only the broken
	// copy's is told that its state was replaced, and its checksums agree
	// with the others' from that tic on.
	var fixed uint32
	for i, p := range c.peers {
		got := eventsOf(p, "repaired")
		require.Len(t, got, 1, "copy %d: repaired events", i)
		e := got[0]
		require.Equal(t, bp, *e.Player, "copy %d: the repaired player", i)
		require.Greater(t, e.Tic, uint32(breakAt), "copy %d: the state's tic", i)
		require.Positive(t, e.Bytes, "copy %d: the state's bytes", i)
		require.Equal(t, p == broken, e.Diverged, "copy %d: its state was replaced", i)
		fixed = e.Tic
	}
	ref, mine := c.peers[0].game.Sums(), broken.game.Sums()
	require.NotEqual(t, ref[breakAt], mine[breakAt], "the broken copy at tic %d", breakAt)
	for tc := fixed; tc < 500; tc++ {
		require.Equal(t, ref[tc], mine[tc], "the repaired copy at tic %d", tc)
	}
}

// A copy whose game computes differently on every tic (testgame's
// BreakFrom) is repaired netcore.RepairLimit times, diverges again, and
// leaves: its page gets an "error" event that says the game is not
// deterministic there (no callback threw), and the others play on.
func TestACopyWhoseGameIsNotDeterministicLeavesWithAnError(t *testing.T) {
	c := launchGame(t, 32, 4, simnet.Link{LatencyMS: 5, JitterMS: 5})
	c.runUntil(t, "tic 50 everywhere", 20000, func() bool { return c.allAt(50) })
	broken := c.peers[2]
	broken.game.BreakFrom = 300
	c.runUntil(t, "the broken copy's error", 60000, func() bool { return len(eventsOf(broken, "error")) > 0 })
	e := eventsOf(broken, "error")[0]
	require.Equal(t, netcore.ReasonPersistentDesync, e.Message, "the error's message")
	require.Empty(t, e.Callback, "the error's callback")
	require.Len(t, eventsOf(c.peers[0], "repaired"), netcore.RepairLimit, "repairs before it left")
	others := []*copyOf{c.peers[0], c.peers[1], c.peers[3]}
	at := others[0].s.Client().GameTic() + 200
	c.runUntil(t, "the others 200 tics on", 30000, func() bool {
		for _, p := range others {
			if p.s.Client().GameTic() < at {
				return false
			}
		}
		return true
	})
}

// With keepStates, every copy's page gets its own states around the
// desync's tic, once ("desyncStates"): the broken copy's marked as the one
// that diverged, and the broken copy's page then a copy of the majority's
// (fetched), the same as copy 0's; the states before the tic the same everywhere, and the
// broken copy's after it different from the others' in exactly the bytes
// testgame's BreakAt changes (the hash, bytes 4 to 7, and the low byte of
// player 0's x, byte 12). Without keepStates, none (the first test).
func TestEveryPageGetsItsStatesAroundTheDesyncsTic(t *testing.T) {
	c := launchGame(t, 33, 4, simnet.Link{LatencyMS: 5, JitterMS: 5}, func(c *channelSim) { c.keepStates = true })
	c.runUntil(t, "tic 50 everywhere", 20000, func() bool { return c.allAt(50) })
	const breakAt = 300
	broken := c.peers[2]
	broken.game.BreakAt = breakAt
	c.runUntil(t, "tic 500 everywhere", 60000, func() bool { return c.allAt(500) })
	ref := eventsOf(c.peers[0], "desyncStates")
	require.Len(t, ref, 1, "copy 0: desyncStates events")
	for i, p := range c.peers {
		got := eventsOf(p, "desyncStates")
		want := 1
		if p == broken {
			want = 2 // its own, then a copy of the majority's
			f := got[1]
			require.True(t, f.Fetched && !f.Diverged, "the broken copy's second: fetched, the majority's")
			require.Equal(t, ref[0].Before, f.Before, "the fetched state before tic %d", breakAt)
			require.Equal(t, ref[0].After, f.After, "the fetched state after tic %d", breakAt)
		}
		require.Len(t, got, want, "copy %d: desyncStates events", i)
		e := got[0]
		require.False(t, e.Fetched, "copy %d: its own first", i)
		require.Equal(t, uint32(breakAt), e.Tic, "copy %d: the tic", i)
		require.Equal(t, p == broken, e.Diverged, "copy %d: diverged", i)
		require.Equal(t, ref[0].Before, e.Before, "copy %d: the state before tic %d", i, breakAt)
		var differ []int
		for b := range e.After {
			if e.After[b] != ref[0].After[b] {
				differ = append(differ, b)
			}
		}
		wantDiffer := []int(nil)
		if p == broken {
			wantDiffer = []int{4, 5, 6, 7, 12}
		}
		require.Equal(t, wantDiffer, differ, "copy %d: the bytes of the state after tic %d that differ from copy 0's", i, breakAt)
	}
}
