package replay

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Recorder is the replay file of one game at a time, the current (or
// last) one, for either end: a client, which runs the game, records each
// tic as it runs it (Before, then After: its checksums, and snapshots
// when the game can save); a server, which only relays it, records the
// commands it lets go (Add). It knows of its owner only what it was
// given: its configuration and where the header of a new file comes from.
type Recorder struct {
	cfg     Config
	header  func() wire.ReplayHeader // the game's, for a file that starts now
	w       *wire.ReplayWriter
	games   int            // files begun
	start   uint32         // the first tic of the file
	stopped bool           // the file reached MaxBytes
	tic     wire.ReplayTic // the tic being recorded
}

// NewRecorder returns a client's recorder: cfg, with its defaults, and
// header for the header of each file it starts.
func NewRecorder(cfg Config, header func() wire.ReplayHeader) Recorder {
	cfg.fill()
	return Recorder{cfg: cfg, header: header}
}

// NewServerRecorder returns a server's recorder: commands only.
func NewServerRecorder(cfg ServerConfig, header func() wire.ReplayHeader) Recorder {
	return Recorder{cfg: cfg.config(), header: header}
}

// Bytes returns the file so far, or nil before the first. The slice is
// the recorder's: copy it to keep it past the next tic recorded.
func (r *Recorder) Bytes() []byte {
	if r.w == nil {
		return nil
	}
	return r.w.Bytes()
}

// Games numbers the file Bytes is of: 1 for the first begun, 0 before
// any. A change of number is a new file.
func (r *Recorder) Games() int { return r.games }

// Stopped reports whether the file stopped at its size bound.
func (r *Recorder) Stopped() bool { return r.stopped }

// Recording reports whether what comes is recorded: asked to, and not
// stopped at the size bound.
func (r *Recorder) Recording() bool { return r.cfg.Record && !r.stopped }

// Reset forgets the file, for a new game.
func (r *Recorder) Reset() { *r = Recorder{cfg: r.cfg, header: r.header, games: r.games} }

// Start begins a new file at tic, with state, the game's state before
// tic, as its first snapshot when there is one.
func (r *Recorder) Start(tic uint32, state []byte) {
	if !r.cfg.Record {
		return
	}
	h := r.header()
	h.Start, h.SumEvery = tic, uint8(r.cfg.SumEvery)
	r.Reset()
	r.games++
	r.w, r.start = wire.NewReplayWriter(&h), tic
	r.snapshot(tic, state)
}

// Before is called before the game runs confirmed tic g, the next to
// record, with cmds and in as the game is given them: it starts a file
// when g does not follow the last (the game's first tic, or a copy that
// loaded a snapshot), and records a snapshot when one is due. A tic
// recorded already (a copy whose state was repaired runs the tics since
// the state again) is not recorded again: the file keeps what the copy
// ran first, diverged checksums and all. state returns the game's state
// before g, nil for a game that cannot save.
func (r *Recorder) Before(g uint32, cmds *[tic.MaxPlayers]tic.Cmd, in, substituted uint8, state func() []byte) {
	if !r.Recording() {
		return
	}
	switch {
	case r.w != nil && int32(g-r.w.Next()) < 0 && int32(g-r.start) >= 0:
		r.tic = wire.ReplayTic{Tic: g} // After, seeing g is not Next, records nothing
		return
	case r.w == nil || r.w.Next() != g:
		r.Start(g, state())
	case r.cfg.SnapshotEvery > 0 && g != r.start && (g-r.start)%uint32(r.cfg.SnapshotEvery) == 0:
		r.snapshot(g, state())
	}
	r.tic = wire.ReplayTic{Tic: g, Cmds: *cmds, InGame: in, Substituted: substituted} // the writer keeps those in
}

// After records the tic Before began, g, with the game's checksum after
// it, and each player's (psums) when the game gives them.
func (r *Recorder) After(g uint32, sum uint32, psums *[tic.MaxPlayers]uint16) {
	t := &r.tic
	if !r.Recording() || r.w == nil || t.Tic != g || r.w.Next() != g {
		return
	}
	if every := uint32(r.cfg.SumEvery); every > 0 && (g-r.start)%every == 0 {
		t.HasSum, t.Sum = true, sum
		if psums != nil {
			t.HasPlayerSums, t.PlayerSums = true, *psums
		}
	}
	r.write()
}

// Add records a tic a server let go: the commands cmds of the players
// in, of which those in substituted were the server's. Nothing is
// recorded before Start, or for a tic that does not follow the last.
func (r *Recorder) Add(g uint32, in, substituted uint8, cmds *[tic.MaxPlayers]tic.Cmd) {
	if !r.Recording() || r.w == nil || cmds == nil || r.w.Next() != g {
		return
	}
	r.tic = wire.ReplayTic{Tic: g, Cmds: *cmds, InGame: in, Substituted: substituted} // the writer keeps those in
	r.write()
}

// write appends r.tic, which is Next; the recording stops once the file
// passes MaxBytes.
func (r *Recorder) write() {
	_ = r.w.Tic(&r.tic)
	if r.w.Len() > r.cfg.MaxBytes {
		r.stopped = true
	}
}

// snapshot records state, the state before tic, unless nil; the
// recording stops instead if it would take the file past MaxBytes.
func (r *Recorder) snapshot(tic uint32, state []byte) {
	if state == nil {
		return
	}
	if r.w.Len()+len(state) > r.cfg.MaxBytes {
		r.stopped = true
		return
	}
	_ = r.w.Snapshot(tic, state) // tic is Next: it is recorded before the tic
}
