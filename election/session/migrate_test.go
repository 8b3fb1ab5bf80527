package session

import (
	"fmt"
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
	gaps     []int64 // per migration: the longest a survivor waited for its next tic
	checked  scenario.Checked
	compared int
}

// playAndLose plays a game of n copies on link, and makes its server go at
// tic at (and the next servers, chain times in all, 700 tics apart); it
// checks that the game goes on, that no copy's gametic goes back or starts
// over, and that every copy ran the commands its players built, or the
// server's substitutes, and agrees with the others.
func playAndLose(t *testing.T, seed uint64, n int, link simnet.Link, how departure, at uint32, chain int) migrationRun {
	t.Helper()
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
	defer func() {
		if t.Failed() {
			dumpEvents(t, c)
		}
	}()
	for k := range chain {
		c.runUntil(t, fmt.Sprintf("tic %d everywhere", at), 60000, func() bool { return c.allAt(at) })
		srv := c.serverOf()
		if srv == nil {
			t.Fatalf("no server at tic %d", at)
		}
		c.watchFrom = c.net.Now()
		for _, p := range c.open() {
			p.longest = 0
		}
		if how == goodbye {
			srv.s.Leave(c.net.Now())
			c.step()
		}
		srv.closed = true
		srv.node.SetSilent(true)
		c.runUntil(t, "the game resumed everywhere", netcore.Browser.TimeoutMS+10000, func() bool {
			for _, p := range c.open() {
				if len(eventsOf(p, "resumed")) < k+1 {
					return false
				}
			}
			return true
		})
		// Every survivor names the same new server and resume tic, and a
		// gap no longer than the departure allows.
		limit := int64(250)
		if how == silence {
			limit = netcore.Browser.TimeoutMS + 500
		}
		first := eventsOf(c.open()[0], "resumed")[k]
		for i, p := range c.open() {
			e := eventsOf(p, "resumed")[k]
			if e.Tic != first.Tic || e.ServerUID != first.ServerUID || e.GapMS <= 0 || e.GapMS > limit {
				t.Fatalf("survivor %d resumed at tic %d under %08x after %d ms; survivor 0 at tic %d under %08x (gap limit %d ms)",
					i, e.Tic, e.ServerUID, e.GapMS, first.Tic, first.ServerUID, limit)
			}
		}
		at += 600
		c.runUntil(t, fmt.Sprintf("tic %d everywhere", at), 60000, func() bool { return c.allAt(at) })
		var gap int64
		for _, p := range c.open() {
			gap = max(gap, p.longest)
		}
		run.gaps = append(run.gaps, gap)
		at += 100
	}
	for i, p := range c.open() {
		if d, m, r := len(eventsOf(p, "disconnect")), len(eventsOf(p, "migrating")), len(eventsOf(p, "resumed")); d != 0 || m != chain || r != chain {
			t.Fatalf("survivor %d: %d disconnect, %d migrating, %d resumed events; want 0, %d, %d", i, d, m, r, chain, chain)
		}
	}
	var copies []scenario.Copy
	for i, p := range c.peers {
		if p.wentBack || p.newClient != 0 || len(eventsOf(p, "start")) != 1 {
			t.Fatalf("copy %d: gametic went back %v, clients after the first %d, games started %d",
				i, p.wentBack, p.newClient, len(eventsOf(p, "start")))
		}
		copies = append(copies, scenario.Copy{Index: i, Game: p.game, Player: *eventsOf(p, "start")[0].Player})
	}
	if c.recordErr != nil {
		t.Fatal(c.recordErr)
	}
	var err error
	if run.checked, err = scenario.CheckCommandsOf(copies, true, c.records); err != nil {
		t.Fatal(err)
	}
	run.compared = sameSumsOf(t, c.peers) // the departed's tics too
	return run
}

// sameSumsOf fails unless the copies' checksums agree at every tic two or
// more of them ran, and returns how many tics that is.
func sameSumsOf(t *testing.T, peers []*copyOf) int {
	t.Helper()
	longest := 0
	for _, p := range peers {
		longest = max(longest, len(p.game.Ran()))
	}
	compared := 0
	for tic := range longest {
		var ref uint32
		n := 0
		for _, p := range peers {
			ran, sums := p.game.Ran(), p.game.Sums()
			if tic >= len(ran) || !ran[tic].OK {
				continue
			}
			if n == 0 {
				ref = sums[tic]
			} else if sums[tic] != ref {
				t.Fatalf("tic %d differs", tic)
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

// Eight copies, ten seeds: the server leaves at a random tic, by goodbye
// and by silence, then the next server, then a third; the last five play
// on, every tic with the commands built or substituted.
func TestEightPlayersOutliveThreeServersInTurn(t *testing.T) {
	for _, how := range []departure{goodbye, silence} {
		var gaps []int64
		for seed := uint64(1); seed <= 10; seed++ {
			at := uint32(100 + seed*37%500)
			run := playAndLose(t, seed, 8, simnet.Link{LatencyMS: 2, JitterMS: 2}, how, at, 3)
			gaps = append(gaps, run.gaps...)
		}
		worst := slices.Max(gaps)
		t.Logf("%v: longest wait for a tic per migration %v ms; worst %d", how, gaps, worst)
		limit := int64(250)
		if how == silence {
			limit = netcore.Browser.TimeoutMS + 500
		}
		if worst > limit {
			t.Fatalf("%v: a survivor waited %d ms for a tic, want at most %d", how, worst, limit)
		}
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
