package testgame

import (
	"iter"

	"github.com/ticnet/ticnet/netcore/tic"
)

// History is what a copy ran, by tic (Game.Ran). It keeps a tic in 108
// bytes rather than a Ran's 620: a Ran's commands carry MaxInputBytes of
// opaque input each, which a Doom game leaves zero, and the games of the
// scenario suite (10 000 tics at 8 players, 200 seeds) spent a fifth of
// their time growing and copying whole Rans.
type History struct {
	tics []ranTic
	// inputs holds the opaque input of the tics that had any, by
	// ranTic.input-1.
	inputs [][tic.MaxPlayers][tic.MaxInputBytes]byte
}

// ranTic is a Ran as kept.
type ranTic struct {
	cmds   [tic.MaxPlayers]cmdHead
	input  int32 // 1 + the index of its opaque input in History.inputs; 0: all zero
	before uint32
	inGame uint8
	ok     bool
}

// cmdHead is a command without its opaque input.
type cmdHead struct {
	forward, side int8
	turn          int16
	chat, buttons uint8
	consistency   uint8
	buttons2      uint8
	inventory     uint16
	lookFly, arti uint8
}

// Len is one more than the last tic in the history: the tics At can
// return as run are below it.
func (h History) Len() int { return len(h.tics) }

// At returns what the copy ran at tic t; OK is false if it did not run t.
func (h History) At(t uint32) Ran {
	if int64(t) >= int64(len(h.tics)) {
		return Ran{}
	}
	rt := &h.tics[t]
	r := Ran{InGame: rt.inGame, Before: rt.before, OK: rt.ok}
	for p := range r.Cmds {
		c, k := &r.Cmds[p], &rt.cmds[p]
		c.ForwardMove, c.SideMove, c.AngleTurn = k.forward, k.side, k.turn
		c.ChatChar, c.Buttons, c.Consistency, c.Buttons2 = k.chat, k.buttons, k.consistency, k.buttons2
		c.Inventory, c.LookFly, c.Arti = k.inventory, k.lookFly, k.arti
		if rt.input != 0 {
			c.Input = h.inputs[rt.input-1][p]
		}
	}
	return r
}

// All yields every tic of the history, by tic, run or not (OK).
func (h History) All() iter.Seq2[int, Ran] {
	return func(yield func(int, Ran) bool) {
		for t := range h.tics {
			if !yield(t, h.At(uint32(t))) {
				return
			}
		}
	}
}

// Before is the history of the tics before n only.
func (h History) Before(n int) History {
	h.tics = h.tics[:min(n, len(h.tics))]
	return h
}

// Head returns who was in the game at tic t and the checksum before it,
// and whether the copy ran t: what At returns, without the commands.
func (h History) Head(t uint32) (inGame uint8, before uint32, ok bool) {
	if int64(t) >= int64(len(h.tics)) {
		return 0, 0, false
	}
	rt := &h.tics[t]
	return rt.inGame, rt.before, rt.ok
}

// set records what RunTic was given for tic t.
func (h *History) set(t uint32, cmds *[tic.MaxPlayers]tic.Cmd, inGame uint8, before uint32) {
	if n := int(t) + 1; n > len(h.tics) {
		h.tics = append(h.tics, make([]ranTic, n-len(h.tics))...)
	}
	rt := ranTic{before: before, inGame: inGame, ok: true}
	var input [tic.MaxPlayers][tic.MaxInputBytes]byte
	opaque := false
	for p := range cmds {
		c := &cmds[p]
		rt.cmds[p] = cmdHead{forward: c.ForwardMove, side: c.SideMove, turn: c.AngleTurn, chat: c.ChatChar,
			buttons: c.Buttons, consistency: c.Consistency, buttons2: c.Buttons2, inventory: c.Inventory,
			lookFly: c.LookFly, arti: c.Arti}
		input[p] = c.Input
		opaque = opaque || c.Input != [tic.MaxInputBytes]byte{}
	}
	if old := h.tics[t].input; old != 0 {
		rt.input = old // a tic run again (a rollback) reuses its place
		h.inputs[old-1] = input
	} else if opaque {
		h.inputs = append(h.inputs, input)
		rt.input = int32(len(h.inputs))
	}
	h.tics[t] = rt
}
