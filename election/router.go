package election

import "encoding/binary"

// RouterCounters count what the router did with frames.
type RouterCounters struct {
	Election  int64 // election messages
	Game      int64 // game frames delivered
	NotForUs  int64 // game frames for another UID: normal on a broadcast channel
	Foreign   int64 // broadcasts of another server's game
	Malformed int64 // too short, or claiming to come from this copy
}

// Router sorts the frames of the channel for one copy: election messages
// to its Election, game frames for it to the engine.
type Router struct {
	Election *Election
	stats    RouterCounters
}

// Counters returns what the router counted, election drops included.
func (r *Router) Counters() RouterCounters { return r.stats }

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
	if len(f) < 8 {
		r.stats.Malformed++
		return 0, nil, false
	}
	to, from := binary.LittleEndian.Uint32(f), binary.LittleEndian.Uint32(f[4:])
	me := r.GameUID()
	switch {
	case from == me || from == r.Election.UID():
		r.stats.Malformed++
		return 0, nil, false
	case to != me && to != 0:
		r.stats.NotForUs++
		return 0, nil, false
	}
	if r.Election.Role() == Client && from != ServerUID {
		switch {
		case from == r.Election.Server().Tie:
			from = ServerUID // a ticnet server's frame
		case to == 0:
			r.stats.Foreign++ // another game's broadcast, or a stray
			return 0, nil, false
		}
	}
	if from == ServerUID {
		r.Election.HeardServer(now)
	}
	r.stats.Game++
	return from, f[8:], true
}
