package election

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// Two tabs that started in the same millisecond are ordered by their tie:
// the lower one wins, the same way on every peer.
func TestAnEqualStartTimeIsBrokenByTheLowerTie(t *testing.T) {
	low := Identity{StartMS: 1000, Tie: 1}
	high := Identity{StartMS: 1000, Tie: 2}
	require.True(t, low.Before(high))
	require.False(t, high.Before(low))
	require.False(t, low.Before(low), "an identity does not come before itself")
}

func TestRequestAndAnswerAreVectorDoomsBytes(t *testing.T) {
	got := AppendRequest(nil)
	require.Equal(t, "\x2a\x2a\x2a\x2a", string(got), "request % x", got)
	id := Identity{StartMS: 1763835600123, Tie: 0x01020304}
	got = AppendAnswer(nil, id)
	want := []byte{43, 43, 43, 43, 4, 3, 2, 1}
	want = binary.LittleEndian.AppendUint64(want, math.Float64bits(1763835600123))
	require.Equal(t, string(want), string(got), "answer % x, want % x", got, want)
	// An answer as VectorDoom builds it: the spare bytes left zero.
	vd := make([]byte, 16)
	copy(vd, []byte{43, 43, 43, 43})
	binary.LittleEndian.PutUint64(vd[8:], math.Float64bits(1763835600999))
	parsed, err := ParseAnswer(vd)
	require.NoError(t, err, "VectorDoom answer read as %+v", parsed)
	require.Equal(t, Identity{StartMS: 1763835600999}, parsed, "VectorDoom answer read as %+v, %v", parsed, err)
	for _, bad := range [][]byte{vd[:15], append(vd[:16:16], 0), {43, 43, 43, 42, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}} {
		require.False(t, IsAnswer(bad), "% x taken for an answer", bad)
	}
	nan := slices.Clone(vd)
	binary.LittleEndian.PutUint64(nan[8:], math.Float64bits(math.NaN()))
	_, err = ParseAnswer(nan)
	require.Error(t, err, "a NaN start time was accepted")
}

func TestUIDsAreNeverReservedOrElectionLike(t *testing.T) {
	vals := []uint32{0, 1, 0x2A2A2A2A, 0x2B2B2B2B, CandidateAddr, LocalClientAddr, 77}
	i := 0
	e := New(Config{Cadence: Local, Send: func([]byte) {}, Rand: func() uint32 { v := vals[i%len(vals)]; i++; return v }}, 0)
	require.Equal(t, uint32(77), e.UID(), "drew uid %x tie %x, want 77 for both after skipping the reserved values", e.UID(), e.Self().Tie)
	require.Equal(t, uint32(77), e.Self().Tie, "drew uid %x tie %x, want 77 for both after skipping the reserved values", e.UID(), e.Self().Tie)
	e2 := New(Config{Cadence: Local, Send: func([]byte) {}}, 0)
	require.True(t, ValidUID(e2.UID()), "crypto/rand drew %x", e2.UID())
}

// instance is one copy in an election simulation.
type instance struct {
	node      *simnet.Node
	r         Router
	startedAt int64
	decidedAt int64
	open      bool
}

type electionSim struct {
	net   *simnet.Network
	insts []*instance
	step  int64

	// How long two or more open copies have served at once, sampled after
	// every tick (so to the step), and the longest such stretch so far.
	overlapMS    int64
	maxOverlapMS int64
}

func newElectionSim(seed uint64, link simnet.Link) *electionSim {
	return &electionSim{net: simnet.New(seed, link), step: 10}
}

func (s *electionSim) add(p Cadence, startMS float64, r *rand.Rand) *instance {
	return s.addWith(Config{Cadence: p, StartMS: startMS, Rand: r.Uint32})
}

// addWith adds a copy with cfg (its Send is its node's).
func (s *electionSim) addWith(cfg Config) *instance {
	in := &instance{node: s.net.AddNode(), startedAt: s.net.Now(), decidedAt: -1, open: true}
	cfg.Send = in.node.Broadcast
	in.r.Election = New(cfg, s.net.Now())
	s.insts = append(s.insts, in)
	return in
}

// run runs n steps of 10 ms, routing every copy's frames, and hands each
// event to seen.
func (s *electionSim) run(n int, seen func(*instance, Event)) {
	for range n {
		now := s.net.Now() + 10
		s.net.AdvanceTo(now)
		for _, in := range s.insts {
			for f, ok := in.node.Receive(); ok; f, ok = in.node.Receive() {
				in.r.Route(now, f)
			}
			for _, ev := range in.r.Election.Update(now) {
				seen(in, ev)
			}
		}
	}
}

func (s *electionSim) tick() {
	now := s.net.Now() + s.step
	s.net.AdvanceTo(now)
	for _, in := range s.insts {
		if !in.open {
			continue
		}
		for f, ok := in.node.Receive(); ok; f, ok = in.node.Receive() {
			in.r.Route(now, f)
		}
		for _, ev := range in.r.Election.Update(now) {
			if ev.Kind == RoleDecided && in.decidedAt < 0 {
				in.decidedAt = now - in.startedAt
			}
		}
	}
	if s.servers() >= 2 {
		s.overlapMS += s.step
	} else {
		s.overlapMS = 0
	}
	s.maxOverlapMS = max(s.maxOverlapMS, s.overlapMS)
}

// servers counts the open instances that serve.
func (s *electionSim) servers() int {
	n := 0
	for _, in := range s.insts {
		if in.open && in.r.Election.Role() == Server {
			n++
		}
	}
	return n
}

// server is the open instance that serves (the first, if several do).
func (s *electionSim) server() *instance {
	for _, in := range s.insts {
		if in.open && in.r.Election.Role() == Server {
			return in
		}
	}
	return nil
}

// agreed reports whether every open instance has decided, one serves, and
// every client follows it.
func (s *electionSim) agreed() bool {
	if s.servers() != 1 {
		return false
	}
	var srv Identity
	for _, in := range s.insts {
		if in.open && in.r.Election.Role() == Server {
			srv = in.r.Election.Self()
		}
	}
	for _, in := range s.insts {
		if in.open && (in.r.Election.Role() == Undecided || in.r.Election.Server() != srv) {
			return false
		}
	}
	return true
}

// electionRun is what one seeded run measured.
type electionRun struct {
	decidedMS []int64 // each copy's start to its first role decided
	// In the lobby: decisions after a copy's first (a server stepping down
	// or a client switching servers), summed over the copies, and the
	// longest time two or more copies served at once.
	roleChanges, overlapMS int64
	// The same after the server left, a survivor's first new decision not
	// counted as a change.
	reelectChanges, reelectOverlapMS int64
}

// playElection plays one election: 2-8 copies start at random offsets
// within 10 s; 20 s after the last start the server leaves, and the
// survivors elect another. It fails if either election ends without one
// server followed by all, or a copy decides more than twice in either.
func playElection(p Cadence, seed uint64, link simnet.Link) (electionRun, error) {
	var run electionRun
	r := rand.New(rand.NewPCG(seed, 42))
	s := newElectionSim(seed, link)
	n := 2 + r.IntN(7)
	starts := make([]int64, n)
	for i := range starts {
		starts[i] = r.Int64N(10000)
	}
	slices.Sort(starts)
	epoch := 1.7e12
	for next := 0; next < n || s.net.Now() < starts[n-1]+20000; {
		for next < n && starts[next] <= s.net.Now() {
			s.add(p, epoch+float64(starts[next]), r)
			next++
		}
		s.tick()
	}
	if !s.agreed() {
		return run, fmt.Errorf("%d copies, %d servers", n, s.servers())
	}
	before := make([]int64, n)
	for i, in := range s.insts {
		c := in.r.Election.Counters().RoleChanges
		if c > 1 {
			return run, fmt.Errorf("copy %d changed role %d times", i, c)
		}
		run.decidedMS = append(run.decidedMS, in.decidedAt)
		run.roleChanges += c
		before[i] = c
	}
	run.overlapMS, s.maxOverlapMS = s.maxOverlapMS, 0

	for _, in := range s.insts {
		if in.r.Election.Role() == Server {
			in.open = false
			in.node.SetSilent(true)
		}
	}
	// Once they agree, nothing changes: every survivor follows a live server.
	for gone := s.net.Now(); !s.agreed(); s.tick() {
		if s.net.Now()-gone > p.ServerTimeoutMS+10000 {
			return run, fmt.Errorf("after the server left: %d survivors, %d servers", n-1, s.servers())
		}
	}
	for i, in := range s.insts {
		if in.open {
			c := in.r.Election.Counters().RoleChanges - before[i] - 1
			if c > 1 {
				return run, fmt.Errorf("after the server left: copy %d changed role %d times", i, c)
			}
			run.reelectChanges += c
		}
	}
	run.reelectOverlapMS = s.maxOverlapMS
	return run, nil
}

// runCase is a cadence on the link it is meant for, with 20 % loss, and
// what its 1000 seeded runs measured. The simulation is deterministic, so
// the measured worst cases are asserted as they are: a change that makes
// any of them worse fails.
type runCase struct {
	p    Cadence
	link simnet.Link
	// Role changes summed over the runs (see electionRun), in the lobby and
	// after the server left: a copy that heard nothing of an earlier one
	// before it served (every message lost, or with Gossip late) steps
	// down, and its clients switch.
	roleChanges, reelectChanges int64
	// The longest time two copies served at once, in the lobby and after
	// the server left, and in how many runs they did (see
	// TestTwoServersOverlapOnlyBriefly).
	overlapMS, reelectOverlapMS     int64
	overlapRuns, reelectOverlapRuns int
}

var runCases = []runCase{
	{p: Local, link: simnet.Link{LatencyMS: 1, JitterMS: 4, Loss: 0.2},
		roleChanges: 5, reelectChanges: 0, overlapMS: 220, reelectOverlapMS: 0, overlapRuns: 5, reelectOverlapRuns: 0},
	{p: Gossip, link: simnet.Link{LatencyMS: 50, JitterMS: 1950, Loss: 0.2},
		roleChanges: 1, reelectChanges: 4, overlapMS: 260, reelectOverlapMS: 1020, overlapRuns: 1, reelectOverlapRuns: 1},
}

// seededRunsByCadence holds the 1000 seeded runs of each cadence, played
// once for all the tests that read them.
var seededRunsByCadence = map[string][]electionRun{}

func seededRuns(t *testing.T, c runCase) []electionRun {
	if runs, ok := seededRunsByCadence[c.p.Name]; ok {
		return runs
	}
	runs := make([]electionRun, 1000)
	for seed := range runs {
		run, err := playElection(c.p, uint64(seed), c.link)
		require.NoError(t, err, "%s seed %d", c.p.Name, seed)
		runs[seed] = run
	}
	seededRunsByCadence[c.p.Name] = runs
	return runs
}

func TestElectionRuns(t *testing.T) {
	for _, c := range runCases {
		t.Run(c.p.Name, func(t *testing.T) {
			var decided []int64
			for _, run := range seededRuns(t, c) {
				decided = append(decided, run.decidedMS...)
			}
			slices.Sort(decided)
			t.Logf("%s: 1000 runs, one server each, and one again after it left; %d copies; start to role decided: median %d ms, p99 %d ms",
				c.p.Name, len(decided), decided[len(decided)/2], decided[len(decided)*99/100])
		})
	}
}

// A copy that hears no server but knows of an earlier candidate waits for
// it, so that the first copy serves and nobody has to step down: over the
// 1000 runs of each cadence, only the few copies that heard nothing of an
// earlier one change role. (Were every copy to serve after its wait, 24
// would change role in the lobby with Local instead of 5, and 4607 instead
// of none after the server left.)
func TestCopiesWaitForAnEarlierCandidateInsteadOfSteppingDown(t *testing.T) {
	for _, c := range runCases {
		t.Run(c.p.Name, func(t *testing.T) {
			var changes, reelectChanges int64
			for _, run := range seededRuns(t, c) {
				changes += run.roleChanges
				reelectChanges += run.reelectChanges
			}
			t.Logf("%s: %d role changes in the lobby, %d after the server left", c.p.Name, changes, reelectChanges)
			require.Equal(t, c.roleChanges, changes, "%d role changes in the lobby, %d after the server left; want the %d and %d of these seeded runs", changes, reelectChanges, c.roleChanges, c.reelectChanges)
			require.Equal(t, c.reelectChanges, reelectChanges, "%d role changes in the lobby, %d after the server left; want the %d and %d of these seeded runs", changes, reelectChanges, c.roleChanges, c.reelectChanges)
		})
	}
}

// Two copies serve at once only until one hears the other: the later one
// steps down. Asserted exactly, as the README states them: in how many of
// the 1000 seeded runs of each cadence two served at once, in the lobby
// and after the server left, and for how long at worst, sampled every
// 10 ms. The overlap is harmless because it happens in the lobby: a server
// steps down only while its game has not started (an election that lost
// its server is back in the lobby), its clients hear the earlier server
// and follow it, and the session restarts their engines against it, so no
// tic is ever run under the wrong server. Were a game launched within
// the overlap, the two would keep running and the split be reported
// (TestSplitDuringAGameIsReportedNotResolved).
func TestTwoServersOverlapOnlyBriefly(t *testing.T) {
	for _, c := range runCases {
		t.Run(c.p.Name, func(t *testing.T) {
			var overlap, reelectOverlap int64
			runs, reelectRuns := 0, 0
			for _, run := range seededRuns(t, c) {
				overlap, reelectOverlap = max(overlap, run.overlapMS), max(reelectOverlap, run.reelectOverlapMS)
				if run.overlapMS > 0 {
					runs++
				}
				if run.reelectOverlapMS > 0 {
					reelectRuns++
				}
			}
			t.Logf("%s: two servers at once in %d runs of 1000, at worst %d ms; after the server left in %d runs, at worst %d ms",
				c.p.Name, runs, overlap, reelectRuns, reelectOverlap)
			require.Equal(t, c.overlapRuns, runs, "two servers in %d runs for %d ms at worst in the lobby, in %d runs for %d ms after the server left; want %d runs, %d ms and %d runs, %d ms", runs, overlap, reelectRuns, reelectOverlap, c.overlapRuns, c.overlapMS, c.reelectOverlapRuns, c.reelectOverlapMS)
			require.Equal(t, c.overlapMS, overlap, "two servers in %d runs for %d ms at worst in the lobby, in %d runs for %d ms after the server left; want %d runs, %d ms and %d runs, %d ms", runs, overlap, reelectRuns, reelectOverlap, c.overlapRuns, c.overlapMS, c.reelectOverlapRuns, c.reelectOverlapMS)
			require.Equal(t, c.reelectOverlapRuns, reelectRuns, "two servers in %d runs for %d ms at worst in the lobby, in %d runs for %d ms after the server left; want %d runs, %d ms and %d runs, %d ms", runs, overlap, reelectRuns, reelectOverlap, c.overlapRuns, c.overlapMS, c.reelectOverlapRuns, c.reelectOverlapMS)
			require.Equal(t, c.reelectOverlapMS, reelectOverlap, "two servers in %d runs for %d ms at worst in the lobby, in %d runs for %d ms after the server left; want %d runs, %d ms and %d runs, %d ms", runs, overlap, reelectRuns, reelectOverlap, c.overlapRuns, c.overlapMS, c.reelectOverlapRuns, c.reelectOverlapMS)
		})
	}
}

// Copies that start within a few milliseconds of each other all know the
// first one before their waits end, and wait for it: it alone ever serves.
func TestCopiesStartingTogetherLetTheFirstServe(t *testing.T) {
	for seed := range uint64(100) {
		s := newElectionSim(seed, simnet.Link{LatencyMS: 1, JitterMS: 4})
		s.step = 1
		r := rand.New(rand.NewPCG(seed, 11))
		for i := range 5 {
			s.add(Local, 1000+float64(i), r)
			s.tick()
		}
		for range 1000 {
			s.tick()
			for i, in := range s.insts[1:] {
				require.NotEqual(t, Server, in.r.Election.Role(), "seed %d: copy %d, started %d ms after the first, serves", seed, i+1, i+1)
			}
		}
		require.True(t, s.agreed(), "seed %d: %d servers; the first copy is %v", seed, s.servers(), s.insts[0].r.Election.Role())
		require.Equal(t, Server, s.insts[0].r.Election.Role(), "seed %d: %d servers; the first copy is %v", seed, s.servers(), s.insts[0].r.Election.Role())
	}
}

// A survivor whose engine noticed the loss first serves at once; another,
// still following the old server, hears the new one's beacons, and when it
// too drops the old server it joins the new one instead of serving.
func TestASurvivorThatHeardTheNewServerJoinsIt(t *testing.T) {
	s := newElectionSim(1, simnet.Link{LatencyMS: 2})
	r := rand.New(rand.NewPCG(1, 1))
	old, a, b := s.add(Local, 1000, r), s.add(Local, 2000, r), s.add(Local, 3000, r)
	for !s.agreed() {
		s.tick()
	}
	old.open = false
	old.node.SetSilent(true)
	a.r.Election.ServerGone(s.net.Now())
	for range 50 {
		s.tick()
	}
	require.Equal(t, Server, a.r.Election.Role(), "before b drops the old server: a %v, b follows %v", a.r.Election.Role(), b.r.Election.Server())
	require.Equal(t, old.r.Election.Self(), b.r.Election.Server(), "before b drops the old server: a %v, b follows %v", a.r.Election.Role(), b.r.Election.Server())
	b.r.Election.ServerGone(s.net.Now())
	for range 50 {
		s.tick()
		require.LessOrEqual(t, s.servers(), 1, "b serves beside a")
	}
	require.True(t, s.agreed(), "b is %v of %v, %d role changes", b.r.Election.Role(), b.r.Election.Server(), b.r.Election.Counters().RoleChanges)
	require.Equal(t, int64(1), b.r.Election.Counters().RoleChanges, "b is %v of %v, %d role changes", b.r.Election.Role(), b.r.Election.Server(), b.r.Election.Counters().RoleChanges)
}

// A copy that knew of an earlier candidate which then closed before
// serving waits only until that one's last announcement is CandidateTTLMS
// old, then serves.
func TestAnEarlierCandidateThatFallsSilentIsForgotten(t *testing.T) {
	s := newElectionSim(1, simnet.Link{LatencyMS: 2})
	r := rand.New(rand.NewPCG(1, 1))
	early := s.add(Local, 1000, r)
	s.tick()
	late := s.add(Local, 1010, r)
	for s.net.Now() < Local.WaitMS-100 {
		s.tick()
	}
	early.open = false
	early.node.SetSilent(true)
	heard := int64(-1)
	for late.r.Election.Role() != Server {
		for _, c := range late.r.Election.cands {
			if c.id == early.r.Election.Self() {
				heard = c.seenMS
			}
		}
		require.LessOrEqual(t, s.net.Now(), Local.WaitMS+Local.CandidateTTLMS+1000, "still %v at %d ms, waiting for a copy that closed", late.r.Election.Role(), s.net.Now())
		s.tick()
	}
	require.GreaterOrEqual(t, heard, int64(0), "served at %d ms, the closed copy last heard at %d ms", s.net.Now(), heard)
	require.GreaterOrEqual(t, s.net.Now()-heard, Local.CandidateTTLMS, "served at %d ms, the closed copy last heard at %d ms", s.net.Now(), heard)
}

func TestJoiningARunningServerTakesARequestAndARoundTrip(t *testing.T) {
	s := newElectionSim(5, simnet.Link{LatencyMS: 2})
	s.step = 1
	r := rand.New(rand.NewPCG(5, 5))
	s.add(Local, 1000, r)
	for s.servers() != 1 {
		s.tick()
	}
	for range 500 {
		s.tick()
	}
	late := s.add(Local, 2000, r)
	for late.decidedAt < 0 {
		s.tick()
	}
	limit := Local.RequestPeriodMS + 2*2
	t.Logf("joined a running server %d ms after starting (limit: one request period %d ms + one round trip 4 ms)",
		late.decidedAt, Local.RequestPeriodMS)
	require.LessOrEqual(t, late.decidedAt, limit, "joined after %d ms as %v", late.decidedAt, late.r.Election.Role())
	require.Equal(t, Client, late.r.Election.Role(), "joined after %d ms as %v", late.decidedAt, late.r.Election.Role())
}

func TestEqualStartTimesStillGiveOneServer(t *testing.T) {
	for seed := range uint64(200) {
		s := newElectionSim(seed, simnet.Link{LatencyMS: 1})
		r := rand.New(rand.NewPCG(seed, 9))
		s.add(Local, 1234, r)
		s.add(Local, 1234, r)
		for range 300 {
			s.tick()
		}
		require.True(t, s.agreed(), "seed %d: %d servers", seed, s.servers())
	}
}

func TestSurvivorsAgreeOnANewServerWithinTheTimeout(t *testing.T) {
	for _, p := range []Cadence{Local, Gossip} {
		link := simnet.Link{LatencyMS: 2, Loss: 0.2}
		if p.Name == "gossip" {
			link = simnet.Link{LatencyMS: 50, JitterMS: 450, Loss: 0.2}
		}
		worst := int64(0)
		for seed := range uint64(100) {
			s := newElectionSim(seed, link)
			r := rand.New(rand.NewPCG(seed, 3))
			for i := range 5 {
				s.add(p, 1000+float64(i), r)
			}
			for !s.agreed() {
				s.tick()
			}
			for range 300 {
				s.tick()
			}
			for _, in := range s.insts {
				if in.r.Election.Role() == Server {
					in.open = false
					in.node.SetSilent(true)
				}
			}
			gone := s.net.Now()
			for !s.agreed() {
				require.LessOrEqual(t, s.net.Now()-gone, p.ServerTimeoutMS+1000, "%s seed %d: no agreement %d ms after the server left", p.Name, seed, s.net.Now()-gone)
				s.tick()
			}
			worst = max(worst, s.net.Now()-gone)
		}
		t.Logf("%s: survivors agreed on a new server at worst %d ms after it left (timeout %d ms)", p.Name, worst, p.ServerTimeoutMS)
	}
}

// twoServersApart starts two copies, a before b, on a channel cut in two:
// each serves. The caller heals it.
func twoServersApart() (s *electionSim, a, b *instance) {
	s = newElectionSim(1, simnet.Link{LatencyMS: 1})
	r := rand.New(rand.NewPCG(1, 1))
	a, b = s.add(Local, 1000, r), s.add(Local, 2000, r)
	s.net.Partition([]*simnet.Node{a.node}, []*simnet.Node{b.node})
	for range 200 {
		s.tick()
	}
	return s, a, b
}

func TestSplitInTheLobbyResolvesByTheLaterServerSteppingDown(t *testing.T) {
	s, a, b := twoServersApart()
	require.Equal(t, 2, s.servers(), "%d servers while partitioned", s.servers())
	s.net.Heal()
	for range 300 {
		s.tick()
	}
	require.True(t, s.agreed(), "after healing: a %v, b %v", a.r.Election.Role(), b.r.Election.Role())
	require.Equal(t, Server, a.r.Election.Role(), "after healing: a %v, b %v", a.r.Election.Role(), b.r.Election.Role())
}

func TestSplitDuringAGameIsReportedNotResolved(t *testing.T) {
	s, _, b := twoServersApart()
	b.r.Election.SetInGame(true)
	s.net.Heal()
	split := false
	s.run(300, func(in *instance, ev Event) { split = split || (in == b && ev.Kind == SplitDetected) })
	require.True(t, split, "split reported %v; b is %v", split, b.r.Election.Role())
	require.Equal(t, Server, b.r.Election.Role(), "split reported %v; b is %v", split, b.r.Election.Role())
}

func TestUIDCollisionIsResolvedByRedrawing(t *testing.T) {
	s := newElectionSim(1, simnet.Link{LatencyMS: 1})
	same := func() *rand.Rand { return rand.New(rand.NewPCG(7, 7)) }
	a := s.add(Local, 1000, same())
	b := s.add(Local, 1000.5, same())
	require.Equal(t, b.r.Election.UID(), a.r.Election.UID(), "test setup: the UIDs should collide")
	for range 100 {
		s.tick()
	}
	require.NotEqual(t, b.r.Election.UID(), a.r.Election.UID(), "UIDs still collide: %x", a.r.Election.UID())
}

func FuzzRouteNeverPanics(f *testing.F) {
	f.Add(AppendRequest(nil))
	f.Add(AppendAnswer(nil, Identity{StartMS: 5, Tie: 9}))
	f.Add(appendCandidate(nil, 5, Identity{StartMS: 5, Tie: 9}, 7, 0))
	f.Add(appendCandidate(nil, 5, Identity{StartMS: 5, Tie: 9}, 7, candidateMigrating))
	f.Add(appendHeir(appendCandidate(nil, 5, Identity{StartMS: 5, Tie: 9}, 7, candidateMigrating|candidateHeir), 6))
	f.Add([]byte{1, 0, 0, 0, 5, 0, 0, 0, 0, 6})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, frame []byte) {
		var r Router
		r.Election = New(Config{Cadence: Local, Send: func([]byte) {}, Rand: rand.New(rand.NewPCG(1, 2)).Uint32}, 0)
		for now := int64(0); now < 3; now++ {
			from, payload, game := r.Route(now, frame)
			if game {
				require.Equal(t, len(frame)-8, len(payload), "bad game frame: from %x, %d bytes of %d", from, len(payload), len(frame))
				require.NotEqual(t, r.GameUID(), from, "bad game frame: from %x, %d bytes of %d", from, len(payload), len(frame))
			}
			r.Election.Update(now)
		}
		c := r.Counters()
		require.Equal(t, int64(3), c.Election+c.Game+c.NotForUs+c.Foreign+c.Malformed, "a frame was neither delivered nor counted: %+v", c)
		require.LessOrEqual(t, len(r.Election.cands), maxCandidates, "candidate table grew past its bound")
	})
}

// BenchmarkElection runs seeded elections (2-8 copies starting within 10 s,
// 20 % loss; delays up to 2 s with Gossip) and reports the time from a
// copy's start to its role being decided: median and 99th percentile.
func BenchmarkElection(b *testing.B) {
	for _, c := range runCases {
		b.Run(c.p.Name, func(b *testing.B) {
			var decided []int64
			for i := range b.N {
				run, err := playElection(c.p, uint64(i), c.link)
				if err != nil {
					b.Fatal(err)
				}
				decided = append(decided, run.decidedMS...)
			}
			slices.Sort(decided)
			b.ReportMetric(float64(decided[len(decided)/2]), "median-ms")
			b.ReportMetric(float64(decided[len(decided)*99/100]), "p99-ms")
		})
	}
}

// Two servers of one game (a partition that heals): the later yields to
// the earlier and becomes its client; servers of different games only
// report the split.
func TestSplitOfOneGameResolvesByTheLaterServerYielding(t *testing.T) {
	for _, sameGame := range []bool{true, false} {
		s, a, b := twoServersApart()
		a.r.Election.SetInGame(true)
		b.r.Election.SetInGame(true)
		a.r.Election.SetGame(7)
		if sameGame {
			b.r.Election.SetGame(7)
		} else {
			b.r.Election.SetGame(8)
		}
		s.net.Heal()
		yielded, split := false, false
		s.run(300, func(in *instance, ev Event) {
			yielded = yielded || (in == b && ev.Kind == Yielded)
			split = split || (in == b && ev.Kind == SplitDetected)
		})
		if sameGame {
			require.True(t, yielded, "one game: yielded %v; a %v, b %v following %v", yielded, a.r.Election.Role(), b.r.Election.Role(), b.r.Election.Server())
			require.Equal(t, Client, b.r.Election.Role(), "one game: yielded %v; a %v, b %v following %v", yielded, a.r.Election.Role(), b.r.Election.Role(), b.r.Election.Server())
			require.Equal(t, a.r.Election.Self(), b.r.Election.Server(), "one game: yielded %v; a %v, b %v following %v", yielded, a.r.Election.Role(), b.r.Election.Role(), b.r.Election.Server())
			require.Equal(t, Server, a.r.Election.Role(), "one game: yielded %v; a %v, b %v following %v", yielded, a.r.Election.Role(), b.r.Election.Role(), b.r.Election.Server())
		}
		if !sameGame {
			require.False(t, yielded, "two games: yielded %v, split %v; b %v", yielded, split, b.r.Election.Role())
			require.True(t, split, "two games: yielded %v, split %v; b %v", yielded, split, b.r.Election.Role())
			require.Equal(t, Server, b.r.Election.Role(), "two games: yielded %v, split %v; b %v", yielded, split, b.r.Election.Role())
		}
	}
}

// A client whose server fell silent (tics included) hears that another
// copy of its game lost the server too: it takes it that its goodbye was
// lost, at once, rather than after the timeout; one whose server speaks
// does not.
func TestAMigratingCopyTellsAClientWhoseServerFellSilent(t *testing.T) {
	for _, silentMS := range []int64{100, 600} {
		e := New(Config{Cadence: Local, StartMS: 5000, Send: func([]byte) {}, Rand: rand.New(rand.NewPCG(3, 4)).Uint32}, 0)
		srv := Identity{StartMS: 1000, Tie: 77}
		e.Handle(0, appendCandidate(nil, 11, srv, 9, 0))
		e.Handle(0, AppendAnswer(nil, srv))
		e.Update(0)
		e.SetGame(9)
		require.Equal(t, Client, e.Role(), "not a client: %v", e.Role())
		e.HeardServer(1000)
		now := 1000 + silentMS
		e.Handle(now, appendCandidate(nil, 12, Identity{StartMS: 3000, Tie: 5}, 9, candidateMigrating))
		lost := false
		for _, ev := range e.Update(now) {
			lost = lost || ev.Kind == ServerLost
		}
		want := silentMS >= 2*Local.BeaconPeriodMS
		require.Equal(t, want, lost, "server silent %d ms: lost", silentMS)
	}
}

// The candidate announcement: 20 bytes of payload with the game, 21 with
// flags; 16 (an older ticnet's) plays no game.
func TestCandidateAnnouncementLayout(t *testing.T) {
	id := Identity{StartMS: 1234.5, Tie: 0xA1B2C3D4}
	for _, flags := range []byte{0, candidateMigrating, candidateHidden, candidateMigrating | candidateHidden} {
		f := appendCandidate(nil, 0x01020304, id, 0xCAFE, flags)
		want := 20
		if flags != 0 {
			want++
		}
		to, from, payload, ok := link.ParseFrame(f)
		require.True(t, ok, "frame % x", f)
		require.Equal(t, want, len(payload), "frame % x", f)
		require.Equal(t, link.Addr(CandidateAddr), to, "frame % x", f)
		require.Equal(t, link.Addr(0x01020304), from, "frame % x", f)
		gotID, game, gotFlags, heir, err := parseCandidate(payload)
		require.NoError(t, err, "parsed %v %x %x %x", gotID, game, gotFlags, heir)
		require.Equal(t, id, gotID, "parsed %v %x %x %x %v", gotID, game, gotFlags, heir, err)
		require.Equal(t, uint32(0xCAFE), game, "parsed %v %x %x %x %v", gotID, game, gotFlags, heir, err)
		require.Equal(t, flags, gotFlags, "parsed %v %x %x %x %v", gotID, game, gotFlags, heir, err)
		require.Equal(t, uint32(0), heir, "parsed %v %x %x %x %v", gotID, game, gotFlags, heir, err)
		_, game, _, _, err = parseCandidate(f[8:24])
		require.NoError(t, err, "16-byte form: game %x", game)
		require.Equal(t, uint32(0), game, "16-byte form: game %x, %v", game, err)
		for _, n := range []int{15, 17, 19, 22, 25} {
			p := append(f[8:len(f):len(f)], 0, 0, 0, 0, 0)
			_, _, _, _, err := parseCandidate(p[:n])
			require.Error(t, err, "%d bytes parsed (flags %x)", n, flags)
		}
	}
}

// An announcement that names the heir its copy follows: the heir's UID
// after the flags, there if and only if the flags say so.
func TestCandidateAnnouncementNamesTheHeir(t *testing.T) {
	id := Identity{StartMS: 1234.5, Tie: 0xA1B2C3D4}
	f := appendHeir(appendCandidate(nil, 0x01020304, id, 0xCAFE, candidateMigrating|candidateHeir), 0x0A0B0C0D)
	_, _, payload, _ := link.ParseFrame(f)
	require.Equal(t, 25, len(payload), "payload % x", payload)
	require.Equal(t, []byte{0x0D, 0x0C, 0x0B, 0x0A}, payload[21:], "payload % x", payload)
	gotID, game, flags, heir, err := parseCandidate(payload)
	require.NoError(t, err, "parsed %v %x %x %x", gotID, game, flags, heir)
	require.Equal(t, id, gotID, "parsed %v %x %x %x %v", gotID, game, flags, heir, err)
	require.Equal(t, uint32(0xCAFE), game, "parsed %v %x %x %x %v", gotID, game, flags, heir, err)
	require.Equal(t, byte(candidateMigrating|candidateHeir), flags, "parsed %v %x %x %x %v", gotID, game, flags, heir, err)
	require.Equal(t, uint32(0x0A0B0C0D), heir, "parsed %v %x %x %x %v", gotID, game, flags, heir, err)
	_, _, _, _, err = parseCandidate(payload[:21])
	require.Error(t, err, "an heir flag without the heir parsed")
	noFlag := slices.Clone(payload)
	noFlag[20] = candidateMigrating
	_, _, _, _, err = parseCandidate(noFlag)
	require.Error(t, err, "an heir without its flag parsed")
}
