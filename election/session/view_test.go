package session

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/ticnet/ticnet/netcore"

	"github.com/stretchr/testify/require"
)

// viewCheck compares each copy's view of its client (clientView, learnt
// from the client's events), and whether its server resumes, with what
// their getters say, after every Update of a channelSim: the first difference, and what the views
// held, so that a check that saw nothing cannot pass.
type viewCheck struct {
	diff     string
	states   map[netcore.ClientState]int // Updates that ended in each state
	rostered int                         // Updates that ended with a roster
	lobbies  int                         // Updates that ended with a lobby told
	resuming int                         // Updates that ended with a server resuming
	reattach int                         // Updates that ended with a client that can reattach
}

// check compares the view of the copy i with its client.
func (vc *viewCheck) check(now int64, i int, s *Session) {
	if s.eng == nil {
		return
	}
	v, c := &s.eng.view, s.eng.client
	r, ok := c.Roster()
	vr, vok := v.rostered()
	var d string
	switch {
	case v.state != c.State():
		d = fmt.Sprintf("state %v, the client's %v", v.state, c.State())
	case v.player != c.Player():
		d = fmt.Sprintf("player %d, the client's %d", v.player, c.Player())
	case !reflect.DeepEqual(v.lobby, c.Lobby()):
		d = fmt.Sprintf("lobby %+v, the client's %+v", v.lobby, c.Lobby())
	case vok != ok || vr != r:
		d = fmt.Sprintf("roster %v %+v, the client's %v %+v", vok, vr, ok, r)
	case v.reattachable != c.CanReattach():
		d = fmt.Sprintf("reattachable %v, the client's %v", v.reattachable, c.CanReattach())
	case s.eng.server != nil && s.eng.resuming != s.eng.server.Resuming():
		d = fmt.Sprintf("server resuming %v, the server's %v", s.eng.resuming, s.eng.server.Resuming())
	}
	if d != "" && vc.diff == "" {
		vc.diff = fmt.Sprintf("copy %d at %d ms: %s", i, now, d)
	}
	if vc.states == nil {
		vc.states = map[netcore.ClientState]int{}
	}
	vc.states[v.state]++
	if vok {
		vc.rostered++
	}
	if v.lobby.MaxPlayers != 0 {
		vc.lobbies++
	}
	if s.eng.resuming {
		vc.resuming++
	}
	if v.reattachable {
		vc.reattach++
	}
}

// checkingViews makes a sim check its copies' views (viewCheck) and hands
// the sim to *sim.
func checkingViews(sim **channelSim) simOption {
	return func(c *channelSim) {
		c.views = &viewCheck{}
		*sim = c
	}
}

// The session knows where its client is (its state, lobby, player and
// roster, and whether it could go on with its game under a new server),
// and whether its server still resumes a game it took over, from
// their events alone, and what it knows is what their getters say after
// every Update: through a game's launch, a
// join, a leave, a hand-off and the reattachments it makes, a server that
// falls silent and the migration after it, a partition that heals (a
// server of each side: one yields), a game ended and launched again.
func TestTheSessionsViewOfItsClientIsTheClientsOwn(t *testing.T) {
	games := []struct {
		name string
		play func(t *testing.T, opt simOption)
		// resumes: a server that took the game over ends an Update
		// before it resumes the game.
		resumes bool
	}{
		{"join-leave-handoff/predict", joinsLeavesAndHandsOffPredicting, false},
		{"migrate/silence", func(t *testing.T, opt simOption) { playAndLose(t, 301, 4, quiet, silence, 300, 1, opt) }, true},
		{"partition-heals/lossy", func(t *testing.T, opt simOption) { partitionAndHeal(t, 208, lossy, 300, 5000, opt) }, true},
		{"end-and-launch-again", func(t *testing.T, opt simOption) {
			c := newSim(302, quiet, opt)
			c.openAndLaunch(t, 3)
			c.runUntil(t, "tic 100 everywhere", 30000, func() bool { return c.allAt(100) })
			c.controller().s.RequestEnd()
			c.runUntil(t, "every copy back in its lobby", 10000, func() bool {
				for _, p := range c.peers {
					if len(eventsOf(p, "end")) == 0 || len(eventsOf(p, "lobby")) < 2 {
						return false
					}
				}
				return true
			})
			c.controller().s.Launch()
			c.runUntil(t, "the game again, tic 50 everywhere", 30000, func() bool {
				for _, p := range c.peers {
					if len(eventsOf(p, "start")) < 2 {
						return false
					}
				}
				return c.allAt(50)
			})
		}, false},
	}
	for _, g := range games {
		t.Run(g.name, func(t *testing.T) {
			var c *channelSim
			g.play(t, checkingViews(&c))
			vc := c.views
			require.Empty(t, vc.diff, "the first view that differs from its client")
			t.Logf("Updates by state %v, with a roster %d, with a lobby %d, with a server resuming %d, able to reattach %d",
				vc.states, vc.rostered, vc.lobbies, vc.resuming, vc.reattach)
			for _, st := range []netcore.ClientState{netcore.ClientConnecting, netcore.ClientWaitingLaunch, netcore.ClientInGame} {
				require.NotZero(t, vc.states[st], "Updates that ended %v: the check saw none", st)
			}
			require.NotZero(t, vc.rostered, "Updates that ended with a roster")
			require.NotZero(t, vc.lobbies, "Updates that ended with a lobby")
			require.NotZero(t, vc.reattach, "Updates that ended with a client that can reattach")
			if g.resumes {
				require.NotZero(t, vc.resuming, "Updates that ended with a server resuming")
			}
		})
	}
}
