//go:build js && wasm

package main

import (
	"encoding/binary"
	"errors"
	"strconv"
	"syscall/js"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/wire"
)

// jsGame is the game on the JS side: Go calls it, never the other way.
// Once a callback has failed (err), it calls none again: the copy leaves
// its game (loop.fail), or its playback stops.
type jsGame struct {
	// The page's callbacks, looked up once (they take no this).
	input, onTic, checksum, save, load, playerSums js.Value

	cmdBuf js.Value
	layout netcore.InputLayout
	raw    [netcore.MaxPlayers * netcore.MaxInputBytes]byte
	subs   uint8 // the players whose commands of the next RunTic are substitutes
	// ingame: the players in the last RunTic; psums their own checksums
	// after it, once asked for (psumsOK).
	ingame  uint8
	sumBuf  js.Value
	psums   [netcore.MaxPlayers]uint32
	psumsOK bool
	ran     int // the tics onTic ran (a playback reports it)
	err     error
	// spent is the time spent in the game's callbacks since the pass
	// began (ns): the pass's netcode time excludes it.
	spent int64
}

// timed adds the time since began to spent: defer g.timed(nanotime()).
func (g *jsGame) timed(began int64) { g.spent += since(began) }

func (g *jsGame) BuildTiccmd(tic uint32) netcore.TicCmd {
	if g.err != nil {
		return netcore.TicCmd{}
	}
	defer g.timed(nanotime())
	v, err := call(g.input, tic)
	if err != nil {
		g.err = err
		return netcore.TicCmd{}
	}
	if n := int(g.layout.Size); n > 0 {
		// ticnet.js has checked that it is a Uint8Array of n bytes.
		var c netcore.TicCmd
		if got, err := copyToGo(c.Input[:n], v); err != nil || got != n {
			g.err = errors.New("input returned " + strconv.Itoa(got) + " bytes, not " + strconv.Itoa(n) + " (" + errText(err) + ")")
		}
		return c
	}
	f := func(i int) int {
		if v.Type() != js.TypeObject {
			return 0
		}
		return integer(v.Index(i))
	}
	return netcore.TicCmd{ForwardMove: int8(f(0)), SideMove: int8(f(1)), AngleTurn: int16(f(2)),
		Buttons: uint8(f(3)) &^ wire.ButtonSpecial, ChatChar: uint8(f(4))}
}

func (g *jsGame) RunTic(tic uint32, cmds *[netcore.MaxPlayers]netcore.TicCmd, ingame *[netcore.MaxPlayers]bool) {
	if g.err != nil {
		return
	}
	defer g.timed(nanotime())
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
		o := p * 8
		g.raw[o], g.raw[o+1] = byte(c.ForwardMove), byte(c.SideMove)
		binary.LittleEndian.PutUint16(g.raw[o+2:], uint16(c.AngleTurn))
		g.raw[o+4], g.raw[o+5] = c.Buttons, c.ChatChar
	}
	n := netcore.MaxPlayers * 8
	if size > 0 {
		n = netcore.MaxPlayers * size
	}
	if _, err := copyToJS(g.cmdBuf, g.raw[:n]); err != nil {
		g.err = err
		return
	}
	subs := g.subs
	g.subs = 0
	g.ingame = uint8(mask)
	g.ran++
	if _, err := call(g.onTic, tic, mask, int(subs)); err != nil {
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
	defer g.timed(nanotime())
	v, err := call(g.checksum)
	if err != nil {
		g.err = err
		return 0
	}
	return uint32(int64(number(v)))
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
	defer g.timed(nanotime())
	v, err := call(g.save)
	if err != nil {
		g.err = err
		return nil
	}
	// ticnet.js has checked that it is a Uint8Array.
	state := make([]byte, integer(v.Get("length"))) // the engine keeps it: a new one each time
	if _, err := copyToGo(state, v); err != nil {
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
	defer g.timed(nanotime())
	g.psumsOK = false
	buf, err := newBytes(state)
	if err != nil {
		return err
	}
	if _, err = call(g.load, buf); err != nil {
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
		defer g.timed(nanotime())
		var raw [netcore.MaxPlayers * 4]byte
		if _, err := call(g.playerSums, int(g.ingame)); err != nil {
			g.err = err
			return 0
		}
		if _, err := copyToGo(raw[:], g.sumBuf); err != nil {
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
// (netcore.PlayerChecksummer): a replay records each player's checksum,
// and a playback names the players whose state differs.
type sumGame struct{ jsGame }

func (g *sumGame) PlayerChecksum(p int) uint32 { return g.playerChecksum(p) }

// snapSumGame is a snapGame whose page gave playerChecksum too.
type snapSumGame struct{ snapGame }

func (g *snapSumGame) PlayerChecksum(p int) uint32 { return g.playerChecksum(p) }

var (
	_ netcore.PlayerChecksummer = (*sumGame)(nil)
	_ netcore.PlayerChecksummer = (*snapSumGame)(nil)
)

// newGame returns the game whose callbacks (as ticnet.js's gameCallbacks
// makes them) are cb's, as the engine sees it: with exactly the optional
// interfaces the page's callbacks give (save and load: a snapGame;
// playerChecksum: PlayerChecksummer), since the engine tests for them and
// a game must not seem to have one it has not. It also returns the jsGame
// inside.
func newGame(cb js.Value, layout netcore.InputLayout) (netcore.Game, *jsGame) {
	jg := jsGame{cmdBuf: cb.Get("cmdBuf"), layout: layout, input: method(cb, "input"), onTic: method(cb, "onTic"),
		checksum: method(cb, "checksum"), save: method(cb, "save"), load: method(cb, "load")}
	snap, sums := isFunc(cb, "save") && isFunc(cb, "load"), isFunc(cb, "playerSums")
	if sums {
		jg.sumBuf, jg.playerSums = cb.Get("sumBuf"), method(cb, "playerSums")
	}
	switch {
	case snap && sums:
		g := &snapSumGame{snapGame{jg}}
		return g, &g.jsGame
	case snap:
		g := &snapGame{jg}
		return g, &g.jsGame
	case sums:
		g := &sumGame{jg}
		return g, &g.jsGame
	}
	return &jg, &jg
}

// layout is the input layout the page asked for (config's inputSize and
// eventBits); ticnet.js has checked it.
func layout(config js.Value) netcore.InputLayout {
	l := netcore.InputLayout{Size: uint8(max(0, min(integer(config.Get("inputSize")), netcore.MaxInputBytes)))}
	if bits := config.Get("eventBits"); bits.Type() == js.TypeObject {
		for i := range min(integer(bits.Get("length")), int(l.Size)) {
			l.Events[i] = byte(integer(bits.Index(i)))
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
