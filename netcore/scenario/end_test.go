package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// eventsOf returns, per peer, how many events of kind its client returned
// and the tic of the last.
func eventsOf(s *Scenario, kind netcore.EventKind) (n []int, tic []uint32) {
	for _, p := range s.Peers {
		n, tic = append(n, 0), append(tic, 0)
		for _, e := range p.Events {
			if e.Kind == kind {
				n[len(n)-1]++
				tic[len(tic)-1] = e.Tic
			}
		}
	}
	return n, tic
}

// A player asks to end the game; the controller is asked, and ends it:
// every copy runs the same last tic, and all go back to the lobby, from
// which the controller launches a second game that plays in step.
func TestAnEndedGameGoesBackToTheLobbyAndPlaysAgain(t *testing.T) {
	t.Parallel()
	s := New(Options{Players: 3, Seed: 51, Link: simnet.Link{LatencyMS: 30, JitterMS: 20, Loss: 0.05}})
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(200, 60000))
	controller := s.Peers[0]
	require.True(t, controller.Client.Lobby().IsController, "peer 0 is not the controller")
	s.Peers[2].Client.RequestEnd()
	s.RunFor(500)
	asked, _ := eventsOf(s, netcore.EventEndAsked)
	require.Equal(t, []int{1, 0, 0}, asked, "end asked, on each peer: the controller's alone")
	require.Equal(t, netcore.ServerInGame, s.Server.State(), "a player's request ended the game")
	controller.Client.RequestEnd()
	askedAt := s.Now()
	if !s.RunUntil(func() bool { return s.Server.State() == netcore.ServerWaitingLaunch }, 5000) {
		require.FailNow(t, "the server did not go back to its lobby", s.describe())
	}
	backAt := s.Now()
	require.Less(t, backAt-askedAt, int64(netcore.EndWaitMS),
		"the server's way back to its lobby, ms: it waited out EndWaitMS for an acknowledgement")
	s.RunFor(1000)
	n, tics := eventsOf(s, netcore.EventGameEnded)
	end := tics[0]
	for i, p := range s.Peers {
		require.Equal(t, 1, n[i], "peer %d: ends", i)
		require.Equal(t, end, tics[i], "peer %d: the tic it ended at (peer 0's)", i)
		require.Equal(t, netcore.ClientWaitingLaunch, p.Client.State(), "peer %d: state", i)
		require.Equal(t, end, p.Client.GameTic(), "peer %d: gametic", i)
	}
	require.Equal(t, netcore.ServerWaitingLaunch, s.Server.State(), "the server")
	c, err := s.Check()
	require.NoError(t, err)
	require.GreaterOrEqual(t, c.Tics, int(end)-1, "tics compared of a game that ended at %d", end)
	t.Logf("the game ended at tic %d on every copy; the server was back in its lobby %d ms after the controller asked", end, backAt-askedAt)

	// Launch again: a new game from tic 0, in step.
	require.NoError(t, s.Start())
	for _, p := range s.Peers {
		require.LessOrEqual(t, p.Client.GameTic(), uint32(10), "peer %d: the tic its second game starts at", p.Index)
	}
	require.NoError(t, s.RunTics(150, 60000))
	// (The test game keeps one checksum per tic: the second game's
	// replace the first's.)
	want := s.Peers[0].Game.Sums()[:150]
	for _, p := range s.Peers[1:] {
		for tic, sum := range p.Game.Sums()[:150] {
			require.Equal(t, want[tic], sum, "the second game: peer %d's checksum after tic %d (peer 0's)", p.Index, tic)
		}
	}
}
