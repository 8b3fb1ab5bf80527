package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// ServerReplayConfig makes a server record each game it relays as a
// replay file (wire.ReplayWriter), under either protocol: for every tic it
// lets go, each player's command as every peer runs it, who was in the
// game, and which commands were its substitutes. A server runs no game,
// so its replays hold no checksums and no snapshots; they play back into
// any copy of the game (VerifyReplay, ReplayPlayer).
type ServerReplayConfig struct {
	Record bool
	// MaxBytes bounds one game's file: its recording stops, whole up to
	// its last tic, once the file passes it. Default DefaultReplayMaxBytes.
	MaxBytes int
}

func (rc *ServerReplayConfig) fill() {
	if rc.MaxBytes <= 0 {
		rc.MaxBytes = DefaultReplayMaxBytes
	}
}

// serverRecorder is the server's replay of its current (or last) game.
type serverRecorder struct {
	w       *wire.ReplayWriter
	games   int  // games whose recording began
	stopped bool // the file reached MaxBytes
	// base is, under the reference protocol, each player's command as
	// relayed, which its next diff patches (as every reference peer does).
	base [tic.MaxPlayers]tic.Cmd
	tic  wire.ReplayTic
}

// Replay returns the replay file of the game in progress so far (or of
// the last game, until the next starts), or nil when the server records
// none. The slice is the recorder's: copy it to keep it past the next
// Update.
func (s *Server) Replay() []byte {
	if s.rec.w == nil {
		return nil
	}
	return s.rec.w.Bytes()
}

// ReplayGame numbers the game Replay is of: 1 for the first game whose
// recording began, 2 for the next, 0 before any. A change of number is a
// new file.
func (s *Server) ReplayGame() int { return s.rec.games }

// ReplayStopped reports whether the current game's replay stopped at its
// size bound.
func (s *Server) ReplayStopped() bool { return s.rec.stopped }

// recording reports whether the tics the server lets go are recorded.
func (r *serverRecorder) recording() bool { return r.w != nil && !r.stopped }

// recordStart begins the replay of a game whose first tic to go out is
// tic: the settings and setup it started with, and its players' names.
func (s *Server) recordStart(tic uint32) {
	if !s.cfg.Replay.Record {
		return
	}
	h := wire.ReplayHeader{Protocol: s.relay.protocol(), Settings: s.settings, Setup: s.setup, Start: tic}
	h.Settings.ConsolePlayer = -1 // the server plays no player
	for _, p := range s.players() {
		for len(h.Names) <= p.player {
			h.Names = append(h.Names, "")
		}
		h.Names[p.player] = p.name
	}
	s.rec = serverRecorder{w: wire.NewReplayWriter(&h), games: s.rec.games + 1}
}

// relayed returns the commands of tic row, in the window of the reference
// protocol, as its peers run them: each player's diff patched onto its
// command of the tic before. It is nil when the server does not record.
func (r *serverRecorder) relayed(row *[tic.MaxPlayers]recvCmd, in uint8) *[tic.MaxPlayers]tic.Cmd {
	if !r.recording() {
		return nil
	}
	for p := range tic.MaxPlayers {
		if in&(1<<p) != 0 {
			r.base[p] = wire.Patch(&r.base[p], &row[p].diff)
		}
	}
	return &r.base
}

// add appends a tic the server let go: the commands cmds of the players
// in, of which those in substituted were the server's; the recording
// stops once the file passes maxBytes.
func (r *serverRecorder) add(tic uint32, in, substituted uint8, cmds *[tic.MaxPlayers]tic.Cmd, maxBytes int) {
	if !r.recording() || cmds == nil || r.w.Next() != tic {
		return
	}
	r.tic = wire.ReplayTic{Tic: tic, Cmds: *cmds, InGame: in, Substituted: substituted} // the writer keeps those in
	_ = r.w.Tic(&r.tic)                                                                 // tic is Next
	if r.w.Len() > maxBytes {
		r.stopped = true
	}
}
