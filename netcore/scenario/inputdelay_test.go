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

// delayRun is what one copy of a predicting game saw over a stretch of
// play: the rollbacks, the tics the game ran, and the tics confirmed.
type delayRun struct {
	rollbacks, games, confirmed int64
	ms                          int64
	substituted                 int64 // commands the server substituted
}

// playDelayed plays a 4-player predicting game at oneWay ms each way,
// every player with input delay delay and input that changes every tic,
// and measures copy 1 over ticks tics after the first 200; every copy ran
// the commands the players built.
func playDelayed(t *testing.T, oneWay int64, delay int, ticks uint32) delayRun {
	t.Helper()
	_, r := playPredicting(t, Options{InputDelay: delay}, oneWay, 200, ticks)
	return r
}

// playPredicting plays o's 4-player predicting game at oneWay ms each way
// (or on o.Link) with input that changes every tic, and measures copy 1 over ticks tics
// after the first warm; it returns the delay copy 1 was told last
// (EventInputDelay). Every copy ran the commands the players built.
func playPredicting(t *testing.T, o Options, oneWay int64, warm, ticks uint32) (int, delayRun) {
	t.Helper()
	o.Players, o.Seed, o.Predict = 4, 31, true
	if o.Link == (simnet.Link{}) {
		o.Link = simnet.Link{LatencyMS: oneWay, JitterMS: oneWay / 10}
	}
	s := start(t, o)
	require.NoError(t, s.RunTics(warm, 120000))
	me := s.Peers[1].Client
	pc0, run0, t0, g0 := me.PredictCounters(), me.Counters().TicsRun, s.Now(), me.GameTic()
	require.NoError(t, s.RunTics(g0+ticks, 120000))
	pc, ran := me.PredictCounters(), me.Counters().TicsRun-run0
	check(t, s, int(g0+ticks))
	delay := 0
	for _, e := range s.Peers[1].Events {
		if e.Kind == netcore.EventInputDelay {
			delay = e.Delay
		}
	}
	return delay, delayRun{
		substituted: s.Server.Counters().Substituted,
		rollbacks:   pc.Rollbacks - pc0.Rollbacks,
		games:       (ran - (pc.Stood - pc0.Stood)) + (pc.Predicted - pc0.Predicted),
		confirmed:   ran,
		ms:          s.Now() - t0,
	}
}

// An input delay of the round trip removes rollbacks. With every player
// building its commands that many tics ahead, the server sends each tic
// as soon as its commands are in, and it reaches the copies before their
// clocks do: they need not predict it, and run it when it is due. Four players whose input changes
// every tic (prediction's worst case), 1 050 tics (30 s) at 0, 50 and
// 150 ms each way with 10 % jitter, and as the delay the round trip at
// its longest in tics, rounded up (1, 4 and 12: 5 ms, the simulation's
// step; 110 and 330 ms): the copy rolls back 0, 0 and 0 times (at most
// once a second, as the issue asks), and its game runs 1.000, 1.000 and
// 1.000 tics per tic confirmed (at most 1.1); with a tic less it rolls
// back at nearly every tic (1 050, 1 051 and 945 times; 1 050, 1 050, 994
// and 1 rollback at 12 before the frames were authenticated, which moved
// the channel's draws). The round trip without its jitter is not enough
// at 150 ms: 10.5 tics, and a delay of 11 rolls back 945 times (the
// latest of the four players' commands comes later than the mean). Every copy ran the commands the players
// built, none substituted.
func TestAnInputDelayOfTheRoundTripRemovesRollbacks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		oneWay           int64
		delay            int // the round trip at its longest, in tics
		rollbacks, short int64
	}{{0, 1, 0, 1050}, {50, 4, 0, 1051}, {150, 12, 0, 945}} {
		t.Run(fmt.Sprintf("oneway=%dms", c.oneWay), func(t *testing.T) {
			const ticks = 1050
			at := playDelayed(t, c.oneWay, c.delay, ticks)
			short := playDelayed(t, c.oneWay, c.delay-1, ticks)
			gameX := float64(at.games) / float64(at.confirmed)
			t.Logf("delay %d: %d rollbacks in %d ms, game-x %.3f; delay %d: %d rollbacks, game-x %.3f",
				c.delay, at.rollbacks, at.ms, gameX, c.delay-1, short.rollbacks, float64(short.games)/float64(short.confirmed))
			require.Equal(t, c.rollbacks, at.rollbacks, "delay %d: rollbacks", c.delay)
			require.LessOrEqual(t, at.rollbacks*1000, at.ms, "delay %d: rollbacks, at most one a second", c.delay)
			require.LessOrEqual(t, gameX, 1.1, "delay %d: tics the game ran per tic confirmed", c.delay)
			require.Equal(t, c.short, short.rollbacks, "delay %d: rollbacks, a tic short", c.delay-1)
			require.Zero(t, at.substituted+short.substituted, "commands substituted: a tic went before its commands were in")
		})
	}
}

// playAuto plays the game of playDelayed with the server choosing the
// delay (AutoDelay, at most max tics), and reports copy 1's delay and
// what it saw over ticks tics after the first 400.
func playAuto(t *testing.T, oneWay int64, max int, ticks uint32) (int, delayRun) {
	t.Helper()
	return playPredicting(t, Options{Server: netcore.ServerConfig{AutoDelay: netcore.AutoDelay{On: true, Max: max}}}, oneWay, 400, ticks)
}

// The server chooses the delay (AutoDelay): from the round trips it
// measures, the one that covers the longest with two deviations. In the
// games of TestAnInputDelayOfTheRoundTripRemovesRollbacks it chooses 1,
// 4 and 13 tics at 0, 50 and 150 ms each way, the best fixed delays but
// at 150 ms, a tic more (12 before the frames were authenticated, which
// moved the channel's draws), and copy 1 rolls back 0, 0 and 5 times in
// 30 s (at 150 ms when the game lets it: Max 15); with the default most, 6 tics, which rolls back at every tic as a fixed delay
// of 6 does. Every copy ran the commands the players built, none
// substituted, the tics each copy added when its delay grew included.
func TestTheServerChoosesTheDelayThatCoversTheRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		oneWay    int64
		max       int
		delay     int
		rollbacks int64
	}{{0, 0, 1, 0}, {50, 0, 4, 0}, {150, 15, 13, 5}, {150, 0, netcore.DefaultMaxAutoDelay, 1050}} {
		t.Run(fmt.Sprintf("oneway=%dms/max=%d", c.oneWay, c.max), func(t *testing.T) {
			delay, r := playAuto(t, c.oneWay, c.max, 1050)
			t.Logf("delay %d: %d rollbacks in %d ms, game-x %.3f", delay, r.rollbacks, r.ms, float64(r.games)/float64(r.confirmed))
			require.Equal(t, c.delay, delay, "the delay chosen")
			require.Equal(t, c.rollbacks, r.rollbacks, "rollbacks in 30 s")
			require.Zero(t, r.substituted, "commands substituted")
		})
	}
}

// On the lossy channel (50-150 ms each way, 20 % loss) the automatic
// delay is within a tic of the best fixed delay, the least that keeps
// rollbacks to one a second and the game's work to 1.1 tics a tic. In the
// game of TestAnInputDelayOfTheRoundTripRemovesRollbacks, 1 050 tics, a
// fixed delay of 11 rolls back 31 times in 30 s (game-x 1.043) and one of
// 12 8 times (1.011); the server chooses 14 at the end (at most 15; each
// player's own, which moves with its round trips) and copy 1 rolls back 6
// times (1.008). One game's choice moves with the channel's draws (it
// chose 11 here before the frames were authenticated, and the draws
// changed): over the games of seeds 31-40 the delay chosen is 13 in the
// median, within a tic of 12. (Over seeds 31-70, measured once: 11 to 15,
// 13 in 25 games of 40; before the frames were authenticated 11 to 14,
// 13 in 17.) BenchmarkPrediction's lossy rows show the same over 2 000
// tics: 12 the least fixed delay under a rollback a second, auto at 13.
func TestTheAutomaticDelayOnTheLossyChannelIsWithinATicOfTheBestFixed(t *testing.T) {
	t.Parallel()
	const ticks = 1050
	fixed := map[int]delayRun{}
	for _, d := range []int{11, 12} {
		_, fixed[d] = playPredicting(t, Options{InputDelay: d, Link: lossy}, 0, 400, ticks)
	}
	autoLossy := Options{Link: lossy, Server: netcore.ServerConfig{AutoDelay: netcore.AutoDelay{On: true, Max: netcore.MaxInputDelay}}}
	auto, r := playPredicting(t, autoLossy, 0, 400, ticks)
	for d, f := range fixed {
		t.Logf("fixed %d: %d rollbacks in %d ms, game-x %.3f", d, f.rollbacks, f.ms, float64(f.games)/float64(f.confirmed))
	}
	t.Logf("auto %d: %d rollbacks in %d ms, game-x %.3f", auto, r.rollbacks, r.ms, float64(r.games)/float64(r.confirmed))
	require.Greater(t, fixed[11].rollbacks*1000, fixed[11].ms, "fixed 11: more than a rollback a second")
	for _, f := range []delayRun{fixed[12], r} {
		require.LessOrEqual(t, f.rollbacks*1000, f.ms, "at most a rollback a second")
		require.LessOrEqual(t, float64(f.games)/float64(f.confirmed), 1.1, "game-x")
	}
	require.Equal(t, []int64{31, 8, 6}, []int64{fixed[11].rollbacks, fixed[12].rollbacks, r.rollbacks}, "rollbacks: fixed 11, 12, auto")
	require.Equal(t, 14, auto, "the delay chosen")
	var chosen []int
	for seed := uint64(31); seed <= 40; seed++ {
		o := autoLossy
		o.Seed = seed
		chosen = append(chosen, autoDelayOf(t, o, 400+ticks))
	}
	slices.Sort(chosen)
	t.Logf("seeds 31-40: the delays chosen %v", chosen)
	require.InDelta(t, 12, chosen[len(chosen)/2], 1, "the delay chosen in the median of 10 games, within a tic of the best fixed")
}

// autoDelayOf plays playPredicting's game with o's seed for ticks tics
// and returns the delay copy 1 builds with at the end.
func autoDelayOf(t *testing.T, o Options, ticks uint32) int {
	t.Helper()
	o.Players, o.Predict = 4, true
	s := start(t, o)
	require.NoError(t, s.RunTics(ticks, 120000))
	delay := 0
	for _, e := range s.Peers[1].Events {
		if e.Kind == netcore.EventInputDelay {
			delay = e.Delay
		}
	}
	return delay
}

// autoSeeds is the size of the acceptance run of the automatic delay.
const autoSeeds = 200

// The automatic delay on a channel that changes: 8 predicting players
// with opaque input and its events, 200 seeds of 3 000 tics, 1 000 on
// the lossy channel (50-150 ms each way, 20 % loss), 1 000 on a quiet one
// (10 ms), 1 000 lossy again: every copy runs the commands the players
// built or the server substituted (the tics a copy added when its delay
// grew included), checksums agree, every event bit runs once, and every
// copy's delay went up, down and up again in every game.
func TestTheAutomaticDelayKeepsEveryCommandAndEventOnTheLossyChannel(t *testing.T) {
	t.Parallel()
	errs := make([]error, autoSeeds)
	changes := make([][]int, autoSeeds)
	late := make([]int, autoSeeds)
	inParallel(autoSeeds, func(i int) {
		changes[i], late[i], errs[i] = autoLossy(uint64(600 + i))
	})
	seen := map[string]int{}
	for i, err := range errs {
		require.NoError(t, err, "seed %d", 600+i)
		seen[fmt.Sprint(changes[i])]++
	}
	slices.Sort(late)
	t.Logf("%d games: the delays one copy went through, and in how many games: %v; the latest a carried event ran, per game: median %d tics, worst %d",
		autoSeeds, seen, late[autoSeeds/2], late[autoSeeds-1])
	require.Equal(t, autoWorstLate, late[autoSeeds-1], "the latest a carried event ran, tics")
}

// autoWorstLate is the latest, in tics, that an event carried past a
// substituted command ran in those 200 games: in the first second of a
// game, before the server has chosen a delay, the lossy channel
// substitutes commands, and their events go into the next commands
// built, which the delay, once chosen, builds that many tics further
// ahead. Over the same 200 games (median / worst per game): no delay
// 22 / 70 tics, a fixed delay of 6 18 / 70, the automatic delay 18 / 90;
// since the frames are authenticated, which moved the channel's draws,
// the automatic delay 18 / 65.
const autoWorstLate = 65

// autoLossy plays one game of TestTheAutomaticDelayKeepsEveryCommandAndEventOnTheLossyChannel
// and returns the delays copy 1 went through, and the latest an event
// carried past a substituted command ran, in tics.
func autoLossy(seed uint64) ([]int, int, error) {
	s := New(Options{Players: 8, Seed: seed, Input: layout16, Link: lossy, Predict: true,
		Server: netcore.ServerConfig{AutoDelay: netcore.AutoDelay{On: true}}})
	if err := s.Start(); err != nil {
		return nil, 0, err
	}
	for i, l := range []simnet.Link{lossy, {LatencyMS: 10}, lossy} {
		for _, n := range s.Net.Nodes() {
			s.Net.SetLinks(n, l)
		}
		if err := s.RunTics(uint32(i+1)*1000, 600000); err != nil {
			return nil, 0, err
		}
	}
	if _, err := s.Check(); err != nil {
		return nil, 0, err
	}
	if n := s.Count(netcore.EventDesyncSuspected); n != 0 {
		return nil, 0, fmt.Errorf("%d desyncs", n)
	}
	ev, err := s.CheckEvents(1000, netcore.ExtMaxClientLeadTics)
	if err != nil {
		return nil, 0, err
	}
	if ev.Commands < 8*2900 {
		return nil, 0, fmt.Errorf("%d commands checked for events", ev.Commands)
	}
	var mine []int
	for _, p := range s.Peers {
		var delays []int
		for _, e := range p.Events {
			if e.Kind == netcore.EventInputDelay {
				delays = append(delays, e.Delay)
			}
		}
		if !upDownUp(delays) {
			return nil, 0, fmt.Errorf("peer %d went through the delays %v: not up, down and up again", p.Index, delays)
		}
		if p.Index == 1 {
			mine = delays
		}
	}
	return mine, ev.MaxLate, nil
}

// upDownUp reports whether delays, from 0, went up, then down, then up.
func upDownUp(delays []int) bool {
	want, last := []int{1, -1, 1}, 0
	for _, d := range delays {
		if len(want) > 0 && (d-last)*want[0] > 0 {
			want = want[1:]
		}
		last = d
	}
	return len(want) == 0
}

// A game with an input delay ends on every copy: once the end is known no
// command is built past it, and the last tics, which the copies hold
// confirmed before they are due, run as they come (before, a copy waited
// for its clock to pass tics it would never build, and stayed in the
// game). Four players 50 ms apart with a delay of 4, predicting or not:
// each runs every tic to the end and is back in its lobby within a second.
func TestAGameWithAnInputDelayEndsOnEveryCopy(t *testing.T) {
	t.Parallel()
	for _, predict := range []bool{false, true} {
		s := New(Options{Players: 4, Seed: 41, InputDelay: 4, Predict: predict, Link: simnet.Link{LatencyMS: 50, JitterMS: 5}})
		require.NoError(t, s.Start())
		require.NoError(t, s.RunTics(300, 60000))
		check(t, s, 290)
		s.Peers[0].Client.RequestEnd()
		inLobby := func() bool {
			for _, p := range s.Peers {
				if p.Client.State() != netcore.ClientWaitingLaunch {
					return false
				}
			}
			return true
		}
		require.True(t, s.RunUntil(inLobby, 1000), "predict %v: every copy back in its lobby within a second: %s", predict, s.describe())
		var end uint32
		for _, e := range s.Peers[0].Events {
			if e.Kind == netcore.EventGameEnded {
				end = e.Tic
			}
		}
		require.NotZero(t, end, "predict %v: no end", predict)
		for _, p := range s.Peers {
			assert.Equal(t, end, p.Client.GameTic(), "predict %v: copy %d's last tic run, one before the end (want)", predict, p.Index)
		}
	}
}
