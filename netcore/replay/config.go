package replay

import "github.com/ticnet/ticnet/netcore/wire"

// Config makes a client record its game as a replay file
// (wire.ReplayWriter): every tic it runs once confirmed, with its
// checksum, and snapshots when the game can save.
type Config struct {
	Record bool
	// SumEvery records the checksum every this many tics; default 1, so
	// that a playback finds the very tic where a game went wrong.
	SumEvery int
	// SnapshotEvery records the game's state every this many tics (and
	// before the first), for a game that can save: the places a playback
	// can seek to. Default DefaultSnapshotTics.
	SnapshotEvery int
	// MaxBytes bounds the file: the recording stops, whole up to its last
	// tic, once the file passes it or a snapshot would. Default
	// DefaultMaxBytes.
	MaxBytes int
}

// ServerConfig makes a server record each game it relays as a replay file
// (wire.ReplayWriter), under either protocol: for every tic it lets go,
// each player's command as every peer runs it, who was in the game, and
// which commands were its substitutes. A server runs no game, so its
// replays hold no checksums and no snapshots; they play back into any
// copy of the game (Verify, Player).
type ServerConfig struct {
	Record bool
	// MaxBytes bounds one game's file: its recording stops, whole up to
	// its last tic, once the file passes it. Default DefaultMaxBytes.
	MaxBytes int
}

// Defaults of Config and ServerConfig.
const (
	DefaultSnapshotTics = 30 * wire.DefaultTicRate // half a minute at 35 tics a second
	DefaultMaxBytes     = 32 << 20
)

func (rc *Config) fill() {
	if rc.SumEvery <= 0 {
		rc.SumEvery = 1
	}
	rc.SumEvery = min(rc.SumEvery, 255)
	if rc.SnapshotEvery <= 0 {
		rc.SnapshotEvery = DefaultSnapshotTics
	}
	if rc.MaxBytes <= 0 {
		rc.MaxBytes = DefaultMaxBytes
	}
}

// config is a server's Config: no checksums (SumEvery 0, as its files'
// headers say), no snapshots.
func (rc ServerConfig) config() Config {
	if rc.MaxBytes <= 0 {
		rc.MaxBytes = DefaultMaxBytes
	}
	return Config{Record: rc.Record, MaxBytes: rc.MaxBytes}
}
