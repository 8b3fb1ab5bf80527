package netcore

import (
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// The replay, both ends: each records with a replay.Recorder, the client
// every tic it runs (runner.go), the server every tic it lets go
// (Server.record). What is here is each end's part: where a file's header
// comes from, and the server's reference relay's commands as its peers
// run them.

// Replay returns the replay file of this client's game so far (or of its
// last game, until the next starts), or nil when it records none. The
// slice is the recorder's: copy it to keep it past the next Update.
func (c *Client) Replay() []byte { return c.rec.Bytes() }

// ReplayStopped reports whether the replay stopped at its size bound.
func (c *Client) ReplayStopped() bool { return c.rec.Stopped() }

// Replay returns the replay file of the game in progress so far (or of
// the last game, until the next starts), or nil when the server records
// none. The slice is the recorder's: copy it to keep it past the next
// Update.
func (s *Server) Replay() []byte { return s.rec.Bytes() }

// ReplayGame numbers the game Replay is of: 1 for the first game whose
// recording began, 2 for the next, 0 before any. A change of number is a
// new file.
func (s *Server) ReplayGame() int { return s.rec.Games() }

// ReplayStopped reports whether the current game's replay stopped at its
// size bound.
func (s *Server) ReplayStopped() bool { return s.rec.Stopped() }

// replayHeader is the header of a replay of the game that starts: the
// settings and setup it started with, and its players' names.
func (s *Server) replayHeader() wire.ReplayHeader {
	h := wire.ReplayHeader{Protocol: s.relay.protocol(), Settings: s.settings, Setup: s.setup}
	h.Settings.ConsolePlayer = -1 // the server plays no player
	for _, p := range s.players() {
		for len(h.Names) <= p.player {
			h.Names = append(h.Names, "")
		}
		h.Names[p.player] = p.name
	}
	return h
}

// relayedCmds is, under the reference protocol, each player's command as
// relayed, which its next diff patches (as every reference peer does):
// what the server's replay records of a tic.
type relayedCmds struct {
	game int // the recorder's file they are of
	cmds [tic.MaxPlayers]tic.Cmd
}

// patch returns the commands of tic row, in the window of the reference
// protocol, as its peers run them: each player's diff patched onto its
// command of the tic before, or onto none in a new file. It is nil when
// rec does not record.
func (b *relayedCmds) patch(rec *replay.Recorder, row *[tic.MaxPlayers]recvCmd, in uint8) *[tic.MaxPlayers]tic.Cmd {
	if !rec.Recording() {
		return nil
	}
	if b.game != rec.Games() {
		*b = relayedCmds{game: rec.Games()}
	}
	for p := range tic.MaxPlayers {
		if in&(1<<p) != 0 {
			b.cmds[p] = wire.Patch(&b.cmds[p], &row[p].diff)
		}
	}
	return &b.cmds
}
