package election

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore/simnet"
)

func TestRequestAndAnswerAreVectorDoomsBytes(t *testing.T) {
	if got := AppendRequest(nil); string(got) != "\x2a\x2a\x2a\x2a" {
		t.Fatalf("request % x", got)
	}
	id := Identity{StartMS: 1763835600123, Tie: 0x01020304}
	got := AppendAnswer(nil, id)
	want := []byte{43, 43, 43, 43, 4, 3, 2, 1}
	want = binary.LittleEndian.AppendUint64(want, math.Float64bits(1763835600123))
	if string(got) != string(want) {
		t.Fatalf("answer % x, want % x", got, want)
	}
	// An answer as VectorDoom builds it: the spare bytes left zero.
	vd := make([]byte, 16)
	copy(vd, []byte{43, 43, 43, 43})
	binary.LittleEndian.PutUint64(vd[8:], math.Float64bits(1763835600999))
	parsed, err := ParseAnswer(vd)
	if err != nil || parsed != (Identity{StartMS: 1763835600999}) {
		t.Fatalf("VectorDoom answer read as %+v, %v", parsed, err)
	}
	for _, bad := range [][]byte{vd[:15], append(vd[:16:16], 0), {43, 43, 43, 42, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}} {
		if IsAnswer(bad) {
			t.Fatalf("% x taken for an answer", bad)
		}
	}
	nan := slices.Clone(vd)
	binary.LittleEndian.PutUint64(nan[8:], math.Float64bits(math.NaN()))
	if _, err := ParseAnswer(nan); err == nil {
		t.Fatal("a NaN start time was accepted")
	}
}

func TestUIDsAreNeverReservedOrElectionLike(t *testing.T) {
	vals := []uint32{0, 1, 0x2A2A2A2A, 0x2B2B2B2B, CandidateAddr, LocalClientAddr, 77}
	i := 0
	e := New(Config{Profile: Local, Send: func([]byte) {}, Rand: func() uint32 { v := vals[i%len(vals)]; i++; return v }}, 0)
	if e.UID() != 77 || e.Self().Tie != 77 {
		t.Fatalf("drew uid %x tie %x, want 77 for both after skipping the reserved values", e.UID(), e.Self().Tie)
	}
	if e2 := New(Config{Profile: Local, Send: func([]byte) {}}, 0); !ValidUID(e2.UID()) {
		t.Fatalf("crypto/rand drew %x", e2.UID())
	}
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
}

func newElectionSim(seed uint64, link simnet.Link) *electionSim {
	return &electionSim{net: simnet.New(seed, link), step: 10}
}

func (s *electionSim) add(p Profile, startMS float64, r *rand.Rand) *instance {
	in := &instance{node: s.net.AddNode(), startedAt: s.net.Now(), decidedAt: -1, open: true}
	in.r.Election = New(Config{Profile: p, StartMS: startMS, Rand: r.Uint32, Send: in.node.Broadcast}, s.net.Now())
	s.insts = append(s.insts, in)
	return in
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

// run plays one election: n instances start at random offsets within 10 s.
func electionRun(p Profile, seed uint64, link simnet.Link) (*electionSim, error) {
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
		return s, fmt.Errorf("%d instances, %d servers", n, s.servers())
	}
	for i, in := range s.insts {
		if c := in.r.Election.Counters().RoleChanges; c > 1 {
			return s, fmt.Errorf("instance %d changed role %d times", i, c)
		}
	}
	return s, nil
}

func TestElectionRuns(t *testing.T) {
	for _, tc := range []struct {
		p    Profile
		link simnet.Link
	}{
		{Local, simnet.Link{LatencyMS: 1, JitterMS: 4, Loss: 0.2}},
		{Gossip, simnet.Link{LatencyMS: 50, JitterMS: 1950, Loss: 0.2}},
	} {
		t.Run(tc.p.Name, func(t *testing.T) {
			var decided []int64
			changes := 0
			for seed := range uint64(1000) {
				s, err := electionRun(tc.p, seed, tc.link)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				for _, in := range s.insts {
					decided = append(decided, in.decidedAt)
					changes += int(in.r.Election.Counters().RoleChanges)
				}
			}
			slices.Sort(decided)
			t.Logf("%s: 1000 runs, one server each; %d instances, %d changed role once; start to role decided: median %d ms, p99 %d ms",
				tc.p.Name, len(decided), changes, decided[len(decided)/2], decided[len(decided)*99/100])
		})
	}
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
	if late.decidedAt > limit || late.r.Election.Role() != Client {
		t.Fatalf("joined after %d ms as %v", late.decidedAt, late.r.Election.Role())
	}
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
		if !s.agreed() {
			t.Fatalf("seed %d: %d servers", seed, s.servers())
		}
	}
}

func TestSurvivorsAgreeOnANewServerWithinTheTimeout(t *testing.T) {
	for _, p := range []Profile{Local, Gossip} {
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
				if s.net.Now()-gone > p.ServerTimeoutMS+1000 {
					t.Fatalf("%s seed %d: no agreement %d ms after the server left", p.Name, seed, s.net.Now()-gone)
				}
				s.tick()
			}
			worst = max(worst, s.net.Now()-gone)
		}
		t.Logf("%s: survivors agreed on a new server at worst %d ms after it left (timeout %d ms)", p.Name, worst, p.ServerTimeoutMS)
	}
}

func TestSplitInTheLobbyResolvesByTheLaterServerSteppingDown(t *testing.T) {
	s := newElectionSim(1, simnet.Link{LatencyMS: 1})
	r := rand.New(rand.NewPCG(1, 1))
	a, b := s.add(Local, 1000, r), s.add(Local, 2000, r)
	s.net.Partition([]*simnet.Node{a.node}, []*simnet.Node{b.node})
	for range 200 {
		s.tick()
	}
	if s.servers() != 2 {
		t.Fatalf("%d servers while partitioned", s.servers())
	}
	s.net.Heal()
	for range 300 {
		s.tick()
	}
	if !s.agreed() || a.r.Election.Role() != Server {
		t.Fatalf("after healing: a %v, b %v", a.r.Election.Role(), b.r.Election.Role())
	}
}

func TestSplitDuringAGameIsReportedNotResolved(t *testing.T) {
	s := newElectionSim(1, simnet.Link{LatencyMS: 1})
	r := rand.New(rand.NewPCG(1, 1))
	a, b := s.add(Local, 1000, r), s.add(Local, 2000, r)
	s.net.Partition([]*simnet.Node{a.node}, []*simnet.Node{b.node})
	for range 200 {
		s.tick()
	}
	b.r.Election.SetInGame(true)
	s.net.Heal()
	split := false
	for range 300 {
		now := s.net.Now() + 10
		s.net.AdvanceTo(now)
		for _, in := range s.insts {
			for f, ok := in.node.Receive(); ok; f, ok = in.node.Receive() {
				in.r.Route(now, f)
			}
			for _, ev := range in.r.Election.Update(now) {
				split = split || (in == b && ev.Kind == SplitDetected)
			}
		}
	}
	if !split || b.r.Election.Role() != Server {
		t.Fatalf("split reported %v; b is %v", split, b.r.Election.Role())
	}
}

func TestUIDCollisionIsResolvedByRedrawing(t *testing.T) {
	s := newElectionSim(1, simnet.Link{LatencyMS: 1})
	same := func() *rand.Rand { return rand.New(rand.NewPCG(7, 7)) }
	a := s.add(Local, 1000, same())
	b := s.add(Local, 1000.5, same())
	if a.r.Election.UID() != b.r.Election.UID() {
		t.Fatal("test setup: the UIDs should collide")
	}
	for range 100 {
		s.tick()
	}
	if a.r.Election.UID() == b.r.Election.UID() {
		t.Fatalf("UIDs still collide: %x", a.r.Election.UID())
	}
}

func FuzzRouteNeverPanics(f *testing.F) {
	f.Add(AppendRequest(nil))
	f.Add(AppendAnswer(nil, Identity{StartMS: 5, Tie: 9}))
	f.Add(appendCandidate(nil, 5, Identity{StartMS: 5, Tie: 9}))
	f.Add([]byte{1, 0, 0, 0, 5, 0, 0, 0, 0, 6})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, frame []byte) {
		var r Router
		r.Election = New(Config{Profile: Local, Send: func([]byte) {}, Rand: rand.New(rand.NewPCG(1, 2)).Uint32}, 0)
		for now := int64(0); now < 3; now++ {
			from, payload, game := r.Route(now, frame)
			if game && (len(payload) != len(frame)-8 || from == r.GameUID()) {
				t.Fatalf("bad game frame: from %x, %d bytes of %d", from, len(payload), len(frame))
			}
			r.Election.Update(now)
		}
		c := r.Counters()
		if c.Election+c.Game+c.NotForUs+c.Foreign+c.Malformed != 3 {
			t.Fatalf("a frame was neither delivered nor counted: %+v", c)
		}
		if len(r.Election.cands) > maxCandidates {
			t.Fatal("candidate table grew past its bound")
		}
	})
}

// BenchmarkElection runs seeded elections (2-8 copies starting within 10 s,
// 20 % loss; delays up to 2 s with Gossip) and reports the time from a
// copy's start to its role being decided: median and 99th percentile.
func BenchmarkElection(b *testing.B) {
	for _, tc := range []struct {
		p    Profile
		link simnet.Link
	}{
		{Local, simnet.Link{LatencyMS: 1, JitterMS: 4, Loss: 0.2}},
		{Gossip, simnet.Link{LatencyMS: 50, JitterMS: 1950, Loss: 0.2}},
	} {
		b.Run(tc.p.Name, func(b *testing.B) {
			var decided []int64
			for i := range b.N {
				s, err := electionRun(tc.p, uint64(i), tc.link)
				if err != nil {
					b.Fatal(err)
				}
				for _, in := range s.insts {
					decided = append(decided, in.decidedAt)
				}
			}
			slices.Sort(decided)
			b.ReportMetric(float64(decided[len(decided)/2]), "median-ms")
			b.ReportMetric(float64(decided[len(decided)*99/100]), "p99-ms")
		})
	}
}
