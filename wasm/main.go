//go:build js && wasm

// Command wasm is ticnet.wasm: the only Go that touches the browser. It
// binds the channel shim (js/shim.js) to a session (election and engine,
// package session) and exports the API that js/ticnet.js wraps.
//
// The session runs on a Go timer, independent of rendering. Each pass pulls
// every queued frame from the shim with one call and one copy, and pushes
// its outgoing frames with one copy and one call, through two Uint8Arrays
// made once (jsbuf.go): calls from JS into Go cost about 12 µs each, so
// there are none per packet. Functions JS calls (launch, leave, stats)
// never block: they post a request the loop takes on its next pass, or read
// the last snapshot. It also plays replay files back into the page's game
// (replay.go), which needs no shim.
package main

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"sync/atomic"
	"time"

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

type jsConfig struct {
	Name        string  `json:"name"`
	MaxPlayers  int     `json:"maxPlayers"`
	Profile     string  `json:"profile"`
	Timeout     string  `json:"timeout"`
	StartTime   float64 `json:"startTime"`
	Token       string  `json:"token"` // 32 hex digits; "" for none
	Predict     bool    `json:"predict"`
	Record      bool    `json:"record"`
	PredictTics int     `json:"predictTics"`
	InputSize   int     `json:"inputSize"` // 0: Doom's ticcmd
	TicRate     int     `json:"ticRate"`   // 0: 35
	EventBits   []int   `json:"eventBits"` // per byte of the input
	Settings    struct {
		ExtraTics  *int `json:"extraTics"`
		Deathmatch int  `json:"deathmatch"`
		Episode    int  `json:"episode"`
		Map        int  `json:"map"`
		Skill      *int `json:"skill"`
		TimeLimit  int  `json:"timeLimit"`
	} `json:"settings"`
}

// loop is the state the net loop owns.
type loop struct {
	// The shim's functions and the page's onEvent, looked up once.
	drain, sendBatch, setBuffers, setUIDs, onEvent safejs.Value

	game    *jsGame
	s       *session.Session
	start   time.Time
	in, out []byte
	// inbox and outbox carry them across, each way.
	inbox, outbox jsBuf
	times         netTimes // the netcode's time of the last passes
	rates         rateWindow
	uid           uint32 // the UID the shim's filter was last given

	launch atomic.Pointer[launchReq] // the page asked to launch
	leave  atomic.Bool
	end    atomic.Bool  // the page asked to end the game
	failed bool         // the game's callback threw, and the copy left (fail)
	stats  atomic.Value // string: the last stats JSON
	// wake asks for a pass now: a hidden page's timers run once a second
	// at best, so the shim wakes the loop when a frame arrives.
	wake     chan struct{}
	lastPass time.Time
}

func (l *loop) now() int64 { return time.Since(l.start).Milliseconds() }

func (l *loop) pass() {
	began := time.Now()
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
	l.times.add(time.Since(began)-l.game.spent, l.s.Ran())
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
		if j, err := json.Marshal(e); err == nil {
			l.onEvent.Invoke(string(j))
		}
	}
}

// pull takes every frame queued in the shim, laid out as its drain writes
// them: one call, and one more to copy them (three more when the inbox
// must grow first).
func (l *loop) pull() []byte {
	v, err := l.drain.Invoke()
	if err != nil {
		return nil
	}
	n, _ := v.Int()
	if n > l.inbox.n {
		if l.fit(&l.inbox, n) != nil {
			return nil
		}
		if v, err = l.drain.Invoke(); err != nil {
			return nil
		}
		n, _ = v.Int()
	}
	if n <= 0 || n > l.inbox.n {
		return nil
	}
	if cap(l.in) < n {
		l.in = make([]byte, n)
	}
	l.in = l.in[:n]
	if _, err := safejs.CopyBytesToGo(l.in, l.inbox.v); err != nil {
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
	if _, err := safejs.CopyBytesToJS(l.outbox.v, l.out); err == nil {
		l.sendBatch.Invoke(len(l.out))
	}
}

// fit makes the inbox or the outbox at least n bytes long, and gives the
// shim the new one when it grows.
func (l *loop) fit(b *jsBuf, n int) error {
	grew, err := b.fit(n)
	if grew {
		_, err = l.setBuffers.Invoke(l.inbox.v, l.outbox.v)
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
	list := make([]any, len(uids))
	for i, u := range uids {
		list[i] = float64(u)
	}
	l.setUIDs.Invoke(list)
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
	if j, err := json.Marshal(st); err == nil {
		l.stats.Store(string(j))
	}
}

func (l *loop) run() {
	t := time.NewTicker(passMS * time.Millisecond)
	n := 0
	for {
		select {
		case <-t.C:
		case <-l.wake:
			if time.Since(l.lastPass) < passMS*time.Millisecond {
				continue // the ticker's pass comes soon enough
			}
		}
		l.pass()
		if n++; n%20 == 0 {
			l.publish()
		}
	}
}

func config(js jsConfig) session.Config {
	c := session.Config{Name: js.Name, MaxPlayers: js.MaxPlayers, StartTimeMS: js.StartTime,
		Election: session.ElectionLocal, Timeouts: netcore.BrowserTimeouts}
	c.Predict, c.PredictTics = js.Predict, js.PredictTics
	c.Replay.Record = js.Record
	c.Input = layout(js)
	c.TicRate = js.TicRate
	if js.Profile == "gossip" {
		c.Election = session.ElectionGossip
	}
	if js.Timeout == "reference" {
		c.Timeouts = netcore.ReferenceTimeouts
	}
	if t, err := hex.DecodeString(js.Token); err == nil && len(t) == len(c.Token) {
		copy(c.Token[:], t)
	}
	st := &c.Settings
	st.TicDup, st.ExtraTics, st.Episode, st.Map, st.Skill, st.LoadGame, st.NewSync = 1, 1, 1, 1, 2, -1, true
	st.GameVersion = 4
	if js.Settings.ExtraTics != nil {
		st.ExtraTics = uint8(*js.Settings.ExtraTics)
	}
	if js.Settings.Skill != nil {
		st.Skill = int8(*js.Settings.Skill)
	}
	if js.Settings.Episode > 0 {
		st.Episode = uint8(js.Settings.Episode)
	}
	if js.Settings.Map > 0 {
		st.Map = uint8(js.Settings.Map)
	}
	st.Deathmatch, st.TimeLimit = uint8(js.Settings.Deathmatch), uint32(js.Settings.TimeLimit)
	return c
}

// syncTest runs synctest.Run on the game of args[1] (the callbacks start
// takes, save and load included) as args[0] (JSON: tics, rollback,
// players) says, and returns its synctest.Result as JSON.
func syncTest(args []safejs.Value) any {
	res := synctest.Result{StateOffset: -1, Message: "syncTest: a bad config, or a game without save and load"}
	if len(args) == 2 && isFunc(args[1], "save") && isFunc(args[1], "load") {
		text, err := args[0].String()
		var jc struct {
			Tics, Rollback, Players int
			jsConfig
		}
		if err == nil {
			err = json.Unmarshal([]byte(text), &jc)
		}
		g, jg, err2 := newGame(args[1], layout(jc.jsConfig))
		if sg, ok := g.(synctest.Game); ok && err == nil && err2 == nil {
			c := synctest.Config{Tics: jc.Tics, Rollback: jc.Rollback, Players: jc.Players, InputSize: jg.layout.Size}
			res = synctest.ResultOf(c, synctest.Run(sg, c))
			if jg.err != nil {
				res = synctest.Result{StateOffset: -1, Message: "syncTest: a callback failed: " + jg.err.Error()}
			}
		}
	}
	j, _ := json.Marshal(res)
	return string(j)
}

func main() {
	l := &loop{start: time.Now(), wake: make(chan struct{}, 1)}
	l.stats.Store(`{"role":"undecided"}`)
	started := false
	api := map[string]func(args []safejs.Value) any{
		// start needs the shim (shim.js); a page that only plays replays
		// back or checks its game does not.
		"start": func(args []safejs.Value) any {
			shim, err := safejs.Global().Get("__ticnetShim")
			if started || len(args) < 2 || err != nil || shim.IsUndefined() {
				return false
			}
			text, err := args[0].String()
			if err != nil {
				return false
			}
			var jc jsConfig
			if json.Unmarshal([]byte(text), &jc) != nil {
				return false
			}
			game, jg, err := newGame(args[1], layout(jc))
			if err != nil {
				return false
			}
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
			l.s = session.New(config(jc), game, l.now())
			l.filter()
			go l.run() // the loop runs outside the callback: nothing here blocks
			return true
		},
		// launch(seed, options): options a Uint8Array (ticnet.js encodes them).
		"launch": func(args []safejs.Value) any {
			r := &launchReq{}
			if len(args) == 2 {
				f, _ := args[0].Float()
				r.seed = uint32(int64(f))
				if n, err := args[1].Length(); err == nil && n > 0 {
					r.options = make([]byte, min(n, wire.MaxLaunchOptions))
					safejs.CopyBytesToGo(r.options, args[1])
				}
			}
			l.launch.Store(r)
			return nil
		},
		"leave": func([]safejs.Value) any { l.leave.Store(true); return nil },
		"end":   func([]safejs.Value) any { l.end.Store(true); return nil },
		// leaveNow says goodbye at once, for a page that is going away and
		// will run no further pass: the DISCONNECTs go out in this call.
		// The loop is parked between passes while JS runs, so the session
		// is not in use; nothing here blocks.
		"leaveNow": func([]safejs.Value) any {
			if l.s != nil {
				l.s.Leave(l.now())
				l.s.Update(l.now())
				l.flush()
			}
			return nil
		},
		"stats": func([]safejs.Value) any { return l.stats.Load().(string) },
		// replay returns a copy of this copy's replay file (a new
		// Uint8Array), or null when it records none. The loop is parked
		// between passes while JS runs, so the session is not in use.
		"replay": func([]safejs.Value) any {
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
		// start takes them) and returns the result as JSON. It runs in
		// this call: the page waits for it.
		"syncTest": func(args []safejs.Value) any { return syncTest(args) },
		// The playback of a replay (replay.go): each runs in its call.
		"replayOpen":  replayOpen,
		"replayRun":   replayRun,
		"replaySeek":  replaySeek,
		"replayClose": replayClose,
		// setHidden says whether the page is hidden, frozen or being
		// closed for a while (persisted pagehide). A hidden server hands
		// its game over at once, in this call: the page may run nothing
		// more for a second, or ever. The loop is parked between passes
		// while JS runs, so the session is not in use.
		"setHidden": func(args []safejs.Value) any {
			if l.s == nil || len(args) < 1 {
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
		// wake runs a pass soon: the shim calls it when a frame arrives
		// for a hidden page, whose timers are throttled.
		"wake": func([]safejs.Value) any {
			select {
			case l.wake <- struct{}{}:
			default:
			}
			return nil
		},
	}
	obj, err := safejs.ValueOf(map[string]any{})
	if err != nil {
		return
	}
	for name, fn := range api {
		f, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any { return fn(args) })
		if err != nil {
			return
		}
		obj.Set(name, f.Value())
	}
	safejs.Global().Set("__ticnetGo", obj)
	select {} // the loop and the callbacks run on; main must not return
}
