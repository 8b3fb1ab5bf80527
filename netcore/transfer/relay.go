package transfer

import (
	"cmp"
	"errors"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// A relayed stream forwards an incoming stream to another peer as it
// arrives: each of its chunks goes as soon as this end holds its bytes,
// in whatever order they came. A dedicated server that takes a joiner's
// snapshot from one client and sends it on to the joiner so spends about
// one hop's time on it instead of two (BenchmarkLateJoinDedicated, quiet
// channel, first SYN to playing with 1 MB: 2.5 s when the server waited
// for the whole, 1.4 s relayed), and the joiner sees the state coming from
// the start: with 4 MB it used to give up, 4 s without progress, while the
// server was still gathering the whole.
//
// To its receiver a relayed stream is an ordinary one: chunks of this
// end's ChunkBytes, under the incoming stream's length and hash, which the
// receiver checks. It needs no copy: it sends from the incoming stream's
// buffer, which BytesHeld counts until the incoming stream is whole and
// BytesReferenced after.

// ErrRelayEnded: the stream to relay has ended already.
var ErrRelayEnded = errors.New("transfer: the stream to relay has ended")

// relaySide is what a relayed stream knows of its source.
type relaySide struct {
	on   bool
	from link.Addr // the source is stream id from peer from
	id   uint32    // (it may not have begun: then the relay has no data yet)
	// src is the source while it arrives: nil before its first chunk and
	// once it has ended. Until it is whole BytesHeld counts the relay's
	// data with it; then BytesReferenced does, as for Send.
	src *inStream
	// lost is why the source ended without arriving: the relay is dropped
	// for it at the next Pump, and sends nothing meanwhile.
	lost wire.TransferReason
}

// Relay sends the incoming stream in from peer from on to peer to, as
// stream out, as its bytes arrive. The incoming stream may not have begun
// yet; it must not have ended. The relayed stream ends as any outgoing
// one (Delivered or Dropped), and is dropped, for the same
// reason, if the incoming stream ends without arriving. When the incoming
// stream arrives its Received comes as usual: its Data is still
// being sent on, and must be left unchanged until the relayed stream ends.
func (t *Endpoint) Relay(now int64, from link.Addr, in uint32, to link.Addr, out uint32) error {
	snd, rcv := &t.sender, &t.receiver
	switch {
	case to == link.Broadcast:
		return ErrBroadcast
	case len(snd.out) >= snd.cfg.MaxOutgoing:
		return ErrBusy
	case snd.findOut(to, out) >= 0 || snd.closed.find(to, out) != nil:
		return ErrIDInUse
	case rcv.closed.find(from, in) != nil:
		return ErrRelayEnded
	}
	s := snd.newOut(now, to, out)
	s.relay = relaySide{on: true, from: from, id: in}
	if i := rcv.findIn(from, in); i >= 0 {
		snd.feed(s, rcv.in[i])
	}
	return nil
}

// feed makes an incoming stream the relay's source.
func (t *sender) feed(s *outStream, in *inStream) {
	s.setData(in.buf, in.hash, uint32(t.cfg.ChunkBytes))
	s.relay.src = in
}

// relayOpened feeds the relays waiting for a stream that has just opened.
func (t *sender) relayOpened(in *inStream) {
	for _, s := range t.out {
		if s.waitsFor(in.from, in.id) {
			t.feed(s, in)
		}
	}
}

// relayEnded tells the relays of stream id from peer from that it ended:
// arrived whole (their data is then whole, and the caller's), or not.
func (t *sender) relayEnded(from link.Addr, id uint32, arrived bool, reason wire.TransferReason) {
	for _, s := range t.out {
		r := &s.relay
		if !r.on || r.from != from || r.id != id || r.lost != 0 || s.data != nil && r.src == nil {
			continue
		}
		r.src = nil
		if arrived {
			t.referenced += int64(len(s.data))
			continue
		}
		s.data = nil // the buffer went with its stream
		r.lost = cmp.Or(reason, wire.TransferReasonCancelled)
	}
}

// relayPeerLeft drops the relays waiting for a stream from peer that has
// not begun.
func (t *sender) relayPeerLeft(peer link.Addr) {
	for _, s := range t.out {
		if r := &s.relay; r.on && r.from == peer && s.data == nil && r.lost == 0 {
			r.lost = wire.TransferReasonPeerLeft
		}
	}
}

// waitsFor reports whether the stream is a relay waiting for stream id
// from peer from to begin.
func (s *outStream) waitsFor(from link.Addr, id uint32) bool {
	r := &s.relay
	return r.on && s.data == nil && r.lost == 0 && r.from == from && r.id == id
}

// has reports whether chunk c of the stream is here to send: always, but
// for a relay whose source has yet to bring all of its bytes.
func (r *relaySide) has(s *outStream, c uint32) bool {
	in := r.src
	if in == nil {
		return r.lost == 0
	}
	first := uint64(c) * uint64(s.chunk)
	last := first + uint64(s.chunkLen(c)) - 1
	for k := first / uint64(in.chunk); k <= last/uint64(in.chunk); k++ {
		if !in.have.has(uint32(k)) {
			return false
		}
	}
	return true
}

// lastProgressMS is when the stream last made progress: a relay's source
// arriving counts, so that a relay waiting for a slow source is not taken
// for stalled.
func (s *outStream) lastProgressMS() int64 {
	if in := s.relay.src; in != nil {
		return max(s.progressMS, in.progressMS)
	}
	return s.progressMS
}
