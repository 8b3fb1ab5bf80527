//go:build js && wasm

package main

import (
	"encoding/binary"
	"errors"
	"strconv"

	"github.com/hack-pad/safejs"

	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// jsGame is the game on the JS side: Go calls it, never the other way.
// Once a callback has failed (err), it calls none again: the copy leaves
// its game (loop.fail), or its playback stops.
type jsGame struct {
	// The page's callbacks, looked up once (they take no this).
	input, onTic, checksum, save, load, playerSums, onConfirmed safejs.Value
	confirms                                                    bool // the page gave onConfirmed
	over                                                        bool // onTic said the game is over after the tic (the page's over)

	cb     safejs.Value // the callbacks, as ticnet.js makes them
	cmdBuf safejs.Value
	inBuf  safejs.Value // input writes the local player's command here
	// saveBuf is where save leaves the state (its length: n): ticnet.js
	// makes a larger one when a state does not fit.
	saveBuf jsBuf
	layout  tic.InputLayout
	raw     [tic.MaxPlayers * tic.MaxInputBytes]byte
	subs    uint8 // the players whose commands of the next RunTic are substitutes
	// ingame: the players in the last RunTic; psums their own checksums
	// after it, once asked for (psumsOK).
	ingame  uint8
	sumBuf  safejs.Value
	psums   [tic.MaxPlayers]uint32
	psumsOK bool
	ran     int // the tics onTic ran (a playback reports it)
	err     error
	// spent is the time spent in the game's callbacks since the pass
	// began (call), in ns: the pass's netcode time excludes it.
	spent int64
}

// call calls fn, one of the game's callbacks, and adds the time from the
// call into JS to its return to spent: the page's function, ticnet.js's
// checks around it, and the crossing between Go and JS. What Go does
// around the call (copying commands, states and checksums) is the
// netcode's.
func (g *jsGame) call(fn safejs.Value, args ...any) (safejs.Value, error) {
	began := nanotime()
	v, err := fn.Invoke(args...)
	g.spent += since(began)
	return v, err
}

// BuildTiccmd has the page's input write the command into inBuf, and
// copies it in one call (not an Index and an Int per field).
func (g *jsGame) BuildTiccmd(t uint32) tic.Cmd {
	if g.err != nil {
		return tic.Cmd{}
	}
	if _, err := g.call(g.input, t); err != nil {
		g.err = err
		return tic.Cmd{}
	}
	var c tic.Cmd
	if n := int(g.layout.Size); n > 0 {
		if got, err := safejs.CopyBytesToGo(c.Input[:n], g.inBuf); err != nil || got != n {
			g.err = errors.New("input: " + strconv.Itoa(got) + " bytes of " + strconv.Itoa(n) + " (" + errText(err) + ")")
		}
		return c
	}
	var b [cmdBytes]byte
	if _, err := safejs.CopyBytesToGo(b[:], g.inBuf); err != nil {
		g.err = errors.New("input: " + err.Error())
		return c
	}
	c.ForwardMove, c.SideMove, c.AngleTurn = int8(b[0]), int8(b[1]), int16(binary.LittleEndian.Uint16(b[2:]))
	c.Buttons, c.ChatChar = b[4]&^wire.ButtonSpecial, b[5]
	return c
}

// cmdBytes is a Doom command's size in cmdBuf and inBuf (ticnet.js's
// CMD_BYTES): forward, side, turn (2, little-endian), buttons, chat, 2
// spare.
const cmdBytes = 8

func (g *jsGame) RunTic(t uint32, cmds *[tic.MaxPlayers]tic.Cmd, ingame *[tic.MaxPlayers]bool) {
	if g.err != nil {
		return
	}
	mask := 0
	size := int(g.layout.Size)
	g.psumsOK = false
	for p, c := range cmds {
		if ingame[p] {
			mask |= 1 << p
		}
		if size > 0 {
			copy(g.raw[p*size:(p+1)*size], c.Input[:size])
			continue
		}
		o := p * cmdBytes
		g.raw[o], g.raw[o+1] = byte(c.ForwardMove), byte(c.SideMove)
		binary.LittleEndian.PutUint16(g.raw[o+2:], uint16(c.AngleTurn))
		g.raw[o+4], g.raw[o+5] = c.Buttons, c.ChatChar
	}
	n := tic.MaxPlayers * cmdBytes
	if size > 0 {
		n = tic.MaxPlayers * size
	}
	if _, err := safejs.CopyBytesToJS(g.cmdBuf, g.raw[:n]); err != nil {
		g.err = err
		return
	}
	subs := g.subs
	g.subs = 0
	g.ingame = uint8(mask)
	g.ran++
	v, err := g.call(g.onTic, t, mask, int(subs))
	if err != nil {
		g.err = err
		return
	}
	g.over, _ = v.Truthy()
}

// Over is what the page's over said after the last onTic (tic.Ending):
// ticnet.js asks it in the same call.
func (g *jsGame) Over() bool { return g.err == nil && g.over }

// Confirmed calls the page's onConfirmed, if it gave one
// (tic.ConfirmAware): no call into JS a tic otherwise.
func (g *jsGame) Confirmed(t, sum uint32) {
	if !g.confirms || g.err != nil {
		return
	}
	if _, err := g.call(g.onConfirmed, t, sum); err != nil {
		g.err = err
	}
}

var (
	_ tic.Ending       = (*jsGame)(nil)
	_ tic.ConfirmAware = (*jsGame)(nil)
)

// IgnoresConsistency: the page never gets a command's consistency byte
// (RunTic copies the other fields), so its prediction ignores it
// (tic.ConsistencyBlind).
func (g *jsGame) IgnoresConsistency() {}

var _ tic.ConsistencyBlind = (*jsGame)(nil)

// Substitutes keeps which players' commands of the next RunTic are the
// server's substitutes, which onTic passes on (tic.SubstituteAware).
func (g *jsGame) Substitutes(tic uint32, players uint8) { g.subs = players }

func (g *jsGame) Checksum() uint32 {
	if g.err != nil {
		return 0
	}
	v, err := g.call(g.checksum)
	if err != nil {
		g.err = err
		return 0
	}
	return uint32(int64(number(v)))
}

// snapGame is a jsGame whose page gave save and load: it implements
// tic.Snapshotter, so that this copy can join a game in progress and
// hand the state to one. A jsGame does not: the engine tests for the
// interface, and a game without it must not seem to have it.
type snapGame struct{ jsGame }

var _ tic.Snapshotter = (*snapGame)(nil)

// SaveState copies the state the page's save returned, which ticnet.js
// copies into saveBuf (a number crosses back, not the page's Uint8Array:
// no reference for the GC to finalize). On an error it returns no state,
// which the joiner's load refuses.
func (g *snapGame) SaveState() []byte {
	if g.err != nil {
		return nil
	}
	v, err := g.call(g.save)
	if err != nil {
		g.err = err
		return nil
	}
	n := integer(v)
	if n > g.saveBuf.n {
		// ticnet.js made a larger saveBuf.
		var x errs
		g.saveBuf.v = x.get(g.cb, "saveBuf")
		g.saveBuf.n = integer(x.get(g.saveBuf.v, "length"))
		if x.err != nil {
			g.err = x.err
			return nil
		}
	}
	state := make([]byte, max(0, min(n, g.saveBuf.n))) // the engine keeps it: a new one each time
	if _, err := safejs.CopyBytesToGo(state, g.saveBuf.v); err != nil {
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
	g.psumsOK = false
	var x errs
	buf := x.bytes(state)
	if x.err != nil {
		return x.err
	}
	_, err := g.call(g.load, buf)
	if err != nil {
		g.err = err
	}
	return err
}

// playerChecksum is a player's own checksum after the last RunTic, for a
// page that gave playerChecksum. One call to the page (its playerSums)
// gets every player in the game's: the engine asks for each in turn.
func (g *jsGame) playerChecksum(p int) uint32 {
	if g.err != nil {
		return 0
	}
	if !g.psumsOK {
		var raw [tic.MaxPlayers * 4]byte
		if _, err := g.call(g.playerSums, int(g.ingame)); err != nil {
			g.err = err
			return 0
		}
		if _, err := safejs.CopyBytesToGo(raw[:], g.sumBuf); err != nil {
			g.err = err
			return 0
		}
		for q := range g.psums {
			g.psums[q] = binary.LittleEndian.Uint32(raw[q*4:])
		}
		g.psumsOK = true
	}
	return g.psums[p]
}

// sumGame is a jsGame whose page gave playerChecksum
// (tic.PlayerChecksummer): a replay records each player's checksum,
// and a playback names the players whose state differs.
type sumGame struct{ jsGame }

func (g *sumGame) PlayerChecksum(p int) uint32 { return g.playerChecksum(p) }

// snapSumGame is a snapGame whose page gave playerChecksum too.
type snapSumGame struct{ snapGame }

func (g *snapSumGame) PlayerChecksum(p int) uint32 { return g.playerChecksum(p) }

var (
	_ tic.PlayerChecksummer = (*sumGame)(nil)
	_ tic.PlayerChecksummer = (*snapSumGame)(nil)
)

// newGame returns the game whose callbacks (as ticnet.js's gameCallbacks
// makes them) are cb's, as the engine sees it: with exactly the optional
// interfaces the page's callbacks give (save and load: a snapGame;
// playerChecksum: PlayerChecksummer), since the engine tests for them and
// a game must not seem to have one it has not. It also returns the jsGame
// inside; an error when reading cb threw. The callbacks take no this:
// each is looked up once, not on every call.
func newGame(cb safejs.Value, layout tic.InputLayout) (tic.Game, *jsGame, error) {
	var x errs
	jg := jsGame{cb: cb, cmdBuf: x.get(cb, "cmdBuf"), inBuf: x.get(cb, "inBuf"), layout: layout, input: x.get(cb, "input"),
		onTic: x.get(cb, "onTic"), checksum: x.get(cb, "checksum"), save: x.get(cb, "save"), load: x.get(cb, "load")}
	snap, sums := isFunc(cb, "save") && isFunc(cb, "load"), isFunc(cb, "playerSums")
	if jg.confirms = isFunc(cb, "onConfirmed"); jg.confirms {
		jg.onConfirmed = x.get(cb, "onConfirmed")
	}
	if sums {
		jg.sumBuf, jg.playerSums = x.get(cb, "sumBuf"), x.get(cb, "playerSums")
	}
	if snap {
		jg.saveBuf.v = x.get(cb, "saveBuf")
		jg.saveBuf.n = integer(x.get(jg.saveBuf.v, "length"))
	}
	if x.err != nil {
		return nil, nil, x.err
	}
	switch {
	case snap && sums:
		g := &snapSumGame{snapGame{jg}}
		return g, &g.jsGame, nil
	case snap:
		g := &snapGame{jg}
		return g, &g.jsGame, nil
	case sums:
		g := &sumGame{jg}
		return g, &g.jsGame, nil
	}
	return &jg, &jg, nil
}

// layout is the input layout the page asked for (config's inputSize and
// eventBits); ticnet.js has checked it.
func layout(x *errs, config safejs.Value) tic.InputLayout {
	l := tic.InputLayout{Size: uint8(max(0, min(integer(x.get(config, "inputSize")), tic.MaxInputBytes)))}
	if bits := x.get(config, "eventBits"); bits.Type() == safejs.TypeObject {
		for i := range min(integer(x.get(bits, "length")), int(l.Size)) {
			l.Events[i] = byte(integer(x.index(bits, i)))
		}
	}
	return l
}

// errText is err's text, "<nil>" for none.
func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
