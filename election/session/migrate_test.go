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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// aClient is the first copy that is a client.
func (c *channelSim) aClient() *copyOf {
	for _, p := range c.peers {
		if p.s.Role() == RoleClient {
			return p
		}
	}
	return nil
}

// closeWithGoodbye closes copy p's page as a page that closes says
// goodbye: it leaves, then falls silent.
func (c *channelSim) closeWithGoodbye(p *copyOf) {
	p.s.Leave(c.net.Now())
	c.step()
	p.closed = true
	p.node.SetSilent(true)
}

// launchGame opens n copies on link, each with its own token, 10 steps
// apart, and launches their game once they sit in one lobby.
func launchGame(t testing.TB, seed uint64, n int, link simnet.Link, opts ...simOption) *channelSim {
	t.Helper()
	c := newSim(seed, link, opts...)
	c.openAndLaunch(t, n)
	return c
}

// openAndLaunch opens n copies, each with its own token, 10 steps apart,
// and launches their game once they sit in one lobby.
func (c *channelSim) openAndLaunch(t testing.TB, n int) {
	t.Helper()
	for i := range n {
		c.addWith(1000+float64(i*37), ElectionLocal, tokenOf(i+1))
		for range 10 {
			c.step()
		}
	}
	c.runUntil(t, "one server, one lobby", 20000, c.oneLobby)
	c.controller().s.Launch()
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
	// lead: the most tics a client built ahead of its game, 600 tics
	// after a migration
	lead uint32
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
func playAndLose(t testing.TB, seed uint64, n int, link simnet.Link, how departure, at uint32, chain int, opts ...simOption) migrationRun {
	t.Helper()
	strict := link.Loss == 0
	c := launchGame(t, seed, n, link, opts...)
	var run migrationRun
	until := make([]uint32, n) // per copy: the first tic not compared
	// per copy that joined its game again: the first tic of its first
	// life not compared (0: where checkedLives says)
	firstEnd := make([]uint32, n)
	defer func() {
		if t.Failed() {
			dumpEvents(t, c)
		}
	}()
	for range chain {
		c.runUntil(t, fmt.Sprintf("tic %d everywhere", at), 60000, func() bool { return c.allAt(at) })
		srv := c.serverOf()
		require.NotNil(t, srv, "no server at tic %d", at)
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
		since := func(i int, kind string) []Event { return eventsFrom(c.peers[i], seen[i], kind) }
		back := func(i int) bool {
			return len(since(i, "resumed")) > 0 || !strict && len(since(i, "rejoined")) > 0
		}
		c.runUntil(t, "the game went on everywhere", netcore.BrowserTimeouts.TimeoutMS+20000, func() bool {
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
		// 600 tics on, every client builds its commands as far ahead as
		// its new server needs them, not as far as the time the
		// migration took.
		for _, p := range c.open() {
			if cl := p.s.Client(); cl != nil && p.s.Server() == nil {
				run.lead = max(run.lead, cl.MakeTic()-cl.GameTic())
			}
		}
		// Every survivor that resumed names the same new server and resume
		// tic (lossy: most of them), after a gap no longer than the
		// departure allows.
		_, _, limit := gapLimits(how, link)
		var resumes []Event
		var degraded []int
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
				degraded = append(degraded, i)
				continue
			}
			// Its migration says why: its server timed out, or left (on
			// the lossy channel a copy that heard none of its goodbye
			// finds it timed out).
			switch m := since(i, "migrating")[0]; {
			case how == silence:
				require.Equal(t, netcore.ReasonTimeout, m.Reason, "survivor %d: its migrating event's reason", i)
			case strict:
				require.Equal(t, netcore.ReasonServerLeft, m.Reason, "survivor %d: its migrating event's reason", i)
			default:
				require.Contains(t, []string{netcore.ReasonServerLeft, netcore.ReasonTimeout}, m.Reason, "survivor %d: its migrating event's reason", i)
			}
			// Its gap is how long its game stood still, from the last
			// tic it ran: a server that falls silent is found lost only
			// a timeout later.
			require.NotEmpty(t, p.stood, "survivor %d: the harness saw no resume", i)
			require.Equal(t, p.stood[len(p.stood)-1], rs[0].GapMS, "survivor %d: its resumed event's gap, ms", i)
			resumes = append(resumes, rs[0])
		}
		require.NotEmpty(t, resumes, "no survivor resumed")
		first := resumes[0]
		for _, e := range resumes {
			if e.Tic < first.Tic || e.Tic == first.Tic && e.ServerUID < first.ServerUID {
				first = e
			}
		}
		until[gone] = first.Tic // from there on, what it ran may be decided afresh
		for _, i := range degraded {
			if firstEnd[i] == 0 {
				firstEnd[i] = first.Tic // and so for a survivor that did not resume
			}
		}
		for i, e := range resumes {
			if e.Tic != first.Tic || e.ServerUID != first.ServerUID {
				if strict {
					t.Fatalf("a survivor resumed at tic %d under %08x, another at tic %d under %08x", e.Tic, e.ServerUID, first.Tic, first.ServerUID)
				}
				run.split++
			}
			require.Positive(t, e.GapMS, "resume %d: its gap, ms", i)
			require.LessOrEqual(t, e.GapMS, limit, "resume %d: its gap, ms", i)
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
		require.False(t, p.wentBack, "copy %d: gametic went back", i)
		if strict {
			require.Equal(t, 0, p.newClient, "copy %d: clients after the first", i)
			require.Len(t, starts, 1, "copy %d: games started", i)
		}
		if len(starts) > 1 {
			run.rejoined++
		}
		copies = append(copies, checkedLives(i, p, firstEnd[i], until[i])...)
	}
	require.NoError(t, c.recordErr)
	var err error
	run.checked, err = scenario.CheckCommandsAgainst(copies, true, c.recordsOf, c.allRecords())
	require.NoError(t, err)
	run.compared = sameSumsOf(t, copies)
	run.redecided = c.redecided
	return run
}

// checkedLives is what the checks see of copy i: its game as the player
// it started as, and, if it joined its game again (lossy channels,
// partitions), as the player it joined as, from there on. The first life
// is checked up to where it went another way: firstEnd if not 0 (the
// resume tic of the migration it did not resume in: the new server may
// have decided afresh tics it ran), else its first resume (the tics from
// there on its side of a partition decided for itself), or its next
// start. The last life ends at until (0: never).
func checkedLives(i int, p *copyOf, firstEnd, until uint32) []scenario.Copy {
	if cl := p.s.Client(); cl != nil && cl.PredictedTic() != cl.GameTic() && (until == 0 || cl.GameTic() < until) {
		until = cl.GameTic() // the tics after it ran only as predictions
	}
	starts := eventsOf(p, "start")
	last := starts[len(starts)-1]
	if len(starts) == 1 {
		return []scenario.Copy{{Index: i, Game: p.game, Player: *last.Player, Until: until}}
	}
	end := starts[1].Tic
	if rs := eventsOf(p, "resumed"); len(rs) > 0 && rs[0].Tic < end {
		end = rs[0].Tic
	}
	if firstEnd != 0 {
		end = min(end, firstEnd)
	}
	return []scenario.Copy{
		{Index: i, Game: p.game, Player: *starts[0].Player, Until: end},
		{Index: i, Game: p.game, Player: *last.Player, From: last.Tic, Until: until},
	}
}

// gapLimits bound the longest a survivor waits for its next tic when the
// server goes as how on link: median and p99 over the runs, and the worst
// (as measured over migrationSeeds runs).
func gapLimits(how departure, link simnet.Link) (median, p99, worst int64) {
	switch {
	case link.Loss == 0 && how == goodbye:
		return 30, 30, 30
	case link.Loss == 0:
		t := netcore.BrowserTimeouts.TimeoutMS
		return t + 25, t + 30, t + 30
	case how == goodbye:
		return 430, 745, 2010 // 425, 745 and 1 035 before the frames were authenticated; the worst, seed 100's race
	default:
		return 3360, 3725, 3855 // 3 360, 3 595 and 3 835 before: over seeds 201-400, 3 360, 3 570, 3 770 before and 3 355, 3 655, 3 940 since
	}
}

// sameSumsOf fails unless the copies' checksums agree at every tic two or
// more of them ran, of those each copy checks, and returns how many tics
// that is.
func sameSumsOf(t testing.TB, copies []scenario.Copy) int {
	t.Helper()
	longest := 0
	for _, p := range copies {
		longest = max(longest, p.Game.Ran().Len())
	}
	compared := 0
	for tic := range longest {
		var ref uint32
		n := 0
		for _, p := range copies {
			_, _, ran := p.Game.Ran().Head(uint32(tic))
			sums := p.Game.Sums()
			if !ran || !p.Checks(uint32(tic)) {
				continue
			}
			if n == 0 {
				ref = sums[tic]
			} else {
				require.Equal(t, ref, sums[tic], "tic %d differs: copy %d", tic, p.Index)
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
		require.GreaterOrEqual(t, run.compared, 1300, "%v: tics compared", how)
		t.Logf("%v: gaps %v ms; %d tics compared, %d commands checked (%d substituted)",
			how, run.gaps, run.compared, run.checked.Commands, run.checked.Substituted)
	}
}

func dumpEvents(t testing.TB, c *channelSim) {
	for i, p := range c.peers {
		for j, e := range p.events {
			if e.Kind == "catchup" || e.Kind == "lobby" {
				continue
			}
			t.Logf("copy %d at %d ms: %s %+v", i, p.times[j], e.Kind, e)
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
					sum.lead = max(sum.lead, run.lead)
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
				"tics decided afresh %d; %d tics compared, %d commands checked; the most a client led its game by, 600 tics on: %d tics",
				ch.name, how, len(gaps), median, p99, worst, sum.degraded, sum.split, sum.rejoined,
				sum.redecided, sum.compared, sum.checked.Commands, sum.lead)
			// As measured over the seeded runs: every survivor simply
			// resumed, under one server, and none joined again, but in
			// one lossy goodbye (seed 100: at the third migration two
			// copies took the game over 65 ms apart, and the later one's
			// two copies joined again); only the lossy goodbyes had tics
			// decided afresh (43 before the roster carried the players'
			// names, 48 before the frames were authenticated: each a
			// change of timing). That race is the election's, not new:
			// over seeds 201-600 one game of 400 has it, before the
			// frames were authenticated (seed 520) and since (seed 451);
			// and one of 200 lossy silences before (seed 305), none since.
			wantRedecided, wantRejoined := 0, 0
			if ch.link.Loss > 0 && how == goodbye {
				wantRedecided, wantRejoined = 78, 2
			}
			assert.Equal(t, wantRejoined, sum.degraded, "%s, %v: survivors that did not simply resume", ch.name, how)
			assert.Equal(t, 0, sum.split, "%s, %v: survivors that resumed under a second server", ch.name, how)
			assert.Equal(t, wantRejoined, sum.rejoined, "%s, %v: copies that joined again", ch.name, how)
			assert.Equal(t, wantRedecided, sum.redecided, "%s, %v: tics decided afresh", ch.name, how)
			m, p, w := gapLimits(how, ch.link)
			assert.LessOrEqual(t, median, m, "%s, %v: median longest wait for a tic, ms", ch.name, how)
			assert.LessOrEqual(t, p99, p, "%s, %v: p99 longest wait for a tic, ms", ch.name, how)
			assert.LessOrEqual(t, worst, w, "%s, %v: worst wait for a tic, ms", ch.name, how)
			assert.LessOrEqual(t, sum.lead, leadLimit(ch.link), "%s, %v: the most tics a client led its game by, 600 tics after a migration", ch.name, how)
		}
	}
}

// leadLimit bounds how many tics a client builds ahead of its game 600
// tics after a migration, as measured over the seeded runs: as many as
// before it (the channel's round trip and jitter), however long the
// migration took. Before the clock's correction was bounded per report
// rather than in sum, a silent migration left clients 57 to 63 tics
// ahead (1.7 s of input delay) for the rest of the game.
func leadLimit(link simnet.Link) uint32 {
	if link.Loss > 0 {
		return 17 // 15 before the frames were authenticated, which moved the channel's draws
	}
	return 1
}

// partitionRun is what partitionAndHeal saw after the heal: the copies
// that joined their game again, those of them that did not get their own
// player back (their token), the servers left, and how long after the
// heal there was one game again.
type partitionRun struct {
	rejoined, otherPlayer []int
	servers               int
	healMS                int64
}

// partitionAndHeal plays a game of eight copies on link, cuts the channel
// in two at tic at for cutMS (long enough for the side without the server
// to elect its own), heals it, and checks that one game goes on: every
// copy's gametic never goes back, and every copy ran the commands built or
// substituted and agrees with the others, from where it last joined.
func partitionAndHeal(t testing.TB, seed uint64, link simnet.Link, at uint32, cutMS int64, opts ...simOption) (run partitionRun) {
	t.Helper()
	c := launchGame(t, seed, 8, link, opts...)
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
	run.healMS = c.net.Now() - healed
	for i, p := range c.peers {
		if p.s.Role() == RoleServer {
			run.servers++
		}
		require.False(t, p.wentBack, "copy %d: gametic went back", i)
		if starts := eventsOf(p, "start"); len(starts) > 1 {
			run.rejoined = append(run.rejoined, i)
			if *starts[0].Player != *starts[len(starts)-1].Player || len(eventsOf(p, "rejoined")) == 0 {
				run.otherPlayer = append(run.otherPlayer, i)
			}
		}
	}
	// Every copy, from where it last joined, agrees with the others and
	// ran the commands built or substituted.
	at2 := c.serverOf().s.Client().GameTic() + 300
	c.runUntil(t, "300 more tics", 60000, func() bool { return c.allAt(at2) })
	var copies []scenario.Copy
	for i, p := range c.peers {
		copies = append(copies, checkedLives(i, p, 0, 0)...)
	}
	require.NoError(t, c.recordErr)
	_, err := scenario.CheckCommandsAgainst(copies, true, c.recordsOf, c.allRecords())
	require.NoError(t, err)
	require.GreaterOrEqual(t, sameSumsOf(t, copies), int(at2)-100, "tics compared")
	return run
}

// A partition cuts four copies of eight from their server for five
// seconds at a random tic, 200 seeds on a quiet channel and 200 on the
// lossy one: the cut-off side elects its own server and plays on; when it
// heals, the earlier server keeps the game and the other side's copies
// join it again through late join with their tokens, never by a reload,
// and every copy's tics check (partitionAndHeal). Exactly the cut-off
// side joins again, each copy as its own player.
func TestAPartitionThatHealsLeavesOneGame(t *testing.T) {
	for _, ch := range []struct {
		name string
		link simnet.Link
	}{{"quiet", simnet.Link{LatencyMS: 2, JitterMS: 2}}, {"lossy", lossy}} {
		var heals []int64
		for seed := uint64(1); seed <= migrationSeeds; seed++ {
			at := uint32(100 + rand.New(rand.NewPCG(seed, 13)).IntN(500))
			t.Run(fmt.Sprintf("%s/seed%d", ch.name, seed), func(t *testing.T) {
				run := partitionAndHeal(t, seed, ch.link, at, 5000)
				require.Equal(t, 1, run.servers, "servers after the heal")
				require.Equal(t, []int{1, 3, 5, 7}, run.rejoined, "copies that joined again: the cut-off side")
				require.Empty(t, run.otherPlayer, "copies that joined again as another player")
				heals = append(heals, run.healMS)
			})
		}
		if len(heals) == 0 {
			continue
		}
		slices.Sort(heals)
		median, worst := heals[len(heals)/2], heals[len(heals)-1]
		t.Logf("%s: %d partitions; one game again after the heal in median %d ms, worst %d", ch.name, len(heals), median, worst)
		l := healLimits[ch.name]
		assert.LessOrEqual(t, median, l[0], "%s: one game again after the heal, median ms", ch.name)
		assert.LessOrEqual(t, worst, l[1], "%s: one game again after the heal, worst ms", ch.name)
	}
}

// healLimits bound, per channel, how long after a partition heals there
// is one game again (median and worst over the 200 seeds, in ms), as
// measured.
// (Before the frames were authenticated: 250 / 565 and 1 730 / 3 280 ms.
// A copy that reattaches to the server it was cut off from is refused at
// once since: its Reattach, sealed for every player's copy, is taken by
// that server's, where a plain one met a slot that took it only after the
// reply; 60 seeds before the change that made it so had the heal at 2 115
// ms in the median, against 1 740 before authentication.)
var healLimits = map[string][2]int64{"quiet": {225, 565}, "lossy": {1655, 3110}}

// A server whose page is hidden hands its game over at once, on a quiet
// channel, to a visible copy, and stays in the game as a client: at 2, 4
// and 8 players no visible copy waits for a tic longer than the goal of
// a planned hand-off; every copy, the hidden one too, resumes under the
// successor at one tic; and every copy ran the commands built or
// substituted and agrees with the others.
func TestAHiddenServerHandsItsGameOff(t *testing.T) {
	for _, n := range []int{2, 4, 8} {
		var gaps, afters []int64
		for seed := uint64(1); seed <= 10; seed++ {
			hand := handOff(t, seed, n, simnet.Link{LatencyMS: 2, JitterMS: 2}, 200+uint32(seed)*30)
			gap, after := hand.gap, hand.after
			require.LessOrEqual(t, gap, int64(handOffGapMS), "%d players, seed %d: a visible copy's longest wait for a tic, ms", n, seed)
			// A lagging player holds a tic up by the substitution
			// deadline at most, and the tic's own period.
			limit := int64(netcore.DefaultSubstituteAfterMS + 1000/netcore.TicRate + 5)
			require.LessOrEqual(t, after, limit, "%d players, seed %d: beside the hidden player, a visible copy's longest wait for a tic, ms", n, seed)
			gaps, afters = append(gaps, gap), append(afters, after)
		}
		t.Logf("%d players: longest waits for a tic: %v ms during the hand-off, %v ms beside the hidden player after it", n, gaps, afters)
	}
}

// handOffGapMS bounds the longest a visible copy waits for a tic when the
// server's page is hidden, on a quiet channel (measured; the goal is 100 ms).
const handOffGapMS = 50

// The same on the lossy channel, 20 seeds at each of 2, 4 and 8 players
// (the runs BenchmarkMigrationGap measures): the game goes on under the
// successor every time, every copy ran the commands built or substituted
// and agrees with the others; the longest a visible copy waited for a tic
// stays within what was measured, and no copy had to join again but one.
// In that game (seed 4 at 2 players; before the roster carried names, at
// 4 players too) the successor heard none of the hidden server's
// Leavings, but the copies that follow it name it in their
// announcements, and it takes the game over when it hears that: the
// longest wait was 610 ms. It resumed without knowing where the stream
// stopped, and a copy that held more tics joined again. Before, it served
// only when the others gave it up (their 3 s timeout): 3 010 ms.
//
// The medians of 20 seeds move with any change of timing: when the
// roster came to carry the players' names and to go at once, they went
// from 130, 355 and 360 ms to 150, 310 and 400, while over 80 other seeds
// (21-100) they went from 125, 335 and 385 to 110, 335 and 365. Since the
// frames are authenticated: 130, 340 and 385, worst 500, 535 and 710;
// over seeds 21-100, medians 110, 345 and 385 (110, 335 and 365 before),
// p90 230, 485 and 480 (245, 440 and 450), worst 425, 855 and 850 (410,
// 565 and 500): the tail of 4 and 8 players grew.
func TestAHiddenServerHandsItsGameOffOnALossyChannel(t *testing.T) {
	limits := map[int][2]int64{2: {150, 610}, 4: {340, 535}, 8: {400, 710}} // median, worst
	rejoins := map[int]int{2: 1}
	for _, n := range []int{2, 4, 8} {
		var gaps []int64
		rejoined := 0
		for seed := uint64(1); seed <= 20; seed++ {
			at := uint32(100 + rand.New(rand.NewPCG(seed, 12)).IntN(500))
			hand := handOff(t, seed, n, lossy, at)
			gaps, rejoined = append(gaps, hand.gap), rejoined+hand.rejoined
		}
		slices.Sort(gaps)
		median, worst := gaps[len(gaps)/2], gaps[len(gaps)-1]
		t.Logf("%d players: longest wait for a tic: median %d ms, worst %d; copies that joined again %d", n, median, worst, rejoined)
		l := limits[n]
		assert.LessOrEqual(t, median, l[0], "%d players: median longest wait for a tic, ms", n)
		assert.LessOrEqual(t, worst, l[1], "%d players: worst wait for a tic, ms", n)
		assert.LessOrEqual(t, rejoined, rejoins[n], "%d players: copies that joined again", n)
	}
}

// handOff plays a game of n copies on link, hides the server's page at
// tic at, and checks that the game goes on under a visible copy with the
// hidden one in it: on a quiet channel every copy resumes once, at one tic
// under one server, and none starts a game again; on a lossy one a copy
// may have to join its game again, which hand.rejoined counts. Every copy
// ran the commands built or substituted and agrees with the others.
// hand.gap is the longest a visible copy waited for a tic from the
// hand-off to its first tic under the successor (the migration gap);
// hand.after the longest afterwards, for 300 tics, beside the hidden
// player, whose page runs only when a frame arrives or once a second.
func handOff(t testing.TB, seed uint64, n int, link simnet.Link, at uint32, opts ...simOption) handOffRun {
	t.Helper()
	return handOffCut(t, seed, n, link, at, 0, opts...)
}

// handOffCut is handOff with every frame from the hidden server to its
// successor lost for cutMS from the hand-off (0: none): the successor
// hears neither the Leavings that name it nor the DISCONNECT. Such a
// game is checked as on a lossy channel.
func handOffCut(t testing.TB, seed uint64, n int, link simnet.Link, at uint32, cutMS int64, opts ...simOption) (hand handOffRun) {
	t.Helper()
	strict := link.Loss == 0 && cutMS == 0
	c := launchGame(t, seed, n, link, opts...)
	defer func() {
		if t.Failed() {
			dumpEvents(t, c)
		}
	}()
	c.runUntil(t, fmt.Sprintf("tic %d everywhere", at), 60000, func() bool { return c.allAt(at) })
	hid := c.serverOf()
	seen := make([]int, n)
	for i, p := range c.peers {
		p.longest = 0
		seen[i] = len(p.events)
	}
	c.watchFrom = c.net.Now()
	if cutMS > 0 {
		succ, ok := hid.s.Server().Successor()
		heir := c.copyWithUID(uint32(succ))
		require.True(t, ok, "no successor")
		require.NotNil(t, heir, "no copy with the successor's UID %x", succ)
		c.net.SetLink(hid.node, heir.node, simnet.Link{Loss: 1})
		hand.heir = heir
	}
	hid.hidden = true
	hid.s.SetHidden(true)
	if cutMS > 0 {
		end := c.net.Now() + cutMS
		c.runUntil(t, "the cut's end", cutMS+100, func() bool { return c.net.Now() >= end })
		c.net.SetLink(hid.node, hand.heir.node, link)
	}
	since := func(i int, kind string) []Event { return eventsFrom(c.peers[i], seen[i], kind) }
	c.runUntil(t, "every copy resumed", 30000, func() bool {
		for i := range c.peers {
			if len(since(i, "resumed")) == 0 && (strict || len(since(i, "rejoined")) == 0) {
				return false
			}
		}
		return true
	})
	var first *Event
	for i := range c.peers {
		for _, e := range since(i, "resumed") {
			if first == nil || e.Tic < first.Tic {
				first = &e
			}
		}
	}
	require.NotNil(t, first, "no copy resumed")
	c.runUntil(t, "every copy ran a tic under the successor", 20000, func() bool { return c.allAt(first.Tic + 1) })
	for _, p := range c.peers {
		if p != hid {
			hand.gap = max(hand.gap, p.longest)
		}
		p.longest = 0
	}
	end := at + 300
	c.runUntil(t, fmt.Sprintf("tic %d everywhere", end), 60000, func() bool { return c.allAt(end) })
	var copies []scenario.Copy
	for i, p := range c.peers {
		rs, starts := since(i, "resumed"), eventsOf(p, "start")
		if strict {
			require.Len(t, rs, 1, "copy %d: resumes", i)
			require.Equal(t, first.Tic, rs[0].Tic, "copy %d: its resume's tic (got), the first resume's (want)", i)
			require.Equal(t, first.ServerUID, rs[0].ServerUID, "copy %d: its resume's server (got), the first resume's (want)", i)
		}
		require.False(t, p.wentBack, "copy %d: gametic went back", i)
		if strict {
			require.Equal(t, 0, p.newClient, "copy %d: clients after the first", i)
			require.Len(t, starts, 1, "copy %d: games started", i)
		}
		if p == hid {
			require.Equal(t, RoleClient, p.s.Role(), "the hidden copy's role")
		}
		if p != hid {
			hand.after = max(hand.after, p.longest)
		}
		// A copy that joined again instead of resuming ran, before, tics
		// the successor may have decided afresh from its resume tic on.
		firstEnd := uint32(0)
		if len(starts) > 1 {
			hand.rejoined++
			if len(rs) == 0 {
				firstEnd = first.Tic
			}
		}
		copies = append(copies, checkedLives(i, p, firstEnd, 0)...)
	}
	// The game's server is the successor that resumed it.
	srv := c.serverOf()
	require.NotNil(t, srv, "the game has no server")
	require.NotSame(t, hid, srv, "the hidden copy serves the game")
	require.Equal(t, first.ServerUID, srv.s.Election().Self().Tie, "the game's server (got), the first resume's (want)")
	require.NoError(t, c.recordErr)
	_, err := scenario.CheckCommandsAgainst(copies, true, c.recordsOf, c.allRecords())
	require.NoError(t, err)
	// On a quiet channel, every tic is compared (on a lossy one, a copy
	// that joined again is compared from where it joined).
	if compared := sameSumsOf(t, copies); strict {
		require.GreaterOrEqual(t, compared, int(end)-10, "tics compared")
	}
	return hand
}

// handOffRun is what handOff measured.
type handOffRun struct {
	gap, after int64
	rejoined   int
	heir       *copyOf // the successor, when handOffCut cut it off
}

// copyWithUID is the copy whose channel UID is uid, if any.
func (c *channelSim) copyWithUID(uid uint32) *copyOf {
	for _, p := range c.peers {
		if uint32(p.s.gameUID()) == uid {
			return p
		}
	}
	return nil
}

// A successor that hears none of the hidden server's Leavings, nor its
// DISCONNECT (every frame from it to the successor lost for 300 ms),
// takes the game over when the others say they follow it (their
// announcements name it), once its server has been silent for two beacon
// periods: at 4 and 8 players, over 6 seeds each, no visible copy waits
// 600 ms for a tic (565-580 ms), and one copy joins the game again (the
// successor resumed without knowing where the stream stopped, and a copy
// held more tics than it). Before, where the successor did not come first
// in an election, the others waited for it until their server timeout,
// elected another, and two copies joined again: 5 045-5 090 ms in 6 of
// those 12 games.
func TestASuccessorThatMissedTheHandOffTakesOverWhenTheOthersNameIt(t *testing.T) {
	for _, n := range []int{4, 8} {
		for seed := uint64(1); seed <= 6; seed++ {
			hand := handOffCut(t, seed, n, simnet.Link{LatencyMS: 2, JitterMS: 2}, 300, 300)
			t.Logf("%d players, seed %d: longest wait for a tic %d ms, copies that joined again %d", n, seed, hand.gap, hand.rejoined)
			require.Equal(t, RoleServer, hand.heir.s.Role(), "%d players, seed %d: the successor's role", n, seed)
			require.Less(t, hand.gap, int64(600), "%d players, seed %d: a visible copy's longest wait for a tic, ms", n, seed)
			require.LessOrEqual(t, hand.rejoined, 1, "%d players, seed %d: copies that joined again", n, seed)
		}
	}
}

// A client whose page is frozen for 5 s falls more than the tic window
// behind, and its server sends it away while the game goes on; when it
// wakes, it takes the DISCONNECT for what it is, and joins the game
// again as its own player (its token), rather than elect a server of
// its own beside the one that serves. The others see no migration.
// Frozen for 2.5 s, within the window, it simply plays on.
func TestAClientThatSleptPastTheWindowJoinsAgain(t *testing.T) {
	for _, sleepMS := range []int64{2500, 5000} {
		t.Run(fmt.Sprintf("slept%dms", sleepMS), func(t *testing.T) { sleepPastTheWindow(t, sleepMS) })
	}
}

// sleepPastTheWindow plays TestAClientThatSleptPastTheWindowJoinsAgain's
// game, its client frozen for sleepMS.
func sleepPastTheWindow(t *testing.T, sleepMS int64) {
	c := launchGame(t, 3, 4, simnet.Link{LatencyMS: 2, JitterMS: 2})
	defer func() {
		if t.Failed() {
			dumpEvents(t, c)
		}
	}()
	c.runUntil(t, "tic 200 everywhere", 60000, func() bool { return c.allAt(200) })
	sleeper := c.aClient()
	srv := c.serverOf()
	sleeper.busyUntil = c.net.Now() + sleepMS
	c.runUntil(t, "the sleeper back at the others' tic", 20000, func() bool {
		return c.net.Now() > sleeper.busyUntil+1000 && c.allAt(srv.s.Client().GameTic()-10)
	})
	end := srv.s.Client().GameTic() + 200
	c.runUntil(t, "200 more tics", 20000, func() bool { return c.allAt(end) })
	wantStarts := 1
	if sleepMS > netcore.BackupTics*1000/netcore.TicRate {
		wantStarts = 2
	}
	require.Same(t, srv, c.serverOf(), "the server changed")
	require.Empty(t, eventsOf(sleeper, "migrating"), "the sleeper's migrating events")
	require.Len(t, eventsOf(sleeper, "start"), wantStarts, "the sleeper's start events")
	if wantStarts == 2 {
		require.Len(t, eventsOf(sleeper, "rejoined"), 1, "the sleeper's rejoined events")
	}
	for i, p := range c.peers {
		if p != sleeper {
			require.Empty(t, eventsOf(p, "migrating"), "copy %d, awake, migrated", i)
		}
	}
	var copies []scenario.Copy
	for i, p := range c.peers {
		copies = append(copies, checkedLives(i, p, 0, 0)...)
	}
	_, err := scenario.CheckCommandsAgainst(copies, true, c.recordsOf, c.allRecords())
	require.NoError(t, err)
	sameSumsOf(t, copies)
}
