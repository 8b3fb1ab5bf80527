package netcore

import (
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Counters are what an endpoint counts; every dropped packet is counted.
// Its connections count into the embedded reliable.Counters: what they
// sent, and the frames they dropped.
type Counters struct {
	reliable.Counters
	PacketsReceived, BytesReceived int64
	Unexpected                     int64 // well-formed but not acceptable now, or from a stranger
	ResendRequests                 int64 // GAMEDATA_RESEND sent
	TicsResent                     int64 // tics sent again on request or deadlock
	LateDropped                    int64 // ticnet: real commands that came after their substitute
	EventsCarried                  int64 // ticnet: own substituted commands whose events went into later ones
	EventsDropped                  int64 // ticnet: of those, events dropped: MaxCarried commands' worth waited
	Substituted                    int64 // ticnet: commands the server substituted
	ConsistencyFailures            int64
	Rejected                       int64 // server: connection requests refused
	Queries                        int64 // server: QUERY packets answered
	// RejoinRefused: server: rejoin tokens presented while their player
	// was still connected from another address (the copy joins as a new
	// player).
	RejoinRefused int64
	// TicsRun: client: the tics its game ran.
	TicsRun int64
	// TicFetches: client, a watcher: requests for the tics it missed sent
	// to the copy the server named (a tic source), not the server.
	// TicsServed: client: tics sent to the watchers it answers.
	TicFetches, TicsServed int64
}

// errUnexpected marks a well-formed packet that is not acceptable now.
type errUnexpected struct{}

func (errUnexpected) Error() string { return "unexpected packet" }

// tally counts a handler's verdict on a packet: malformed, unexpected, or
// (nil) taken.
func (c *Counters) tally(err error) {
	if err == nil {
		return
	}
	if _, ok := err.(*wire.DecodeError); ok {
		c.Malformed++
	} else {
		c.Unexpected++
	}
}
