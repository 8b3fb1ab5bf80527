package session

import (
	"testing"

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
	}
}
