package session

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore/simnet"
)

// handoff is the third way a server goes in the migration benchmark: its
// page is hidden, and it hands its game over (it stays, as a client).
const handoff departure = silence + 1

// BenchmarkMigrationGap measures the migration gap, the longest any
// survivor (any visible copy, for a hand-off) waits for its next tic when
// the server goes at a random tic: by goodbye, by silence, or by a planned
// hand-off (its page hidden), at 2, 4 and 8 players, on a quiet channel
// (2-4 ms) and on the lossy one (20 % loss, 50-150 ms, duplication,
// reordering), over 20 seeds per op: gap-ms is the median, gap-ms-p99 the
// 99th percentile (with 20 seeds, the second worst), gap-ms-max the worst;
// rejoined counts the copies that had to join their game again. For
// goodbye and silence the gap runs for 600 tics after the departure; for
// a hand-off, to the first tic under the successor (what the hidden
// player's lag costs afterwards is bounded by TestAHiddenServerHandsItsGameOff).
func BenchmarkMigrationGap(b *testing.B) {
	links := []struct {
		name string
		link simnet.Link
	}{{"quiet", simnet.Link{LatencyMS: 2, JitterMS: 2}}, {"lossy", lossy}}
	for _, l := range links {
		for _, how := range []departure{goodbye, silence, handoff} {
			for _, n := range []int{2, 4, 8} {
				name := fmt.Sprintf("link=%s/leaves=%v/players=%d", l.name, [...]string{"goodbye", "silence", "handoff"}[how], n)
				b.Run(name, func(b *testing.B) {
					var gaps []int64
					rejoined := 0
					for range b.N {
						for seed := uint64(1); seed <= 20; seed++ {
							at := uint32(100 + rand.New(rand.NewPCG(seed, 12)).IntN(500))
							if how == handoff {
								hand := handOff(b, seed, n, l.link, at)
								gaps, rejoined = append(gaps, hand.gap), rejoined+hand.rejoined
								continue
							}
							run := playAndLose(b, seed, n, l.link, how, at, 1)
							gaps, rejoined = append(gaps, run.gaps...), rejoined+run.rejoined
						}
					}
					slices.Sort(gaps)
					b.ReportMetric(float64(gaps[len(gaps)/2]), "gap-ms")
					b.ReportMetric(float64(gaps[len(gaps)*99/100]), "gap-ms-p99")
					b.ReportMetric(float64(gaps[len(gaps)-1]), "gap-ms-max")
					b.ReportMetric(float64(rejoined), "rejoined")
				})
			}
		}
	}
}
