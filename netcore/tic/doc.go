// Package tic is what the engine and a game share about tics: a player's
// command (Cmd) and what it is made of (InputLayout); the Game interface
// the engine drives, with the optional interfaces beside it (Snapshotter,
// SubstituteAware, …); and the Timeline, a game's confirmed history,
// which says what the game must do next as Requests (advance, save, load)
// instead of calling it.
//
// It is a leaf: it knows the wire's command and nothing of the engine
// (netcore) that feeds a Timeline and runs its Requests, so that a game, a
// replay player (package replay) and the engine can all name a tic's
// commands without importing one another. It does no IO and reads no
// clock.
package tic
