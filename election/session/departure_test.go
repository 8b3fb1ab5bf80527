package session

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// A server's Leavings that come after its DISCONNECT (here 100 ms after,
// within LeavingWaitMS) move the game on as they say the moment they
// come: every copy that waited for them migrates in the Update that
// brings the first, not when the wait runs out, and the game resumes
// under the copy they name.
func TestALeavingThatComesAfterTheDisconnectMovesTheGameAtOnce(t *testing.T) {
	const holdMS = 100
	c := launchGame(t, 3, 4, simnet.Link{LatencyMS: 2, JitterMS: 2})
	c.runUntil(t, "tic 200 everywhere", 60000, func() bool { return c.allAt(200) })
	hid := c.serverOf()
	succ, ok := hid.s.Server().Successor()
	require.True(t, ok, "no successor")
	heir := c.copyWithUID(uint32(succ))
	require.NotNil(t, heir, "no copy with the successor's UID %x", succ)
	seen := make(map[*copyOf]int)
	for _, p := range c.peers {
		seen[p] = len(p.events)
		if p != hid {
			p.holdLeavingsMS = holdMS
		}
	}
	hid.hidden = true
	hid.s.SetHidden(true)
	c.runUntil(t, "every copy resumed", 10000, func() bool {
		for _, p := range c.peers {
			if len(eventsFrom(p, seen[p], "resumed")) == 0 {
				return false
			}
		}
		return true
	})
	for i, p := range c.peers {
		rs := eventsFrom(p, seen[p], "resumed")
		require.Len(t, rs, 1, "copy %d: resumes", i)
		require.Equal(t, heir.s.Election().Self().Tie, rs[0].ServerUID, "copy %d: the server it resumed under (got), the named successor (want)", i)
		if p == hid {
			continue
		}
		require.NotZero(t, p.leavingMS, "copy %d: no Leaving came", i)
		at, ok := eventTime(p, seen[p], "migrating")
		require.True(t, ok, "copy %d did not migrate", i)
		require.Equal(t, p.leavingMS, at, "copy %d: when it migrated (got), when the first Leaving came (want), ms", i)
	}
}

// eventTime is when a copy's first event of kind from its from-th event
// on came.
func eventTime(p *copyOf, from int, kind string) (int64, bool) {
	for k := from; k < len(p.events); k++ {
		if p.events[k].Kind == kind {
			return p.times[k], true
		}
	}
	return 0, false
}
