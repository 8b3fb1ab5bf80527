//go:build js && wasm

// Command wasm is ticnet.wasm: the only Go that touches the browser. It
// binds the channel shim (js/shim.js) to a session (election and engine,
// package session) and exports the API that js/ticnet.js wraps.
//
// The session runs on a timer (the page's setInterval, clock.go),
// independent of rendering. Each pass pulls every queued frame from the
// shim with one call and one copy, and pushes its outgoing frames with one
// copy and one call, through two Uint8Arrays made once (jsbuf.go): calls
// from JS into Go cost about 12 µs each, so there are none per packet.
// Functions JS calls (launch, leave, stats) never block: they post a
// request the loop takes on its next pass, or read the last snapshot. It
// also plays replay files back into the page's game (replay.go), which
// needs no shim. What it hands the page (events, stats, results) are JS
// objects it builds (js.go): no JSON either side.
package main

import (
	"encoding/binary"
	"sync/atomic"
	"syscall/js"

	"github.com/ticnet/ticnet/election/session"
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/synctest"
	"github.com/ticnet/ticnet/netcore/wire"
)

// launchReq is a launch the page asked for: the seed and options every
// copy gets in its "start" event.
type launchReq struct {
	seed    uint32
	options []byte
}

// passMS is the net loop's period. Browsers clamp timers near 4 ms.
const passMS = 5

// loop is the state the net loop owns.
type loop struct {
	// The shim's functions and the page's onEvent, looked up once.
	drain, sendBatch, setBuffers, setUIDs, onEvent js.Value

	game    *jsGame
	s       *session.Session
	start   int64 // nanotime
	in, out []byte
	// inbox and outbox carry them across, each way.
	inbox, outbox jsBuf
	times         netTimes // the netcode's time of the last passes
	rates         rateWindow
	uid           uint32 // the UID the shim's filter was last given
	n             int    // passes run

	launch atomic.Pointer[launchReq] // the page asked to launch
	leave  atomic.Bool
	end    atomic.Bool                   // the page asked to end the game
	failed bool                          // the game's callback threw, and the copy left (fail)
	stats  atomic.Pointer[session.Stats] // the last published; nil: none yet
	// lastPass is when the last pass began (a nanotime): a hidden page's
	// timers run once a second at best, so the shim wakes the loop when a
	// frame arrives (wake).
	lastPass int64
}

func (l *loop) now() int64 { return since(l.start) / 1e6 }

func (l *loop) pass() {
	began := nanotime()
	l.lastPass = began
	now := l.now()
	if r := l.launch.Swap(nil); r != nil {
		l.s.LaunchWith(r.seed, r.options)
	}
	if l.leave.Swap(false) {
		l.s.Leave(now)
	}
	if l.end.Swap(false) {
		l.s.RequestEnd()
	}
	for b := l.pull(); len(b) >= 4; {
		k := int(binary.LittleEndian.Uint32(b))
		if k > len(b)-4 {
			break
		}
		l.s.Deliver(b[4 : 4+k])
		b = b[4+k:]
	}
	events := l.s.Update(now)
	l.s.GameTime(l.game.spent) // before the events: their handlers are the page's, not the game's
	l.emit(events)
	if l.game.err != nil && !l.failed {
		l.fail(now)
	}
	l.filter()
	l.flush()
	l.times.add(since(began)-l.game.spent, l.s.Ran())
	l.game.spent = 0
}

// fail leaves the game of a copy whose game's callback threw: what the
// pass queued is dropped (it may carry checksums of a state the failure
// broke), the copy says goodbye, and the page gets an "error" event (the
// JS side adds which callback, the tic and the exception).
func (l *loop) fail(now int64) {
	l.failed = true
	l.out = l.s.AppendOutgoing(l.out[:0])
	l.s.Leave(now)
	l.emit([]session.Event{{Kind: "error", Reason: l.game.err.Error()}})
}

// emit hands the page the session's events.
func (l *loop) emit(events []session.Event) {
	for _, e := range events {
		call(l.onEvent, eventObject(e))
	}
}

// pull takes every frame queued in the shim, laid out as its drain writes
// them: one call, and one more to copy them (three more when the inbox
// must grow first).
func (l *loop) pull() []byte {
	v, err := call(l.drain)
	if err != nil {
		return nil
	}
	n := integer(v)
	if n > l.inbox.n {
		if l.fit(&l.inbox, n) != nil {
			return nil
		}
		if v, err = call(l.drain); err != nil {
			return nil
		}
		n = integer(v)
	}
	if n <= 0 || n > l.inbox.n {
		return nil
	}
	if cap(l.in) < n {
		l.in = make([]byte, n)
	}
	l.in = l.in[:n]
	if _, err := copyToGo(l.in, l.inbox.v); err != nil {
		return nil
	}
	return l.in
}

// flush pushes the session's outgoing frames to the shim: one call to
// copy them into the outbox, one to send them.
func (l *loop) flush() {
	l.out = l.s.AppendOutgoing(l.out[:0])
	if len(l.out) == 0 || l.fit(&l.outbox, len(l.out)) != nil {
		return
	}
	if _, err := copyToJS(l.outbox.v, l.out); err == nil {
		call(l.sendBatch, len(l.out))
	}
}

// fit makes the inbox or the outbox at least n bytes long, and gives the
// shim the new one when it grows.
func (l *loop) fit(b *jsBuf, n int) error {
	grew, err := b.fit(n)
	if grew {
		_, err = call(l.setBuffers, l.inbox.v, l.outbox.v)
	}
	return err
}

// filter tells the shim which UIDs to keep frames for, when they change.
func (l *loop) filter() {
	uids := l.s.UIDs()
	if uids[0] == l.uid { // the candidate address never changes
		return
	}
	l.uid = uids[0]
	call(l.setUIDs, newArray(uids))
}

// rateWindow turns counters into per-second rates.
type rateWindow struct {
	at   int64
	last session.Stats
	rate [4]int64 // frames in, frames out, bytes in, bytes out per second
	// the netcode's times, µs, as of the last second (the browser's clock
	// is coarse: Chromium rounds performance.now() to 100 µs in a page
	// that is not cross-origin isolated, to 5 µs in one that is)
	passMedian, passP99, passMean float64
	ticMedian, ticP99             float64 // per tic run
}

func (l *loop) publish() {
	st := l.s.Stats()
	now := l.now()
	if dt := now - l.rates.at; dt >= 1000 {
		r := &l.rates
		r.rate = [4]int64{(st.FramesIn - r.last.FramesIn) * 1000 / dt, (st.FramesOut - r.last.FramesOut) * 1000 / dt,
			(st.BytesIn - r.last.BytesIn) * 1000 / dt, (st.BytesOut - r.last.BytesOut) * 1000 / dt}
		r.at, r.last = now, st
		r.passMedian, r.passP99, r.passMean = l.times.passes.percentiles()
		r.ticMedian, r.ticP99, _ = l.times.tics.percentiles()
	}
	st.PassMedianUS, st.PassP99US, st.PassMeanUS = int64(l.rates.passMedian), int64(l.rates.passP99), l.rates.passMean
	st.TicMedianUS, st.TicP99US = l.rates.ticMedian, l.rates.ticP99
	st.FramesInPerSec, st.FramesOutPerSec, st.BytesInPerSec, st.BytesOutPerSec =
		l.rates.rate[0], l.rates.rate[1], l.rates.rate[2], l.rates.rate[3]
	l.stats.Store(&st)
}

// tick is one pass of the loop, and every 20th publishes the stats.
func (l *loop) tick() {
	l.pass()
	if l.n++; l.n%20 == 0 {
		l.publish()
	}
}

// run starts the loop: a pass every passMS on the page's timer. A pass
// runs in the timer's callback: calls from JS into Go cost about what a
// Go timer's wake-up does.
func (l *loop) run() {
	js.Global().Call("setInterval", js.FuncOf(func(js.Value, []js.Value) any { l.tick(); return nil }), passMS)
}

// config is the session's configuration from the page's (ticnet.js has
// checked it): an object with name, maxPlayers, profile ("local",
// "gossip"), timeout ("browser", "reference"), startTime, token (32 hex
// digits; "" for none), predict, record, predictTics, inputSize (0:
// Doom's ticcmd), ticRate (0: 35), eventBits (per byte of the input) and
// settings (extraTics, deathmatch, episode, map, skill, timeLimit; each
// may be absent).
func config(page js.Value) session.Config {
	c := session.Config{Name: page.Get("name").String(), MaxPlayers: integer(page.Get("maxPlayers")),
		StartTimeMS: number(page.Get("startTime")), Election: session.ElectionLocal, Timeouts: netcore.BrowserTimeouts}
	c.Predict, c.PredictTics = page.Get("predict").Truthy(), integer(page.Get("predictTics"))
	c.Replay.Record = page.Get("record").Truthy()
	c.Input = layout(page)
	c.TicRate = integer(page.Get("ticRate"))
	if page.Get("profile").String() == "gossip" {
		c.Election = session.ElectionGossip
	}
	if page.Get("timeout").String() == "reference" {
		c.Timeouts = netcore.ReferenceTimeouts
	}
	if t, ok := fromHex(page.Get("token").String()); ok && len(t) == len(c.Token) {
		copy(c.Token[:], t)
	}
	st := &c.Settings
	st.TicDup, st.ExtraTics, st.Episode, st.Map, st.Skill, st.LoadGame, st.NewSync = 1, 1, 1, 1, 2, -1, true
	st.GameVersion = 4
	set := page.Get("settings")
	if set.Type() != js.TypeObject {
		return c
	}
	if v := set.Get("extraTics"); v.Type() == js.TypeNumber {
		st.ExtraTics = uint8(v.Int())
	}
	if v := set.Get("skill"); v.Type() == js.TypeNumber {
		st.Skill = int8(v.Int())
	}
	if v := integer(set.Get("episode")); v > 0 {
		st.Episode = uint8(v)
	}
	if v := integer(set.Get("map")); v > 0 {
		st.Map = uint8(v)
	}
	st.Deathmatch, st.TimeLimit = uint8(integer(set.Get("deathmatch"))), uint32(integer(set.Get("timeLimit")))
	return c
}

// fromHex decodes hex digits (either case); ok is false on any other
// text, or an odd count.
func fromHex(s string) (b []byte, ok bool) {
	if len(s)%2 != 0 {
		return nil, false
	}
	digit := func(c byte) (byte, bool) {
		switch {
		case '0' <= c && c <= '9':
			return c - '0', true
		case 'a' <= c && c <= 'f':
			return c - 'a' + 10, true
		case 'A' <= c && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	b = make([]byte, len(s)/2)
	for i := range b {
		hi, ok1 := digit(s[2*i])
		lo, ok2 := digit(s[2*i+1])
		if !ok1 || !ok2 {
			return nil, false
		}
		b[i] = hi<<4 | lo
	}
	return b, true
}

// syncTest runs synctest.Run on the game of args[1] (the callbacks start
// takes, save and load included) as args[0] (an object: tics, rollback,
// players, inputSize, eventBits) says, and returns its synctest.Result.
func syncTest(args []js.Value) any {
	res := synctest.Result{StateOffset: -1, Message: "syncTest: a bad config, or a game without save and load"}
	if len(args) == 2 && args[0].Type() == js.TypeObject && isFunc(args[1], "save") && isFunc(args[1], "load") {
		g, jg := newGame(args[1], layout(args[0]))
		if sg, ok := g.(synctest.Game); ok {
			c := synctest.Config{Tics: integer(args[0].Get("tics")), Rollback: integer(args[0].Get("rollback")),
				Players: integer(args[0].Get("players")), InputSize: jg.layout.Size}
			res = synctest.ResultOf(c, synctest.Run(sg, c))
			if jg.err != nil {
				res = synctest.Result{StateOffset: -1, Message: "syncTest: a callback failed: " + jg.err.Error()}
			}
		}
	}
	o := newObject()
	o.Set("ok", res.OK)
	o.Set("tics", res.Tics)
	o.Set("tic", res.Tic)
	o.Set("at", res.At)
	o.Set("checksum", res.Checksum)
	o.Set("rerun", res.Rerun)
	o.Set("stateOffset", res.StateOffset)
	o.Set("message", res.Message)
	return o
}

func main() {
	l := &loop{start: nanotime()}
	started := false
	api := map[string]func(args []js.Value) any{
		// start needs the shim (shim.js); a page that only plays replays
		// back or checks its game does not.
		"start": func(args []js.Value) any {
			shim := js.Global().Get("__ticnetShim")
			if started || len(args) < 2 || shim.Type() != js.TypeObject || args[0].Type() != js.TypeObject || args[1].Type() != js.TypeObject {
				return false
			}
			game, jg := newGame(args[1], layout(args[0]))
			l.drain, l.sendBatch, l.setUIDs = method(shim, "drain"), method(shim, "sendBatch"), method(shim, "setUIDs")
			l.setBuffers = method(shim, "setBuffers")
			if _, err := l.inbox.fit(jsBufMin); err != nil {
				return false
			}
			if err := l.fit(&l.outbox, jsBufMin); err != nil {
				return false
			}
			started = true
			l.onEvent = method(args[1], "onEvent")
			l.game = jg
			l.s = session.New(config(args[0]), game, l.now())
			l.filter()
			l.run() // the loop runs on the page's timer: nothing here blocks
			return true
		},
		// launch(seed, options): options a Uint8Array (ticnet.js encodes them).
		"launch": func(args []js.Value) any {
			r := &launchReq{}
			if len(args) == 2 {
				r.seed = uint32(int64(number(args[0])))
				if args[1].Type() == js.TypeObject {
					if n := integer(args[1].Get("length")); n > 0 {
						r.options = make([]byte, min(n, wire.MaxLaunchOptions))
						copyToGo(r.options, args[1])
					}
				}
			}
			l.launch.Store(r)
			return nil
		},
		"leave": func([]js.Value) any { l.leave.Store(true); return nil },
		"end":   func([]js.Value) any { l.end.Store(true); return nil },
		// leaveNow says goodbye at once, for a page that is going away and
		// will run no further pass: the DISCONNECTs go out in this call.
		// The loop runs only on the page's timer, so the session is not in
		// use; nothing here blocks.
		"leaveNow": func([]js.Value) any {
			if l.s != nil {
				l.s.Leave(l.now())
				l.s.Update(l.now())
				l.flush()
			}
			return nil
		},
		"stats": func([]js.Value) any { return statsObject(l.stats.Load()) },
		// replay returns a copy of this copy's replay file (a new
		// Uint8Array), or null when it records none. The loop runs only on
		// the page's timer, so the session is not in use.
		"replay": func([]js.Value) any {
			if l.s == nil || l.s.Replay() == nil {
				return nil
			}
			buf, err := newBytes(l.s.Replay())
			if err != nil {
				return nil
			}
			return buf
		},
		// syncTest runs synctest on the page's game (its callbacks, as
		// start takes them) and returns the result. It runs in this call:
		// the page waits for it.
		"syncTest": syncTest,
		// The playback of a replay (replay.go): each runs in its call.
		"replayOpen":  replayOpen,
		"replayRun":   replayRun,
		"replaySeek":  replaySeek,
		"replayClose": replayClose,
		// setHidden says whether the page is hidden, frozen or being
		// closed for a while (persisted pagehide). A hidden server hands
		// its game over at once, in this call: the page may run nothing
		// more for a second, or ever. The loop runs only on the page's
		// timer, so the session is not in use.
		"setHidden": func(args []js.Value) any {
			if l.s == nil || len(args) < 1 || args[0].Type() != js.TypeBoolean {
				return nil
			}
			on := args[0].Bool()
			l.s.SetHidden(on)
			if on {
				l.pass()
			}
			return nil
		},
		// wake runs a pass now, unless one ran less than passMS ago: the
		// shim calls it when a frame arrives for a hidden page, whose
		// timers are throttled.
		"wake": func([]js.Value) any {
			if l.s != nil && since(l.lastPass) >= passMS*1e6 {
				l.tick()
			}
			return nil
		},
	}
	obj := newObject()
	for name, fn := range api {
		obj.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any { return fn(args) }))
	}
	js.Global().Set("__ticnetGo", obj)
	select {} // the loop and the callbacks run on; main must not return
}
