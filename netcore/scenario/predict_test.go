package scenario

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"

	"github.com/stretchr/testify/require"
)

// With prediction, a client's game runs every tic it built in the pass
// that built it: local input changes the local state in 0 tics; with an
// input delay of 2 tics, 2 tics later, exactly. Without prediction, the
// game runs a tic once it is confirmed, a round trip later (50 ms each
// way here: at least 3 tics). Every game checks.
func TestPredictionRunsLocalInputInTheTicItIsBuilt(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		predict bool
		delay   int
	}{{false, 0}, {true, 0}, {true, 2}} {
		predict := c.predict
		t.Run(fmt.Sprintf("predict=%v/delay=%d", predict, c.delay), func(t *testing.T) {
			s := start(t, Options{Players: 4, Seed: 21, Link: simnet.Link{LatencyMS: 50}, Predict: predict, InputDelay: c.delay})
			require.NoError(t, s.RunTics(200, 60000))
			least, most := uint32(1<<31), uint32(0)
			for range 600 { // 3 s
				s.Step()
				for _, p := range s.Peers[1:] {
					c := p.Client
					lag := c.MakeTic() - c.PredictedTic()
					least, most = min(least, lag), max(most, lag)
				}
			}
			t.Logf("tics built but not run by the game: %d to %d", least, most)
			if predict {
				require.Equal(t, uint32(c.delay), least, "predict: the fewest tics after they were built that the game ran its own commands")
				require.Equal(t, uint32(c.delay), most, "predict: the most tics after they were built that the game ran its own commands")
			} else {
				require.GreaterOrEqual(t, least, uint32(3), "no prediction: the fewest tics after they were built that the game ran its own commands")
			}
			check(t, s, 250)
		})
	}
}

// predictionSeeds and predictionTics are the size of the acceptance run
// of prediction: that many 8-player lossy games of that many tics, each
// played with prediction and without.
const (
	predictionSeeds = 200
	predictionTics  = 10000
)

// The same game, with and without prediction, on the lossy channel at 8
// players, 200 seeds of 10 000 tics: the game with prediction checks
// (every command the one built or substituted, checksums equal on every
// peer), and every client's
// game confirms the same tics with the same commands and checksums with
// prediction as without (prediction changes what a copy shows, never what
// it confirms), with no consistency failure and no desync suspected.
func TestPredictionConfirmsWhatLockstepRuns(t *testing.T) {
	t.Parallel()
	errs := make([]error, predictionSeeds)
	counters := make([]netcore.PredictCounters, predictionSeeds)
	inParallel(predictionSeeds, func(i int) {
		counters[i], errs[i] = sameWithPrediction(uint64(i+1), predictionTics)
	})
	var sum netcore.PredictCounters
	for i, err := range errs {
		require.NoError(t, err, "seed %d", i+1)
		c := counters[i]
		require.NotZero(t, c.Predicted, "seed %d: tics predicted", i+1)
		require.NotZero(t, c.Rollbacks, "seed %d: rollbacks", i+1)
		sum.Predicted, sum.Stood, sum.Rollbacks, sum.RolledBack = sum.Predicted+c.Predicted, sum.Stood+c.Stood,
			sum.Rollbacks+c.Rollbacks, sum.RolledBack+c.RolledBack
	}
	t.Logf("%d games of %d tics: every client confirmed the same with prediction as without; peer 1 predicted %d tics "+
		"(%d stood), rolled back %d times, undoing %d", predictionSeeds, predictionTics, sum.Predicted, sum.Stood, sum.Rollbacks, sum.RolledBack)
}

// sameWithPrediction plays seed's 8-player lossy game of tics tics without
// prediction and with, checks both, and compares what every client
// confirmed; it returns peer 1's prediction counters.
func sameWithPrediction(seed uint64, tics uint32) (netcore.PredictCounters, error) {
	var runs [2]*Scenario
	for i, predict := range []bool{false, true} {
		s := New(Options{Players: 8, Seed: seed, Link: lossy, Predict: predict})
		if err := s.Start(); err != nil {
			return netcore.PredictCounters{}, err
		}
		if err := s.RunTics(tics, int64(tics)*100); err != nil {
			return netcore.PredictCounters{}, err
		}
		runs[i] = s
	}
	// The run with prediction checks; the one without is equal to it.
	c, err := runs[1].Check()
	if err != nil {
		return netcore.PredictCounters{}, err
	}
	if c.Tics < int(tics)-50 {
		return netcore.PredictCounters{}, fmt.Errorf("compared %d tics", c.Tics)
	}
	off, on := runs[0], runs[1]
	for i := range off.Peers {
		a, b := off.Peers[i], on.Peers[i]
		sa, sb := a.Game.Sums(), b.Game.Sums()
		n := min(a.Client.GameTic(), b.Client.GameTic())
		if n < tics {
			return netcore.PredictCounters{}, fmt.Errorf("peer %d: confirmed %d tics", i, n)
		}
		for tic := range n {
			if sa[tic] != sb[tic] || a.Game.Ran().At(tic) != b.Game.Ran().At(tic) {
				return netcore.PredictCounters{}, fmt.Errorf("peer %d tic %d: with prediction %08x, without %08x", i, tic, sb[tic], sa[tic])
			}
		}
		if f := b.Client.Counters().ConsistencyFailures; f != 0 {
			return netcore.PredictCounters{}, fmt.Errorf("peer %d: %d consistency failures with prediction", i, f)
		}
	}
	if n := on.Count(netcore.EventDesyncSuspected); n != 0 {
		return netcore.PredictCounters{}, fmt.Errorf("%d desyncs suspected with prediction", n)
	}
	return on.Peers[1].Client.PredictCounters(), nil
}

// A player who lags is predicted exactly: the server substitutes its last
// command with the events cleared, as the prediction did. While the other
// three players' copies stall for a second, the fourth's predictions
// stand, and the game checks.
func TestALaggingPlayerIsPredictedExactly(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 4, Seed: 22, Link: simnet.Link{LatencyMS: 30}, Predict: true})
	require.NoError(t, s.RunTics(200, 60000))
	me := s.Peers[1].Client
	before := me.PredictCounters()
	for _, i := range []int{0, 2, 3} {
		s.Peers[i].Paused = true
	}
	s.RunFor(1000)
	for _, i := range []int{0, 2, 3} {
		s.Peers[i].Paused = false
	}
	after := me.PredictCounters()
	stood, rollbacks := after.Stood-before.Stood, after.Rollbacks-before.Rollbacks
	t.Logf("in the second the others lagged: %d predicted tics stood, %d rollbacks", stood, rollbacks)
	require.GreaterOrEqual(t, stood, int64(25), "predicted tics that stood while the others lagged (most of 35)")
	require.NoError(t, s.RunTics(400, 60000))
	check(t, s, 350)
}

// A steady player on time is predicted exactly too: it repeats its input,
// with the consistency byte of the state BackupTics tics before, which the
// predicting copy recorded as well. With the other three players idle,
// the fourth's predictions stand.
func TestASteadyPlayerIsPredictedExactly(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 4, Seed: 23, Link: simnet.Link{LatencyMS: 30}, Predict: true})
	for _, i := range []int{0, 2, 3} {
		s.Peers[i].Game.Idle = true
	}
	require.NoError(t, s.RunTics(300, 60000))
	me := s.Peers[1].Client
	before := me.PredictCounters()
	s.RunFor(2000)
	after := me.PredictCounters()
	stood, rollbacks := after.Stood-before.Stood, after.Rollbacks-before.Rollbacks
	t.Logf("in 2 s beside three idle players: %d predicted tics stood, %d rollbacks", stood, rollbacks)
	require.GreaterOrEqual(t, stood, int64(70), "predicted tics that stood in 2 s beside idle players")
	require.Zero(t, rollbacks, "rollbacks in 2 s beside idle players")
	check(t, s, 300)
}

// A predicting client allocates nothing per step beyond the states its
// game's SaveState makes (which the engine keeps, one a tic predicted):
// the commands it hands the game for a predicted tic live in the client.
// (Two allocations of the 3 a predicted tic made before; the harness's
// logs are given room first.) Not t.Parallel: it counts the
// process's allocations, and runs before the parallel tests start.
func TestPredictionAllocatesOnlyTheGamesStates(t *testing.T) {
	saves := 0
	wrap := func(g *testgame.Game) tic.Game { return &countedSaves{Game: g, saves: &saves} }
	s := start(t, Options{Players: 4, Seed: 1, Link: simnet.Link{LatencyMS: 50}, Predict: true, Quiet: true, WrapGame: wrap})
	require.NoError(t, s.RunTics(300, 60000))
	// The harness's logs grow as events come (every client's figures,
	// about once a second) and as the games load states (each rollback):
	// room for them first, so that what is counted is the engine's.
	for _, p := range s.Peers {
		p.Events = slices.Grow(p.Events, 1024)
		p.LoadedAt = slices.Grow(p.LoadedAt, 1024) // a load a rollback
	}
	s.Log = slices.Grow(s.Log, 4096)
	var before, after runtime.MemStats
	saves = 0
	runtime.ReadMemStats(&before)
	for range 2000 {
		s.Step()
	}
	runtime.ReadMemStats(&after)
	got := after.Mallocs - before.Mallocs
	require.NotZero(t, saves, "2000 steps of a predicting 4-player game: the game's states")
	require.GreaterOrEqual(t, got, uint64(saves), "2000 steps of a predicting 4-player game: allocations, at least the game's states")
	t.Logf("%d allocations, %d of them the game's states", got, saves)
	require.LessOrEqual(t, got, uint64(saves)+8, "2000 steps of a predicting 4-player game: allocations, at most 8 beside the game's states")
}

// countedSaves counts its game's SaveStates.
type countedSaves struct {
	*testgame.Game
	saves *int
}

func (g *countedSaves) SaveState() []byte {
	*g.saves++
	return g.Game.SaveState()
}
