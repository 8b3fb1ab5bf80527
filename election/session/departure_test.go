package session

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
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

// A client's engine that ends is taken where its cause says, whatever
// its reason's words: a silent server, or one gone without a word, is
// migrated from at once; a DISCONNECT without a Leaving waits for one; a
// refused reattachment drops the game and joins again after RetryMS;
// anything else is told the page ("disconnect", or "rejected") and tried
// again after RetryMS. Each cause is handed to a client of a game in
// progress that can reattach (the events are the engine's, made up).
func TestAClientsEndIsTakenWhereItsCauseSays(t *testing.T) {
	type way struct {
		page      []string // the session's events
		migrating bool     // a migration runs
		waits     bool     // it waits for a Leaving
		retry     bool     // it tries again after RetryMS
		retryNow  bool     // it tries again at once: what the refusing server still sends names the old connection
		dropsGame bool     // the election is told it plays no game
	}
	ended := func(cause netcore.Cause) netcore.Event {
		kind := netcore.EventDisconnected
		if cause == netcore.CauseRejected {
			kind = netcore.EventRejected
		}
		return netcore.Event{Kind: kind, Player: -1, Cause: cause, Reason: "words that decide nothing"}
	}
	leaving := netcore.Event{Kind: netcore.EventServerLeaving, Player: -1, Tic: 40}
	for _, tc := range []struct {
		name     string
		events   []netcore.Event
		migrated bool // a migration already ran (a reattachment)
		want     way
	}{
		{"timeout", []netcore.Event{ended(netcore.CauseTimeout)}, false, way{page: []string{"migrating"}, migrating: true}},
		{"server left, no Leaving", []netcore.Event{ended(netcore.CauseServerLeft)}, false, way{waits: true}},
		{"server left after its Leaving", []netcore.Event{leaving, ended(netcore.CauseServerLeft)}, false,
			way{page: []string{"migrating"}, migrating: true}},
		{"reattach refused", []netcore.Event{ended(netcore.CauseReattachRefused)}, true,
			way{page: []string{"disconnect"}, retryNow: true, dropsGame: true}},
		{"resuming", []netcore.Event{ended(netcore.CauseResuming)}, false, way{page: []string{"disconnect"}, retry: true}},
		{"rejected", []netcore.Event{ended(netcore.CauseRejected)}, false, way{page: []string{"rejected"}, retry: true}},
		{"no response", []netcore.Event{ended(netcore.CauseNoResponse)}, false, way{page: []string{"disconnect"}, retry: true}},
		{"join failed", []netcore.Event{ended(netcore.CauseJoinFailed)}, false, way{page: []string{"disconnect"}, retry: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := launchGame(t, 5, 3, simnet.Link{LatencyMS: 2, JitterMS: 2})
			c.runUntil(t, "tic 50 everywhere", 60000, func() bool { return c.allAt(50) })
			var p *copyOf
			for _, q := range c.peers {
				if q.s.Role() == RoleClient {
					p = q
				}
			}
			s := p.s
			require.True(t, s.canMigrate(), "the client cannot reattach")
			game := s.el.Game()
			require.NotZero(t, game, "the election knows no game")
			if tc.migrated {
				s.mig = &migration{fromMS: c.net.Now()}
			}
			now := c.net.Now()
			s.events = s.events[:0]
			for _, ev := range tc.events {
				s.fromClient(now, ev)
			}
			var got way
			for _, e := range s.events {
				got.page = append(got.page, e.Kind)
			}
			got.migrating = s.mig != nil
			got.waits = s.awaitLeaving.pending()
			got.retry = s.retryMS == now+RetryMS
			got.retryNow = s.retryMS == now
			got.dropsGame = s.el.Game() == 0
			require.Equal(t, tc.want, got)
		})
	}
}
