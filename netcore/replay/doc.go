// Package replay records a game as a replay file and plays one back.
//
// A Recorder (recorder.go) is the one recorder of both ends: a client
// records every tic it runs once confirmed, with its checksums and, for a
// game that can save, snapshots; a server records the commands it lets go
// under either protocol, as every peer runs them. A Player (player.go)
// runs a file into a copy of the game, seeks through its snapshots and
// names the first tic (and the players) whose checksum differs; Verify and
// VerifySnapshots (verify.go) do that for a whole file. The file's format
// is package wire's (wire.ReplayWriter, wire.ReplayReader).
//
// It is a leaf: it knows a tic's commands and the Game interfaces
// (package tic) and the wire's file, never the engine (netcore) that feeds
// a Recorder. It does no IO and reads no clock: a file is bytes in memory,
// handed over by the caller.
package replay
