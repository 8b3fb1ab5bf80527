//go:build js && wasm

package main

import (
	"errors"
	"strconv"
	"syscall/js"

	"github.com/ticnet/ticnet/netcore"
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
	player *netcore.ReplayPlayer
	game   *jsGame
	// mismatch is the first recorded checksum the game did not give, once
	// the game has run the tic whole: a tic whose callback threw is no
	// mismatch of the game's.
	mismatch *netcore.ReplayMismatch
}

// playbacks are the page's playbacks, by id: a page may play several.
var (
	playbacks    = map[int]*playback{}
	nextPlayback = 1
)

// replayOpen(bytes, callbacks, inputSize) reads a replay file (a
// Uint8Array; the playback keeps a copy) and sets the page's game (its
// callbacks, as ticnet.js's gameCallbacks makes them) at its first tic,
// from its first snapshot when it has one. It returns what the page needs
// of the replay: an object with id, protocol, players (the players' names,
// by player number), start (the first tic recorded), end (one past the
// last), ticRate, seed, options (the launch options, as a start event has
// them; absent when none), inputSize (0: Doom's ticcmd) and snapshots (the
// tics a seek can load); or with error set, on a file that is not a whole
// replay, on one of another game's input, or on a state the game's load
// refused.
func replayOpen(args []js.Value) any {
	fail := func(err error) any {
		o := factsObject(0, nil, nil)
		o.Set("error", err.Error())
		return o
	}
	if len(args) != 3 || args[0].Type() != js.TypeObject || args[1].Type() != js.TypeObject {
		return fail(errors.New("replayOpen takes the file, the callbacks and the input size"))
	}
	data := make([]byte, integer(args[0].Get("length")))
	if _, err := copyToGo(data, args[0]); err != nil {
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
	game, jg := newGame(args[1], h.Setup.Input)
	p, err := netcore.NewReplayPlayer(data, game)
	if err != nil {
		return fail(err)
	}
	id := nextPlayback
	nextPlayback++
	playbacks[id] = &playback{player: p, game: jg}
	return factsObject(id, h, p)
}

// factsObject is what replayOpen returns of the replay h, played by p (all
// zero but for players, an empty array, when h is nil).
func factsObject(id int, h *wire.ReplayHeader, p *netcore.ReplayPlayer) js.Value {
	o := newObject()
	o.Set("id", id)
	if h == nil {
		o.Set("protocol", "")
		o.Set("players", newArray([]string{}))
		for _, k := range []string{"start", "end", "ticRate", "seed", "inputSize"} {
			o.Set(k, 0)
		}
		o.Set("snapshots", nil)
		return o
	}
	o.Set("protocol", h.Protocol)
	o.Set("players", newArray(h.Names))
	o.Set("start", p.Start())
	o.Set("end", p.End())
	o.Set("ticRate", int(h.Setup.TicRate))
	o.Set("seed", h.Setup.Seed)
	if len(h.Setup.Options) > 0 {
		if b, err := newBytes(h.Setup.Options); err == nil {
			o.Set("options", b)
		}
	}
	o.Set("inputSize", int(h.Setup.Input.Size))
	o.Set("snapshots", arrayOrNull(p.Snapshots()))
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
func replayRun(args []js.Value) any {
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
func replaySeek(args []js.Value) any {
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
func replayClose(args []js.Value) any {
	if len(args) == 1 {
		delete(playbacks, integer(args[0]))
	}
	return nil
}

// playbackOf returns the playback args[0] names, of a call that takes n
// arguments.
func playbackOf(args []js.Value, n int) (*playback, error) {
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
func (pb *playback) status(err error) js.Value {
	p := pb.player
	o := newObject()
	o.Set("tic", p.Tic())
	o.Set("tics", pb.game.ran)
	o.Set("checked", p.Checked())
	o.Set("mismatches", p.Mismatches())
	if m := pb.mismatch; m != nil {
		mo := newObject()
		mo.Set("tic", m.Tic)
		mo.Set("players", newArray(m.Players))
		mo.Set("want", m.Want)
		mo.Set("got", m.Got)
		o.Set("mismatch", mo)
	}
	o.Set("done", p.Done())
	switch {
	case pb.game.err != nil:
		o.Set("error", pb.game.err.Error())
		o.Set("failed", true)
	case err != nil:
		o.Set("error", err.Error())
	}
	return o
}

// errorStatus is a status of no playback, with error set.
func errorStatus(text string) js.Value {
	o := newObject()
	for _, k := range []string{"tic", "tics", "checked", "mismatches"} {
		o.Set(k, 0)
	}
	o.Set("done", false)
	o.Set("error", text)
	return o
}
