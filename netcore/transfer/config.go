package transfer

import (
	"math"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Defaults of Config.
const (
	// DefaultChunkBytes is the data in one chunk. A frame of 16 059
	// bytes occupies a 1 MB/s uplink 16 ms: a tic queued behind one chunk
	// waits at most that, under the 28.6 ms of one tic. Its 59 bytes of
	// headers are 0.4 % of it.
	DefaultChunkBytes = 16000
	// DefaultRateBytesPerSec paces chunks and resends. Below the
	// 1 MB/s channel the goals assume, every chunk frame leaves the uplink
	// (16 ms) before the pacer lets the next go (17.8 ms after it), so the
	// uplink's queue never holds more than one chunk and drains between
	// chunks; the tenth left over carries the tics (under 20 kB/s with 8
	// players) and whatever else the peer sends, with room for a channel
	// somewhat slower than assumed. (It was 750 kB/s: 1 MB on the 20 %-loss
	// channel then took 2.05 s in the median of 100 seeds, 1.74 s now.) If
	// the uplink is slower than the rate, the queue grows up to
	// MaxInFlightBytes: set the rate below the slowest channel the game
	// must serve.
	DefaultRateBytesPerSec = 900_000
	// DefaultInFlightBytes bounds what is sent and not yet
	// acknowledged per stream: at the default rate it is 0.58 s of chunks.
	// Under 20 % loss a lost chunk stays in flight for a round trip and a
	// resend timer (up to 0.7 s on the lossy channel), and with half this
	// the bound, not the pacer, held 1 MB back there (1.80 s median of 100
	// seeds, 1.74 s with this). It is also the new chunks a sender sends to
	// a receiver that vanished.
	DefaultInFlightBytes = 512 << 10
	// DefaultInitialRTTMS is the round trip assumed before the
	// first acknowledgement measures one: a chunk is first resent after
	// three times this.
	DefaultInitialRTTMS = 200
	// DefaultMinResendMS is the floor of the resend timer: acks
	// leave once a pass, and a resend timer below the jitter between two
	// passes would resend chunks that were only waiting for it.
	DefaultMinResendMS = 100
	// DefaultMaxResendMS caps the resend timer, so that one
	// outlying round trip cannot make a stream wait seconds for a resend:
	// a sender whose receiver's final acks were all lost still asks again
	// (and is answered) at least four times before the deadline.
	DefaultMaxResendMS = 1000
	// DefaultStallMS: a stream with no progress for this long is
	// dropped at both ends. It is BrowserTimeouts.TimeoutMS: a peer
	// silent for that long is gone, and its connection goes with it.
	DefaultStallMS = 4000
	// DefaultMaxStreamBytes is the longest stream either end takes:
	// twice the 4 MB a game state may reach.
	DefaultMaxStreamBytes = 8 << 20
	// DefaultMaxHeldBytes bounds what the receiving end holds for
	// all its incoming streams together: two of the longest.
	DefaultMaxHeldBytes = 2 * DefaultMaxStreamBytes
	// DefaultMaxIncoming and DefaultMaxOutgoing bound the
	// streams open at once each way (a server may feed several joiners).
	DefaultMaxIncoming = 4
	DefaultMaxOutgoing = 8
)

// The chunk of a stream of one chunk goes again Repeats times, RepeatMS
// apart, unless acknowledged first. Such a stream is a small state (a
// desync's repair, a small game's join), whose time is its latency: on a
// channel that loses one frame in five, waiting for the resend timer
// (300-700 ms there) delays one stream in five, two repeats a tic apart
// one in 125, for the bytes of two chunks more.
const (
	RepeatMS = 30
	Repeats  = 2
)

// MinChunkBytes is the smallest chunk a sender uses: the sender
// keeps 9 bytes of bookkeeping per chunk, under 2 % of the data at this
// size, and the headers are 59 bytes a chunk.
const MinChunkBytes = 512

// chunkOverhead is a chunk frame's bytes besides its data: frame header,
// packet header, chunk header.
const chunkOverhead = link.FrameHeaderLen + 2 + wire.TransferChunkHeaderLen

// Loopback is the Config of a client in the server's own
// process (over a netcore.Loopback): it hands its snapshots to the server in
// memory, so there is nothing to pace and no frame limit.
var Loopback = Config{RateBytesPerSec: 1 << 40, BurstBytes: 1 << 30,
	MaxInFlightBytes: 1 << 30, ChunkBytes: wire.MaxTransferChunkSize}

// Config tunes an Endpoint. A zero field takes its default.
type Config struct {
	// ChunkBytes is the data in one chunk, from MinChunkBytes to
	// wire.MaxTransferChunkSize (a chunk frame must fit the channel's
	// 128 000 bytes). Keep ChunkBytes/(the uplink's bytes per second) under
	// one tic: a tic queued behind a chunk waits that long.
	ChunkBytes int
	// RateBytesPerSec paces the chunks and resends this end sends, frame
	// headers included, over all its streams; BurstBytes is how much may
	// leave at once after a pause (at least one chunk frame, the default).
	RateBytesPerSec int64
	BurstBytes      int
	// MaxInFlightBytes bounds each stream's chunk frames sent and not yet
	// acknowledged. New chunks wait for acks; resends do not.
	MaxInFlightBytes int
	// The resend timer is the measured round trip plus four times its
	// deviation (one, once every chunk has been sent), within
	// [MinResendMS, MaxResendMS]; before the first measurement the round
	// trip is taken to be InitialRTTMS.
	InitialRTTMS int64
	MinResendMS  int64
	MaxResendMS  int64
	// StallMS: a stream that has made no progress for this long (no new
	// chunk acknowledged at the sender, no new chunk received at the
	// receiver) is dropped, and the other end told.
	StallMS int64
	// MaxStreamBytes is the longest stream this end sends or takes.
	MaxStreamBytes int
	// MaxHeldBytes bounds the bytes this end holds for incoming streams,
	// their bookkeeping included.
	MaxHeldBytes int64
	// MaxIncoming and MaxOutgoing bound the streams open at once each way.
	MaxIncoming, MaxOutgoing int
}

func (c *Config) fill() {
	def := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	defInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defInt(&c.ChunkBytes, DefaultChunkBytes)
	c.ChunkBytes = min(max(c.ChunkBytes, MinChunkBytes), wire.MaxTransferChunkSize)
	def(&c.RateBytesPerSec, DefaultRateBytesPerSec)
	c.BurstBytes = max(c.BurstBytes, c.ChunkBytes+chunkOverhead)
	defInt(&c.MaxInFlightBytes, DefaultInFlightBytes)
	c.MaxInFlightBytes = max(c.MaxInFlightBytes, c.ChunkBytes+chunkOverhead)
	def(&c.InitialRTTMS, DefaultInitialRTTMS)
	def(&c.MinResendMS, DefaultMinResendMS)
	def(&c.MaxResendMS, DefaultMaxResendMS)
	c.MaxResendMS = max(c.MaxResendMS, c.MinResendMS)
	def(&c.StallMS, DefaultStallMS)
	defInt(&c.MaxStreamBytes, DefaultMaxStreamBytes)
	c.MaxStreamBytes = int(min(int64(c.MaxStreamBytes), math.MaxUint32)) // a chunk's total is a u32
	def(&c.MaxHeldBytes, DefaultMaxHeldBytes)
	defInt(&c.MaxIncoming, DefaultMaxIncoming)
	defInt(&c.MaxOutgoing, DefaultMaxOutgoing)
}
