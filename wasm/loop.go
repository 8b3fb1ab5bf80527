//go:build js && wasm

package main

import (
	"encoding/binary"
	"errors"
	"sync/atomic"

	"github.com/hack-pad/safejs"

	"github.com/ticnet/ticnet/election/session"
)

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
	end    atomic.Bool // the page asked to end the game
	failed bool        // the game's callback or the shim threw, and the copy left (fail)
	left   bool        // the session left at the page's word (leave, leaveNow)
	// running: the page's timer runs the loop (a session that replaces
	// an ended one runs on it).
	running bool
	stats   atomic.Pointer[session.Stats] // the last published; nil: none yet
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
		l.left = true
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
	if len(events) > 0 {
		// A handler's stats() sees what its event reports (a join's
		// joinMS), not the last tick's numbers.
		l.publish()
	}
	l.emit(events)
	if (l.game.err != nil || l.err != nil) && !l.failed {
		l.fail(now)
	}
	l.filter()
	l.flush()
	l.times.add(since(began)-l.game.spent, l.s.Ran())
	l.game.spent = 0
}

// leaveNow leaves the session and says goodbye at once: the DISCONNECTs
// go out in this call.
func (l *loop) leaveNow() {
	l.left = true
	l.s.Leave(l.now())
	l.s.Update(l.now())
	l.flush()
}

// renew forgets what the loop kept of its last session, for a new one:
// its requests, its failure, its stats and the UID the shim filters for.
func (l *loop) renew() {
	l.launch.Store(nil)
	l.leave.Store(false)
	l.end.Store(false)
	l.failed, l.left, l.err = false, false, nil
	l.stats.Store(nil)
	l.uid = 0
	l.rates = rateWindow{at: l.now()}
	l.times = netTimes{}
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
