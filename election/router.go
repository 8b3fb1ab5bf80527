package election

import (
	"github.com/ticnet/ticnet/netcore/link"
)

// RouterCounters count what the router did with frames.
type RouterCounters struct {
	Election  int64 // election messages
	Game      int64 // game frames delivered
	NotForUs  int64 // game frames for another UID: normal on a broadcast channel
	Foreign   int64 // broadcasts of another server's game
	Malformed int64 // too short, or claiming to come from this copy
}

// Router sorts the frames of the channel for one copy: election messages
// to its Election, game frames for it to the engine. Which game frames are
// its own, link.FrameFilter decides, as it does in the whole-game
// simulations (simnet.FrameTransport).
type Router struct {
	Election *Election
	filter   link.FrameFilter
	stats    RouterCounters
}

// Counters returns what the router counted, election drops included.
func (r *Router) Counters() RouterCounters {
	c := r.stats
	c.Malformed, c.NotForUs = r.filter.Malformed, r.filter.NotForUs
	return c
}

// GameUID is the UID this copy's game frames carry: ServerUID when it
// serves, else its own.
func (r *Router) GameUID() uint32 {
	if r.Election.Role() == Server {
		return ServerUID
	}
	return r.Election.UID()
}

// Route takes one frame from the channel. For a game frame for this copy it
// returns the sender and the packet, with game true. A frame from this
// copy's server's tie-break (a ticnet server's) is reported as coming from
// ServerUID; a broadcast from another server's is dropped, so that two
// games on one channel never mix.
func (r *Router) Route(now int64, f []byte) (from uint32, payload []byte, game bool) {
	if r.Election.Handle(now, f) {
		r.stats.Election++
		return 0, nil, false
	}
	to, src, payload, ok := r.filter.Keep(f, link.Addr(r.GameUID()), link.Addr(r.Election.UID()))
	if !ok {
		return 0, nil, false
	}
	from = uint32(src)
	if r.Election.Role() == Client && from != ServerUID {
		switch {
		case from == r.Election.Server().Tie:
			from = ServerUID // a ticnet server's frame
		case to == link.Broadcast:
			r.stats.Foreign++ // another game's broadcast, or a stray
			return 0, nil, false
		}
	}
	if from == ServerUID {
		r.Election.HeardServer(now)
	}
	r.stats.Game++
	return from, payload, true
}
