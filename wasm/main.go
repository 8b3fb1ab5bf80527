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
// objects it builds (js.go): no JSON either side. Every crossing goes
// through safejs: what JS throws is an error, which ends the copy's game
// with an "error" event (loop.fail), never a panic.
package main

import (
	"encoding/binary"
	"errors"
	"sync/atomic"

	"github.com/hack-pad/safejs"

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
	drain, sendBatch, setBuffers, setUIDs, onEvent safejs.Value

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
	failed bool                          // the game's callback or the shim threw, and the copy left (fail)
	stats  atomic.Pointer[session.Stats] // the last published; nil: none yet
	// err is the first error of a crossing outside the game's callbacks
	// (the shim's functions, onEvent, the objects built for the page):
	// the next pass fails the game with it.
	err error
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
	if (l.game.err != nil || l.err != nil) && !l.failed {
		l.fail(now)
	}
	l.filter()
	l.flush()
	l.times.add(since(began)-l.game.spent, l.s.Ran())
	l.game.spent = 0
}

// fail leaves the game of a copy whose game's callback threw, or whose
// shim did: what the pass queued is dropped (it may carry checksums of a
// state the failure broke), the copy says goodbye, and the page gets an
// "error" event (for a callback, the JS side adds which, the tic and the
// exception; for the shim, its reason names the function that threw).
func (l *loop) fail(now int64) {
	l.failed = true
	l.out = l.s.AppendOutgoing(l.out[:0])
	l.s.Leave(now)
	err := l.game.err
	if err == nil {
		err = l.err
	}
	l.emit([]session.Event{l.failure(err)})
}

// failure is the "error" event of a game that failed with err: which of
// its callbacks threw, at which tic, and the exception, as ticnet.js's
// guard kept them (the first); without one (the channel failed, or
// copying across did), callback and stack are "", tic 0 and the message
// err's.
func (l *loop) failure(err error) session.Event {
	e := session.Event{Kind: "error", Reason: err.Error(), Message: err.Error()}
	var x errs
	if f := x.get(l.game.cb, "failure"); f.Type() == safejs.TypeObject {
		e.Callback, e.Tic = text(x.get(f, "callback")), uint32(integer(x.get(f, "tic")))
		e.Message, e.Stack = text(x.get(f, "message")), text(x.get(f, "stack"))
	}
	l.crossed("failure", x.err)
	return e
}

// crossed keeps err, an error of the crossing what (a function of the
// shim's or the page's), as the loop's first.
func (l *loop) crossed(what string, err error) {
	if err != nil && l.err == nil {
		l.err = errors.New(what + ": " + err.Error())
	}
}

// emit hands the page the session's events.
func (l *loop) emit(events []session.Event) {
	for _, e := range events {
		o, err := eventObject(e)
		if err != nil {
			l.crossed("event", err)
			continue
		}
		_, err = l.onEvent.Invoke(o)
		l.crossed("onEvent", err)
	}
}

// pull takes every frame queued in the shim, laid out as its drain writes
// them: one call, and one more to copy them (three more when the inbox
// must grow first).
func (l *loop) pull() []byte {
	v, err := l.drain.Invoke()
	if err != nil {
		l.crossed("shim.drain", err)
		return nil
	}
	n := integer(v)
	if n > l.inbox.n {
		if l.fit(&l.inbox, n) != nil {
			return nil
		}
		if v, err = l.drain.Invoke(); err != nil {
			l.crossed("shim.drain", err)
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
	if _, err := safejs.CopyBytesToGo(l.in, l.inbox.v); err != nil {
		l.crossed("inbox", err)
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
	if _, err := safejs.CopyBytesToJS(l.outbox.v, l.out); err != nil {
		l.crossed("outbox", err)
		return
	}
	_, err := l.sendBatch.Invoke(len(l.out))
	l.crossed("shim.sendBatch", err)
}

// fit makes the inbox or the outbox at least n bytes long, and gives the
// shim the new one when it grows.
func (l *loop) fit(b *jsBuf, n int) error {
	grew, err := b.fit(n)
	if grew {
		_, err = l.setBuffers.Invoke(l.inbox.v, l.outbox.v)
	}
	l.crossed("shim.setBuffers", err)
	return err
}

// filter tells the shim which UIDs to keep frames for, when they change.
func (l *loop) filter() {
	uids := l.s.UIDs()
	if uids[0] == l.uid { // the candidate address never changes
		return
	}
	l.uid = uids[0]
	var x errs
	a := newArray(&x, uids)
	if x.err == nil {
		_, x.err = l.setUIDs.Invoke(a)
	}
	l.crossed("shim.setUIDs", x.err)
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
func (l *loop) run() error {
	tick, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any { l.tick(); return nil })
	if err == nil {
		_, err = safejs.Global().Call("setInterval", tick, passMS)
	}
	return err
}

// config is the session's configuration from the page's (ticnet.js has
// checked it against session.StartOptions, and passes the options as the
// page gave them, undefined where it gave none): name, maxPlayers,
// timeout ("browser", "reference"), predictTics, inputDelay, record, ticRate,
// inputSize (0: Doom's ticcmd), eventBits (per byte of the input) and
// settings (session.SettingsOptions), each taking its default from those
// tables when absent; and what ticnet.js computes: profile ("local",
// "gossip"), predict, startTime and token (32 hex digits; "" for none).
// An error is what reading it threw.
func config(page safejs.Value) (session.Config, error) {
	var x errs
	opt := func(name string) optionOf { return optionOf{&x, page, session.StartOptions, name} }
	c := session.Config{Name: opt("name").text(), MaxPlayers: opt("maxPlayers").integer(),
		StartTimeMS: number(x.get(page, "startTime")), Election: session.ElectionLocal, Timeouts: netcore.BrowserTimeouts}
	c.Predict, c.PredictTics = truthy(x.get(page, "predict")), opt("predictTics").integer()
	c.InputDelay = opt("inputDelay").integer()
	c.Replay.Record = opt("record").boolean()
	c.Input = layout(&x, page)
	c.TicRate = opt("ticRate").integer()
	if text(x.get(page, "profile")) == "gossip" {
		c.Election = session.ElectionGossip
	}
	if opt("timeout").text() == "reference" {
		c.Timeouts = netcore.ReferenceTimeouts
	}
	if t, ok := fromHex(text(x.get(page, "token"))); ok && len(t) == len(c.Token) {
		copy(c.Token[:], t)
	}
	set := x.get(page, "settings")
	setting := func(name string) int { return optionOf{&x, set, session.SettingsOptions, name}.integer() }
	st := &c.Settings
	st.TicDup, st.LoadGame, st.NewSync, st.GameVersion = 1, -1, true, 4
	st.ExtraTics, st.Deathmatch = uint8(setting("extraTics")), uint8(setting("deathmatch"))
	st.Episode, st.Map, st.Skill = uint8(setting("episode")), uint8(setting("map")), int8(setting("skill"))
	st.TimeLimit = uint32(setting("timeLimit"))
	return c, x.err
}

// optionOf is the option name of the page's object obj, one of opts:
// read as the page gave it, or as the option's default when it gave none
// (obj[name] undefined, or obj no object).
type optionOf struct {
	x    *errs
	obj  safejs.Value
	opts []session.Option
	name string
}

// get is obj[name], undefined when obj is no object.
func (o optionOf) get() safejs.Value {
	if o.obj.Type() != safejs.TypeObject {
		return safejs.Undefined()
	}
	return o.x.get(o.obj, o.name)
}

func (o optionOf) fallback() any {
	opt, _ := session.OptionOf(o.opts, o.name)
	return opt.Default
}

func (o optionOf) integer() int {
	if v := o.get(); v.Type() == safejs.TypeNumber {
		return integer(v)
	}
	d, _ := o.fallback().(int)
	return d
}

func (o optionOf) boolean() bool {
	if v := o.get(); v.Type() == safejs.TypeBoolean {
		return truthy(v)
	}
	d, _ := o.fallback().(bool)
	return d
}

func (o optionOf) text() string {
	if v := o.get(); v.Type() == safejs.TypeString {
		return text(v)
	}
	d, _ := o.fallback().(string)
	return d
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
func syncTest(args []safejs.Value) any {
	res := synctest.Result{StateOffset: -1, Message: "syncTest: a bad config, or a game without save and load"}
	var x errs
	if len(args) == 2 && args[0].Type() == safejs.TypeObject && isFunc(args[1], "save") && isFunc(args[1], "load") {
		g, jg, err := newGame(args[1], layout(&x, args[0]))
		x.keep(err)
		if sg, ok := g.(synctest.Game); ok && x.err == nil {
			c := synctest.Config{Tics: integer(x.get(args[0], "tics")), Rollback: integer(x.get(args[0], "rollback")),
				Players: integer(x.get(args[0], "players")), InputSize: jg.layout.Size}
			res = synctest.ResultOf(c, synctest.Run(sg, c))
			if jg.err != nil {
				res = synctest.Result{StateOffset: -1, Message: "syncTest: a callback failed: " + jg.err.Error()}
			}
		}
		if x.err != nil {
			res = synctest.Result{StateOffset: -1, Message: "syncTest: reading the config or the callbacks: " + x.err.Error()}
		}
	}
	x = errs{}
	o := x.object()
	x.set(o, "ok", res.OK)
	x.set(o, "tics", res.Tics)
	x.set(o, "tic", res.Tic)
	x.set(o, "at", res.At)
	x.set(o, "checksum", res.Checksum)
	x.set(o, "rerun", res.Rerun)
	x.set(o, "stateOffset", res.StateOffset)
	x.set(o, "message", res.Message)
	return o
}

// start starts the copy's session and its loop on the shim, the page's
// config (args[0]) and its game's callbacks (args[1]); false when it
// cannot: it started already, the page has no shim, or reading what it
// gave threw.
func (l *loop) startWith(args []safejs.Value) bool {
	shim := global("__ticnetShim")
	if len(args) < 2 || shim.Type() != safejs.TypeObject || args[0].Type() != safejs.TypeObject || args[1].Type() != safejs.TypeObject {
		return false
	}
	var x errs
	game, jg, err := newGame(args[1], layout(&x, args[0]))
	x.keep(err)
	// The shim's functions and onEvent take no this: each is looked up
	// once, not on every call.
	l.drain, l.sendBatch, l.setUIDs = x.get(shim, "drain"), x.get(shim, "sendBatch"), x.get(shim, "setUIDs")
	l.setBuffers, l.onEvent = x.get(shim, "setBuffers"), x.get(args[1], "onEvent")
	cfg, err := config(args[0])
	x.keep(err)
	if x.err != nil {
		return false
	}
	if _, err := l.inbox.fit(jsBufMin); err != nil {
		return false
	}
	if err := l.fit(&l.outbox, jsBufMin); err != nil {
		return false
	}
	l.game = jg
	l.s = session.New(cfg, game, l.now())
	l.filter()
	return l.run() == nil // the loop runs on the page's timer: nothing here blocks
}

func main() {
	l := &loop{start: nanotime()}
	started := false
	api := map[string]func(args []safejs.Value) any{
		// start needs the shim (shim.js); a page that only plays replays
		// back or checks its game does not.
		"start": func(args []safejs.Value) any {
			if started {
				return false
			}
			started = l.startWith(args)
			return started
		},
		// launch(seed, options): options a Uint8Array (ticnet.js encodes them).
		"launch": func(args []safejs.Value) any {
			r := &launchReq{}
			if len(args) == 2 {
				r.seed = uint32(int64(number(args[0])))
				if args[1].Type() == safejs.TypeObject {
					var x errs
					if n := integer(x.get(args[1], "length")); n > 0 {
						r.options = make([]byte, min(n, wire.MaxLaunchOptions))
						_, err := safejs.CopyBytesToGo(r.options, args[1])
						x.keep(err)
					}
					l.crossed("launch", x.err)
				}
			}
			l.launch.Store(r)
			return nil
		},
		"leave": func([]safejs.Value) any { l.leave.Store(true); return nil },
		"end":   func([]safejs.Value) any { l.end.Store(true); return nil },
		// leaveNow says goodbye at once, for a page that is going away and
		// will run no further pass: the DISCONNECTs go out in this call.
		// The loop runs only on the page's timer, so the session is not in
		// use; nothing here blocks.
		"leaveNow": func([]safejs.Value) any {
			if l.s != nil {
				l.s.Leave(l.now())
				l.s.Update(l.now())
				l.flush()
			}
			return nil
		},
		"stats": func([]safejs.Value) any {
			o, err := statsObject(l.stats.Load())
			l.crossed("stats", err)
			return o
		},
		// replay returns a copy of this copy's replay file (a new
		// Uint8Array), or null when it records none. The loop runs only on
		// the page's timer, so the session is not in use.
		"replay": func([]safejs.Value) any {
			if l.s == nil || l.s.Replay() == nil {
				return nil
			}
			var x errs
			buf := x.bytes(l.s.Replay())
			if x.err != nil {
				l.crossed("replay", x.err)
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
		"setHidden": func(args []safejs.Value) any {
			if l.s == nil || len(args) < 1 || args[0].Type() != safejs.TypeBoolean {
				return nil
			}
			on, err := args[0].Bool()
			if err != nil {
				return nil
			}
			l.s.SetHidden(on)
			if on {
				l.pass()
			}
			return nil
		},
		// wake runs a pass now, unless one ran less than passMS ago: the
		// shim calls it when a frame arrives for a hidden page, whose
		// timers are throttled.
		"wake": func([]safejs.Value) any {
			if l.s != nil && since(l.lastPass) >= passMS*1e6 {
				l.tick()
			}
			return nil
		},
	}
	var x errs
	obj := x.object()
	for name, fn := range api {
		f, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any { return fn(args) })
		x.keep(err)
		x.set(obj, name, f)
	}
	x.set(obj, "schema", schemaObject(&x))
	x.set(safejs.Global(), "__ticnetGo", obj)
	if x.err != nil {
		// No page can start this copy: say why where a developer looks.
		println("ticnet: exporting the API:", x.err.Error())
	}
	select {} // the loop and the callbacks run on; main must not return
}
