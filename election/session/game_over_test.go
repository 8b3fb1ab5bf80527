package session

import (
	"fmt"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"

	"github.com/stretchr/testify/require"
)

// overGame is the test game over once it has run tic overAfter
// (tic.Ending).
type overGame struct {
	*testgame.Game
	overAfter, last uint32
}

func (g *overGame) RunTic(t uint32, cmds *[tic.MaxPlayers]tic.Cmd, ingame *[tic.MaxPlayers]bool) {
	g.last = t
	g.Game.RunTic(t, cmds, ingame)
}

func (g *overGame) Over() bool { return g.last >= g.overAfter }

// A game that ends itself just as its server leaves: the server goes, by
// goodbye or by silence, a few tics before the game's end; the copies
// that had every tic end there by themselves, the others resume under a
// new server and end at the same tic: every survivor gets one "end" at
// the game's tic, with over, and the new server is back in its lobby.
// Not covered (a known gap, as for an end at endGame): a server that says
// goodbye one tic before the end, when one copy lacks the last tic while
// the others ran it and went back to their lobby: that copy finds no game
// to resume ("migrateFailed", no "end").
func TestAGameEndsItselfAcrossAMigration(t *testing.T) {
	const end = 300
	for _, how := range []departure{goodbye, silence} {
		for _, before := range []uint32{1, 2, 5, 10, 15} {
			if how == goodbye && before == 1 {
				continue // the gap above
			}
			t.Run(fmt.Sprintf("%v/%d-tics-before", how, before), func(t *testing.T) {
				wrap := func(c *channelSim) {
					c.predict = true
					c.wrap = func(g *testgame.Game) tic.Game { return &overGame{Game: g, overAfter: end - 1} }
				}
				c := launchGame(t, 41, 4, simnet.Link{LatencyMS: 20, JitterMS: 10}, wrap)
				defer func() {
					if t.Failed() {
						dumpEvents(t, c)
					}
				}()
				c.runUntil(t, fmt.Sprintf("tic %d everywhere", end-before), 60000, func() bool { return c.allAt(end - before) })
				srv := c.serverOf()
				require.NotNil(t, srv)
				if how == goodbye {
					srv.s.Leave(c.net.Now())
					c.step()
				}
				srv.closed = true
				srv.node.SetSilent(true)
				ends := func(p *copyOf) []Event { return eventsFrom(p, 0, "end") }
				c.runUntil(t, "every survivor's end", netcore.BrowserTimeouts.TimeoutMS+20000, func() bool {
					for _, p := range c.open() {
						if len(ends(p)) == 0 {
							return false
						}
					}
					return true
				})
				c.runUntil(t, "the new server back in its lobby", 10000, func() bool {
					s := c.serverOf()
					return s != nil && s.s.Server() != nil && s.s.Server().State() == netcore.ServerWaitingLaunch
				})
				for range 200 {
					c.step()
				}
				resumed := 0
				for i, p := range c.open() {
					e := ends(p)
					require.Len(t, e, 1, "copy %d: its ends", i)
					require.Equal(t, uint32(end), e[0].Tic, "copy %d: the tic its game ended before", i)
					require.True(t, e[0].Over, "copy %d: its end's over", i)
					resumed += len(eventsFrom(p, 0, "resumed"))
				}
				t.Logf("%d of %d survivors resumed under a new server before the end", resumed, len(c.open()))
			})
		}
	}
}
