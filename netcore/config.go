package netcore

import (
	"crypto/ecdh"
	"crypto/rand"

	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Timing constants of the reference (spec §13). Names carry their unit.
const (
	TicRate           = 35   // tics per second
	KeepalivePeriodMS = 1000 // send a KEEPALIVE when idle this long
	// ExtReliableResendMS is the reliable resend period with a peer that
	// speaks the extension protocol: a lost GAMESTART then costs a quarter
	// of a second instead of a whole one. The reference's peers keep 1 s.
	ExtReliableResendMS = 250
	SYNResendMS         = 1000
	WaitingDataPeriodMS = 1000
	ResendRetryMS       = 300  // re-request a missing tic after this long
	DeadlockMS          = 1000 // no game data for this long: break the deadlock
	GameDataAckDelayMS  = 200  // ack received tics after this long without sending
	MaxServerLeadTics   = 40   // server send-ahead over the slowest acknowledgement
	SoloLeadTics        = 10   // send-ahead with a single player
	MaxClientLeadTics   = 8    // a client builds at most this many tics ahead
	DefaultExtraTics    = 1
)

// fillKey is a copy's key: key, or one drawn from crypto/rand.
func fillKey(key *ecdh.PrivateKey) *ecdh.PrivateKey {
	if key != nil {
		return key
	}
	k, err := auth.NewKey(rand.Reader)
	if err != nil {
		panic(err) // crypto/rand does not fail (Go 1.24 and later)
	}
	return k
}

// fillCommon gives the settings clients and servers share their defaults:
// the version string, ticnet then the reference protocol, and
// BrowserTimeouts (timeouts without a keepalive period get the reference's).
func fillCommon(version *string, protocols *[]string, t *Timeouts) {
	if *version == "" {
		*version = DefaultVersion
	}
	if len(*protocols) == 0 {
		*protocols = []string{wire.ProtocolTicnet, wire.ProtocolChocolate}
	}
	if t.TimeoutMS == 0 {
		*t = BrowserTimeouts
	}
	if t.KeepaliveMS == 0 {
		t.KeepaliveMS = KeepalivePeriodMS
	}
}

// ExtMaxClientLeadTics is the lead under the extension protocol, where the
// stream does not wait for a late command: a client must build far enough
// ahead of the tics it has received for its commands to reach the server
// before they are due, across a round trip plus the stalls that lost tics
// cause. Measured over 8 players with 50-150 ms delay and 20 % loss: a
// 32-tic cap left 14 % of commands substituted, 64 left 4.6 % (the share
// whose both copies were lost). 64 is half the window.
const ExtMaxClientLeadTics = 64

// BackupTics is the length of every tic window and queue: the protocol's
// (reliable.Window is as long, and the client's queues index by it).
const BackupTics = wire.BackupTics

// MaxDatagram is the reference's receive buffer: a real Chocolate Doom peer
// reads at most this many bytes of a datagram, so the engine splits what it
// sends in reference GAMEDATA to fit.
const MaxDatagram = 1500

// DefaultPort is the reference's UDP port.
const DefaultPort = 2342

// timers are what a connection takes of the timeouts.
func (t Timeouts) timers() reliable.Timers {
	return reliable.Timers{TimeoutMS: t.TimeoutMS, KeepaliveMS: t.KeepaliveMS}
}

// Timeouts say how long a silent peer is waited for.
type Timeouts struct {
	Name string
	// TimeoutMS: a connection that has received nothing for this long is
	// closed, and its player leaves the game.
	TimeoutMS int64
	// KeepaliveMS: a connection that has sent nothing for this long sends
	// a KEEPALIVE.
	KeepaliveMS int64
	// SYNGiveUpMS: a client whose SYNs get no answer gives up after this long.
	SYNGiveUpMS int64
}

var (
	// ReferenceTimeouts are real Chocolate Doom's: 30 s, for native play
	// and for interoperating with real binaries, which go silent while
	// loading.
	ReferenceTimeouts = Timeouts{Name: "reference", TimeoutMS: 30000, KeepaliveMS: KeepalivePeriodMS, SYNGiveUpMS: 5000}
	// BrowserTimeouts are VectorDoom's 4 s: tabs on a chat channel come
	// and go, and a quicker verdict keeps the others from waiting.
	// Keepalives go out twice as often as the reference's, so that a live
	// peer goes silent only after eight lost frames in a row, not four:
	// with 20 % loss and 1 s keepalives, one 8-player start in 25 lost a
	// player to the timeout (scenario tests, 600 seeds). The engine keeps sending keepalives
	// while the game loads, so a slow load does not trip it; a tab hidden
	// for longer than this does.
	BrowserTimeouts = Timeouts{Name: "browser", TimeoutMS: 4000, KeepaliveMS: 500, SYNGiveUpMS: 5000}
)

// ReattachResendMS is how often a copy that reattaches to the server that
// took its game over asks again (its SYN, its Reattach), and how often the
// new server resends to it: every survivor waits for the slowest, so on a
// lossy channel a lost handshake packet must cost little.
const ReattachResendMS = 25

// ExtTargetMarginMS is how early, at worst, a client under the extension
// protocol aims for its commands to reach the server.
const ExtTargetMarginMS = 20
