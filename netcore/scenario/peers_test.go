package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lastPeers is the figures of the last EventPeers a copy got.
func lastPeers(p *Peer) (netcore.Event, int) {
	var last netcore.Event
	n := 0
	for _, e := range p.Events {
		if e.Kind == netcore.EventPeers {
			last, n = e, n+1
		}
	}
	return last, n
}

// Every copy learns every player's network from the server, about once a
// second: four players with an input delay of 2, three on a quick channel
// and one 100 ms away each way with 10 % loss, whose commands cannot reach
// the server for 300 ms once. Every copy's last figures name the four
// players in order with the delay they build with; the far player's round
// trip is its link's and the wait for its next command, which carries the
// acknowledgement (200 ms, and up to a tic and the jitter: 237 ms), the
// others' under 40 ms (28: their link's 10 ms and that wait); its loss is
// its link's (10 %, within what 64 packets estimate: 10.6 %), the others'
// nothing; only its commands were substituted, and each quick copy
// counted every substitute the server made (8, in the 300 ms), and
// counts from none in the next game; every
// player's commands arrive 3 tics before they are due (2 tics of delay
// and the clock's 20 ms margin: 76-77 ms; 52 for the far player, whose
// latest command of the last few tics came later than its mean).
func TestEveryCopyLearnsEveryPlayersFigures(t *testing.T) {
	t.Parallel()
	// (Not start: the test game keeps one record a tic, which the second
	// game's replace; the first is checked as it ends.)
	s := New(Options{Players: 4, Seed: 7, InputDelay: 2, Link: simnet.Link{LatencyMS: 5, JitterMS: 2}})
	require.NoError(t, s.Start())
	far := s.Peers[3]
	s.Net.SetLinks(far.Node, simnet.Link{LatencyMS: 100, JitterMS: 10, Loss: 0.1})
	require.NoError(t, s.RunTics(300, 120000))
	s.Net.SetLink(far.Node, s.HostNode, simnet.Link{Down: true})
	s.RunFor(300)
	s.Net.SetLink(far.Node, s.HostNode, simnet.Link{LatencyMS: 100, JitterMS: 10, Loss: 0.1})
	require.NoError(t, s.RunTics(1200, 120000))
	check(t, s, 1100)
	substituted := s.Server.Counters().Substituted
	require.NotZero(t, substituted, "no command substituted")

	for _, p := range s.Peers {
		e, n := lastPeers(p)
		me := p.Client.Player()
		t.Logf("copy %d (player %d): %d reports, the last at tic %d: %+v", p.Index, me, n, e.Tic, e.Peers)
		require.Len(t, e.Peers, 4, "copy %d: the players in the last report", p.Index)
		// A report rides on every FiguresReportTics-th set: the quick
		// copies miss none (38 in 1 200 tics, from tic 0).
		if p != far {
			require.Equal(t, 1200/netcore.FiguresReportTics+1, n, "copy %d: reports", p.Index)
		}
		for i, f := range e.Peers {
			assert.Equal(t, i, f.Player, "copy %d: the order of the players", p.Index)
			assert.Equal(t, 2, f.InputDelay, "copy %d, player %d: input delay", p.Index, i)
			if i == far.Client.Player() {
				assert.GreaterOrEqual(t, f.RTTMS, 200, "copy %d: the far player's round trip", p.Index)
				assert.LessOrEqual(t, f.RTTMS, 250, "copy %d: the far player's round trip", p.Index)
				assert.InDelta(t, 0.1, f.Loss, 0.06, "copy %d: the far player's loss", p.Index)
				if p != far {
					assert.Equal(t, substituted, f.Substituted, "copy %d: the far player's substitutes", p.Index)
				}
				continue
			}
			assert.GreaterOrEqual(t, f.RTTMS, 0, "copy %d, player %d: round trip", p.Index, i)
			assert.Less(t, f.RTTMS, 40, "copy %d, player %d: round trip", p.Index, i)
			assert.Zero(t, f.Loss, "copy %d, player %d: loss", p.Index, i)
			assert.Zero(t, f.Substituted, "copy %d, player %d: substitutes", p.Index, i)
			assert.Positive(t, f.MarginMS, "copy %d, player %d: margin", p.Index, i)
			assert.Equal(t, 3, f.Ahead, "copy %d, player %d: tics ahead", p.Index, i)
		}
	}

	// A game counts its own: the next, on a quick channel, has no
	// substitute (mutation: a client that keeps its count across games).
	s.Peers[0].Client.RequestEnd()
	require.True(t, s.RunUntil(func() bool { return s.Server.State() == netcore.ServerWaitingLaunch }, 5000), "back in the lobby")
	s.Net.SetLinks(far.Node, simnet.Link{LatencyMS: 5, JitterMS: 2})
	s.RunFor(1000)
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(100, 60000))
	require.Zero(t, s.Server.Counters().Substituted-substituted, "the second game's substitutes")
	for _, p := range s.Peers {
		e, _ := lastPeers(p)
		require.Len(t, e.Peers, 4, "copy %d: the second game's report", p.Index)
		for _, f := range e.Peers {
			assert.Zero(t, f.Substituted, "copy %d, player %d: the second game's substitutes", p.Index, f.Player)
		}
	}
}

// The reference protocol has no figures: a Chocolate Doom client would
// refuse a set it cannot read, and its GAMEDATA has no room for them.
func TestAReferenceGameReportsNoFigures(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 7, Strict: true})
	require.NoError(t, s.RunTics(200, 60000))
	check(t, s, 190)
	for _, p := range s.Peers {
		_, n := lastPeers(p)
		require.Zero(t, n, "copy %d: reports", p.Index)
	}
}
