package session

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/scenario"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"
)

func tokenOf(i int) (t [wire.RejoinTokenLen]byte) {
	t[0], t[1], t[15] = byte(i), byte(i>>8), 0x5a
	return
}

// serverOf is the open copy that serves.
func (c *channelSim) serverOf() *copyOf {
	for _, p := range c.open() {
		if p.s.Role() == RoleServer {
			return p
		}
	}
	return nil
}

// How a server goes, in the migration tests.
type departure int

const (
	goodbye departure = iota // its page closes: it says so
	silence                  // its page dies, or its network: not a word
)

func (d departure) String() string { return [...]string{"goodbye", "silence"}[d] }

// migrationRun is one migration test's measure.
type migrationRun struct {
	gaps      []int64 // per migration: the longest a survivor waited for its next tic
	checked   scenario.Checked
	compared  int
	redecided int // tics a server had sent, decided afresh by another
	degraded  int // survivors that did not simply resume, per migration
	split     int // survivors that resumed under another server than the first
	rejoined  int // copies that joined their game again
}

// playAndLose plays a game of n copies on link, and makes its server go at
// tic at (and the next servers, chain times in all, 700 tics apart); it
// checks that the game goes on, that no copy's gametic goes back, and that
// every copy ran the commands its players built, or the server's
// substitutes, and agrees with the others. On a quiet channel every
// survivor must resume each time, under the same server at the same tic,
// with no new game and no new client; on a lossy one a survivor may have
// to join its game again (its tics went another way), which the run
// counts.
func playAndLose(t *testing.T, seed uint64, n int, link simnet.Link, how departure, at uint32, chain int) migrationRun {
	t.Helper()
	strict := link.Loss == 0
	c := newSim(seed, link)
	for i := range n {
		c.addWith(1000+float64(i*37), ElectionLocal, tokenOf(i+1))
		for range 10 {
			c.step()
		}
	}
	c.runUntil(t, "one server, one lobby", 20000, c.oneLobby)
	c.controller().s.Launch()
	var run migrationRun
	until := make([]uint32, n) // per copy: the first tic not compared
	defer func() {
		if t.Failed() {
			dumpEvents(t, c)
		}
	}()
	for range chain {
		c.runUntil(t, fmt.Sprintf("tic %d everywhere", at), 60000, func() bool { return c.allAt(at) })
		srv := c.serverOf()
		if srv == nil {
			t.Fatalf("no server at tic %d", at)
		}
		c.watchFrom = c.net.Now()
		seen := make([]int, n) // events before the departure
		for i, p := range c.peers {
			p.longest = 0
			seen[i] = len(p.events)
		}
		if how == goodbye {
			srv.s.Leave(c.net.Now())
			c.step()
		}
		srv.closed = true
		srv.node.SetSilent(true)
		gone := slices.Index(c.peers, srv)
		// Each survivor resumes, or (lossy) joins the game again.
		since := func(i int, kind string) []Event {
			var es []Event
			for _, e := range c.peers[i].events[seen[i]:] {
				if e.Kind == kind {
					es = append(es, e)
				}
			}
			return es
		}
		back := func(i int) bool {
			return len(since(i, "resumed")) > 0 || !strict && len(since(i, "rejoined")) > 0
		}
		c.runUntil(t, "the game went on everywhere", netcore.Browser.TimeoutMS+20000, func() bool {
			for i, p := range c.peers {
				if !p.closed && !back(i) {
					return false
				}
			}
			return true
		})
		at += 600
		c.runUntil(t, fmt.Sprintf("tic %d everywhere, under one server", at), 60000, func() bool {
			return c.allAt(at) && c.serverOf() != nil
		})
		// Every survivor that resumed names the same new server and resume
		// tic (lossy: most of them), after a gap no longer than the
		// departure allows.
		_, _, limit := gapLimits(how, link)
		var resumes []Event
		for i, p := range c.peers {
			if p.closed {
				continue
			}
			rs := since(i, "resumed")
			if len(since(i, "rejoined")) > 0 || len(rs) != 1 || len(since(i, "migrating")) != 1 || len(since(i, "disconnect")) != 0 {
				if strict {
					t.Fatalf("survivor %d: %d migrating, %d resumed, %d rejoined, %d disconnect events; want 1, 1, 0, 0",
						i, len(since(i, "migrating")), len(rs), len(since(i, "rejoined")), len(since(i, "disconnect")))
				}
				run.degraded++
				continue
			}
			resumes = append(resumes, rs[0])
		}
		if len(resumes) == 0 {
			t.Fatalf("no survivor resumed")
		}
		first := resumes[0]
		for _, e := range resumes {
			if e.Tic < first.Tic || e.Tic == first.Tic && e.ServerUID < first.ServerUID {
				first = e
			}
		}
		until[gone] = first.Tic // from there on, what it ran may be decided afresh
		for i, e := range resumes {
			if e.Tic != first.Tic || e.ServerUID != first.ServerUID {
				if strict {
					t.Fatalf("a survivor resumed at tic %d under %08x, another at tic %d under %08x", e.Tic, e.ServerUID, first.Tic, first.ServerUID)
				}
				run.split++
			}
			if e.GapMS <= 0 || e.GapMS > limit {
				t.Fatalf("resume %d: after %d ms (gap limit %d ms)", i, e.GapMS, limit)
			}
		}
		var gap int64
		for _, p := range c.open() {
			gap = max(gap, p.longest)
		}
		run.gaps = append(run.gaps, gap)
		at += 100
	}
	var copies []scenario.Copy
	for i, p := range c.peers {
		starts := eventsOf(p, "start")
		if p.wentBack || strict && (p.newClient != 0 || len(starts) != 1) {
			t.Fatalf("copy %d: gametic went back %v, clients after the first %d, games started %d",
				i, p.wentBack, p.newClient, len(starts))
		}
		// A copy that joined its game again is checked from there on: its
		// tics before went another way (or it would have resumed).
		last := starts[len(starts)-1]
		from := uint32(0)
		if len(starts) > 1 {
			from = last.Tic
			run.rejoined++
		}
		copies = append(copies, scenario.Copy{Index: i, Game: p.game, Player: *last.Player, From: from, Until: until[i]})
	}
	if c.recordErr != nil {
		t.Fatal(c.recordErr)
	}
	var err error
	if run.checked, err = scenario.CheckCommandsAgainst(copies, true, c.recordsOf, c.allRecords()); err != nil {
		t.Fatal(err)
	}
	run.compared = sameSumsOf(t, copies)
	run.redecided = c.redecided
	return run
}

// gapLimits bound the longest a survivor waits for its next tic when the
// server goes as how on link: median and p99 over the runs, and the worst
// (as measured over migrationSeeds runs; a lossy worst is a survivor that
// had to join its game again).
func gapLimits(how departure, link simnet.Link) (median, p99, worst int64) {
	switch {
	case link.Loss == 0 && how == goodbye:
		return 50, 50, 250
	case link.Loss == 0:
		t := netcore.Browser.TimeoutMS
		return t + 100, t + 100, t + 500
	case how == goodbye:
		return 1800, 3110, 10200
	default:
		return 4650, 5700, 13800
	}
}

// sameSumsOf fails unless the copies' checksums agree at every tic two or
// more of them ran, of those each copy checks, and returns how many tics
// that is.
func sameSumsOf(t *testing.T, copies []scenario.Copy) int {
	t.Helper()
	longest := 0
	for _, p := range copies {
		longest = max(longest, len(p.Game.Ran()))
	}
	compared := 0
	for tic := range longest {
		var ref uint32
		n := 0
		for _, p := range copies {
			ran, sums := p.Game.Ran(), p.Game.Sums()
			if tic >= len(ran) || !ran[tic].OK || !p.Checks(uint32(tic)) {
				continue
			}
			if n == 0 {
				ref = sums[tic]
			} else if sums[tic] != ref {
				t.Fatalf("tic %d differs: copy %d", tic, p.Index)
			}
			n++
		}
		if n > 1 {
			compared++
		}
	}
	return compared
}

// Four copies: the server leaves, then the next: the last two play on,
// the same game.
func TestGameGoesOnWhenTheServerLeaves(t *testing.T) {
	for _, how := range []departure{goodbye, silence} {
		run := playAndLose(t, 11, 4, simnet.Link{LatencyMS: 2, JitterMS: 2}, how, 300, 2)
		if run.compared < 1300 {
			t.Fatalf("%v: compared %d tics", how, run.compared)
		}
		t.Logf("%v: gaps %v ms; %d tics compared, %d commands checked (%d substituted)",
			how, run.gaps, run.compared, run.checked.Commands, run.checked.Substituted)
	}
}

func dumpEvents(t *testing.T, c *channelSim) {
	for i, p := range c.peers {
		for _, e := range p.events {
			if e.Kind == "catchup" || e.Kind == "lobby" {
				continue
			}
			t.Logf("copy %d: %s %+v", i, e.Kind, e)
		}
		if cl := p.s.Client(); cl != nil {
			t.Logf("copy %d: state %v resuming %v counters %+v", i, cl.State(), cl.Resuming(), cl.Counters())
		}
		if sv := p.s.Server(); sv != nil {
			t.Logf("copy %d server: resuming %v clients %d counters %+v", i, sv.Resuming(), sv.Clients(), sv.Counters())
		}
	}
}

// lossy is the hostile channel of the acceptance scenarios: 20 % loss,
// 50-150 ms, duplication, reordering.
var lossy = simnet.Link{LatencyMS: 50, JitterMS: 100, Loss: 0.2, Duplicate: 0.02, Reorder: 0.05, ReorderMS: 80}

// migrationSeeds is how many games each of the eight-copy migration tests
// plays, per channel and way of leaving.
const migrationSeeds = 200

// Eight copies, on a quiet channel and on the lossy one: the server leaves
// at a random tic, by goodbye and by silence, then the next server, then a
// third; the last five play on, every tic with the commands built or
// substituted, and every copy agrees.
func TestEightPlayersOutliveThreeServersInTurn(t *testing.T) {
	for _, ch := range []struct {
		name string
		link simnet.Link
	}{{"quiet", simnet.Link{LatencyMS: 2, JitterMS: 2}}, {"lossy", lossy}} {
		for _, how := range []departure{goodbye, silence} {
			var gaps []int64
			var sum migrationRun
			for seed := uint64(1); seed <= migrationSeeds; seed++ {
				rng := rand.New(rand.NewPCG(seed, 12))
				at := uint32(100 + rng.IntN(500))
				t.Run(fmt.Sprintf("%s/%v/seed%d", ch.name, how, seed), func(t *testing.T) {
					run := playAndLose(t, seed, 8, ch.link, how, at, 3)
					gaps = append(gaps, run.gaps...)
					sum.redecided += run.redecided
					sum.degraded += run.degraded
					sum.split += run.split
					sum.rejoined += run.rejoined
					sum.compared += run.compared
					sum.checked.Commands += run.checked.Commands
				})
			}
			if len(gaps) == 0 {
				continue
			}
			slices.Sort(gaps)
			worst, median, p99 := gaps[len(gaps)-1], gaps[len(gaps)/2], gaps[len(gaps)*99/100]
			t.Logf("%s, %v: %d migrations; longest wait for a tic: median %d ms, p99 %d, worst %d; "+
				"survivors that did not simply resume %d, resumed under a second server %d; copies that joined again %d; "+
				"tics decided afresh %d; %d tics compared, %d commands checked",
				ch.name, how, len(gaps), median, p99, worst, sum.degraded, sum.split, sum.rejoined,
				sum.redecided, sum.compared, sum.checked.Commands)
			if m, p, w := gapLimits(how, ch.link); median > m || p99 > p || worst > w {
				t.Errorf("%s, %v: a survivor waited %d ms for a tic (median %d, p99 %d), want at most %d (%d, %d)",
					ch.name, how, worst, median, p99, w, m, p)
			}
		}
	}
}

// partitionAndHeal plays a game of eight copies on link, cuts the channel
// in two at tic at for cutMS (long enough for the side without the server
// to elect its own), heals it, and returns the copies' last starts and the
// servers left after the heal.
func partitionAndHeal(t *testing.T, seed uint64, link simnet.Link, at uint32, cutMS int64) (rejoined []int, servers int) {
	t.Helper()
	c := newSim(seed, link)
	for i := range 8 {
		c.addWith(1000+float64(i*37), ElectionLocal, tokenOf(i+1))
		for range 10 {
			c.step()
		}
	}
	c.runUntil(t, "one server, one lobby", 20000, c.oneLobby)
	c.controller().s.Launch()
	defer func() {
		if t.Failed() {
			dumpEvents(t, c)
		}
	}()
	c.runUntil(t, fmt.Sprintf("tic %d everywhere", at), 60000, func() bool { return c.allAt(at) })
	srv := c.serverOf()
	var withServer, without []*simnet.Node
	var other []*copyOf
	for i, p := range c.peers {
		if p == srv || i%2 == 0 {
			withServer = append(withServer, p.node)
		} else {
			without = append(without, p.node)
			other = append(other, p)
		}
	}
	c.net.Partition(withServer, without)
	c.runUntil(t, "the cut-off side resumed under its own server", cutMS+20000, func() bool {
		for _, p := range other {
			if len(eventsOf(p, "resumed")) == 0 {
				return false
			}
		}
		return true
	})
	end := c.net.Now() + cutMS
	c.runUntil(t, "the partition's end", cutMS+1000, func() bool { return c.net.Now() >= end })
	c.net.Heal()
	healed := c.net.Now()
	c.runUntil(t, "one server again, everyone in its game", 60000, func() bool {
		n := 0
		for _, p := range c.peers {
			if p.s.Role() == RoleServer {
				n++
			}
		}
		target := uint32(0)
		if srv := c.serverOf(); srv != nil && srv.s.Client() != nil {
			target = srv.s.Client().GameTic()
		}
		return n == 1 && target > 0 && c.allAt(target-35)
	})
	t.Logf("seed %d: one game again %d ms after the heal", seed, c.net.Now()-healed)
	for i, p := range c.peers {
		if p.s.Role() == RoleServer {
			servers++
		}
		if p.wentBack {
			t.Fatalf("copy %d: gametic went back", i)
		}
		if n := len(eventsOf(p, "rejoined")); n > 0 {
			rejoined = append(rejoined, i)
		}
	}
	// Every copy, from where it last joined, agrees with the others and
	// ran the commands built or substituted.
	at2 := c.serverOf().s.Client().GameTic() + 300
	c.runUntil(t, "300 more tics", 60000, func() bool { return c.allAt(at2) })
	var copies []scenario.Copy
	for i, p := range c.peers {
		starts := eventsOf(p, "start")
		last := starts[len(starts)-1]
		from := uint32(0)
		if len(starts) > 1 {
			from = last.Tic
		}
		copies = append(copies, scenario.Copy{Index: i, Game: p.game, Player: *last.Player, From: from})
	}
	if c.recordErr != nil {
		t.Fatal(c.recordErr)
	}
	if _, err := scenario.CheckCommandsAgainst(copies, true, c.recordsOf, c.allRecords()); err != nil {
		t.Fatal(err)
	}
	if n := sameSumsOf(t, copies); n < int(at2)-100 {
		t.Fatalf("compared %d tics", n)
	}
	return rejoined, servers
}

// A partition cuts four copies from their server for five seconds (20
// seeds, on a quiet channel): they
// elect their own and play on; when it heals, the earlier server keeps
// the game and the other side's copies join it again, each as its own
// player (late join with its token), never by a reload.
func TestAPartitionThatHealsLeavesOneGame(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rejoined, servers := partitionAndHeal(t, seed, simnet.Link{LatencyMS: 2, JitterMS: 2}, 200+uint32(seed)*50, 5000)
		if servers != 1 || !slices.Equal(rejoined, []int{1, 3, 5, 7}) {
			t.Fatalf("seed %d: %d servers; copies that joined again %v, want the cut-off side [1 3 5 7]", seed, servers, rejoined)
		}
	}
}
