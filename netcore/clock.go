package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// clock is the part of a client's game that differs by protocol: how the
// client paces the commands it builds and encodes them, which of the
// server's frames its game takes, and what it does with the tics it runs.
// One is chosen when the game's mode is known (chooseClock) and kept until
// the game ends; nothing else in the client asks which protocol runs.
//
// The reference (clock_reference.go) paces by the PID filter of spec §11.3
// and receives GAMEDATA; the extension (clock_ticnet.go) paces by the
// server's margin reports, receives tic sets, and carries the extension's
// features (prediction, events carried, checksum reports, reattachment,
// the end of a game).
type clock interface {
	// ticRate is the game's tics per second.
	ticRate() int
	// refuses says why a game of this input layout cannot run under the
	// protocol; "" when it can.
	refuses(in *tic.InputLayout) string
	// startDelayMS is how long after its start the client builds its
	// first tic.
	startDelayMS() int64
	// encodes sets how the client's GAMEDATA is encoded.
	encodes(g *wire.ClientGameData)
	// offsetMS is how far clock sync moves the client's clock now.
	offsetMS(c *Client) int64
	// paced moves the client's clock to tic clock before it builds
	// commands; false: build none now.
	paced(c *Client, clock int64) bool
	// skipComplete moves the next command to build past the tics already
	// complete.
	skipComplete(c *Client)
	// lead bounds how far ahead of the game the client builds commands.
	lead() uint32
	// diffBase is what a command is diffed against on the wire (a
	// value: a pointer through the interface would escape, an allocation
	// per command).
	diffBase(last *tic.Cmd) tic.Cmd
	// copies is how many earlier commands go with each new one.
	copies(c *Client) uint32
	// absent is what a player out of a tic leaves as its diff base.
	absent(base *tic.Cmd)
	// runTics runs the tics the game may run now.
	runTics(c *Client)
	// own completes the commands of tic g with this client's own.
	own(c *Client, g uint32, cmds *[tic.MaxPlayers]tic.Cmd, in uint8) uint8
	// ran follows the game's tic g, whose checksum was sum.
	ran(c *Client, g uint32, sum uint32)
	// substituted follows confirmed tic t, in which the server substituted
	// the commands of the players in substituted.
	substituted(c *Client, t uint32, substituted uint8)
	// gameData takes a reference GAMEDATA.
	gameData(c *Client, now int64, body []byte) error
	// inGame takes a TICNET_1 frame of a game in progress.
	inGame(c *Client, now int64, kind uint8, h wire.Header, body []byte) error
	// canReattach reports whether the game can go on under a new server.
	canReattach() bool
	// tellDelay tells the server the client's input delay (sendSide.delay)
	// at the game's start or its connection's (anew: none is sent for no
	// delay), or after it changed.
	tellDelay(c *Client, anew bool)
	// requestEnd asks the server to end the game.
	requestEnd(c *Client)
	// over ends the game before tic end: the game said it was over after
	// the confirmed tic before (tic.Ending).
	over(c *Client, end uint32)
}

// chooseClock is the one place a client picks its protocol's clock: ext
// for the extension's game of setup, the reference's otherwise.
func chooseClock(ext bool, setup wire.GameSetup) clock {
	if ext {
		return ticnetClock{rate: int(setup.TicRate)}
	}
	return referenceClock{}
}
