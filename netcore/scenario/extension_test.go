package scenario

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// nominalTicMS is the time between tics at 35 Hz.
const nominalTicMS = 1000.0 / netcore.TicRate

// stallWatch records, per peer, the longest time without a tic run.
type stallWatch struct {
	s       *Scenario
	lastTic []uint32
	lastAt  []int64
	worst   []int64
}

func watchStalls(s *Scenario) *stallWatch {
	w := &stallWatch{s: s}
	for _, p := range s.Peers {
		w.lastTic = append(w.lastTic, p.Client.GameTic())
		w.lastAt = append(w.lastAt, s.Now())
		w.worst = append(w.worst, 0)
	}
	return w
}

// observe runs after every step.
func (w *stallWatch) observe(now int64) {
	for i, p := range w.s.Peers {
		if g := p.Client.GameTic(); g != w.lastTic[i] {
			w.worst[i] = max(w.worst[i], now-w.lastAt[i])
			w.lastTic[i], w.lastAt[i] = g, now
		}
	}
}

func noDesync(t *testing.T, s *Scenario) {
	t.Helper()
	require.Zero(t, s.Count(netcore.EventDesyncSuspected), "desync events")
	for _, p := range s.Peers {
		require.Zero(t, p.Client.Counters().ConsistencyFailures, "peer %d: consistency failures", p.Index)
	}
}

func TestSilentPlayerDoesNotStallOthersAndNobodyDesyncs(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 8, Seed: 11, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}})
	require.True(t, s.Server.Extended(), "the game does not run the extension")
	require.NoError(t, s.RunTics(300, 60000))
	silent := s.Peers[5]
	before := s.GameTics()
	silent.Node.SetSilent(true)
	w := watchStalls(s)
	s.OnStep = nil
	end := s.Now() + 3000
	for s.Now() < end {
		s.Step()
		w.observe(s.Now())
	}
	silent.Node.SetSilent(false)
	after := s.GameTics()
	for i, p := range s.Peers {
		if p == silent {
			continue
		}
		rate := float64(after[i]-before[i]) / (3000 / nominalTicMS)
		t.Logf("peer %d: %.1f %% of the nominal rate, longest stall %d ms", i, 100*rate, w.worst[i])
		require.GreaterOrEqual(t, rate, 0.95, "peer %d: its share of the nominal rate", i)
		require.LessOrEqual(t, w.worst[i], int64(150), "peer %d: its longest stall, ms", i)
	}
	// It comes back, catches up, and agrees with everyone on every tic.
	require.NoError(t, s.RunTics(after[0]+300, 20000))
	require.GreaterOrEqual(t, s.Server.Counters().Substituted, int64(90), "commands substituted over a 3 s silence")
	check(t, s, int(after[0])+300)
	noDesync(t, s)
	require.Zero(t, s.Count(netcore.EventPlayerLeft), "players left")
}

func TestExtensionOnLossyChannelAgreesAtNearlyFullRate(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 8, Seed: 12, Link: lossy})
	from, at := s.Peers[0].Client.GameTic(), s.Now()
	require.NoError(t, s.RunTics(10000, 600000))
	check(t, s, 10000)
	noDesync(t, s)
	rate := float64(s.Peers[0].Client.GameTic()-from) / (float64(s.Now()-at) / nominalTicMS)
	c := s.Server.Counters()
	t.Logf("%.1f %% of the nominal rate; %d of %d commands substituted (%.1f %%)", 100*rate,
		c.Substituted, 8*10000, 100*float64(c.Substituted)/80000)
	require.GreaterOrEqual(t, rate, 0.90, "share of the nominal rate")
}

// faults gives a scenario random trouble: loss bursts, silent peers,
// partitions that heal, all over a channel that duplicates and reorders.
func faults(s *Scenario, r *rand.Rand) func(now int64) {
	var healAt, quietUntil, burstUntil int64
	var quiet *Peer
	base := simnet.Link{LatencyMS: 20 + r.Int64N(60), JitterMS: r.Int64N(80), Duplicate: 0.02, Reorder: 0.05, ReorderMS: 60}
	burst := base
	burst.Loss = 0.5 + 0.5*r.Float64()
	return func(now int64) {
		switch {
		case burstUntil != 0 && now >= burstUntil:
			s.Net.SetLinks(s.HostNode, base)
			burstUntil = 0
		case healAt != 0 && now >= healAt:
			s.Net.Heal()
			healAt = 0
		case quiet != nil && now >= quietUntil:
			quiet.Node.SetSilent(false)
			quiet = nil
		}
		if r.IntN(400) != 0 {
			return
		}
		switch r.IntN(3) {
		case 0:
			if burstUntil == 0 {
				s.Net.SetLinks(s.HostNode, burst)
				burstUntil = now + 200 + r.Int64N(800)
			}
		case 1:
			if healAt == 0 {
				cut := s.Peers[1+r.IntN(len(s.Peers)-1)]
				s.Net.Partition([]*simnet.Node{s.HostNode}, []*simnet.Node{cut.Node})
				healAt = now + 100 + r.Int64N(1500)
			}
		case 2:
			if quiet == nil {
				quiet = s.Peers[1+r.IntN(len(s.Peers)-1)]
				quiet.Node.SetSilent(true)
				quietUntil = now + 100 + r.Int64N(2500)
			}
		}
	}
}

// faultRuns overrides the number of fault runs, so that the test binary
// can be run many times over quickly (its goroutines are what TestMain's
// leak guard must not mistake for a leak).
var faultRuns = flag.Int("faultruns", 0, "fault runs of TestRandomFaultsNeverDesync (default 1000, 100 with -short)")

func TestRandomFaultsNeverDesync(t *testing.T) {
	t.Parallel()
	runs := 1000
	if testing.Short() {
		runs = 100
	}
	if *faultRuns > 0 {
		runs = *faultRuns
	}
	type result struct {
		worst int64
		err   error
	}
	results := make([]result, runs)
	inParallel(runs, func(i int) { results[i] = faultRun(uint64(1000 + i)) })
	var worst int64
	for i, r := range results {
		require.NoError(t, r.err, "run %d (seed %d)", i, 1000+i)
		worst = max(worst, r.worst)
	}
	t.Logf("%d runs of 2000 tics, 8 players: no desync; worst stall at any peer, silenced and cut-off ones included: %d ms", runs, worst)
}

// faultRun plays one 2000-tic game under random faults and checks that
// every copy agrees on every tic.
func faultRun(seed uint64) struct {
	worst int64
	err   error
} {
	var r struct {
		worst int64
		err   error
	}
	s := New(Options{Players: 8, Seed: seed,
		Link: simnet.Link{LatencyMS: 30, JitterMS: 40, Duplicate: 0.02, Reorder: 0.05, ReorderMS: 60}})
	if r.err = s.Start(); r.err != nil {
		return r
	}
	w := watchStalls(s)
	trouble := faults(s, rand.New(rand.NewPCG(seed, 77)))
	s.OnStep = func(now int64) { trouble(now); w.observe(now) }
	if r.err = s.RunTics(2000, 600000); r.err != nil {
		return r
	}
	if _, r.err = s.Check(); r.err != nil {
		return r
	}
	if n := s.Count(netcore.EventDesyncSuspected); n != 0 {
		r.err = fmt.Errorf("%d desync events", n)
		return r
	}
	for i, p := range s.Peers {
		if c := p.Client.Counters().ConsistencyFailures; c != 0 {
			r.err = fmt.Errorf("peer %d: %d consistency failures", i, c)
			return r
		}
		r.worst = max(r.worst, w.worst[i])
	}
	return r
}

func TestReferenceOnlyPeerMakesTheGameStrictAndItStillPlays(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 8, Seed: 13, Link: lossy,
		Protocols: map[int][]string{4: {wire.ProtocolChocolate}}})
	require.False(t, s.Server.Extended(), "a game with a reference-only peer runs the extension")
	for _, p := range s.Peers {
		require.False(t, p.Client.Extended(), "peer %d runs the extension in a strict game", p.Index)
	}
	require.Equal(t, wire.ProtocolChocolate, s.Peers[4].Client.Protocol(), "the reference peer's protocol")
	require.Equal(t, wire.ProtocolTicnet, s.Peers[1].Client.Protocol(), "a ticnet peer's protocol")
	require.NoError(t, s.RunTics(10000, 3000000))
	check(t, s, 10000)
	require.Zero(t, s.Server.Counters().Substituted, "commands a strict game substituted")
}

func TestForgedTicSetsAreDroppedAndCounted(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 15, Link: simnet.Link{LatencyMS: 10}})
	require.NoError(t, s.RunTics(100, 30000))
	victim := s.Peers[1]
	forge := func(from link.Addr, start uint32) {
		set := wire.TicSet{Start: start, Tics: []wire.SetTic{{ServerTic: wire.ServerTic{InGame: 7}, Substituted: 7}}}
		raw := simnet.NewFrameTransport(s.Net.AddNode(), from)
		raw.Send(victim.UID, wire.Encode(nil, &set, false, 0))
	}
	before := victim.Client.Counters()
	forge(0x6666, victim.Client.RecvTic()+1)       // from someone who is not the server
	forge(ServerUID, victim.Client.RecvTic()+5000) // far outside the window, and without the connection's tag
	s.RunFor(100)
	after := victim.Client.Counters()
	require.Equal(t, int64(1), after.Unexpected-before.Unexpected, "forged tic sets counted: the stranger's")
	require.Equal(t, int64(1), after.Stale-before.Stale, "forged tic sets counted: the one without the connection's tag")
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+200, 30000))
	check(t, s, 300)
	noDesync(t, s)
}

func TestDroneSeesEveryPlayerAndAgrees(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Drones: 1, Seed: 16, Strict: true, Link: simnet.Link{LatencyMS: 15}})
	require.NoError(t, s.RunTics(500, 60000))
	drone := s.Peers[3]
	require.Equal(t, -1, drone.Client.Player(), "the drone's player")
	check(t, s, 500)
}
