package session

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/scenario"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// Copies that predict play through what a chat does to a game: a copy
// opened late joins it, the server leaves (goodbye), then the next one's
// page is hidden and it hands the game off; every copy's confirmed tics
// check and agree, and the copies did predict (and roll back).
func TestCopiesThatPredictJoinMigrateAndHandOff(t *testing.T) {
	c := newSim(31, simnet.Link{LatencyMS: 20, JitterMS: 10})
	c.predict = true
	c.openAndLaunch(t, 4)
	defer func() {
		if t.Failed() {
			dumpEvents(t, c)
		}
	}()
	late := c.joinLeaveAndHandOff(t)
	// The late copy saw its own player enter the game.
	mine := *eventsOf(late, "start")[0].Player
	entered := false
	for _, e := range eventsOf(late, "join") {
		entered = entered || *e.Player == mine
	}
	require.True(t, entered, "the late copy (player %d) never saw its player enter", mine)
	var copies []scenario.Copy
	var rollbacks int64
	for i, p := range c.peers {
		require.False(t, p.wentBack, "copy %d: gametic went back", i)
		if cl := p.s.Client(); cl != nil {
			rollbacks += cl.PredictCounters().Rollbacks
		}
		copies = append(copies, checkedLives(i, p, 0, 0)...)
	}
	require.NoError(t, c.recordErr)
	checked, err := scenario.CheckCommandsAgainst(copies, true, c.recordsOf, c.allRecords())
	require.NoError(t, err)
	n := sameSumsOf(t, copies)
	t.Logf("%d tics compared, %d commands checked; %d rollbacks", n, checked.Commands, rollbacks)
	require.GreaterOrEqual(t, n, 850, "tics compared")
	require.NotZero(t, rollbacks, "rollbacks")
}

// joinLeaveAndHandOff plays what a chat does to a launched game: at tic
// 200 a copy opens late (it returns it) and joins; once it plays past tic
// 300, the server's page closes (goodbye); at tic 600 the next server's
// page is hidden and it hands the game off; the game goes on to tic 900
// under a visible server.
func (c *channelSim) joinLeaveAndHandOff(t *testing.T) *copyOf {
	t.Helper()
	c.runUntil(t, "tic 200 everywhere", 60000, func() bool { return c.allAt(200) })
	late := c.addWith(5000, ElectionLocal, tokenOf(9))
	c.runUntil(t, "the late copy plays", 30000, func() bool {
		return late.s.Client() != nil && late.s.Client().GameTic() > 300 && c.allAt(300)
	})
	c.closeWithGoodbye(c.serverOf())
	c.runUntil(t, "tic 600 everywhere", 60000, func() bool { return c.allAt(600) && c.serverOf() != nil })
	hid := c.serverOf()
	hid.hidden = true
	hid.s.SetHidden(true)
	c.runUntil(t, "tic 900 everywhere, under a visible server", 60000, func() bool {
		return c.allAt(900) && c.serverOf() != nil && c.serverOf() != hid
	})
	return late
}

// autoDelaying makes a sim's copies' servers choose the input delay.
func autoDelaying(c *channelSim) { c.autoDelay = true }

// With inputDelay "auto", the server chooses the delay and every copy
// takes it ("inputDelay", stats().inputDelay): 1 tic on the quiet
// channel (2 ms each way), the least that spares a predicting copy its
// rollbacks. A migration keeps it: the copy that
// takes the game over chooses the same from its own round trips, and
// every copy, the server's own included, goes on with it. Every copy ran
// the commands the players built (the tics added when its delay grew
// included) and agrees with the others.
func TestTheAutomaticDelayReachesThePageAndOutlivesAMigration(t *testing.T) {
	for _, how := range []departure{goodbye, silence} {
		t.Run(how.String(), func(t *testing.T) {
			var c *channelSim
			run := playAndLose(t, 411, 4, quiet, how, 400, 1, autoDelaying, func(s *channelSim) { c = s })
			require.Len(t, run.gaps, 1, "migrations")
			for _, p := range c.open() {
				var told []int
				for _, e := range p.events {
					if e.Kind == "inputDelay" {
						told = append(told, e.Delay)
					}
				}
				require.NotEmpty(t, told, "%s: no inputDelay event", p.s.cfg.Name)
				require.Equal(t, 1, told[len(told)-1], "%s: the delay it was told last", p.s.cfg.Name)
				require.Equal(t, 1, p.s.Stats().InputDelay, "%s: stats().inputDelay", p.s.cfg.Name)
			}
		})
	}
}
