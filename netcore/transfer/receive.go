package transfer

import (
	"crypto/sha256"
	"hash"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// inStream is a stream this end receives. Its buffer is allocated whole
// when the first chunk arrives, whichever chunk that is (every chunk
// carries the stream's length), and chunks are copied straight into place;
// the buffer becomes the caller's when the stream completes.
type inStream struct {
	from       link.Addr
	id         uint32
	total      uint32
	chunk      uint32
	count      uint32
	hash       [wire.TransferHashLen]byte
	buf        []byte
	have       bitset
	got        uint32 // chunks held
	gotBytes   int
	base       uint32 // the first chunk missing
	progressMS int64  // opened, or a chunk new to the stream
	ackDue     bool   // a chunk arrived since the last ack
	held       int64  // what the stream counts in BytesHeld

	// The SHA-256 runs over the stream's contiguous prefix as it grows, so
	// that the last chunk costs one chunk's hashing, not the whole stream's.
	sum    hash.Hash
	hashed int
}

// receiver is an Endpoint's receiving half: the peers it takes streams
// from, its incoming streams and the memory they hold, and the streams it
// finished. A stream it receives may be relayed on as it arrives: relays
// is told when one opens or ends.
type receiver struct {
	*port
	relays *sender
	accept []link.Addr // peers whose streams this end takes
	in     []*inStream
	closed closedStreams
	held   int64            // incoming buffers and bookkeeping
	ack    wire.TransferAck // scratch of sendAcks
}

// BytesHeld is what the incoming streams hold: their buffers, allocated
// whole when a stream opens, and their bookkeeping. It never exceeds
// MaxHeldBytes.
func (t *receiver) BytesHeld() int64 { return t.held }

// AcceptFrom makes this end take streams from peer (a client: the server;
// a server: nobody until host migration asks). Chunks from any other peer
// are dropped as forged.
func (t *receiver) AcceptFrom(peer link.Addr) {
	if !t.accepts(peer) {
		t.accept = append(t.accept, peer)
	}
}

func (t *receiver) accepts(peer link.Addr) bool {
	for _, a := range t.accept {
		if a == peer {
			return true
		}
	}
	return false
}

// expire drops the incoming streams that made no progress within StallMS,
// and forgets finished streams past their memory.
func (t *receiver) expire(now int64, events []Event) []Event {
	for i := 0; i < len(t.in); {
		s := t.in[i]
		if now-s.progressMS >= t.cfg.StallMS {
			t.c.StreamsStalled++
			events = append(events, t.dropIn(now, i, wire.TransferReasonStalled))
			continue
		}
		i++
	}
	t.closed.expire(now)
	return events
}

// dropPeer stops taking streams from peer and ends every stream from it,
// telling it. It returns how many streams it ended.
func (t *receiver) dropPeer(now int64, peer link.Addr) int {
	for i, a := range t.accept {
		if a == peer {
			t.accept = append(t.accept[:i], t.accept[i+1:]...)
			break
		}
	}
	n := 0
	for i := 0; i < len(t.in); {
		if s := t.in[i]; s.from == peer {
			t.c.StreamsCancelled++
			t.dropIn(now, i, wire.TransferReasonPeerLeft)
			n++
			continue
		}
		i++
	}
	return n
}

// CancelReceive drops an incoming stream at once, frees its memory and
// tells its sender why. It reports whether there was such a stream.
func (t *receiver) CancelReceive(now int64, from link.Addr, id uint32, reason wire.TransferReason) bool {
	i := t.findIn(from, id)
	if i < 0 {
		return false
	}
	t.c.StreamsCancelled++
	t.dropIn(now, i, reason)
	return true
}

// ReceiveProgress is how many bytes of an incoming stream have arrived, of
// how many: what a progress bar shows. ok is false for a stream not open.
func (t *receiver) ReceiveProgress(from link.Addr, id uint32) (received, total int, ok bool) {
	i := t.findIn(from, id)
	if i < 0 {
		return 0, 0, false
	}
	s := t.in[i]
	return s.gotBytes, int(s.total), true
}

func (t *receiver) findIn(from link.Addr, id uint32) int {
	for i, s := range t.in {
		if s.from == from && s.id == id {
			return i
		}
	}
	return -1
}

// sameStream reports whether a chunk describes the stream as its first
// chunk did: a chunk that does not is of another stream under the same id.
// A stream refused before any chunk came (total 0) matches every chunk.
func sameStream(total, chunk uint32, hash *[wire.TransferHashLen]byte, m *wire.TransferChunk) bool {
	return total == 0 || m.Total == total && m.ChunkSize == chunk && m.Hash == *hash
}

// onChunk takes a chunk: into its stream, opening the stream if it is new.
func (t *receiver) onChunk(now int64, from link.Addr, m *wire.TransferChunk) (Event, bool) {
	if !t.accepts(from) {
		t.c.Forged++
		return Event{}, false
	}
	if i := t.findIn(from, m.Stream); i >= 0 {
		s := t.in[i]
		switch {
		case !sameStream(s.total, s.chunk, &s.hash, m):
			t.c.OutOfRange++
		case s.have.has(m.Index):
			t.c.Duplicates++
			s.ackDue = true // the sender missed an ack
		default:
			return t.store(now, i, m)
		}
		return Event{}, false
	}
	if e := t.closed.find(from, m.Stream); e != nil {
		switch {
		case !sameStream(e.total, e.chunk, &e.hash, m):
			t.c.OutOfRange++
			return Event{}, false
		case e.completed:
			t.c.Duplicates++ // the sender missed the final ack
		default:
			t.c.Stale++ // the sender missed the abort
		}
		e.asked = true
		return Event{}, false
	}
	count := m.Count()
	need := int64(m.Total) + newBitsetBytes(count)
	switch {
	case int64(m.Total) > int64(t.cfg.MaxStreamBytes):
		t.c.OutOfRange++
		t.refuse(now, from, m, wire.TransferReasonTooLarge)
		return Event{}, false
	case len(t.in) >= t.cfg.MaxIncoming || t.held+need > t.cfg.MaxHeldBytes:
		t.c.NoRoom++
		t.refuse(now, from, m, wire.TransferReasonNoRoom)
		return Event{}, false
	}
	s := &inStream{from: from, id: m.Stream, total: m.Total, chunk: m.ChunkSize, count: count, hash: m.Hash,
		buf: make([]byte, m.Total), have: newBitset(count), progressMS: now, held: need, sum: sha256.New()}
	t.in = append(t.in, s)
	t.held += need
	t.c.PeakBytesHeld = max(t.c.PeakBytesHeld, t.held)
	t.c.StreamsOpened++
	t.relays.relayOpened(s)
	return t.store(now, len(t.in)-1, m)
}

func newBitsetBytes(n uint32) int64 { return int64((uint64(n)+63)/64) * 8 }

// refuse turns a new stream away and tells its sender why (once at the
// next Pump; again when more of its chunks come, at most every
// replyMS).
func (t *receiver) refuse(now int64, from link.Addr, m *wire.TransferChunk, reason wire.TransferReason) {
	t.c.StreamsRefused++
	t.relays.relayEnded(from, m.Stream, false, reason)
	t.closed.add(closedStream{peer: from, stream: m.Stream, total: m.Total, chunk: m.ChunkSize, hash: m.Hash,
		count: m.Count(), reason: reason, untilMS: now + 2*t.cfg.StallMS, copiesLeft: 1, nextMS: now})
}

// store copies a chunk new to stream i into place; the last one completes
// the stream.
func (t *receiver) store(now int64, i int, m *wire.TransferChunk) (Event, bool) {
	s := t.in[i]
	copy(s.buf[m.Offset():], m.Data)
	s.have.set(m.Index)
	s.got++
	s.gotBytes += len(m.Data)
	s.progressMS = now
	s.ackDue = true
	t.c.ChunksReceived++
	t.c.ChunkBytesReceived += int64(len(m.Data))
	for s.base < s.count && s.have.has(s.base) {
		s.base++
	}
	if end := int(min(uint64(s.base)*uint64(s.chunk), uint64(s.total))); end > s.hashed {
		s.sum.Write(s.buf[s.hashed:end])
		s.hashed = end
	}
	if s.got < s.count {
		return Event{}, false
	}
	var sum [wire.TransferHashLen]byte
	if s.sum.Sum(sum[:0]); sum != s.hash {
		t.c.HashMismatches++
		return t.dropIn(now, i, wire.TransferReasonHashMismatch), true
	}
	t.c.StreamsCompleted++
	t.removeIn(now, i, true, 0, answerCopies)
	return Event{Kind: Received, Peer: s.from, Stream: s.id, Data: s.buf}, true
}

// sendAcks acknowledges every stream that received a chunk since its last
// ack: the first missing chunk, and a bitmap of the up to 512 after it.
func (t *receiver) sendAcks() {
	for _, s := range t.in {
		if !s.ackDue {
			continue
		}
		s.ackDue = false
		a := &t.ack
		a.Stream, a.Base, a.Bitmap = s.id, s.base, a.Bitmap[:0]
		span := min(uint64(s.count)-uint64(s.base), 8*wire.MaxTransferAckBitmap+1)
		last := 0 // bytes of bitmap up to the last set bit
		for d := uint64(1); d < span; d++ {
			k := int((d - 1) / 8)
			if k == len(a.Bitmap) {
				a.Bitmap = append(a.Bitmap, 0)
			}
			if s.have.has(s.base + uint32(d)) {
				a.Bitmap[k] |= 1 << ((d - 1) % 8)
				last = k + 1
			}
		}
		a.Bitmap = a.Bitmap[:last]
		t.send(s.from, a)
		t.c.AcksSent++
	}
}

// onAbortIn ends an incoming stream its sender aborted. An abort from an
// accepted peer about a stream not begun says the stream will not come
// (Refuse): it is reported dropped, and remembered so that no chunk of it
// opens it later.
func (t *receiver) onAbortIn(now int64, from link.Addr, m *wire.TransferAbort) (Event, bool) {
	if !t.accepts(from) {
		t.c.Forged++
		return Event{}, false
	}
	ev := Event{Kind: Dropped, Peer: from, Stream: m.Stream, Reason: m.Reason, ByPeer: true}
	i := t.findIn(from, m.Stream)
	switch {
	case i >= 0:
		t.removeIn(now, i, false, m.Reason, 0)
	case t.closed.find(from, m.Stream) != nil:
		t.c.Stale++
		return Event{}, false
	default:
		t.relays.relayEnded(from, m.Stream, false, m.Reason)
		t.closed.add(closedStream{peer: from, stream: m.Stream, reason: m.Reason, untilMS: now + 2*t.cfg.StallMS})
	}
	t.c.StreamsAborted++
	return ev, true
}

// dropIn ends incoming stream i for reason, frees it and tells its sender.
func (t *receiver) dropIn(now int64, i int, reason wire.TransferReason) Event {
	s := t.in[i]
	t.sendAbort(s.from, s.id, true, reason)
	t.removeIn(now, i, false, reason, answerCopies-1)
	return Event{Kind: Dropped, Peer: s.from, Stream: s.id, Reason: reason}
}

// removeIn forgets incoming stream i, remembering how it ended, with
// copies answers (final acks or aborts) still to send: a completed
// stream's first at the next Pump, a dropped stream's (whose first abort
// has gone) after repeatMS.
func (t *receiver) removeIn(now int64, i int, completed bool, reason wire.TransferReason, copies int) {
	s := t.in[i]
	next := now + repeatMS
	if completed {
		next = now
	}
	t.closed.add(closedStream{peer: s.from, stream: s.id, total: s.total, chunk: s.chunk, hash: s.hash,
		count: s.count, completed: completed, reason: reason, untilMS: now + 2*t.cfg.StallMS,
		copiesLeft: copies, nextMS: next})
	t.held -= s.held
	t.in = deleteStream(t.in, i)
	t.relays.relayEnded(s.from, s.id, completed, reason)
}
