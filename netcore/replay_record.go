package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// ReplayConfig makes a client record its game as a replay file
// (wire.ReplayWriter): every tic it runs once confirmed, with its
// checksum, and snapshots when the game can save.
type ReplayConfig struct {
	Record bool
	// SumEvery records the checksum every this many tics; default 1, so
	// that a playback finds the very tic where a game went wrong.
	SumEvery int
	// SnapshotEvery records the game's state every this many tics (and
	// before the first), for a game that can save: the places a playback
	// can seek to. Default DefaultReplaySnapshotTics.
	SnapshotEvery int
	// MaxBytes bounds the file: the recording stops, whole up to its last
	// tic, once the file passes it or a snapshot would. Default
	// DefaultReplayMaxBytes.
	MaxBytes int
}

// Defaults of ReplayConfig.
const (
	DefaultReplaySnapshotTics = 30 * wire.DefaultTicRate // half a minute at 35 tics a second
	DefaultReplayMaxBytes     = 32 << 20
)

func (rc *ReplayConfig) fill() {
	if rc.SumEvery <= 0 {
		rc.SumEvery = 1
	}
	rc.SumEvery = min(rc.SumEvery, 255)
	if rc.SnapshotEvery <= 0 {
		rc.SnapshotEvery = DefaultReplaySnapshotTics
	}
	if rc.MaxBytes <= 0 {
		rc.MaxBytes = DefaultReplayMaxBytes
	}
}

// recorder is the client's replay of its current (or last) game. It knows
// of the client only what it was given: its configuration, whether the
// game can save, and where the header of a new replay comes from.
type recorder struct {
	cfg     ReplayConfig
	canSave bool                     // the game is a Snapshotter
	header  func() wire.ReplayHeader // the game's, for a replay that starts now
	w       *wire.ReplayWriter
	start   uint32                 // the first tic recorded
	stopped bool                   // the file reached MaxBytes
	tic     wire.ReplayTic         // the tic being recorded
	psums   [tic.MaxPlayers]uint16 // its players' checksums
}

// Replay returns the replay file of this client's game so far (or of its
// last game, until the next starts), or nil when it records none. The
// slice is the recorder's: copy it to keep it past the next Update.
func (c *Client) Replay() []byte {
	if c.rec.w == nil {
		return nil
	}
	return c.rec.w.Bytes()
}

// ReplayStopped reports whether the replay stopped at its size bound.
func (c *Client) ReplayStopped() bool { return c.rec.stopped }

// recording reports whether the client records the tics it runs.
func (rec *recorder) recording() bool { return rec.cfg.Record && !rec.stopped }

// reset forgets the replay, for a new game.
func (rec *recorder) reset() { *rec = recorder{cfg: rec.cfg, canSave: rec.canSave, header: rec.header} }

// recordStart starts a new replay at tic, with state, the game's state
// before tic, when it has one.
func (rec *recorder) recordStart(tic uint32, state []byte) {
	h := rec.header()
	h.Start, h.SumEvery = tic, uint8(rec.cfg.SumEvery)
	rec.reset()
	rec.w, rec.start = wire.NewReplayWriter(&h), tic
	rec.recordSnapshot(tic, state)
}

// recordBefore is called before the game runs confirmed tic g, the next
// to record, with cmds and in as the game is given them: it starts the
// replay at the game's first tic, and records a snapshot when one is due.
// before returns the game's state before g.
func (rec *recorder) recordBefore(g uint32, cmds *[tic.MaxPlayers]tic.Cmd, in, substituted uint8, before func() []byte) {
	if !rec.recording() {
		return
	}
	switch {
	case rec.w == nil || rec.w.Next() != g:
		var state []byte
		if rec.canSave {
			state = before()
		}
		rec.recordStart(g, state)
	case rec.canSave && g != rec.start && (g-rec.start)%uint32(rec.cfg.SnapshotEvery) == 0:
		rec.recordSnapshot(g, before())
	}
	rec.tic = wire.ReplayTic{Tic: g, Cmds: *cmds, InGame: in, Substituted: substituted} // the writer keeps those in
}

// recordSnapshot records state, the state before tic, unless nil.
func (rec *recorder) recordSnapshot(tic uint32, state []byte) {
	if state == nil {
		return
	}
	if rec.w.Len()+len(state) > rec.cfg.MaxBytes {
		rec.stopped = true
		return
	}
	_ = rec.w.Snapshot(tic, state) // tic is Next: it is recorded before the tic
}

// recordAfter records the tic recordBefore began, g, with the game's
// checksum after it, and each player's (psums) when the game gives them.
func (rec *recorder) recordAfter(g uint32, sum uint32, psums *[tic.MaxPlayers]uint16) {
	t := &rec.tic
	if !rec.recording() || rec.w == nil || t.Tic != g || rec.w.Next() != g {
		return
	}
	if every := uint32(rec.cfg.SumEvery); (g-rec.start)%every == 0 {
		t.HasSum, t.Sum = true, sum
		if psums != nil {
			t.HasPlayerSums, t.PlayerSums = true, *psums
		}
	}
	_ = rec.w.Tic(t) // g is Next
	if rec.w.Len() > rec.cfg.MaxBytes {
		rec.stopped = true
	}
}
