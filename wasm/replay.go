//go:build js && wasm

package main

import (
	"errors"
	"strconv"

	"github.com/hack-pad/safejs"

	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Playback of a replay file into the page's game (playReplay in
// ticnet.js). The page drives it: each pass of its timer is one call,
// replayRun, which runs the tics due (calling the game's onTic and
// checksum from here, in tic order) and returns where the playback
// stands; seek, pause and speed are the page's. No call per tic crosses
// from JS into Go.

// playback is one replay being played back.
type playback struct {
	player *replay.Player
	game   *jsGame
	// mismatch is the first recorded checksum the game did not give, once
	// the game has run the tic whole: a tic whose callback threw is no
	// mismatch of the game's.
	mismatch *replay.Mismatch
}

// playbacks are the page's playbacks, by id: a page may play several.
var (
	playbacks    = map[int]*playback{}
	nextPlayback = 1
)

// replayOpen(bytes, callbacks, inputSize) reads a replay file (a
// Uint8Array; the playback keeps a copy) and sets the page's game (its
// callbacks, as ticnet.js's gameCallbacks makes them) at its first tic,
// from its first snapshot when it has one, after the callbacks' setup
// (when there is one) has set the game up from the replay's header
// (headerObject). It returns what the page needs
// of the replay: an object with id, protocol, players (the players' names,
// by player number), start (the first tic recorded), end (one past the
// last), ticRate, seed, options (the launch options, as a start event has
// them; absent when none), inputSize (0: Doom's ticcmd) and snapshots (the
// tics a seek can load); or with error set, on a file that is not a whole
// replay, on one of another game's input, on a setup that threw, or on a
// state the game's load refused.
func replayOpen(args []safejs.Value) any {
	fail := func(err error) any {
		var x errs
		o := factsObject(&x, 0, nil, nil)
		x.set(o, "error", err.Error())
		return o
	}
	if len(args) != 3 || args[0].Type() != safejs.TypeObject || args[1].Type() != safejs.TypeObject {
		return fail(errors.New("replayOpen takes the file, the callbacks and the input size"))
	}
	var x errs
	data := make([]byte, integer(x.get(args[0], "length")))
	if x.err != nil {
		return fail(x.err)
	}
	if _, err := safejs.CopyBytesToGo(data, args[0]); err != nil {
		return fail(err)
	}
	r, err := wire.NewReplayReader(data)
	if err != nil {
		return fail(err)
	}
	h := &r.Header
	size := integer(args[2])
	if int(h.Setup.Input.Size) != size {
		return fail(errors.New("the replay's input is " + inputName(int(h.Setup.Input.Size)) +
			", the game's (options.inputSize) " + inputName(size)))
	}
	game, jg, err := newGame(args[1], h.Setup.Input)
	if err != nil {
		return fail(err)
	}
	// The page sets its game up from the replay's facts before the first
	// snapshot's load: that load replaces the state of the game set up.
	if isFunc(args[1], "setup") {
		setup := x.get(args[1], "setup")
		if o := headerObject(&x, h); x.err == nil {
			_, err = setup.Invoke(o)
			x.keep(err)
		}
		if x.err != nil {
			return fail(errors.New("setup: " + x.err.Error()))
		}
	}
	p, err := replay.NewPlayer(data, game)
	if err != nil {
		return fail(err)
	}
	id := nextPlayback
	nextPlayback++
	playbacks[id] = &playback{player: p, game: jg}
	o := factsObject(&x, id, h, p)
	if x.err != nil {
		return fail(x.err)
	}
	return o
}

// factsObject is what replayOpen returns of the replay h, played by p (all
// zero but for players, an empty array, when h is nil): headerObject's,
// id, end and snapshots.
func factsObject(x *errs, id int, h *wire.ReplayHeader, p *replay.Player) safejs.Value {
	if h == nil {
		o := x.object()
		x.set(o, "id", id)
		x.set(o, "protocol", "")
		x.set(o, "players", newArray(x, []string{}))
		for _, k := range []string{"start", "end", "ticRate", "seed", "inputSize"} {
			x.set(o, k, 0)
		}
		x.set(o, "snapshots", nil)
		return o
	}
	o := headerObject(x, h)
	x.set(o, "id", id)
	x.set(o, "end", p.End())
	x.set(o, "snapshots", arrayOrNull(x, p.Snapshots()))
	return o
}

// headerObject is what the replay's header h says of its game, as the
// page's setup gets it: protocol, players, start, ticRate, seed, options
// (the launch options, as a start event has them; absent when none) and
// inputSize.
func headerObject(x *errs, h *wire.ReplayHeader) safejs.Value {
	o := x.object()
	x.set(o, "protocol", h.Protocol)
	x.set(o, "players", newArray(x, h.Names))
	x.set(o, "start", h.Start)
	x.set(o, "ticRate", int(h.Setup.TicRate))
	x.set(o, "seed", h.Setup.Seed)
	if len(h.Setup.Options) > 0 {
		x.set(o, "options", x.bytes(h.Setup.Options))
	}
	x.set(o, "inputSize", int(h.Setup.Input.Size))
	return o
}

// inputName says what input of size bytes is.
func inputName(size int) string {
	if size == 0 {
		return "Doom's ticcmd"
	}
	return strconv.Itoa(size) + " bytes"
}

// replayRun(id, maxTics, budgetMS) runs up to maxTics tics, for budgetMS
// at most, and stops early after the first tic whose checksum differs
// from the recorded one, so that the page hears of it before any later
// tic runs. It returns the playback's status (statusObject).
func replayRun(args []safejs.Value) any {
	pb, err := playbackOf(args, 3)
	if err != nil {
		return errorStatus("replayRun: " + err.Error())
	}
	most := integer(args[1])
	began := nanotime()
	budget := int64(number(args[2]) * 1e6) // ns
	for ran := 0; ran < most && pb.game.err == nil && !pb.player.Done() && since(began) < budget; ran++ {
		had := pb.mismatch != nil
		_, err := pb.player.Run(1)
		pb.noteMismatch()
		if err != nil {
			return pb.status(err)
		}
		if !had && pb.mismatch != nil {
			break
		}
	}
	return pb.status(nil)
}

// noteMismatch takes the player's first mismatch, unless the game's
// callback threw.
func (pb *playback) noteMismatch() {
	if pb.mismatch == nil && pb.game.err == nil {
		pb.mismatch = pb.player.Mismatch()
	}
}

// replaySeek(id, tic) sets the game at tic (the state before it): from
// the newest snapshot at or before it, running the tics after. It returns
// the playback's status, with error set when it cannot.
func replaySeek(args []safejs.Value) any {
	pb, err := playbackOf(args, 2)
	if err != nil {
		return errorStatus("replaySeek: " + err.Error())
	}
	if pb.game.err != nil {
		return pb.status(nil)
	}
	err = pb.player.Seek(uint32(integer(args[1])))
	pb.noteMismatch()
	return pb.status(err)
}

// replayClose(id) forgets a playback.
func replayClose(args []safejs.Value) any {
	if len(args) == 1 {
		delete(playbacks, integer(args[0]))
	}
	return nil
}

// playbackOf returns the playback args[0] names, of a call that takes n
// arguments.
func playbackOf(args []safejs.Value, n int) (*playback, error) {
	if len(args) != n {
		return nil, errors.New(strconv.Itoa(len(args)) + " arguments, not " + strconv.Itoa(n))
	}
	id := integer(args[0])
	pb := playbacks[id]
	if pb == nil {
		return nil, errors.New("no playback " + strconv.Itoa(id) + " (closed?)")
	}
	return pb, nil
}

// status is where the playback stands after a pass or a seek, with err,
// what went wrong, if anything: an object with tic (the next tic to run),
// tics (the tics onTic ran, those of seeks included), checked,
// mismatches, done; mismatch (the first, as the page's "mismatch" event
// has it: tic, players, want, got), error (what went wrong) and failed (a
// callback of the game threw, and the playback calls it no more) when
// they are set.
//
// A status that cannot be built (JS threw) is errorStatus's, with what
// threw.
func (pb *playback) status(err error) safejs.Value {
	p := pb.player
	var x errs
	o := x.object()
	x.set(o, "tic", p.Tic())
	x.set(o, "tics", pb.game.ran)
	x.set(o, "checked", p.Checked())
	x.set(o, "mismatches", p.Mismatches())
	if m := pb.mismatch; m != nil {
		mo := x.object()
		x.set(mo, "tic", m.Tic)
		x.set(mo, "players", newArray(&x, m.Players))
		x.set(mo, "want", m.Want)
		x.set(mo, "got", m.Got)
		x.set(o, "mismatch", mo)
	}
	x.set(o, "done", p.Done())
	switch {
	case pb.game.err != nil:
		x.set(o, "error", pb.game.err.Error())
		x.set(o, "failed", true)
	case err != nil:
		x.set(o, "error", err.Error())
	}
	if x.err != nil {
		return errorStatus("status: " + x.err.Error())
	}
	return o
}

// errorStatus is a status of no playback, with error set (undefined when
// even that cannot be built).
func errorStatus(text string) safejs.Value {
	var x errs
	o := x.object()
	for _, k := range []string{"tic", "tics", "checked", "mismatches"} {
		x.set(o, k, 0)
	}
	x.set(o, "done", false)
	x.set(o, "error", text)
	return o
}
