package netcore

import "github.com/ticnet/ticnet/netcore/wire"

// MaxPlayers is the most players a game can have.
const MaxPlayers = wire.MaxPlayers

// TicCmd is one player's input for one tic.
type TicCmd = wire.TicCmd

// Game is the deterministic simulation the engine drives. Every copy runs
// RunTic with the same commands in the same order; Checksum must then give
// the same value on every copy.
type Game interface {
	// BuildTiccmd returns the local player's input for tic.
	BuildTiccmd(tic uint32) TicCmd
	// RunTic advances the game by one tic. ingame[p] says whether player p
	// is in the game; cmds[p] is its command.
	RunTic(tic uint32, cmds *[MaxPlayers]TicCmd, ingame *[MaxPlayers]bool)
	// Checksum is a hash of the game state after the last RunTic.
	Checksum() uint32
}

// PlayerConsistency is optional. A game that implements it supplies the
// consistency byte of each player (Doom: the low byte of the player's x);
// otherwise the engine uses the low byte of Checksum for every player.
type PlayerConsistency interface {
	Consistency(player int) uint8
}
