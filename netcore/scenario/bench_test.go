package scenario

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BenchmarkSimTic runs whole games on the simulated channel without loss.
// One op is one tic run on every peer. frames/tic and bytes/tic are what the
// channel carried per tic, all peers together, frame headers included.
func BenchmarkSimTic(b *testing.B) {
	for _, proto := range []string{"chocolate", "ticnet", "ticnet-opaque16"} {
		for _, n := range []int{2, 4, 8} {
			for _, input := range []string{"busy", "idle"} {
				b.Run(fmt.Sprintf("proto=%s/players=%d/input=%s", proto, n, input), func(b *testing.B) {
					s, err := simGame(proto, n, input == "idle")
					require.NoError(b, err)
					frames, bytes := s.Net.Stats.Frames, s.Net.Stats.Bytes
					b.ReportAllocs()
					b.ResetTimer()
					ticPerOp(b, s, s.Peers[0].Client.GameTic())
					b.StopTimer()
					b.ReportMetric(float64(s.Net.Stats.Frames-frames)/float64(b.N), "frames/tic")
					b.ReportMetric(float64(s.Net.Stats.Bytes-bytes)/float64(b.N), "bytes/tic")
				})
			}
		}
	}
}

// simGame starts the game BenchmarkSimTic measures, and runs it past its
// start: proto is "chocolate", "ticnet" or "ticnet-opaque16".
func simGame(proto string, players int, idle bool) (*Scenario, error) {
	o := Options{Players: players, Seed: 1, Strict: proto == "chocolate", Quiet: true, Link: simnet.Link{LatencyMS: 20}}
	if proto == "ticnet-opaque16" {
		o.Input = layout16
	}
	s := New(o)
	for _, p := range s.Peers {
		p.Game.Idle = idle
	}
	if err := s.Start(); err != nil {
		return nil, err
	}
	return s, s.RunTics(200, 60000)
}

// allAt reports whether every peer has run tic target.
func (s *Scenario) allAt(target uint32) bool {
	for _, p := range s.Peers {
		if p.Client.GameTic() < target {
			return false
		}
	}
	return true
}

// BenchmarkStallsOnLossyChannel plays the lossy 8-player scenario for 2000
// tics per op and reports, at one remote peer, the time between consecutive
// moments at which it ran tics: median and worst (the longest freeze), in
// ms, and the tic rate reached.
func BenchmarkStallsOnLossyChannel(b *testing.B) {
	for _, proto := range []string{"chocolate", "ticnet"} {
		b.Run("proto="+proto, func(b *testing.B) {
			var gaps []int64
			var rate float64
			for i := range b.N {
				s := New(Options{Players: 8, Seed: uint64(100 + i), Strict: proto == "chocolate", Quiet: true, Link: lossy})
				require.NoError(b, s.Start())
				g, ms := ticGaps(s, s.Peers[7], 2000)
				gaps = append(gaps, g...)
				rate += 2000 * 1000 / float64(ms)
			}
			slices.Sort(gaps)
			b.ReportMetric(float64(gaps[len(gaps)/2]), "median-gap-ms")
			b.ReportMetric(float64(gaps[len(gaps)-1]), "worst-gap-ms")
			b.ReportMetric(rate/float64(b.N), "tics/s")
		})
	}
}

// ticGaps runs n tics and returns the time between consecutive steps in
// which p ran tics, and the time the n tics took.
func ticGaps(s *Scenario, p *Peer, n uint32) ([]int64, int64) {
	var gaps []int64
	start, began := p.Client.GameTic(), s.Now()
	last, lastAt := start, s.Now()
	for p.Client.GameTic() < start+n {
		s.Step()
		if g := p.Client.GameTic(); g > last {
			gaps = append(gaps, s.Now()-lastAt)
			last, lastAt = g, s.Now()
		}
	}
	return gaps, s.Now() - began
}

// A game's steady state allocates nothing per step. Not t.Parallel, as
// every other test of the package is: it counts the process's
// allocations, and runs before the parallel tests start.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	for _, strict := range []bool{true, false} {
		s := New(Options{Players: 8, Seed: 1, Strict: strict, Quiet: true, Link: simnet.Link{LatencyMS: 20}})
		require.NoError(t, s.Start())
		require.NoError(t, s.RunTics(300, 60000))
		assert.Equal(t, 0.0, testing.AllocsPerRun(2000, s.Step), "strict=%v: allocations per step of an 8-player game", strict)
	}
}

// BenchmarkSubstituteDeadline measures the trade the extension's deadline
// makes, for several deadlines: the share of commands substituted on the
// lossy 8-player channel (lower is better: a substitute is input lost), and
// the longest stall the others see when one player goes silent for 3 s
// (players notice stalls over about 150 ms).
func BenchmarkSubstituteDeadline(b *testing.B) {
	for _, deadline := range []int64{50, 100, 150, 250} {
		b.Run(fmt.Sprintf("deadline=%dms", deadline), func(b *testing.B) {
			var substituted, commands float64
			var worst int64
			for i := range b.N {
				s := New(Options{Players: 8, Seed: uint64(200 + i), Quiet: true, Link: lossy,
					Server: netcore.ServerConfig{SubstituteAfterMS: deadline}})
				require.NoError(b, s.Start())
				from := s.Server.Counters().Substituted
				require.NoError(b, s.RunTics(s.Peers[0].Client.GameTic()+2000, 600000))
				substituted += float64(s.Server.Counters().Substituted - from)
				commands += 8 * 2000

				q := New(Options{Players: 8, Seed: uint64(300 + i), Quiet: true, Link: simnet.Link{LatencyMS: 20, JitterMS: 10},
					Server: netcore.ServerConfig{SubstituteAfterMS: deadline}})
				require.NoError(b, q.Start())
				q.RunTics(300, 60000)
				q.Peers[5].Node.SetSilent(true)
				g, _ := ticGaps(q, q.Peers[1], 100)
				worst = max(worst, slices.Max(g))
			}
			b.ReportMetric(100*substituted/commands, "substituted-%")
			b.ReportMetric(float64(worst), "worst-stall-ms")
		})
	}
}

// ticPerOp steps s until every peer has run one more tic than target, b.N
// times: one op is one tic on every peer.
func ticPerOp(b *testing.B, s *Scenario, target uint32) {
	for range b.N {
		target++
		for !s.allAt(target) {
			s.Step()
		}
	}
}
