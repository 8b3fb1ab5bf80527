package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
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
	s := New(Options{Players: 3, Seed: 51, Link: simnet.Link{LatencyMS: 30, JitterMS: 20, Loss: 0.05}})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTics(200, 60000); err != nil {
		t.Fatal(err)
	}
	controller := s.Peers[0]
	if !controller.Client.Lobby().IsController {
		t.Fatal("peer 0 is not the controller")
	}
	s.Peers[2].Client.RequestEnd()
	s.RunFor(500)
	if asked, _ := eventsOf(s, netcore.EventEndAsked); asked[0] != 1 || asked[1] != 0 || asked[2] != 0 {
		t.Fatalf("end asked on peers %v, want the controller's alone", asked)
	}
	if s.Server.State() != netcore.ServerInGame {
		t.Fatal("a player's request ended the game")
	}
	controller.Client.RequestEnd()
	asked := s.Now()
	if !s.RunUntil(func() bool { return s.Server.State() == netcore.ServerWaitingLaunch }, 5000) {
		t.Fatalf("the server did not go back to its lobby: %s", s.describe())
	}
	backAt := s.Now()
	if backAt-asked >= netcore.EndWaitMS {
		t.Fatalf("the server went back to its lobby after %d ms: it waited out EndWaitMS for an acknowledgement", backAt-asked)
	}
	s.RunFor(1000)
	n, tics := eventsOf(s, netcore.EventGameEnded)
	end := tics[0]
	for i, p := range s.Peers {
		if n[i] != 1 || tics[i] != end || p.Client.State() != netcore.ClientWaitingLaunch || p.Client.GameTic() != end {
			t.Fatalf("peer %d: %d ends, at tic %d (peer 0: %d), state %v, gametic %d", i, n[i], tics[i], end,
				p.Client.State(), p.Client.GameTic())
		}
	}
	if s.Server.State() != netcore.ServerWaitingLaunch {
		t.Fatalf("the server is %v", s.Server.State())
	}
	c, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	if c.Tics < int(end)-1 {
		t.Fatalf("compared %d tics of a game that ended at %d", c.Tics, end)
	}
	t.Logf("the game ended at tic %d on every copy; the server was back in its lobby %d ms after the controller asked", end, backAt-asked)

	// Launch again: a new game from tic 0, in step.
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Peers {
		if p.Client.GameTic() > 10 {
			t.Fatalf("peer %d's second game starts at tic %d", p.Index, p.Client.GameTic())
		}
	}
	if err := s.RunTics(150, 60000); err != nil {
		t.Fatal(err)
	}
	// (The test game keeps one checksum per tic: the second game's
	// replace the first's.)
	want := s.Peers[0].Game.Sums()[:150]
	for _, p := range s.Peers[1:] {
		for tic, sum := range p.Game.Sums()[:150] {
			if sum != want[tic] {
				t.Fatalf("the second game: peer %d has %08x after tic %d, peer 0 %08x", p.Index, sum, tic, want[tic])
			}
		}
	}
}
