package session

import (
	"bytes"

	"github.com/ticnet/ticnet/netcore"
)

// Replays: with Config.Replay.Record, the engine's client records the game
// it plays (netcore.ClientConfig.Replay), and Replay returns it.
//
// What the session does to the client decides what a replay covers:
//   - Host migration and hand-off keep the client (it reattaches to the
//     new server), so the replay goes on, one file from the first tic.
//   - A copy that joins a game in progress records from the tic of the
//     state it was given (the file starts with that snapshot).
//   - The session builds a new client when the old one is done with: a
//     new server elected while the copy sat in its lobby, a retry after a
//     refusal, a copy that has to join its game again. The old client's
//     replay is kept, and Replay returns it until the new client records
//     a tic: the game that just ended can still be saved.
//   - A copy that has to join its game again (it slept past the tic
//     window and was sent away, its side of a healed partition yields, or
//     the new server could not take it back) records afresh from the tic
//     it joined at, and that replay replaces the one before: the copy
//     never ran the tics in between (or ran others, on its side of a
//     split), and a replay is one unbroken run of tics from one state.

// keptReplay is the replay of a client the session dropped, until the
// client after it records a game of its own.
type keptReplay struct {
	data    []byte
	stopped bool
}

// Replay returns this copy's replay file: the game its client records, or
// the last game it recorded (see above); nil when it records none. The
// slice is the recorder's: copy it to keep it past the next Update.
func (s *Session) Replay() []byte { return s.kept.file(s.Client()) }

// file is the replay of c (nil: no client), or the kept one while c
// records none.
func (k *keptReplay) file(c *netcore.Client) []byte {
	if c != nil {
		if r := c.Replay(); r != nil {
			return r
		}
	}
	return k.data
}

// fileStopped reports whether the replay file returns reached its size bound.
func (k *keptReplay) fileStopped(c *netcore.Client) bool {
	if c != nil && c.Replay() != nil {
		return c.ReplayStopped()
	}
	return k.stopped
}

// keep keeps the replay of c (nil: no client), which the session is about
// to drop.
func (k *keptReplay) keep(c *netcore.Client) {
	if c == nil {
		return
	}
	if r := c.Replay(); r != nil {
		*k = keptReplay{data: bytes.Clone(r), stopped: c.ReplayStopped()}
	}
}

// forget lets the kept replay go once c records a game of its own, which
// file returns instead.
func (k *keptReplay) forget(c *netcore.Client) {
	if k.data != nil && c != nil && c.Replay() != nil {
		*k = keptReplay{}
	}
}

// dropEngine drops the engine, keeping its replay.
func (s *Session) dropEngine() {
	s.kept.keep(s.Client())
	s.eng = nil
}
