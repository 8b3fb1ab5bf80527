package netcore

import (
	"crypto/ecdh"
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// ClientConfig configures a client. The zero value of a field means its
// default.
type ClientConfig struct {
	Name      string           // player name; default "Player"
	Drone     bool             // watch only: no input, every player's commands received
	Connect   wire.ConnectData // the game: mode, mission, max players, hashes
	Version   string           // default DefaultVersion
	Protocols []string         // offered, preferred first; default ticnet, then the reference
	Timeouts  Timeouts         // default BrowserTimeouts
	// Settings are the game settings this client asks for if it is the
	// controller. TicDup 0 means 1.
	Settings wire.Settings
	// Transfer tunes the bulk streams of late join (the snapshot this copy
	// receives when it joins, or sends when the server asks it for one).
	Transfer transfer.Config
	// CatchUpTics bounds the tics a joining copy holds while its snapshot
	// arrives and it catches up; default DefaultCatchUpTics.
	CatchUpTics int
	// Token is this copy's rejoin token (random; zero for none), which the
	// page keeps across reloads. It never goes on the wire: the copy's
	// key derives from it (auth.KeyFromSecret), and a copy that left a
	// game in progress and comes back with it, under any address, within
	// the server's grace period gets its player back by its key.
	Token [wire.RejoinTokenLen]byte
	// Key is this copy's key pair when it has no token (nil: one is drawn
	// from crypto/rand; a test gives one to be reproducible). Its
	// connections under the extension are authenticated by keys agreed
	// from it (netcore/auth).
	Key *ecdh.PrivateKey
	// Predict makes the client run ahead of the confirmed tics, under the
	// extension, when its game can save and load (runner_predict.go), up
	// to PredictTics tics (default DefaultPredictTics, at most
	// MaxPredictTics).
	Predict     bool
	PredictTics int
	// Input is the game's input layout: Doom's ticcmd (zero) or opaque
	// input (ProtocolTicnet only). NewClient panics on a layout that
	// InputLayout.Check refuses.
	Input tic.InputLayout
	// InputDelay, in tics (at most MaxInputDelay), makes the client build
	// each command that many tics before its tic is due at the server,
	// under the extension: the local player's input shows that much later,
	// and arrives that much earlier (GGRS's trade: fewer rollbacks, fewer
	// substituted commands). The client tells the server
	// (wire.InputDelay); when every player has a delay, the server sends
	// each tic as soon as its commands are in, and with a delay of the
	// round trip (with its jitter) a predicting game almost never rolls
	// back. With prediction the game runs to the tic due now, not to the
	// last built.
	InputDelay int
	// ConnSeq numbers the client's first connection among its copy's (a
	// reattach makes the next): see connID (ident.go).
	ConnSeq int
	// Replay makes the client record its game (Client.Replay).
	Replay replay.Config
	// KeepStates makes a client whose game can save keep its states
	// before the last BackupTics tics it ran, so that at the server's
	// first verdict of a desync it hands its states around the tic up
	// (EventDesyncStates), the copies of the majority theirs as the one
	// that diverged does. It costs BackupTics states of memory, and a
	// SaveState a tic when the client does not predict.
	KeepStates bool
}

// keptStates is how many tics' states the client keeps.
func (c *ClientConfig) keptStates() int {
	if c.KeepStates {
		return BackupTics
	}
	return 0
}

// MaxInputDelay bounds ClientConfig.InputDelay: 428 ms at 35 tics a
// second, which covers a round trip of 150 ms each way (11 tics,
// BenchmarkPrediction) and leaves room for a slower channel.
const MaxInputDelay = wire.MaxInputDelay

func (c *ClientConfig) fill() {
	if c.PredictTics <= 0 {
		c.PredictTics = DefaultPredictTics
	}
	c.PredictTics = min(c.PredictTics, MaxPredictTics)
	c.InputDelay = max(0, min(c.InputDelay, MaxInputDelay))
	if c.Name == "" {
		c.Name = "Player"
	}
	if c.Token != ([wire.RejoinTokenLen]byte{}) {
		c.Key = auth.KeyFromSecret(c.Token[:])
	}
	c.Key = fillKey(c.Key)
	fillCommon(&c.Version, &c.Protocols, &c.Timeouts)
	fillInput(&c.Input, &c.Protocols)
	if c.Settings.TicDup == 0 {
		c.Settings.TicDup = 1
	}
	if c.CatchUpTics <= 0 {
		c.CatchUpTics = DefaultCatchUpTics
	}
	if c.Connect.MaxPlayers == 0 {
		c.Connect.MaxPlayers = tic.MaxPlayers
	}
	if c.Connect.GameMode == 0 && c.Connect.GameMission == 0 {
		c.Connect.GameMode = wire.ModeCommercial
		c.Connect.GameMission = wire.MissionDoom2
	}
}
