package scenario

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// joinMeasure is one late join, measured.
type joinMeasure struct {
	joinMS       int64   // from the joiner's first SYN to running the tic it entered at
	gapMS        int64   // the longest time without a tic at any other peer meanwhile
	baseGapMS    int64   // the same over the same time of the same game without the joiner
	serverPeak   int64   // the server's bulk-stream memory at most: held and referenced
	joinerPeak   int64   // the joiner's bulk-stream memory at most
	catchUpTics  int64   // tics the joiner ran to catch up
	catchUpWall  float64 // wall-clock seconds the joiner's Updates took while it caught up
	catchUpSteps int64   // Updates it took
}

// measureJoin plays a 4-player game to tic 300, opens a copy with a state
// of stateBytes, and measures its join; with join false, it measures the
// same stretch of the same game without it. With dedicated the server runs
// alone, and the state comes from a client through it.
func measureJoin(seed uint64, link simnet.Link, stateBytes int, join, dedicated bool) (m joinMeasure, err error) {
	s := New(Options{Players: 4, Seed: seed, Link: simnet.Link{LatencyMS: link.LatencyMS, JitterMS: link.JitterMS},
		StateBytes: stateBytes, Quiet: true, Dedicated: dedicated})
	if err := s.Start(); err != nil {
		return m, err
	}
	for _, nd := range s.Net.Nodes() {
		s.Net.SetLinks(nd, link)
	}
	if err := s.RunTics(300, 60000); err != nil {
		return m, err
	}
	if !join {
		w := watchStalls(s)
		end := s.Now() + 20000
		for s.Now() < end {
			s.Step()
			w.observe(s.Now())
		}
		m.baseGapMS = slices.Max(w.worst)
		return m, nil
	}
	j := s.Join()
	s.Net.SetLinks(j.Node, link)
	w := watchStalls(s)
	synAt := s.Now()
	loaded := false
	for !playing(j) {
		if s.Now()-synAt > 60000 {
			return m, fmt.Errorf("the joiner did not enter: %v %v", j.Client.State(), j.Events)
		}
		before := j.Client.GameTic()
		t0 := time.Now()
		s.Step()
		if j.Client.Timeline().Loading() == false && j.Client.State() == netcore.ClientInGame {
			if loaded {
				m.catchUpWall += time.Since(t0).Seconds()
				m.catchUpTics += int64(j.Client.GameTic() - before)
				m.catchUpSteps++
			}
			loaded = true
		}
		w.observe(s.Now())
		x := s.Server.Transfers()
		m.serverPeak = max(m.serverPeak, x.BytesHeld()+x.BytesReferenced())
		m.joinerPeak = max(m.joinerPeak, j.Client.Transfers().BytesHeld())
	}
	m.joinMS = s.Now() - synAt
	for i, g := range w.worst {
		if s.Peers[i] != j {
			m.gapMS = max(m.gapMS, g)
		}
	}
	return m, nil
}

// BenchmarkLateJoin measures a copy joining a 4-player game at tic 300 with
// a game state of each size, on a quiet channel (20-30 ms) and on the lossy
// one (20 % loss, 50-150 ms, duplication, reordering), every uplink 1 MB/s,
// over 10 seeds per op: join-ms is the median time from the joiner's first
// SYN to running the tic it entered at (and join-ms-max the worst); gap-ms
// the longest time any other peer went without a tic meanwhile, against
// base-gap-ms over the same stretch without the join; peak bytes of
// bulk-stream memory at the server and at the joiner; catch-up tics/s, the
// joiner's tics per wall-clock second of its Updates while it caught up
// with the test game (its cost is the engine's, the test game's tic is
// cheap). The state comes from the host's own client, in memory.
func BenchmarkLateJoin(b *testing.B) { benchLateJoin(b, false) }

// BenchmarkLateJoinDedicated is BenchmarkLateJoin under a dedicated
// server: the state comes from a client and crosses two hops, each with
// its own uplink and loss, relayed by the server as it arrives.
func BenchmarkLateJoinDedicated(b *testing.B) { benchLateJoin(b, true) }

func benchLateJoin(b *testing.B, dedicated bool) {
	links := []struct {
		name string
		link simnet.Link
	}{{"quiet", simnet.Link{LatencyMS: 20, JitterMS: 10}}, {"lossy", lossy}}
	for _, l := range links {
		for _, size := range []int{16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20} {
			b.Run(fmt.Sprintf("link=%s/state=%dKB", l.name, size>>10), func(b *testing.B) {
				var ms, gaps, base []int64
				var sp, jp, tics int64
				var wall float64
				for range b.N {
					for seed := range uint64(10) {
						m, err := measureJoin(700+seed, l.link, size, true, dedicated)
						require.NoError(b, err)
						c, err := measureJoin(700+seed, l.link, size, false, dedicated)
						require.NoError(b, err)
						ms, gaps, base = append(ms, m.joinMS), append(gaps, m.gapMS), append(base, c.baseGapMS)
						sp, jp = max(sp, m.serverPeak), max(jp, m.joinerPeak)
						tics, wall = tics+m.catchUpTics, wall+m.catchUpWall
					}
				}
				slices.Sort(ms)
				b.ReportMetric(float64(ms[len(ms)/2]), "join-ms")
				b.ReportMetric(float64(ms[len(ms)-1]), "join-ms-max")
				b.ReportMetric(float64(slices.Max(gaps)), "gap-ms")
				b.ReportMetric(float64(slices.Max(base)), "base-gap-ms")
				b.ReportMetric(float64(sp), "server-peak-bytes")
				b.ReportMetric(float64(jp), "joiner-peak-bytes")
				if wall > 0 {
					b.ReportMetric(float64(tics)/wall, "catchup-tics/s")
				}
			})
		}
	}
}
