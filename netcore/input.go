package netcore

import (
	"slices"
	"strconv"

	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// ReasonInputLayout ends a client whose game's input layout differs from
// its server's: two versions of a game, or two games, on one channel.
const ReasonInputLayout = "the server's game has another input layout"

// ReasonNeedsTicnet ends a client with opaque input whose server plays the
// reference protocol, which carries Doom's ticcmd only.
const ReasonNeedsTicnet = "the game's input needs the ticnet protocol; the server plays the reference's"

// fillInput checks a layout (a wrong one is the program's error, so it
// panics with the reason) and keeps only the extension protocol for an
// opaque one.
func fillInput(l *tic.InputLayout, protocols *[]string) {
	if err := l.Check(); err != nil {
		panic("netcore: " + err.Error())
	}
	if l.Opaque() {
		*protocols = slices.DeleteFunc(slices.Clone(*protocols), func(p string) bool { return p != wire.ProtocolTicnet })
		if len(*protocols) == 0 {
			panic("netcore: opaque input needs protocol " + strconv.Quote(wire.ProtocolTicnet))
		}
	}
}

// fillTicRate gives a tic rate its default, wire.DefaultTicRate, and
// panics on one outside wire.MinTicRate to wire.MaxTicRate (the program's
// error).
func fillTicRate(rate *int) {
	if *rate == 0 {
		*rate = wire.DefaultTicRate
	}
	if *rate < wire.MinTicRate || *rate > wire.MaxTicRate {
		panic("netcore: a tic rate of " + strconv.Itoa(*rate) + " a second, not " + strconv.Itoa(wire.MinTicRate) + " to " + strconv.Itoa(wire.MaxTicRate))
	}
}

// ownCommand is the command a client sends for what its game built: for
// opaque input only the layout's bytes, every other field zero.
func ownCommand(l *tic.InputLayout, cmd tic.Cmd) tic.Cmd {
	if !l.Opaque() {
		return cmd
	}
	var c tic.Cmd
	copy(c.Input[:l.Size], cmd.Input[:l.Size])
	return c
}
