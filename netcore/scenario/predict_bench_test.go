package scenario

import (
	"fmt"
	"testing"
	"time"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"

	"github.com/stretchr/testify/require"
)

// BenchmarkPrediction plays 4-player games with prediction (window 8) and
// without, at 0, 50 and 150 ms one way (10 % jitter, no loss) and on the
// lossy channel (50-150 ms, 20 % loss), with an input delay of 0 to 6
// tics and of the round trip at its longest (1, 4 and 12 tics:
// TestAnInputDelayOfTheRoundTripRemovesRollbacks; on the lossy channel
// 8, 10, 12 and 15), every player's the same, and with the delay the
// server chooses (auto, at most MaxInputDelay); the other players' input changes every
// tic (random, prediction's worst case) or never (steady). One op is one
// tic confirmed on every peer. For peer 1: rollbacks/s, the times a
// confirmed tic differed from its prediction, per second of play;
// reran/tic, the predicted tics those rollbacks undid, per confirmed tic;
// game-x, the tics the game ran per tic confirmed (its CPU multiplier);
// subst-%, the commands the server substituted; delay, the input delay
// at the end (auto's choice); netcode-ns/tic, the time
// per copy and tic outside the games' callbacks (clients, server and the
// simulated channel). ns/op is the whole simulation's cost per tic.
func BenchmarkPrediction(b *testing.B) {
	type row struct {
		predict bool
		delay   int
		auto    bool // the server chooses the delay (AutoDelay, at most MaxInputDelay)
	}
	channels := []struct {
		name   string
		link   simnet.Link
		longer []int // delays past 6 worth a row: the round trip's
	}{
		{"oneway=0ms", simnet.Link{}, nil},
		{"oneway=50ms", simnet.Link{LatencyMS: 50, JitterMS: 5}, nil},
		{"oneway=150ms", simnet.Link{LatencyMS: 150, JitterMS: 15}, []int{12}},
		{"lossy", lossy, []int{8, 10, 12, 15}},
	}
	for _, ch := range channels {
		rows := []row{{predict: false}}
		for d := range 7 {
			rows = append(rows, row{predict: true, delay: d})
		}
		for _, d := range ch.longer {
			rows = append(rows, row{true, d, false})
		}
		rows = append(rows, row{predict: true, auto: true})
		for _, input := range []string{"random", "steady"} {
			for _, r := range rows {
				delay := fmt.Sprint(r.delay)
				if r.auto {
					delay = "auto"
				}
				name := fmt.Sprintf("%s/input=%s/predict=%v/delay=%s", ch.name, input, r.predict, delay)
				b.Run(name, func(b *testing.B) {
					var spent time.Duration
					wrap := func(g *testgame.Game) tic.Game { return &timedGame{Game: g, spent: &spent} }
					s := New(Options{Players: 4, Seed: 1, Link: ch.link,
						Predict: r.predict, InputDelay: r.delay, Quiet: true, WrapGame: wrap,
						Server: netcore.ServerConfig{AutoDelay: netcore.AutoDelay{On: r.auto, Max: netcore.MaxInputDelay}}})
					require.NoError(b, s.Start())
					if input == "steady" {
						for _, i := range []int{0, 2, 3} {
							s.Peers[i].Game.Idle = true
						}
					}
					require.NoError(b, s.RunTics(400, 120000)) // (the automatic delay chooses at tic 35, and at 70 with every round trip measured)
					me := s.Peers[1].Client
					pc0, run0, sub0, t0 := me.PredictCounters(), me.Counters().TicsRun, s.Server.Counters().Substituted, s.Now()
					spent = 0
					began := time.Now()
					b.ResetTimer()
					ticPerOp(b, s, me.GameTic())
					b.StopTimer()
					wall := time.Since(began)
					pc, ran := me.PredictCounters(), me.Counters().TicsRun-run0
					rollbacks, undone := pc.Rollbacks-pc0.Rollbacks, pc.RolledBack-pc0.RolledBack
					games := (ran - (pc.Stood - pc0.Stood)) + (pc.Predicted - pc0.Predicted)
					b.ReportMetric(float64(rollbacks)*1000/float64(max(1, s.Now()-t0)), "rollbacks/s")
					b.ReportMetric(float64(undone)/float64(max(1, ran)), "reran/tic")
					b.ReportMetric(float64(games)/float64(max(1, ran)), "game-x")
					b.ReportMetric(float64(s.Server.Counters().Substituted-sub0)*100/float64(4*max(1, ran)), "subst-%")
					b.ReportMetric(float64(me.InputDelay()), "delay") // auto's choice, at the end
					// Everything but the games' callbacks, per copy and tic:
					// the netcode (clients, server) and the simulated channel.
					b.ReportMetric(float64((wall-spent).Nanoseconds())/float64(4*b.N), "netcode-ns/tic")
				})
			}
		}
	}
}

// timedGame is a test game whose callbacks add their time to spent.
type timedGame struct {
	*testgame.Game
	spent *time.Duration
}

func (g *timedGame) timed(began time.Time) { *g.spent += time.Since(began) }

func (g *timedGame) BuildTiccmd(tic uint32) tic.Cmd {
	defer g.timed(time.Now())
	return g.Game.BuildTiccmd(tic)
}

func (g *timedGame) RunTic(tic uint32, cmds *[tic.MaxPlayers]tic.Cmd, ingame *[tic.MaxPlayers]bool) {
	defer g.timed(time.Now())
	g.Game.RunTic(tic, cmds, ingame)
}

func (g *timedGame) Checksum() uint32 {
	defer g.timed(time.Now())
	return g.Game.Checksum()
}

func (g *timedGame) SaveState() []byte {
	defer g.timed(time.Now())
	return g.Game.SaveState()
}

func (g *timedGame) LoadState(s []byte) error {
	defer g.timed(time.Now())
	return g.Game.LoadState(s)
}
