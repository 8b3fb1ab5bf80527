// Package tic is what the engine and a game share about a tic: a player's
// command (Cmd), and the Game interface the engine drives with the
// optional interfaces beside it (Snapshotter, SubstituteAware, …).
//
// It is a leaf: it knows the wire's command and nothing of the engine
// (netcore) that drives a Game, so that a game, a replay player (package
// replay) and the engine can all name a tic's commands without importing
// one another. It keeps no state and does no IO.
package tic
