//go:build js && wasm

// Command wasm is ticnet.wasm: the only Go that touches the browser. It
// binds the channel shim (js/shim.js) to a session (election and engine,
// package session) and exports the API that js/ticnet.js wraps.
//
// The session runs on a Go timer, independent of rendering. Each pass pulls
// every queued frame from the shim with one call and pushes its outgoing
// frames with one call: calls from JS into Go cost about 12 µs each, so
// there are none per packet. Functions JS calls (launch, leave, stats)
// never block: they post a request the loop takes on its next pass, or read
// the last snapshot.
package main

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
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

// jsGame is the game on the JS side: Go calls it, never the other way.
// Once a callback has failed (err), it calls none again: the copy leaves
// its game (loop.fail).
type jsGame struct {
	// The page's callbacks, looked up once (they take no this).
	input, onTic, checksum, save, load safejs.Value

	cmdBuf safejs.Value
	layout netcore.InputLayout
	raw    [netcore.MaxPlayers * netcore.MaxInputBytes]byte
	subs   uint8 // the players whose commands of the next RunTic are substitutes
	err    error
	// spent is the time spent in the game's callbacks since the pass
	// began: the pass's netcode time excludes it.
	spent time.Duration
}

// timed adds the time since began to spent: defer g.timed(time.Now()).
func (g *jsGame) timed(began time.Time) { g.spent += time.Since(began) }

func (g *jsGame) BuildTiccmd(tic uint32) netcore.TicCmd {
	if g.err != nil {
		return netcore.TicCmd{}
	}
	defer g.timed(time.Now())
	v, err := g.input.Invoke(tic)
	if err != nil {
		g.err = err
		return netcore.TicCmd{}
	}
	if n := int(g.layout.Size); n > 0 {
		// ticnet.js has checked that it is a Uint8Array of n bytes.
		var c netcore.TicCmd
		if got, err := safejs.CopyBytesToGo(c.Input[:n], v); err != nil || got != n {
			g.err = fmt.Errorf("input returned %d bytes, not %d (%v)", got, n, err)
		}
		return c
	}
	f := func(i int) int {
		x, err := v.Index(i)
		if err != nil {
			return 0
		}
		n, _ := x.Int()
		return n
	}
	return netcore.TicCmd{ForwardMove: int8(f(0)), SideMove: int8(f(1)), AngleTurn: int16(f(2)),
		Buttons: uint8(f(3)) &^ wire.ButtonSpecial, ChatChar: uint8(f(4))}
}

func (g *jsGame) RunTic(tic uint32, cmds *[netcore.MaxPlayers]netcore.TicCmd, ingame *[netcore.MaxPlayers]bool) {
	if g.err != nil {
		return
	}
	defer g.timed(time.Now())
	mask := 0
	size := int(g.layout.Size)
	for p, c := range cmds {
		if ingame[p] {
			mask |= 1 << p
		}
		if size > 0 {
			copy(g.raw[p*size:(p+1)*size], c.Input[:size])
			continue
		}
		o := p * 8
		g.raw[o], g.raw[o+1] = byte(c.ForwardMove), byte(c.SideMove)
		binary.LittleEndian.PutUint16(g.raw[o+2:], uint16(c.AngleTurn))
		g.raw[o+4], g.raw[o+5] = c.Buttons, c.ChatChar
	}
	n := netcore.MaxPlayers * 8
	if size > 0 {
		n = netcore.MaxPlayers * size
	}
	if _, err := safejs.CopyBytesToJS(g.cmdBuf, g.raw[:n]); err != nil {
		g.err = err
		return
	}
	subs := g.subs
	g.subs = 0
	if _, err := g.onTic.Invoke(tic, mask, int(subs)); err != nil {
		g.err = err
	}
}

// Substitutes keeps which players' commands of the next RunTic are the
// server's substitutes, which onTic passes on (netcore.SubstituteAware).
func (g *jsGame) Substitutes(tic uint32, players uint8) { g.subs = players }

func (g *jsGame) Checksum() uint32 {
	if g.err != nil {
		return 0
	}
	defer g.timed(time.Now())
	v, err := g.checksum.Invoke()
	if err != nil {
		g.err = err
		return 0
	}
	f, _ := v.Float()
	return uint32(int64(f))
}

// snapGame is a jsGame whose page gave save and load: it implements
// netcore.Snapshotter, so that this copy can join a game in progress and
// hand the state to one. A jsGame does not: the engine tests for the
// interface, and a game without it must not seem to have it.
type snapGame struct{ jsGame }

var _ netcore.Snapshotter = (*snapGame)(nil)

// SaveState copies the Uint8Array the page's save returns. On an error
// it returns no state, which the joiner's load refuses.
func (g *snapGame) SaveState() []byte {
	if g.err != nil {
		return nil
	}
	defer g.timed(time.Now())
	v, err := g.save.Invoke()
	if err != nil {
		g.err = err
		return nil
	}
	n, err := v.Length()
	if err != nil {
		g.err = err
		return nil
	}
	state := make([]byte, n) // the engine keeps it: a new one each time
	if _, err := safejs.CopyBytesToGo(state, v); err != nil {
		g.err = err
		return nil
	}
	return state
}

// LoadState hands the page one new Uint8Array; an exception its load
// throws is the error.
func (g *snapGame) LoadState(state []byte) error {
	if g.err != nil {
		return g.err
	}
	defer g.timed(time.Now())
	buf, err := newBytes(state)
	if err != nil {
		return err
	}
	if _, err = g.load.Invoke(buf); err != nil {
		g.err = err
	}
	return err
}

// newJSGame returns the game whose callbacks (as ticnet.js's gameCallbacks
// makes them) are cb's.
func newJSGame(cb safejs.Value, layout netcore.InputLayout) (*jsGame, error) {
	buf, err := cb.Get("cmdBuf")
	if err != nil {
		return nil, err
	}
	return &jsGame{cmdBuf: buf, layout: layout, input: method(cb, "input"), onTic: method(cb, "onTic"), checksum: method(cb, "checksum"),
		save: method(cb, "save"), load: method(cb, "load")}, nil
}

// layout is the input layout the page asked for; ticnet.js has checked it.
func layout(js jsConfig) netcore.InputLayout {
	l := netcore.InputLayout{Size: uint8(max(0, min(js.InputSize, netcore.MaxInputBytes)))}
	for i, b := range js.EventBits[:min(len(js.EventBits), int(l.Size))] {
		l.Events[i] = byte(b)
	}
	return l
}

// method returns obj[name], to be called with Invoke: a function of the
// shim's or the page's, which takes no this, looked up once rather than on
// every call.
func method(obj safejs.Value, name string) safejs.Value {
	v, _ := obj.Get(name)
	return v
}

// uint8Array is the Uint8Array constructor, looked up once.
var uint8Array = func() safejs.Value {
	v, _ := safejs.Global().Get("Uint8Array")
	return v
}()

// newBytes returns a new Uint8Array holding a copy of b.
func newBytes(b []byte) (safejs.Value, error) {
	buf, err := uint8Array.New(len(b))
	if err != nil {
		return safejs.Value{}, err
	}
	_, err = safejs.CopyBytesToJS(buf, b)
	return buf, err
}

// loop is the state the net loop owns.
type loop struct {
	// The shim's functions and the page's onEvent, looked up once.
	drain, sendBatch, setUIDs, onEvent safejs.Value

	game    *jsGame
	s       *session.Session
	start   time.Time
	in, out []byte
	passes  []time.Duration // this second's pass times, the game's callbacks excluded
	tics    []time.Duration // and per tic, of the passes that ran tics
	rates   rateWindow
	uid     uint32 // the UID the shim's filter was last given

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
	if v, err := l.drain.Invoke(); err == nil && !v.IsNull() {
		n, _ := v.Length()
		if cap(l.in) < n {
			l.in = make([]byte, n)
		}
		l.in = l.in[:n]
		if _, err := safejs.CopyBytesToGo(l.in, v); err == nil {
			for b := l.in; len(b) >= 4; {
				k := int(binary.LittleEndian.Uint32(b))
				if k > len(b)-4 {
					break
				}
				l.s.Deliver(b[4 : 4+k])
				b = b[4+k:]
			}
		}
	}
	events := l.s.Update(now)
	l.s.GameTime(l.game.spent) // before the events: their handlers are the page's, not the game's
	l.emit(events)
	if l.game.err != nil && !l.failed {
		l.fail(now)
	}
	l.filter()
	l.flush()
	net := time.Since(began) - l.game.spent
	l.passes = append(l.passes, net)
	if ran := l.s.Ran(); ran > 0 {
		l.tics = append(l.tics, net/time.Duration(ran))
	}
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

// flush pushes the session's outgoing frames to the shim in one call.
func (l *loop) flush() {
	l.out = l.s.AppendOutgoing(l.out[:0])
	if len(l.out) == 0 {
		return
	}
	if buf, err := newBytes(l.out); err == nil {
		l.sendBatch.Invoke(buf)
	}
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
	// the last second's pass times, µs (the browser's clock is coarse:
	// Chromium rounds performance.now() to 100 µs in a page that is not
	// cross-origin isolated)
	passMedian, passP99 int64
	passMean            float64
	ticMedian, ticP99   float64 // per tic run, µs
}

func (l *loop) publish() {
	st := l.s.Stats()
	now := l.now()
	if dt := now - l.rates.at; dt >= 1000 {
		r := &l.rates
		r.rate = [4]int64{(st.FramesIn - r.last.FramesIn) * 1000 / dt, (st.FramesOut - r.last.FramesOut) * 1000 / dt,
			(st.BytesIn - r.last.BytesIn) * 1000 / dt, (st.BytesOut - r.last.BytesOut) * 1000 / dt}
		r.at, r.last = now, st
		sort.Slice(l.passes, func(i, j int) bool { return l.passes[i] < l.passes[j] })
		if n := len(l.passes); n > 0 {
			r.passMedian, r.passP99 = l.passes[n/2].Microseconds(), l.passes[n*99/100].Microseconds()
			var sum time.Duration
			for _, d := range l.passes {
				sum += d
			}
			// Quantised samples average out: the mean is the finer number.
			r.passMean = float64(sum.Microseconds()) / float64(n)
		}
		l.passes = l.passes[:0]
		sort.Slice(l.tics, func(i, j int) bool { return l.tics[i] < l.tics[j] })
		if n := len(l.tics); n > 0 {
			us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
			r.ticMedian, r.ticP99 = us(l.tics[n/2]), us(l.tics[n*99/100])
		}
		l.tics = l.tics[:0]
	}
	st.PassMedianUS, st.PassP99US, st.PassMeanUS = l.rates.passMedian, l.rates.passP99, l.rates.passMean
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
		Election: session.ElectionLocal, Timeout: netcore.Browser}
	c.Predict, c.PredictTics = js.Predict, js.PredictTics
	c.Input = layout(js)
	c.TicRate = js.TicRate
	if js.Profile == "gossip" {
		c.Election = session.ElectionGossip
	}
	if js.Timeout == "reference" {
		c.Timeout = netcore.Reference
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
		jg, err2 := newJSGame(args[1], layout(jc.jsConfig))
		if err == nil && err2 == nil {
			c := synctest.Config{Tics: jc.Tics, Rollback: jc.Rollback, Players: jc.Players, InputSize: jg.layout.Size}
			g := &snapGame{*jg}
			res = synctest.ResultOf(c, synctest.Run(g, c))
			if g.err != nil {
				res = synctest.Result{StateOffset: -1, Message: "syncTest: a callback failed: " + g.err.Error()}
			}
		}
	}
	j, _ := json.Marshal(res)
	return string(j)
}

// isFunc reports whether obj[name] is a function.
func isFunc(obj safejs.Value, name string) bool {
	v, err := obj.Get(name)
	return err == nil && v.Type() == safejs.TypeFunction
}

func main() {
	shim, err := safejs.Global().Get("__ticnetShim")
	if err != nil || shim.IsUndefined() {
		println("ticnet: shim.js is not loaded")
		return
	}
	l := &loop{drain: method(shim, "drain"), sendBatch: method(shim, "sendBatch"), setUIDs: method(shim, "setUIDs"),
		start: time.Now(), wake: make(chan struct{}, 1)}
	l.stats.Store(`{"role":"undecided"}`)
	started := false
	api := map[string]func(args []safejs.Value) any{
		"start": func(args []safejs.Value) any {
			if started || len(args) < 2 {
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
			jg, err := newJSGame(args[1], layout(jc))
			if err != nil {
				return false
			}
			started = true
			l.onEvent = method(args[1], "onEvent")
			l.game = jg
			var game netcore.Game = l.game
			if isFunc(args[1], "save") && isFunc(args[1], "load") {
				sg := &snapGame{*jg}
				l.game, game = &sg.jsGame, sg
			}
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
		// syncTest runs synctest on the page's game (its callbacks, as
		// start takes them) and returns the result as JSON. It runs in
		// this call: the page waits for it.
		"syncTest": func(args []safejs.Value) any { return syncTest(args) },
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
