package session

import "bytes"

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

// keptReplay is the replay of a client the session dropped.
type keptReplay struct {
	data    []byte
	stopped bool
}

// Replay returns this copy's replay file: the game its client records, or
// the last game it recorded (see above); nil when it records none. The
// slice is the recorder's: copy it to keep it past the next Update.
func (s *Session) Replay() []byte {
	if s.eng != nil {
		if r := s.eng.client.Replay(); r != nil {
			return r
		}
	}
	return s.kept.data
}

// replayStopped reports whether the replay Replay returns reached its
// size bound.
func (s *Session) replayStopped() bool {
	if s.eng != nil && s.eng.client.Replay() != nil {
		return s.eng.client.ReplayStopped()
	}
	return s.kept.stopped
}

// keepReplay keeps the replay of the client the session is about to drop.
func (s *Session) keepReplay() {
	if s.eng == nil {
		return
	}
	if r := s.eng.client.Replay(); r != nil {
		s.kept = keptReplay{data: bytes.Clone(r), stopped: s.eng.client.ReplayStopped()}
	}
}

// forgetKeptReplay lets the kept replay go once the client records a game
// of its own, which Replay returns instead.
func (s *Session) forgetKeptReplay() {
	if s.kept.data != nil && s.eng != nil && s.eng.client.Replay() != nil {
		s.kept = keptReplay{}
	}
}

// dropEngine drops the engine, keeping its replay.
func (s *Session) dropEngine() {
	s.keepReplay()
	s.eng = nil
}
