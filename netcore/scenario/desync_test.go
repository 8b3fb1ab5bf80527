package scenario

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
)

// desyncs returns the desync events peer saw (-1: the server).
func desyncs(s *Scenario, peer int) []Logged {
	var found []Logged
	for _, l := range s.Log {
		if l.Kind == netcore.EventDesyncSuspected && l.Peer == peer {
			found = append(found, l)
		}
	}
	return found
}

// Under the reference protocol a broken copy shows in the consistency byte
// its commands carry, BackupTics tics after it broke: every other copy
// names its player, once, at the tic whose result differs; the broken copy
// names every other player.
func TestReferenceBrokenPeerFailsTheConsistencyCheckAtTheTicItBroke(t *testing.T) {
	const breakAt = 600
	s := build(t, Options{Players: 4, Seed: 21, Strict: true, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}})
	broken := s.Peers[2]
	broken.Game.BreakAt = breakAt
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	// The first command whose byte differs is built for tic
	// breakAt+BackupTics+1; nothing may be said before it runs.
	if err := s.RunTics(breakAt+netcore.BackupTics+1, 120000); err != nil {
		t.Fatal(err)
	}
	if n := s.Count(netcore.EventDesyncSuspected); n != 0 {
		t.Fatalf("%d desync events before the first differing byte ran", n)
	}
	if err := s.RunTics(breakAt+netcore.BackupTics+200, 120000); err != nil {
		t.Fatal(err)
	}
	bp := broken.Client.Player()
	for _, p := range s.Peers {
		got := desyncs(s, p.Index)
		var players []int
		for _, l := range got {
			if l.Tic != breakAt {
				t.Errorf("peer %d: %v at tic %d, want tic %d", p.Index, l.Event, l.Tic, breakAt)
			}
			players = append(players, l.Player)
		}
		slices.Sort(players)
		var want []int
		for _, q := range s.Peers {
			if (p == broken) != (q == broken) {
				want = append(want, q.Client.Player())
			}
		}
		slices.Sort(want)
		if !slices.Equal(players, want) {
			t.Errorf("peer %d named players %v, want %v", p.Index, players, want)
		}
		if c := p.Client.Counters().ConsistencyFailures; c == 0 {
			t.Errorf("peer %d counted no consistency failure", p.Index)
		}
	}
	if _, err := s.CheckSums(); err == nil {
		t.Fatal("the broken copy's checksums agree with the others'")
	}
	t.Logf("every copy named the other side at tic %d (player %d broke)", breakAt, bp)
}

// Under the extension, a two-player game where one copy breaks has no
// majority: the server names the tic and both players.
func TestTwoPlayerExtensionDesyncNamesTheTicAndBothPlayers(t *testing.T) {
	const breakAt = 700
	s := build(t, Options{Players: 2, Seed: 22, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}})
	s.Peers[1].Game.BreakAt = breakAt
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTics(breakAt+200, 120000); err != nil {
		t.Fatal(err)
	}
	found := desyncs(s, -1)
	if len(found) != 1 {
		t.Fatalf("server desync events: %v", found)
	}
	e := found[0]
	players := slices.Clone(e.Players)
	slices.Sort(players)
	if e.Tic != breakAt || !slices.Equal(players, []int{0, 1}) || e.Name != "player0, player1" && e.Name != "player1, player0" {
		t.Fatalf("got tic %d players %v name %q; want tic %d, players [0 1], both names", e.Tic, e.Players, e.Name, breakAt)
	}
	t.Logf("server: %v at tic %d, %s", e.Event, e.Tic, e.Name)
}

func TestBrokenPeerIsNamedByTheServerAtTheTicItDiverged(t *testing.T) {
	s := build(t, Options{Players: 8, Seed: 14, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}})
	broken := s.Peers[6]
	broken.Game.BreakAt = 5000
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTics(5200, 300000); err != nil {
		t.Fatal(err)
	}
	found := desyncs(s, -1)
	if len(found) != 1 {
		t.Fatalf("server desync events: %v", found)
	}
	e := found[0]
	want := fmt.Sprintf("player%d", broken.Index)
	if e.Tic != 5000 || len(e.Players) != 1 || e.Players[0] != broken.Client.Player() || e.Name != want {
		t.Fatalf("got tic %d players %v name %q; want tic 5000, player %d, %q",
			e.Tic, e.Players, e.Name, broken.Client.Player(), want)
	}
	t.Logf("server: %v at tic %d, %s", e.Event, e.Tic, e.Name)
}
