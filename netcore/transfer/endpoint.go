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
//
// Each half owns its streams: the sender (send.go, with its relays in
// relay.go) gives Send, CancelSend, Refuse, SendProgress and
// BytesReferenced; the receiver (receive.go) gives AcceptFrom,
// CancelReceive, ReceiveProgress and BytesHeld. The Endpoint routes
// packets to them and orders a pass's work.
type Endpoint struct {
	sender
	receiver
	port port // what both halves send through and count in (port.go)

	// Decoding scratch of Handle.
	chunk wire.TransferChunk
	ack   wire.TransferAck
	abort wire.TransferAbort
}

// New returns an endpoint that sends through tr.
func New(cfg Config, tr link.Transport) *Endpoint {
	cfg.fill()
	t := &Endpoint{port: port{cfg: cfg, tr: tr}}
	t.sender.port = &t.port
	t.receiver.port = &t.port
	t.receiver.relays = &t.sender
	return t
}

// Config is the configuration in use, defaults filled in.
func (t *Endpoint) Config() Config { return t.port.cfg }

// Counters returns what the endpoint counted.
func (t *Endpoint) Counters() Counters { return t.port.c }

// Open is the number of streams open each way.
func (t *Endpoint) Open() (outgoing, incoming int) { return len(t.out), len(t.in) }

// DropPeer ends every stream to and from peer at once, telling it, and
// stops taking streams from it: the engine calls it when the peer leaves.
// It returns how many streams it ended.
func (t *Endpoint) DropPeer(now int64, peer link.Addr) int {
	return t.sender.dropPeer(now, peer) + t.receiver.dropPeer(now, peer)
}

// Handle takes a TypeTicnet packet body of a transfer kind from peer from.
// A chunk that completes a stream, an ack that completes one, and an abort
// that ends one each give an event; nothing else does. It never sends:
// acks and answers go out at the next Pump.
func (t *Endpoint) Handle(now int64, from link.Addr, body []byte) (Event, bool) {
	c := &t.port.c
	kind, err := wire.TicnetKind(body)
	if err != nil {
		c.Malformed++
		return Event{}, false
	}
	switch kind {
	case wire.TicnetKindTransferChunk:
		if t.chunk.DecodeBody(body) != nil {
			c.Malformed++
			return Event{}, false
		}
		return t.receiver.onChunk(now, from, &t.chunk)
	case wire.TicnetKindTransferAck:
		if t.ack.DecodeBody(body) != nil {
			c.Malformed++
			return Event{}, false
		}
		return t.sender.onAck(now, from, &t.ack)
	case wire.TicnetKindTransferAbort:
		if t.abort.DecodeBody(body) != nil {
			c.Malformed++
			return Event{}, false
		}
		if t.abort.FromReceiver {
			return t.sender.onAbortOut(now, from, &t.abort)
		}
		return t.receiver.onAbortIn(now, from, &t.abort)
	}
	c.Malformed++
	return Event{}, false
}

// Pump does a pass's transfer work: it drops streams past their deadline
// (appending their events to events), sends the acks and answers due, then
// as many chunks and resends as the pacing allows. Call it once per pass,
// after the pass's tics have been sent.
func (t *Endpoint) Pump(now int64, events []Event) []Event {
	events = t.sender.expire(now, events)
	events = t.receiver.expire(now, events)
	t.receiver.sendAcks()
	t.sender.closed.answer(now, t.sender.port, false)
	t.receiver.closed.answer(now, t.receiver.port, true)
	t.port.refill(now)
	t.sender.sendChunks(now)
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
