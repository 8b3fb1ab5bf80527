package scenario

import (
	"fmt"
	"testing"
)

// perTic plays n more tics of s and returns the frames and bytes the
// channel carried per tic, frame headers included.
func perTic(s *Scenario, n uint32) (frames, bytes float64) {
	f0, b0 := s.Net.Stats.Frames, s.Net.Stats.Bytes
	target := s.Peers[0].Client.GameTic()
	for range n {
		target++
		for !s.allAt(target) {
			s.Step()
		}
	}
	return float64(s.Net.Stats.Frames-f0) / float64(n), float64(s.Net.Stats.Bytes-b0) / float64(n)
}

// The extension sends no more than the reference in BenchmarkSimTic's
// games: 2, 4 and 8 players, moving and idle. At 2 players that takes sets
// that leave out the one client's own commands, no latency field, a 16-bit
// start and checksums that ride on GAMEDATA (the figures in the README).
func TestTicnetSendsNoMoreBytesPerTicThanTheReference(t *testing.T) {
	for _, n := range []int{2, 4, 8} {
		for _, idle := range []bool{false, true} {
			var frames, bytes [2]float64
			for i, proto := range []string{"chocolate", "ticnet"} {
				s, err := simGame(proto, n, idle)
				if err != nil {
					t.Fatal(err)
				}
				frames[i], bytes[i] = perTic(s, 1000)
			}
			what := fmt.Sprintf("%d players, idle %v", n, idle)
			t.Logf("%s: reference %.2f bytes, %.3f frames a tic; ticnet %.2f bytes, %.3f frames", what, bytes[0], frames[0], bytes[1], frames[1])
			if bytes[1] > bytes[0] {
				t.Errorf("%s: ticnet sends %.2f bytes a tic, the reference %.2f", what, bytes[1], bytes[0])
			}
			// One set, and one GAMEDATA from each remote client: the
			// checksums ride on them.
			if frames[1] != float64(n) {
				t.Errorf("%s: ticnet sends %.3f frames a tic, want %d", what, frames[1], n)
			}
		}
	}
}

// A client whose own commands the sets leave out runs them as the others
// do: with one-byte turning, truncated as they travel (the test game turns
// by any amount), and the server's substitutes where it made them.
func TestASetForOneClientLeavesOutItsCommandsAndItRunsThemAsSent(t *testing.T) {
	s := start(t, Options{Players: 2, Seed: 41, Link: lossy, LowResTurn: true})
	if !s.Server.Extended() || !s.Peers[0].Client.Settings().LowResTurn {
		t.Fatal("not an extension game with one-byte turning")
	}
	if err := s.RunTics(3000, 600000); err != nil {
		t.Fatal(err)
	}
	check(t, s, 3000)
	noDesync(t, s)
	if n := s.Server.Counters().Substituted; n == 0 {
		t.Fatal("no command substituted: the sets' substitutes went untested")
	}
}
