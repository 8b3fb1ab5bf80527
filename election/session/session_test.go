package session

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/scenario"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// copyOf is one copy of the game on the simulated channel.
type copyOf struct {
	node   *simnet.Node
	s      *Session
	game   *testgame.Game
	delay  int // its input delay, as its events told it
	events []Event
	times  []int64 // when each event came
	closed bool
	// ticCost: the game time each tic costs, reported to the session
	// (GameTime) after each Update; 0 reports none. ran: how many tics
	// each Update that ran any ran.
	ticCost time.Duration
	ran     []int
	// busyUntil: the copy's page is busy (it neither receives nor runs)
	// until then.
	busyUntil int64
	// hidden: the copy's page is hidden, and runs as a browser lets a
	// hidden page run ticnet: when a frame arrives, and on a timer
	// throttled to once a second; lastRunMS is when it last ran.
	hidden    bool
	lastRunMS int64
	// What the copy's engine did, watched after each Update: its client
	// and the tic its game was at, when its game last ran a tic, the
	// longest it waited for one since channelSim.watchFrom, and whether
	// its gametic ever went back under one client.
	client   *netcore.Client
	gametic  uint32
	ranMS    int64
	longest  int64
	wentBack bool
	// stood: for each "resumed" event, how long the game had stood still
	// at the copy, from the last tic it ran, as the harness saw it.
	stood     []int64
	newClient int // clients after the first that started a game
	// holdLeavingsMS: the server's Leavings reach the copy that much
	// later than the frames sent with them (held); leavingMS is when the
	// first held one came.
	holdLeavingsMS int64
	held           []heldFrame
	leavingMS      int64
}

// heldFrame is a frame held back until atMS.
type heldFrame struct {
	atMS  int64
	frame []byte
}

type channelSim struct {
	net   *simnet.Network
	peers []*copyOf
	seed  uint64
	batch []byte
	// stateBytes sizes the copies' games (testgame.NewSized); 0: the default.
	stateBytes int
	// predict makes the copies predict (Config.Predict).
	predict bool
	// record makes the copies record their games (Config.Replay).
	record bool
	// records are the tic records of every server the copies ran, by tic
	// (each tic's distinct records, and which server sent each); recordErr
	// the first tic a server sent twice differently, or sent differently
	// from another server before it took the game over.
	records   [][]netcore.TicRecord
	recordBy  [][]*netcore.Server
	recordErr error
	// redecided counts the tics a server decided afresh after another had
	// sent them: a resumed server, for tics no copy that stayed gave it,
	// or the servers of a game split in two.
	redecided int
	// watchFrom: the copies' waits for their next tic are measured from
	// then on.
	watchFrom int64
	// views, when set, compares the copies' views of their clients with
	// the clients after every Update (view_test.go).
	views *viewCheck
	// wrap, if set, wraps each copy's game as its session sees it.
	wrap func(*testgame.Game) tic.Game
	// autoDelay makes the copies' servers choose the input delay
	// (Config.AutoDelay).
	autoDelay bool
	// keepStates makes the copies keep their states (Config.KeepStates).
	keepStates bool
}

// simOption sets a channelSim up before its first copy opens.
type simOption func(*channelSim)

func newSim(seed uint64, link simnet.Link, opts ...simOption) *channelSim {
	c := &channelSim{net: simnet.New(seed, link), seed: seed}
	for _, o := range opts {
		o(c)
	}
	return c
}

// add opens a copy at the current time, started at startMS.
func (c *channelSim) add(startMS float64, cadence ElectionCadence) *copyOf {
	return c.addWith(startMS, cadence, [wire.RejoinTokenLen]byte{})
}

// addWith opens a copy that has a rejoin token.
func (c *channelSim) addWith(startMS float64, cadence ElectionCadence, token [wire.RejoinTokenLen]byte) *copyOf {
	return c.addConfigured(startMS, cadence, token, func(*Config) {})
}

// addWatcher opens a copy that watches (Config.Watch).
func (c *channelSim) addWatcher(startMS float64) *copyOf {
	return c.addConfigured(startMS, ElectionLocal, [wire.RejoinTokenLen]byte{}, func(cfg *Config) { cfg.Watch = true })
}

// addConfigured opens a copy whose configuration set changes.
func (c *channelSim) addConfigured(startMS float64, cadence ElectionCadence, token [wire.RejoinTokenLen]byte, set func(*Config)) *copyOf {
	r := rand.New(rand.NewPCG(c.seed, uint64(len(c.peers))+1))
	g := testgame.NewSized(c.seed*100+uint64(len(c.peers)), cmp.Or(c.stateBytes, testgame.DefaultWorldBytes))
	cfg := Config{Name: fmt.Sprintf("copy%d", len(c.peers)), Election: cadence, StartTimeMS: startMS,
		Rand: r.Uint32, Settings: wire.Settings{TicDup: 1, ExtraTics: 1, Episode: 1, Map: 1, NewSync: true, LoadGame: -1},
		Token: token, RecordTics: true, Predict: c.predict, Replay: replay.Config{Record: c.record},
		AutoDelay: netcore.AutoDelay{On: c.autoDelay}, KeepStates: c.keepStates}
	if token == ([wire.RejoinTokenLen]byte{}) { // a key of its own, the same each run
		cfg.Key = auth.KeyFromSecret(fmt.Appendf(nil, "sim %d copy %d", c.seed, len(c.peers)))
	}
	set(&cfg)
	p := &copyOf{node: c.net.AddNode(), game: g}
	var game tic.Game = g
	if c.wrap != nil {
		game = c.wrap(g)
	}
	p.s = New(cfg, game, c.net.Now())
	c.peers = append(c.peers, p)
	return p
}

// followDelay tells the copy's game the commands its engine built itself
// when its input delay grew (an "inputDelay" event), for the checks.
func (p *copyOf) followDelay(e Event) {
	switch e.Kind {
	case "start":
		p.delay = 0 // AutoDelay.Min, as every copy here has it
	case "inputDelay":
		if k := e.Delay - p.delay; k > 0 {
			p.game.Repeated(e.Tic-uint32(k), k)
		}
		p.delay = e.Delay
	}
}

// step advances 5 ms: delivers, updates, sends.
func (c *channelSim) step() {
	now := c.net.Now() + 5
	c.net.AdvanceTo(now)
	for i, p := range c.peers {
		if p.closed || now < p.busyUntil || p.hidden && !p.node.Pending() && now-p.lastRunMS < 1000 {
			continue
		}
		p.lastRunMS = now
		for f, ok := p.node.Receive(); ok; f, ok = p.node.Receive() {
			if p.holdLeavingsMS > 0 && scenario.IsLeaving(f) {
				p.held = append(p.held, heldFrame{atMS: now + p.holdLeavingsMS, frame: bytes.Clone(f)})
				continue
			}
			p.s.Deliver(f)
		}
		for len(p.held) > 0 && p.held[0].atMS <= now {
			p.s.Deliver(p.held[0].frame)
			p.held = p.held[1:]
			p.leavingMS = cmp.Or(p.leavingMS, now)
		}
		var before int64
		if cl := p.s.Client(); cl != nil {
			before = cl.Counters().TicsRun
		}
		for _, e := range p.s.Update(now) {
			p.events = append(p.events, e)
			p.times = append(p.times, now)
			p.followDelay(e)
			if e.Kind == "resumed" && p.ranMS > 0 {
				// The game stood still from the last tic it ran.
				p.stood = append(p.stood, now-p.ranMS)
			}
		}
		if c.views != nil {
			c.views.check(now, i, p.s)
		}
		if cl := p.s.Client(); cl != nil {
			ran := int(cl.Counters().TicsRun - before)
			if ran > 0 {
				p.ran = append(p.ran, ran)
			}
			if p.ticCost > 0 {
				p.s.GameTime(int64(time.Duration(ran) * p.ticCost))
			}
			p.watch(now, c.watchFrom)
		}
		if srv := p.s.Server(); srv != nil {
			c.keepRecords(srv)
		}
		c.batch = p.s.AppendOutgoing(c.batch[:0])
		for b := c.batch; len(b) >= 4; {
			n := int(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
			p.node.Broadcast(b[4 : 4+n])
			b = b[4+n:]
		}
	}
}

// watch notes what the copy's engine did in the Update at now.
func (p *copyOf) watch(now, from int64) {
	cl := p.s.Client()
	g := cl.GameTic()
	if cl != p.client {
		if p.client != nil && cl.GameTic() > 0 {
			p.newClient++
		}
		p.client, p.gametic = cl, g
		return
	}
	if g < p.gametic {
		p.wentBack = true
	}
	if g > p.gametic {
		if now >= from && p.ranMS > 0 {
			p.longest = max(p.longest, now-p.ranMS)
		}
		p.ranMS = now
	}
	p.gametic = g
}

// keepRecords keeps a server's tic records, by tic.
func (c *channelSim) keepRecords(srv *netcore.Server) {
	for _, r := range srv.TicRecords() {
		if n := int(r.Tic) + 1; n > len(c.records) {
			c.records = append(c.records, make([][]netcore.TicRecord, n-len(c.records))...)
			c.recordBy = append(c.recordBy, make([][]*netcore.Server, n-len(c.recordBy))...)
		}
		if slices.Contains(c.records[r.Tic], r) {
			continue
		}
		for _, by := range c.recordBy[r.Tic] {
			if (by == srv || r.Tic < srv.ResumedAt()) && c.recordErr == nil {
				c.recordErr = fmt.Errorf("tic %d was sent twice: %+v, then %+v", r.Tic, c.records[r.Tic], r)
			}
		}
		if len(c.records[r.Tic]) > 0 {
			c.redecided++
		}
		c.records[r.Tic] = append(c.records[r.Tic], r)
		c.recordBy[r.Tic] = append(c.recordBy[r.Tic], srv)
	}
}

// recordsOf returns the records of tic.
func (c *channelSim) recordsOf(tic uint32) []netcore.TicRecord {
	if int(tic) < len(c.records) {
		return c.records[tic]
	}
	return nil
}

// allRecords returns every record.
func (c *channelSim) allRecords() []netcore.TicRecord {
	var all []netcore.TicRecord
	for _, rs := range c.records {
		all = append(all, rs...)
	}
	return all
}

func (c *channelSim) runUntil(t testing.TB, what string, maxMS int64, done func() bool) {
	t.Helper()
	end := c.net.Now() + maxMS
	for !done() {
		if c.net.Now() > end {
			t.Fatalf("%s: not within %d ms; %s", what, maxMS, c.describe())
		}
		c.step()
	}
}

func (c *channelSim) describe() string {
	d := ""
	for i, p := range c.peers {
		st := "-"
		if cl := p.s.Client(); cl != nil {
			st = fmt.Sprintf("%v/%d players/tic %d", cl.State(), len(cl.Lobby().Players), cl.GameTic())
		}
		d += fmt.Sprintf(" [%d %v closed=%v %s]", i, p.s.Role(), p.closed, st)
	}
	return d
}

func (c *channelSim) open() []*copyOf {
	var o []*copyOf
	for _, p := range c.peers {
		if !p.closed {
			o = append(o, p)
		}
	}
	return o
}

// oneLobby reports whether the open copies have one server and all sit in
// its lobby.
func (c *channelSim) oneLobby() bool {
	open := c.open()
	servers := 0
	for _, p := range open {
		if p.s.Role() == RoleServer {
			servers++
		}
		cl := p.s.Client()
		if cl == nil || cl.State() != netcore.ClientWaitingLaunch || len(cl.Lobby().Players) != len(open) {
			return false
		}
	}
	return servers == 1
}

func (c *channelSim) controller() *copyOf {
	for _, p := range c.open() {
		if p.s.Client().Lobby().IsController {
			return p
		}
	}
	return nil
}

func (c *channelSim) allAt(tic uint32) bool {
	for _, p := range c.open() {
		if p.s.Client() == nil || p.s.Client().GameTic() < tic {
			return false
		}
	}
	return true
}

func sameSums(t *testing.T, peers []*copyOf, want int) {
	t.Helper()
	compared := 0
	for tic := 0; ; tic++ {
		var ref uint32
		n := 0
		for _, p := range peers {
			if s := p.game.Sums(); tic < len(s) {
				if n == 0 {
					ref = s[tic]
				} else {
					require.Equal(t, ref, s[tic], "tic %d differs", tic)
				}
				n++
			}
		}
		if n == 0 {
			break
		}
		if n > 1 {
			compared++
		}
	}
	require.GreaterOrEqual(t, compared, want, "tics compared")
}

// launchFour opens four copies 50 ms apart, waits for one server and one
// lobby, and has the controller launch.
func (c *channelSim) launchFour(t *testing.T) {
	t.Helper()
	for i := range 4 {
		c.add(1000+float64(i*37), ElectionLocal)
		for range 10 {
			c.step()
		}
	}
	c.runUntil(t, "one server, one lobby", 5000, c.oneLobby)
	c.controller().s.Launch()
}

func TestCopiesElectOneServerPlayAndSurviveTheServerLeaving(t *testing.T) {
	c := newSim(1, simnet.Link{LatencyMS: 2, JitterMS: 2})
	c.launchFour(t)
	c.runUntil(t, "400 tics everywhere", 30000, func() bool { return c.allAt(400) })
	sameSums(t, c.open(), 400)
	for _, p := range c.open() {
		require.True(t, p.s.Client().Extended(), "browser copies did not negotiate the extension")
	}
	// The server's tab closes.
	var server *copyOf
	for _, p := range c.open() {
		if p.s.Role() == RoleServer {
			server = p
		}
	}
	server.closed = true
	server.node.SetSilent(true)
	closedAt := c.net.Now()
	c.runUntil(t, "the game resumed under a new server", 10000, func() bool {
		for _, p := range c.open() {
			if len(eventsOf(p, "resumed")) == 0 {
				return false
			}
		}
		return true
	})
	took := c.net.Now() - closedAt
	t.Logf("the game resumed %d ms after the server closed", took)
	require.LessOrEqual(t, took, netcore.BrowserTimeouts.TimeoutMS+500, "ms from the server closing to the game resuming")
	target := c.open()[0].s.Client().GameTic() + 100
	c.runUntil(t, "100 more tics everywhere", 30000, func() bool { return c.allAt(target) })
	sameSums(t, c.open(), int(target))
}

// compareRan fails unless every tic the joiner ran has the same checksum
// at every other copy, and it ran 100 tics at least.
func compareRan(t *testing.T, joiner *copyOf, others []*copyOf) {
	t.Helper()
	ran, sums := joiner.game.Ran(), joiner.game.Sums()
	n := 0
	for tic := range ran.Len() {
		if _, _, ok := ran.Head(uint32(tic)); !ok {
			continue
		}
		n++
		for _, p := range others {
			if o := p.game.Sums(); tic < len(o) && p.game.Ran().At(uint32(tic)).OK {
				require.Equal(t, sums[tic], o[tic], "tic %d differs", tic)
			}
		}
	}
	require.GreaterOrEqual(t, n, 100, "tics the joiner ran")
}

// eventsOf returns a copy's events of kind.
func eventsOf(p *copyOf, kind string) []Event { return eventsFrom(p, 0, kind) }

// eventsFrom returns a copy's events of kind from its from-th event on.
func eventsFrom(p *copyOf, from int, kind string) []Event {
	var out []Event
	for _, e := range p.events[from:] {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func TestCopyOpenedDuringTheGameJoinsItAtTheTicEveryCopyReports(t *testing.T) {
	c := newSim(3, simnet.Link{LatencyMS: 2, JitterMS: 2})
	c.stateBytes = 200 << 10 // thirteen 16 KB chunks through the session's inbox
	c.launchFour(t)
	c.runUntil(t, "300 tics everywhere", 30000, func() bool { return c.allAt(300) })
	players := c.open()

	late := c.add(5000, ElectionLocal)
	c.runUntil(t, "the late copy in the game", 20000, func() bool {
		cl := late.s.Client()
		return len(eventsOf(late, "start")) > 0 && cl != nil && !cl.Joining() && len(eventsOf(late, "join")) > 0
	})
	target := late.s.Client().GameTic() + 200
	c.runUntil(t, "200 more tics everywhere", 30000, func() bool { return c.allAt(target) })

	starts := eventsOf(late, "start")
	require.Len(t, starts, 1, "the late copy's starts")
	require.True(t, starts[0].Joined, "the late copy's start: %+v", starts[0])
	require.NotZero(t, starts[0].Tic, "the late copy's start: %+v", starts[0])
	require.Equal(t, 4, *starts[0].Player, "the late copy's player")
	require.Equal(t, netcore.TicRate, starts[0].TicRate, "the late copy's start: tics a second")
	from := starts[0].Tic
	tics, bytes := false, false
	for _, e := range eventsOf(late, "catchup") {
		require.Equal(t, from, e.Tic, "catchup event %+v", e)
		require.LessOrEqual(t, e.Done, e.Total, "catchup event %+v", e)
		require.Contains(t, []string{"bytes", "tics"}, e.Unit, "catchup event %+v", e)
		tics = tics || e.Unit == "tics" && e.Done == e.Total
		bytes = bytes || e.Unit == "bytes" && e.Total > int64(c.stateBytes)
	}
	require.True(t, tics, "no catchup event says every tic is done: %+v", eventsOf(late, "catchup"))
	require.True(t, bytes, "no catchup event counts the state's bytes: %+v", eventsOf(late, "catchup"))
	entered := eventsOf(late, "join")[0].Tic
	for i, p := range append(players, late) {
		joins := eventsOf(p, "join")
		require.Len(t, joins, 1, "copy %d: joins", i)
		require.Equal(t, 4, *joins[0].Player, "copy %d: the player who joined", i)
		require.Equal(t, entered, joins[0].Tic, "copy %d: the tic player 4 joined at", i)
		require.Len(t, eventsOf(p, "start"), 1, "copy %d restarted: %+v", i, p.events)
		require.Empty(t, eventsOf(p, "disconnect"), "copy %d left: %+v", i, p.events)
	}
	// The late copy ran every tic from the snapshot's on (the start tic,
	// or a later one), in step.
	compareRan(t, late, players)
	require.NotZero(t, late.s.Stats().TransferBytesIn, "the late copy's stats count no transfer bytes")
	t.Logf("joined from tic %d, entered at tic %d", from, entered)
}

// A copy that reaches the server while it starts the game (after LAUNCH,
// before the game runs) is refused, as the reference refuses it; it says
// so, tries again, and joins the game in progress: nobody is left at tic 0.
func TestCopyRefusedAtTheStartTriesAgainAndJoins(t *testing.T) {
	c := newSim(4, simnet.Link{LatencyMS: 50, JitterMS: 100})
	for i := range 4 {
		c.add(1000+float64(i*37), ElectionLocal)
		for range 10 {
			c.step()
		}
	}
	c.runUntil(t, "one server, one lobby", 10000, c.oneLobby)
	players := c.open()
	late := c.add(5000, ElectionLocal)
	c.runUntil(t, "the late copy in the lobby", 10000, func() bool {
		cl := late.s.Client()
		return cl != nil && cl.State() == netcore.ClientWaitingLaunch
	})
	// A sixth copy arrives while the game starts.
	c.controller().s.Launch()
	refused := c.add(6000, ElectionLocal)
	c.runUntil(t, "the refused copy playing", 30000, func() bool {
		return len(eventsOf(refused, "join")) > 0 && refused.s.Client() != nil && !refused.s.Client().Joining()
	})
	// Else the test did not hit the start.
	require.NotEmpty(t, eventsOf(refused, "rejected"), "the copy was not refused: %+v", refused.events)
	require.NotEmpty(t, eventsOf(refused, "retry"), "the copy did not retry: %+v", refused.events)
	starts := eventsOf(refused, "start")
	require.Len(t, starts, 1, "the refused copy's starts")
	require.True(t, starts[0].Joined, "the refused copy's start: %+v", starts[0])
	target := refused.s.Client().GameTic() + 100
	c.runUntil(t, "100 more tics everywhere", 30000, func() bool { return c.allAt(target) })
	compareRan(t, refused, append(players, late))
	t.Logf("refused %q, retried, joined from tic %d", eventsOf(refused, "rejected")[0].Reason, starts[0].Tic)
}

// A copy catching up a game in progress whose tics cost 10 ms each runs
// them 4 at a time (PassWorkNS / 10 ms), not 128, once it has measured one
// pass (the first runs firstTicsPerPass at most): its page stays
// responsive.
func TestCatchingUpRunsAPassWorthOfTicsAtATime(t *testing.T) {
	c := newSim(5, simnet.Link{LatencyMS: 2, JitterMS: 2})
	c.stateBytes = 200 << 10
	c.launchFour(t)
	c.runUntil(t, "300 tics everywhere", 30000, func() bool { return c.allAt(300) })
	late := c.add(5000, ElectionLocal)
	late.ticCost = 10 * time.Millisecond
	c.runUntil(t, "the late copy told it joins", 10000, func() bool { return len(eventsOf(late, "start")) > 0 })
	// Its page is busy for two seconds: it is 70 tics behind.
	late.busyUntil = c.net.Now() + 2000
	c.runUntil(t, "the late copy in the game", 30000, func() bool {
		cl := late.s.Client()
		return cl != nil && !cl.Joining() && len(eventsOf(late, "join")) > 0
	})
	target := late.s.Client().GameTic() + 100
	c.runUntil(t, "100 more tics everywhere", 30000, func() bool { return c.allAt(target) })
	compareRan(t, late, c.open()[:4])
	want := int(PassWorkNS / late.ticCost.Nanoseconds())
	most, atCap := 0, 0
	for _, n := range late.ran[1:] {
		most = max(most, n)
		if n == want {
			atCap++
		}
	}
	require.LessOrEqual(t, late.ran[0], firstTicsPerPass, "the late copy's first pass: tics per pass %v", late.ran)
	require.Equal(t, want, most, "the late copy's most tics in a pass after the first: tics per pass %v", late.ran)
	require.Equal(t, want, late.s.Stats().TicsPerUpdate, "the late copy's stats: most tics in a pass")
	require.GreaterOrEqual(t, atCap, 5, "passes at the bound: the late copy ran %v tics per pass", late.ran)
	t.Logf("tics per pass while catching up: %v", late.ran[:atCap+1])
	st := late.s.Stats()
	require.Positive(t, st.TransferMS, "join stats: transfer ms")
	require.GreaterOrEqual(t, st.JoinMS, st.TransferMS, "join stats: join ms, at least the transfer's")
}

// A copy that left a game in progress and comes back as a new copy (a new
// UID) with its token gets its player back, and says so; a copy with the
// token of a player still connected joins as a new player.
func TestCopyBackWithItsTokenGetsItsPlayerBack(t *testing.T) {
	c := newSim(6, simnet.Link{LatencyMS: 2, JitterMS: 2})
	token := func(i byte) (t [wire.RejoinTokenLen]byte) { t[0], t[15] = i, 0xa5; return }
	for i := range 4 {
		c.addWith(1000+float64(i*37), ElectionLocal, token(byte(i+1)))
		for range 10 {
			c.step()
		}
	}
	c.runUntil(t, "one server, one lobby", 5000, c.oneLobby)
	c.controller().s.Launch()
	c.runUntil(t, "300 tics everywhere", 30000, func() bool { return c.allAt(300) })
	var leaver *copyOf
	at := -1
	for i, p := range c.open() {
		if p.s.Role() == RoleClient {
			leaver, at = p, i
			break
		}
	}
	player := leaver.s.Client().Player()
	leaver.s.Leave(c.net.Now())
	c.step()
	leaver.closed = true
	leaver.node.SetSilent(true)
	c.runUntil(t, "the leave seen", 5000, func() bool {
		for _, p := range c.open() {
			if len(eventsOf(p, "leave")) == 0 {
				return false
			}
		}
		return true
	})

	back := c.addWith(6000, ElectionLocal, token(byte(at+1)))
	twin := c.addWith(6001, ElectionLocal, token(1+byte((at+1)%4)))
	c.runUntil(t, "both back in the game", 30000, func() bool {
		return len(eventsOf(back, "join")) > 0 && len(eventsOf(twin, "join")) > 0 &&
			!back.s.Client().Joining() && !twin.s.Client().Joining()
	})
	starts, rejoined := eventsOf(back, "start"), eventsOf(back, "rejoined")
	require.Len(t, starts, 1, "the copy back with its token: starts")
	require.True(t, starts[0].Rejoined, "the copy back with its token: start %+v", starts[0])
	require.Equal(t, player, *starts[0].Player, "the copy back with its token: its start's player")
	require.Len(t, rejoined, 1, "the copy back with its token: rejoined events")
	require.Equal(t, player, *rejoined[0].Player, "the copy back with its token: its rejoined event's player")
	// The copy with a connected player's token is a new player 4.
	ts := eventsOf(twin, "start")
	require.Len(t, ts, 1, "the copy with a connected player's token: starts")
	require.False(t, ts[0].Rejoined, "the copy with a connected player's token: start %+v", ts[0])
	require.Equal(t, 4, *ts[0].Player, "the copy with a connected player's token: its player")
	require.Empty(t, eventsOf(twin, "rejoined"), "the copy with a connected player's token: rejoined events")
	target := back.s.Client().GameTic() + 100
	c.runUntil(t, "100 more tics everywhere", 30000, func() bool { return c.allAt(target) })
	compareRan(t, back, c.open())
	compareRan(t, twin, c.open())
}
