//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/hack-pad/safejs"

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

// replayFacts is what replayOpen tells the page of a replay.
type replayFacts struct {
	ID        int      `json:"id"`
	Protocol  string   `json:"protocol"`
	Players   []string `json:"players"` // the players' names, by player number
	Start     uint32   `json:"start"`   // the first tic recorded
	End       uint32   `json:"end"`     // one past the last
	TicRate   int      `json:"ticRate"`
	Seed      uint32   `json:"seed"`
	Options   []byte   `json:"options,omitempty"` // the launch options, as a start event has them (base64)
	InputSize int      `json:"inputSize"`         // 0: Doom's ticcmd
	Snapshots []uint32 `json:"snapshots"`         // the tics a seek can load
	Error     string   `json:"error,omitempty"`
}

// replayStatus is where a playback stands after a pass or a seek.
type replayStatus struct {
	Tic        uint32        `json:"tic"`  // the next tic to run
	Tics       int           `json:"tics"` // tics onTic ran, those of seeks included
	Checked    int           `json:"checked"`
	Mismatches int           `json:"mismatches"`
	Mismatch   *mismatchJSON `json:"mismatch,omitempty"` // the first
	Done       bool          `json:"done"`
	// Error: what went wrong; Failed: a callback of the game threw, and
	// the playback calls it no more.
	Error  string `json:"error,omitempty"`
	Failed bool   `json:"failed,omitempty"`
}

// mismatchJSON is a netcore.ReplayMismatch as the page's "mismatch" event
// has it.
type mismatchJSON struct {
	Tic     uint32 `json:"tic"`
	Players []int  `json:"players"`
	Want    uint32 `json:"want"`
	Got     uint32 `json:"got"`
}

func toJSON(v any) string {
	j, _ := json.Marshal(v)
	return string(j)
}

// replayOpen(bytes, callbacks, inputSize) reads a replay file (a
// Uint8Array; the playback keeps a copy) and sets the page's game (its
// callbacks, as ticnet.js's gameCallbacks makes them) at its first tic,
// from its first snapshot when it has one. It returns replayFacts as
// JSON, with Error set on a file that is not a whole replay, on one of
// another game's input, or on a state the game's load refused.
func replayOpen(args []safejs.Value) any {
	fail := func(err error) any { return toJSON(replayFacts{Error: err.Error()}) }
	if len(args) != 3 {
		return fail(fmt.Errorf("replayOpen takes the file, the callbacks and the input size"))
	}
	n, err := args[0].Length()
	if err != nil {
		return fail(err)
	}
	data := make([]byte, n)
	if _, err := safejs.CopyBytesToGo(data, args[0]); err != nil {
		return fail(err)
	}
	r, err := wire.NewReplayReader(data)
	if err != nil {
		return fail(err)
	}
	h := &r.Header
	size, _ := args[2].Int()
	if int(h.Setup.Input.Size) != size {
		return fail(fmt.Errorf("the replay's input is %s, the game's (options.inputSize) %s",
			inputName(int(h.Setup.Input.Size)), inputName(size)))
	}
	game, jg, err := newGame(args[1], h.Setup.Input)
	if err != nil {
		return fail(err)
	}
	p, err := netcore.NewReplayPlayer(data, game)
	if err != nil {
		return fail(err)
	}
	id := nextPlayback
	nextPlayback++
	playbacks[id] = &playback{player: p, game: jg}
	f := replayFacts{ID: id, Protocol: h.Protocol, Players: h.Names, Start: p.Start(), End: p.End(),
		TicRate: int(h.Setup.TicRate), Seed: h.Setup.Seed, Options: h.Setup.Options, InputSize: int(h.Setup.Input.Size),
		Snapshots: p.Snapshots()}
	if f.Players == nil {
		f.Players = []string{}
	}
	return toJSON(f)
}

// inputName says what input of size bytes is.
func inputName(size int) string {
	if size == 0 {
		return "Doom's ticcmd"
	}
	return fmt.Sprintf("%d bytes", size)
}

// replayRun(id, maxTics, budgetMS) runs up to maxTics tics, for budgetMS
// at most, and stops early after the first tic whose checksum differs
// from the recorded one, so that the page hears of it before any later
// tic runs. It returns the replayStatus as JSON.
func replayRun(args []safejs.Value) any {
	pb, err := playbackOf(args, 3)
	if err != nil {
		return toJSON(replayStatus{Error: "replayRun: " + err.Error()})
	}
	most, _ := args[1].Int()
	budgetMS, _ := args[2].Float()
	began := time.Now()
	budget := time.Duration(budgetMS * float64(time.Millisecond))
	for ran := 0; ran < most && pb.game.err == nil && !pb.player.Done() && time.Since(began) < budget; ran++ {
		had := pb.mismatch != nil
		_, err := pb.player.Run(1)
		pb.noteMismatch()
		if err != nil {
			return toJSON(pb.status(err))
		}
		if !had && pb.mismatch != nil {
			break
		}
	}
	return toJSON(pb.status(nil))
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
// the replayStatus as JSON, with Error set when it cannot.
func replaySeek(args []safejs.Value) any {
	pb, err := playbackOf(args, 2)
	if err != nil {
		return toJSON(replayStatus{Error: "replaySeek: " + err.Error()})
	}
	if pb.game.err != nil {
		return toJSON(pb.status(nil))
	}
	tic, _ := args[1].Int()
	err = pb.player.Seek(uint32(tic))
	pb.noteMismatch()
	return toJSON(pb.status(err))
}

// replayClose(id) forgets a playback.
func replayClose(args []safejs.Value) any {
	if len(args) == 1 {
		id, _ := args[0].Int()
		delete(playbacks, id)
	}
	return nil
}

// playbackOf returns the playback args[0] names, of a call that takes n
// arguments.
func playbackOf(args []safejs.Value, n int) (*playback, error) {
	if len(args) != n {
		return nil, fmt.Errorf("%d arguments, not %d", len(args), n)
	}
	id, _ := args[0].Int()
	pb := playbacks[id]
	if pb == nil {
		return nil, fmt.Errorf("no playback %d (closed?)", id)
	}
	return pb, nil
}

// status is where the playback stands, with err, what went wrong, if
// anything.
func (pb *playback) status(err error) replayStatus {
	p := pb.player
	st := replayStatus{Tic: p.Tic(), Tics: pb.game.ran, Checked: p.Checked(), Mismatches: p.Mismatches(), Done: p.Done()}
	if m := pb.mismatch; m != nil {
		st.Mismatch = &mismatchJSON{Tic: m.Tic, Players: m.Players, Want: m.Want, Got: m.Got}
		if st.Mismatch.Players == nil {
			st.Mismatch.Players = []int{}
		}
	}
	switch {
	case pb.game.err != nil:
		st.Error, st.Failed = pb.game.err.Error(), true
	case err != nil:
		st.Error = err.Error()
	}
	return st
}
