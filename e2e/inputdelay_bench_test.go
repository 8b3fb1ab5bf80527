package e2e

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkInputDelayInTabs plays four tabs of the demo whose every frame
// is held 100 ms (?delay=100: a round trip of 200 ms and more, a chat
// relay's), three of them bots whose input changes every tic, and
// measures on the fourth, a client that only the benchmark's key presses
// move: its rollbacks per second over 10 s, and a key press to its player
// moving (keyToMove: 8 presses, median and worst), in lockstep
// (predict=0), predicting with no input delay, and predicting with the
// delay the server chooses (inputDelay "auto": at most its default, 6
// tics, which the round trip exceeds, or at most 15), and the delay it
// builds with; also the tics its rollbacks re-ran a second, and the
// rollbacks a second of the tab that rolled back most (each tab's logged).
func BenchmarkInputDelayInTabs(b *testing.B) {
	url := serveDemo(b, buildDemo(b))
	for _, c := range []struct{ name, query string }{
		{"predict=0", "&predict=0"}, {"predict/delay=0", ""}, {"predict/delay=auto", "&inputdelay=auto"},
		{"predict/delay=auto-max15", "&inputdelay=auto&maxinputdelay=15"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var rollbacks, mostTab, reran, median, worst, delay []float64
			for range b.N {
				bctx := browser(b)
				var ctxs []context.Context
				for i := range 3 {
					ctxs = append(ctxs, tab(b, bctx, fmt.Sprintf("%s/?delay=100&bot=%d&name=bot%d%s", url, 3000+i, i, c.query)))
				}
				waitFor(b, ctxs, "one server and three tabs in its lobby", 20*time.Second, oneServerOneLobby(3))
				ctxs = append(ctxs, tab(b, bctx, fmt.Sprintf("%s/?delay=100&name=keys%s", url, c.query)))
				launch(b, ctxs, waitFor(b, ctxs, "one server and four tabs in its lobby", 20*time.Second, oneServerOneLobby(4)))
				me := ctxs[3]
				// The automatic delay chooses at tic 35 and 70; 4 s more
				// lets its round trips settle.
				waitFor(b, ctxs, "every tab past tic 70", 20*time.Second, func(sts []demoStatus) bool {
					for _, st := range sts {
						if st.Gametic < 70 {
							return false
						}
					}
					return true
				})
				time.Sleep(4 * time.Second)
				eval(b, me, `globalThis.__delays = []; ticnetDemo.net.on("inputDelay", (e) => __delays.push(e.delay))`)
				all0 := statuses(b, ctxs)
				st0 := all0[3]
				if st0.Role != "client" {
					b.Fatalf("the tab the keys move is the %s, not a client", st0.Role)
				}
				time.Sleep(10 * time.Second)
				all1 := statuses(b, ctxs)
				st1 := all1[3]
				var perTab []float64 // every tab's rollbacks a second, the bots' and the server's too
				for i := range all1 {
					perTab = append(perTab, float64(all1[i].Stats.Rollbacks-all0[i].Stats.Rollbacks)/10)
				}
				mostTab = append(mostTab, slices.Max(perTab))
				rollbacks = append(rollbacks, float64(st1.Stats.Rollbacks-st0.Stats.Rollbacks)/10)
				reran = append(reran, float64(st1.Stats.RolledBack-st0.Stats.RolledBack)/10)
				var took []time.Duration
				for range 8 {
					took = append(took, keyToMove(b, me))
				}
				slices.Sort(took)
				changes, err := runEval(me, `JSON.stringify(__delays)`)
				if err != nil {
					b.Fatal(err)
				}
				b.Logf("%s: %d rollbacks in 10 s, undoing %d tics (every tab's a second: %v); key press to move: %v; input delay %d (its changes from 4 s into the game on: %s)", c.name,
					st1.Stats.Rollbacks-st0.Stats.Rollbacks, st1.Stats.RolledBack-st0.Stats.RolledBack, perTab, took, st1.Stats.InputDelay, changes)
				median = append(median, float64(took[len(took)/2].Microseconds())/1000)
				worst = append(worst, float64(took[len(took)-1].Microseconds())/1000)
				delay = append(delay, float64(st1.Stats.InputDelay))
			}
			b.ReportMetric(mean(rollbacks), "rollbacks/s")
			b.ReportMetric(mean(mostTab), "rollbacks/s-most-tab")
			b.ReportMetric(mean(reran), "reran/s")
			b.ReportMetric(mean(median), "key-ms-median")
			b.ReportMetric(mean(worst), "key-ms-worst")
			b.ReportMetric(mean(delay), "delay-tics")
		})
	}
}
