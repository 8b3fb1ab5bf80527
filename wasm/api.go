//go:build js && wasm

package main

import (
	"errors"

	"github.com/hack-pad/safejs"

	"github.com/ticnet/ticnet/election/session"
	"github.com/ticnet/ticnet/netcore/synctest"
	"github.com/ticnet/ticnet/netcore/wire"
)

// The API the page calls (through ticnet.js): each function either posts a
// request that the loop takes on its next pass, reads the last snapshot,
// or, where its comment says so, runs in its call while the loop is idle
// (the loop runs only on the page's timer).

// exportAPI exports the functions ticnet.js calls, as globalThis.__ticnetGo,
// with the schema of the options and events (schemaObject).
func exportAPI(l *loop) {
	api := map[string]func(args []safejs.Value) any{
		// start needs the shim (shim.js); a page that only plays replays
		// back or checks its game does not. It returns "" when the session
		// runs, or why it does not.
		"start": func(args []safejs.Value) any {
			if err := l.startWith(args); err != nil {
				return err.Error()
			}
			return ""
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
				l.leaveNow()
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
}

// startWith starts the copy's session on the shim, the page's config
// (args[0]) and its game's callbacks (args[1]), and the loop when it does
// not run yet. A page may start again once its session has ended (the
// page left it, or its game or shim failed): the new session replaces it,
// with a new UID, and the old one's goodbye goes out first. An error says
// why it cannot: a session runs, the page has no shim, or reading what it
// gave threw.
func (l *loop) startWith(args []safejs.Value) error {
	if l.s != nil && !l.failed && !l.left && !l.leave.Load() {
		return errors.New("this page's session runs: leave() it first")
	}
	shim := global("__ticnetShim")
	if len(args) < 2 || shim.Type() != safejs.TypeObject || args[0].Type() != safejs.TypeObject || args[1].Type() != safejs.TypeObject {
		return errors.New("no shim, or a config or callbacks that are no objects")
	}
	var x errs
	game, jg, err := newGame(args[1], layout(&x, args[0]))
	x.keep(err)
	// The shim's functions and onEvent take no this: each is looked up
	// once, not on every call.
	drain, sendBatch, setUIDs := x.get(shim, "drain"), x.get(shim, "sendBatch"), x.get(shim, "setUIDs")
	setBuffers, onEvent := x.get(shim, "setBuffers"), x.get(args[1], "onEvent")
	cfg, err := config(args[0])
	x.keep(err)
	if x.err != nil {
		return errors.New("reading the page's options: " + x.err.Error())
	}
	if l.s != nil && !l.left {
		l.leaveNow() // asked for, not yet taken by a pass, or failed: the goodbye goes now
	}
	l.drain, l.sendBatch, l.setUIDs, l.setBuffers, l.onEvent = drain, sendBatch, setUIDs, setBuffers, onEvent
	if _, err := l.inbox.fit(jsBufMin); err != nil {
		return err
	}
	if err := l.fit(&l.outbox, jsBufMin); err != nil {
		return err
	}
	l.renew()
	l.game = jg
	l.s = session.New(cfg, game, l.now())
	l.filter()
	if l.running {
		return nil
	}
	l.running = l.run() == nil // the loop runs on the page's timer: nothing here blocks
	if !l.running {
		return errors.New("the page's timer refused the loop")
	}
	return nil
}

// launchReq is a launch the page asked for: the seed and options every
// copy gets in its "start" event.
type launchReq struct {
	seed    uint32
	options []byte
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
