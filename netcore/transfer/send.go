package transfer

import (
	"crypto/sha256"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// outStream is a stream this end sends: the caller's data, never copied
// (or, relayed, the buffer of the incoming stream it forwards), and per
// chunk whether it is acknowledged, when it was last sent and how often.
type outStream struct {
	to         link.Addr
	id         uint32
	data       []byte
	hash       [wire.TransferHashLen]byte
	chunk      uint32 // data bytes per chunk
	count      uint32
	acked      bitset
	nAcked     uint32
	ackedBytes int
	base       uint32 // the first chunk not acknowledged
	next       uint32 // the first chunk never sent
	top        uint32 // one past the last chunk sent: next, unless a relay skipped chunks yet to arrive
	sentMS     []int64
	sends      []uint8 // saturates at 255
	inFlight   int     // frame bytes of the chunks sent and not acknowledged
	progressMS int64   // started, or a chunk newly acknowledged

	// The round trip, measured as TCP does (RFC 6298), in microseconds;
	// only chunks sent once are measured (Karn), so a resend's ack never
	// passes for the first send's.
	srttUS, rttvarUS int64
	measured         bool

	// heardMS is when the receiver last acknowledged anything. A receiver
	// not heard from for two resend timers may be gone: then only one
	// chunk is resent per timer, as a probe, until an ack comes. A
	// vanished receiver costs a chunk per timer until the deadline, not the
	// pacing rate; a live one behind a run of losses loses no time, as
	// doubling the timer (TCP's backoff) would make it (1.5 s instead of
	// 1.2 s for 16 KB, in the slowest of 10 seeds with 20 % loss).
	heardMS     int64
	lastProbeMS int64

	relay relaySide // a relayed stream's source (relay.go)
}

// sender is an Endpoint's sending half: its outgoing streams (and relays,
// relay.go), the streams it finished, and the data it keeps alive.
type sender struct {
	*port
	out        []*outStream
	closed     closedStreams
	nextOut    int   // round robin over out
	referenced int64 // outgoing data: the caller's, kept alive
}

// BytesReferenced is the length of the outgoing streams' data, which the
// caller lent Send and this end keeps alive until each stream ends.
func (t *sender) BytesReferenced() int64 { return t.referenced }

// expire drops the outgoing streams that made no progress within StallMS
// or whose relayed source was lost, and forgets finished streams past
// their memory.
func (t *sender) expire(now int64, events []Event) []Event {
	for i := 0; i < len(t.out); {
		s := t.out[i]
		switch {
		case s.relay.lost != 0:
			t.c.StreamsCancelled++
			events = append(events, t.dropOut(now, i, s.relay.lost))
			continue
		case now-s.lastProgressMS() >= t.cfg.StallMS:
			t.c.StreamsStalled++
			events = append(events, t.dropOut(now, i, wire.TransferReasonStalled))
			continue
		}
		i++
	}
	t.closed.expire(now)
	return events
}

// dropPeer ends every stream to peer, and every relay waiting for a
// stream from it, telling it. It returns how many streams it ended.
func (t *sender) dropPeer(now int64, peer link.Addr) int {
	t.relayPeerLeft(peer)
	n := 0
	for i := 0; i < len(t.out); {
		if s := t.out[i]; s.to == peer {
			t.c.StreamsCancelled++
			t.dropOut(now, i, wire.TransferReasonPeerLeft)
			n++
			continue
		}
		i++
	}
	return n
}

// Send starts a stream of data to peer to under id, which must not be in
// use with that peer, nor have been in the last 2×StallMS (the receiver
// still remembers it): a counter, or the tic of the snapshot, will do.
// data is not copied: the caller must leave it unchanged until the stream
// ends (Delivered or Dropped, or CancelSend or DropPeer).
// The SHA-256 of data is taken here, once (BenchmarkTransferSend4MB).
func (t *sender) Send(now int64, to link.Addr, id uint32, data []byte) error {
	switch {
	case len(data) == 0:
		return ErrEmpty
	case to == link.Broadcast:
		return ErrBroadcast
	case len(data) > t.cfg.MaxStreamBytes:
		return ErrTooLarge
	case len(t.out) >= t.cfg.MaxOutgoing:
		return ErrBusy
	case t.findOut(to, id) >= 0 || t.closed.find(to, id) != nil:
		return ErrIDInUse
	}
	s := t.newOut(now, to, id)
	s.setData(data, sha256.Sum256(data), uint32(t.cfg.ChunkBytes))
	t.referenced += int64(len(data))
	return nil
}

// newOut opens an outgoing stream with no data yet.
func (t *sender) newOut(now int64, to link.Addr, id uint32) *outStream {
	s := &outStream{to: to, id: id, progressMS: now, heardMS: now,
		srttUS: t.cfg.InitialRTTMS * 1000, rttvarUS: t.cfg.InitialRTTMS * 1000 / 2}
	t.out = append(t.out, s)
	t.c.StreamsStarted++
	return s
}

// setData gives a stream its bytes, in chunks of chunk bytes.
func (s *outStream) setData(data []byte, hash [wire.TransferHashLen]byte, chunk uint32) {
	count := wire.TransferChunkCount(uint32(len(data)), chunk)
	s.data, s.hash, s.chunk, s.count = data, hash, chunk, count
	s.acked, s.sentMS, s.sends = newBitset(count), make([]int64, count), make([]uint8, count)
}

// CancelSend drops an outgoing stream at once and tells its receiver why.
// It reports whether there was such a stream.
func (t *sender) CancelSend(now int64, to link.Addr, id uint32, reason wire.TransferReason) bool {
	i := t.findOut(to, id)
	if i < 0 {
		return false
	}
	t.c.StreamsCancelled++
	t.dropOut(now, i, reason)
	return true
}

// Refuse tells a peer that expects stream id from this end that it will
// not come (this end was asked for a game state it cannot save). The peer
// reports the stream dropped (ByPeer, reason) as soon as the abort
// arrives, whether or not any of it had arrived. A stream of that id
// already open to the peer is cancelled. The id is then spent with that
// peer, as if it had been sent.
func (t *sender) Refuse(now int64, to link.Addr, id uint32, reason wire.TransferReason) {
	if t.CancelSend(now, to, id, reason) || t.closed.find(to, id) != nil {
		return
	}
	t.sendAbort(to, id, false, reason)
	t.closed.add(closedStream{peer: to, stream: id, reason: reason, untilMS: now + 2*t.cfg.StallMS,
		copiesLeft: answerCopies - 1, nextMS: now + repeatMS})
}

// SendProgress is how many bytes of an outgoing stream the receiver has
// acknowledged, of how many. ok is false for a stream not open.
func (t *sender) SendProgress(to link.Addr, id uint32) (acked, total int, ok bool) {
	i := t.findOut(to, id)
	if i < 0 {
		return 0, 0, false
	}
	s := t.out[i]
	return s.ackedBytes, len(s.data), true
}

func (t *sender) findOut(to link.Addr, id uint32) int {
	for i, s := range t.out {
		if s.to == to && s.id == id {
			return i
		}
	}
	return -1
}

// chunkLen is the data in chunk c.
func (s *outStream) chunkLen(c uint32) int {
	return int(min(uint64(s.chunk), uint64(len(s.data))-uint64(c)*uint64(s.chunk)))
}

// frameLen is chunk c's frame on the channel, headers included.
func (s *outStream) frameLen(c uint32) int { return chunkOverhead + s.chunkLen(c) }

// resendAfterMS is the resend timer: the round trip plus four deviations,
// within the configured bounds. In the stream's tail, once every chunk has
// been sent, it is the round trip plus one deviation: the pacer has nothing
// new to send, so a resend that proves needless costs only idle channel
// time, and each loss in the tail costs three deviations less. (Measured
// over 40 seeds of 1 MB on the 20 %-loss channel: slowest 2900 ms with
// four deviations, 2455 ms with one, for 3 more resends a stream.)
func (s *outStream) resendAfterMS(cfg *Config) int64 {
	k := int64(4)
	if s.next == s.count {
		k = 1
	}
	return min(max((s.srttUS+k*s.rttvarUS+999)/1000, cfg.MinResendMS), cfg.MaxResendMS)
}

func (s *outStream) measure(rttMS int64) {
	r := rttMS * 1000
	if !s.measured {
		s.srttUS, s.rttvarUS, s.measured = r, r/2, true
		return
	}
	d := s.srttUS - r
	if d < 0 {
		d = -d
	}
	s.rttvarUS += (d - s.rttvarUS) / 4
	s.srttUS += (r - s.srttUS) / 8
}

// sendKind says why a chunk goes.
type sendKind uint8

const (
	sendNew    sendKind = iota + 1 // first transmission
	sendResend                     // its timer ran out
	sendProbe                      // its timer ran out, and the receiver has been silent for two timers: one at a time
	sendRepeat                     // the one chunk of its stream, again RepeatMS after it went (Repeats times)
)

// due chooses the stream's next chunk to send, changing nothing: the first
// whose resend timer ran out, else the next new one if the in-flight bound
// allows.
func (s *outStream) due(now int64, cfg *Config) (uint32, sendKind) {
	if s.relay.lost != 0 {
		return 0, 0
	}
	after := s.resendAfterMS(cfg)
	for c := s.base; c < s.top; c++ {
		if s.count == 1 && s.sends[c] <= Repeats && !s.acked.has(c) && now-s.sentMS[c] >= min(after, RepeatMS) {
			return c, sendRepeat // a stream of one chunk: repeated
		}
		if s.sends[c] == 0 || s.acked.has(c) || now-s.sentMS[c] < after {
			continue
		}
		if now-s.heardMS < 2*after {
			return c, sendResend
		}
		if now-s.lastProbeMS >= after {
			return c, sendProbe
		}
		break
	}
	if c, ok := s.nextNew(); ok && s.inFlight+s.frameLen(c) <= cfg.MaxInFlightBytes {
		return c, sendNew
	}
	return 0, 0
}

// nextNew is the first chunk never sent that can go: the next, or for a
// relay the first whose bytes have arrived.
func (s *outStream) nextNew() (uint32, bool) {
	for c := s.next; c < s.count; c++ {
		if s.sends[c] == 0 && s.relay.has(s, c) {
			return c, true
		}
		if s.relay.src == nil {
			break
		}
	}
	return 0, false
}

// sendChunks sends chunks and resends while the pacing budget lasts, one
// stream's at a time in turn.
func (t *sender) sendChunks(now int64) {
	t.waiting = false
	for {
		i, c, kind := t.nextDue(now)
		if kind == 0 {
			return
		}
		if t.tokens < 0 {
			t.waiting = true
			return
		}
		t.sendChunk(now, t.out[i], c, kind)
		t.nextOut = (i + 1) % len(t.out)
	}
}

// nextDue finds the next stream, in turn, with a chunk due.
func (t *sender) nextDue(now int64) (int, uint32, sendKind) {
	for k := range len(t.out) {
		i := (t.nextOut + k) % len(t.out)
		if c, kind := t.out[i].due(now, &t.cfg); kind != 0 {
			return i, c, kind
		}
	}
	return -1, 0, 0
}

func (t *sender) sendChunk(now int64, s *outStream, c uint32, kind sendKind) {
	h := wire.TransferChunk{Stream: s.id, Total: uint32(len(s.data)), ChunkSize: s.chunk, Index: c, Hash: s.hash}
	off, n := int(c)*int(s.chunk), s.chunkLen(c)
	t.buf = wire.Header{Type: wire.TypeTicnet}.AppendTo(t.buf[:0])
	t.buf = h.AppendHeader(t.buf)
	t.buf = append(t.buf, s.data[off:off+n]...)
	t.tr.Send(s.to, t.buf)
	t.spend(len(t.buf))
	switch kind {
	case sendNew:
		t.c.ChunksSent++
		t.c.ChunkBytesSent += int64(n)
		s.inFlight += s.frameLen(c)
		s.top = max(s.top, c+1)
	case sendRepeat:
		t.c.ChunksRepeated++
	case sendProbe:
		s.lastProbeMS = now
		fallthrough
	default:
		t.c.ChunksResent++
		t.c.ChunkBytesResent += int64(n)
	}
	s.sentMS[c] = now
	if s.sends[c] < 255 {
		s.sends[c]++
	}
	for s.next < s.count && s.sends[s.next] != 0 {
		s.next++
	}
}

// onAck applies a receiver's acknowledgement of an outgoing stream.
func (t *sender) onAck(now int64, from link.Addr, m *wire.TransferAck) (Event, bool) {
	i := t.findOut(from, m.Stream)
	if i < 0 {
		t.unknownOut(from, m.Stream)
		return Event{}, false
	}
	s := t.out[i]
	if !s.ackPlausible(m) {
		t.c.OutOfRange++
		return Event{}, false
	}
	t.c.AcksReceived++
	s.heardMS = now
	newest := int64(-1) // the latest send of a chunk sent once that this ack newly covers
	ack := func(c uint32) {
		if s.acked.has(c) {
			return
		}
		s.acked.set(c)
		s.nAcked++
		s.ackedBytes += s.chunkLen(c)
		s.inFlight -= s.frameLen(c)
		if s.sends[c] == 1 && s.sentMS[c] > newest {
			newest = s.sentMS[c]
		}
	}
	before := s.nAcked
	for c := s.base; c < m.Base; c++ {
		ack(c)
	}
	for k, b := range m.Bitmap {
		for j := range uint32(8) {
			if b&(1<<j) != 0 {
				ack(m.Base + 1 + 8*uint32(k) + j)
			}
		}
	}
	for s.base < s.count && s.acked.has(s.base) {
		s.base++
	}
	if s.nAcked > before {
		s.progressMS = now
	}
	if newest >= 0 {
		s.measure(now - newest)
		t.c.RTTSamples++
	}
	if s.nAcked < s.count {
		return Event{}, false
	}
	t.c.StreamsDelivered++
	t.removeOut(now, i, true, 0, 0)
	return Event{Kind: Delivered, Peer: s.to, Stream: s.id, Outgoing: true}, true
}

// ackPlausible reports whether an ack claims only chunks that were sent.
func (s *outStream) ackPlausible(m *wire.TransferAck) bool {
	if m.Base > s.next || s.data == nil {
		return false
	}
	for k, b := range m.Bitmap {
		for j := range uint64(8) {
			if b&(1<<j) == 0 {
				continue
			}
			if c := uint64(m.Base) + 1 + 8*uint64(k) + j; c >= uint64(s.top) || s.sends[c] == 0 {
				return false
			}
		}
	}
	return true
}

// unknownOut counts an ack or abort about an outgoing stream this end does
// not have: of a finished one it is late (a dropped stream's receiver is
// told again), of any other it is forged.
func (t *sender) unknownOut(from link.Addr, id uint32) {
	if e := t.closed.find(from, id); e != nil {
		t.c.Stale++
		e.asked = !e.completed
		return
	}
	t.c.Forged++
}

// onAbortOut ends an outgoing stream its receiver aborted.
func (t *sender) onAbortOut(now int64, from link.Addr, m *wire.TransferAbort) (Event, bool) {
	i := t.findOut(from, m.Stream)
	if i < 0 {
		if e := t.closed.find(from, m.Stream); e != nil {
			t.c.Stale++
			return Event{}, false
		}
		t.c.Forged++
		return Event{}, false
	}
	s := t.out[i]
	t.c.StreamsAborted++
	t.removeOut(now, i, false, m.Reason, 0)
	return Event{Kind: Dropped, Peer: s.to, Stream: s.id, Outgoing: true, Reason: m.Reason, ByPeer: true}, true
}

// dropOut ends outgoing stream i for reason and tells its receiver.
func (t *sender) dropOut(now int64, i int, reason wire.TransferReason) Event {
	s := t.out[i]
	t.sendAbort(s.to, s.id, false, reason)
	t.removeOut(now, i, false, reason, answerCopies-1)
	return Event{Kind: Dropped, Peer: s.to, Stream: s.id, Outgoing: true, Reason: reason}
}

// removeOut forgets outgoing stream i, remembering how it ended.
func (t *sender) removeOut(now int64, i int, completed bool, reason wire.TransferReason, aborts int) {
	s := t.out[i]
	t.closed.add(closedStream{peer: s.to, stream: s.id, total: uint32(len(s.data)), chunk: s.chunk,
		hash: s.hash, count: s.count, completed: completed, reason: reason,
		untilMS: now + 2*t.cfg.StallMS, copiesLeft: aborts, nextMS: now + repeatMS})
	if s.relay.src == nil {
		t.referenced -= int64(len(s.data))
	}
	t.out = deleteStream(t.out, i)
	if t.nextOut > i {
		t.nextOut--
	}
	if t.nextOut >= len(t.out) {
		t.nextOut = 0
	}
}
