package tic

import "github.com/ticnet/ticnet/netcore/wire"

// MaxPlayers is the most players a game can have.
const MaxPlayers = wire.MaxPlayers

// MaxInputBytes bounds a game's opaque input (InputLayout).
const MaxInputBytes = wire.MaxInputBytes

// Cmd is one player's input for one tic.
type Cmd = wire.TicCmd

// Game is the deterministic simulation the engine drives. Every copy runs
// RunTic with the same commands in the same order; Checksum must then give
// the same value on every copy.
type Game interface {
	// BuildTiccmd returns the local player's input for tic.
	BuildTiccmd(tic uint32) Cmd
	// RunTic advances the game by one tic. ingame[p] says whether player p
	// is in the game; cmds[p] is its command.
	RunTic(tic uint32, cmds *[MaxPlayers]Cmd, ingame *[MaxPlayers]bool)
	// Checksum is a hash of the game state after the last RunTic.
	Checksum() uint32
}

// SubstituteAware is optional beside Game: a game that implements it is
// told, just before each RunTic of a confirmed tic, which players'
// commands the server substituted because theirs came too late (their
// command of the tic before, events cleared; the events run in a later
// command of theirs). A predicted tic reports none: it is run again, with
// the substitutes, if it was wrong.
type SubstituteAware interface {
	Substitutes(tic uint32, players uint8)
}

// PlayerConsistency is optional. A game that implements it supplies the
// consistency byte of each player (Doom: the low byte of the player's x);
// otherwise the engine uses the low byte of Checksum for every player.
type PlayerConsistency interface {
	Consistency(player int) uint8
}

// ConsistencyBlind is optional beside Game: a game that implements it
// never reads cmds[p].Consistency in RunTic (the engine checks the byte
// itself, spec §11.4). Its prediction then ignores the byte: a predicted
// tic whose commands differ from the confirmed ones only there stands.
// That is the case of every substitute of a steady player (the server
// repeats its last command, whose byte is of an earlier tic) and of its
// first command on time after one: with a checksum that changes every
// tic, a player whose command is late now and then would otherwise roll
// every other copy back twice. Every game of the JS API is blind to it.
type ConsistencyBlind interface {
	IgnoresConsistency()
}

// PlayerChecksummer is optional beside Game: a game that implements it
// gives a hash of each player's own part of its state after the last
// RunTic. A replay records it beside Checksum, so that playing a replay
// back names the players whose state went wrong first.
type PlayerChecksummer interface {
	PlayerChecksum(player int) uint32
}

// Snapshotter is optional beside Game: a game that implements it can be
// saved and loaded whole, which is what lets a copy join a game in
// progress (it loads a snapshot at a confirmed tic and runs the tics
// after it). A game without it plays as before; a copy of it cannot join
// late, and the engine says so in an event.
type Snapshotter interface {
	// SaveState returns the whole game state after the last RunTic. The
	// engine may keep the slice: return a new one each time.
	SaveState() []byte
	// LoadState replaces the game state with one SaveState returned,
	// possibly by another copy of the game. It must refuse (an error, the
	// game unchanged) a state it cannot read: the bytes come from the
	// network.
	LoadState(state []byte) error
}

// Ending is optional beside Game: a game that implements it says after
// each RunTic whether it is over (a score reached, a timer run out). The
// engine asks after every tic it runs, predicted ones included, and acts
// only on the answer after a confirmed tic: every copy of a deterministic
// game then reaches the same verdict at the same tic, and under the
// extension protocol each ends its game there without asking anyone
// (the server learns it from them). Under the reference protocol the
// answer is ignored: Chocolate Doom has no such end.
type Ending interface {
	Over() bool
}

// ConfirmAware is optional beside Game: a game that implements it is told
// after each confirmed tic that tic and its checksum, in tic order, once;
// never of a predicted tic (with prediction the game's state may then be
// ahead of the tic: keep what the hook needs per tic). It is the place
// for what must not be undone: an end screen, a result saved.
type ConfirmAware interface {
	Confirmed(tic uint32, checksum uint32)
}
