package transfer

import (
	"errors"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Errors of Send.
var (
	ErrEmpty    = errors.New("transfer: empty stream")
	ErrTooLarge = errors.New("transfer: stream longer than MaxStreamBytes")
	ErrBusy     = errors.New("transfer: MaxOutgoing streams already open")
	ErrIDInUse  = errors.New("transfer: stream id in use or recently used with this peer")
	// A stream goes to one peer, whose acks it needs.
	ErrBroadcast = errors.New("transfer: a stream needs one receiver, not Broadcast")
)

// Endpoint is one peer's bulk streams, outgoing and incoming. It is
// sans-IO: time comes in as an argument, packets go out through the
// link.Transport it was given, and nothing runs between calls.
type Endpoint struct {
	cfg    Config
	tr     link.Transport
	accept []link.Addr // peers whose streams this end takes

	out       []*outStream
	closedOut closedStreams
	nextOut   int // round robin over out

	in       []*inStream
	closedIn closedStreams

	tokens   int64 // pacing budget in byte-milliseconds (bytes × 1000)
	pumpedMS int64
	pumped   bool
	waiting  bool // a chunk was ready when the budget ran out

	held       int64 // incoming buffers and bookkeeping
	referenced int64 // outgoing data: the caller's, kept alive

	buf   []byte // packet scratch
	chunk wire.TransferChunk
	ack   wire.TransferAck
	abort wire.TransferAbort
	c     Counters
}

// New returns an endpoint that sends through tr.
func New(cfg Config, tr link.Transport) *Endpoint {
	cfg.fill()
	return &Endpoint{cfg: cfg, tr: tr}
}

// Config is the configuration in use, defaults filled in.
func (t *Endpoint) Config() Config { return t.cfg }

// Counters returns what the endpoint counted.
func (t *Endpoint) Counters() Counters { return t.c }

// BytesHeld is what the incoming streams hold: their buffers, allocated
// whole when a stream opens, and their bookkeeping. It never exceeds
// MaxHeldBytes.
func (t *Endpoint) BytesHeld() int64 { return t.held }

// BytesReferenced is the length of the outgoing streams' data, which the
// caller lent Send and this end keeps alive until each stream ends.
func (t *Endpoint) BytesReferenced() int64 { return t.referenced }

// Open is the number of streams open each way.
func (t *Endpoint) Open() (outgoing, incoming int) { return len(t.out), len(t.in) }

// AcceptFrom makes this end take streams from peer (a client: the server;
// a server: nobody until host migration asks). Chunks from any other peer
// are dropped as forged.
func (t *Endpoint) AcceptFrom(peer link.Addr) {
	if !t.accepts(peer) {
		t.accept = append(t.accept, peer)
	}
}

func (t *Endpoint) accepts(peer link.Addr) bool {
	for _, a := range t.accept {
		if a == peer {
			return true
		}
	}
	return false
}

// DropPeer ends every stream to and from peer at once, telling it, and
// stops taking streams from it: the engine calls it when the peer leaves.
// It returns how many streams it ended.
func (t *Endpoint) DropPeer(now int64, peer link.Addr) int {
	for i, a := range t.accept {
		if a == peer {
			t.accept = append(t.accept[:i], t.accept[i+1:]...)
			break
		}
	}
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

// Handle takes a TypeTicnet packet body of a transfer kind from peer from.
// A chunk that completes a stream, an ack that completes one, and an abort
// that ends one each give an event; nothing else does. It never sends:
// acks and answers go out at the next Pump.
func (t *Endpoint) Handle(now int64, from link.Addr, body []byte) (Event, bool) {
	kind, err := wire.TicnetKind(body)
	if err != nil {
		t.c.Malformed++
		return Event{}, false
	}
	switch kind {
	case wire.TicnetKindTransferChunk:
		if t.chunk.DecodeBody(body) != nil {
			t.c.Malformed++
			return Event{}, false
		}
		return t.onChunk(now, from, &t.chunk)
	case wire.TicnetKindTransferAck:
		if t.ack.DecodeBody(body) != nil {
			t.c.Malformed++
			return Event{}, false
		}
		return t.onAck(now, from, &t.ack)
	case wire.TicnetKindTransferAbort:
		if t.abort.DecodeBody(body) != nil {
			t.c.Malformed++
			return Event{}, false
		}
		if t.abort.FromReceiver {
			return t.onAbortOut(now, from, &t.abort)
		}
		return t.onAbortIn(now, from, &t.abort)
	}
	t.c.Malformed++
	return Event{}, false
}

// Pump does a pass's transfer work: it drops streams past their deadline
// (appending their events to events), sends the acks and answers due, then
// as many chunks and resends as the pacing allows. Call it once per pass,
// after the pass's tics have been sent.
func (t *Endpoint) Pump(now int64, events []Event) []Event {
	events = t.expire(now, events)
	t.sendAcks()
	t.sendClosedReplies(now)
	t.refill(now)
	t.sendChunks(now)
	return events
}

// refill adds the pacing budget earned since the last pass. A chunk goes
// when the budget is not negative, so the budget may go one frame into
// debt. An idle sender saves up to BurstBytes less one largest chunk
// frame, so that at most BurstBytes leave at once; a sender with a chunk
// waiting keeps up to a frame less a byte besides, so that the fraction of
// a chunk earned by the pass that pays off the debt is not lost (the rate
// holds exactly while passes come at least once a chunk) and still no
// second chunk follows the first in one pass.
func (t *Endpoint) refill(now int64) {
	frame := int64(t.cfg.ChunkBytes + chunkOverhead)
	limit := (int64(t.cfg.BurstBytes) - frame) * 1000
	if t.waiting {
		limit += frame*1000 - 1
	}
	if !t.pumped {
		t.pumped, t.pumpedMS, t.tokens = true, now, limit
		return
	}
	if dt := now - t.pumpedMS; dt > 0 {
		t.tokens = min(t.tokens+dt*t.cfg.RateBytesPerSec, limit)
		t.pumpedMS = now
	}
}

// spend charges a sent packet of n bytes (its frame header included) to
// the pacing budget, which control packets may drive further into debt.
func (t *Endpoint) spend(n int) { t.tokens -= int64(n+link.FrameHeaderLen) * 1000 }

// send transmits a transfer message to peer.
func (t *Endpoint) send(to link.Addr, m wire.Message) {
	t.buf = wire.Encode(t.buf[:0], m, false, 0)
	t.tr.Send(to, t.buf)
	t.spend(len(t.buf))
}

// sendAbort tells peer to drop a stream.
func (t *Endpoint) sendAbort(to link.Addr, stream uint32, fromReceiver bool, reason wire.TransferReason) {
	t.send(to, &wire.TransferAbort{Stream: stream, FromReceiver: fromReceiver, Reason: reason})
	t.c.AbortsSent++
}

// expire drops the streams that made no progress within StallMS, and
// forgets finished streams past their memory.
func (t *Endpoint) expire(now int64, events []Event) []Event {
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
	for i := 0; i < len(t.in); {
		s := t.in[i]
		if now-s.progressMS >= t.cfg.StallMS {
			t.c.StreamsStalled++
			events = append(events, t.dropIn(now, i, wire.TransferReasonStalled))
			continue
		}
		i++
	}
	t.closedOut.expire(now)
	t.closedIn.expire(now)
	return events
}

// deleteStream deletes element i of s, clearing the slot it vacates so that the
// backing array does not keep the removed stream (and its data) alive.
func deleteStream[T any](s []*T, i int) []*T {
	copy(s[i:], s[i+1:])
	s[len(s)-1] = nil
	return s[:len(s)-1]
}

// bitset is one bit per chunk.
type bitset []uint64

func newBitset(n uint32) bitset    { return make(bitset, (uint64(n)+63)/64) }
func (b bitset) has(i uint32) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) set(i uint32)      { b[i/64] |= 1 << (i % 64) }
