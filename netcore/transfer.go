package netcore

import (
	"errors"
	"math"
	"strconv"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// The bulk transfer: a reliable stream of bytes too large for one frame (a
// game-state snapshot for a copy joining late, a timeline for a new host),
// sent as chunks inside the extension protocol, paced behind the tic
// stream, acknowledged selectively, resent on loss and checked by a SHA-256
// of the whole. Transfers is one endpoint's streams, both ways; its sending
// half is in transfer_send.go, its receiving half in transfer_receive.go,
// and the relay of an incoming stream on to another peer as it arrives in
// transfer_relay.go.
//
// Per pass the engine (1) hands Handle every TypeTicnet packet whose kind
// wire.IsTransferKind accepts, (2) sends its tics, and (3) calls Pump last,
// so that chunks only ever queue behind the tics of the pass, never ahead.

// Defaults of TransferConfig.
const (
	// DefaultTransferChunkBytes is the data in one chunk. A frame of 16 059
	// bytes occupies a 1 MB/s uplink 16 ms: a tic queued behind one chunk
	// waits at most that, under the 28.6 ms of one tic. Its 59 bytes of
	// headers are 0.4 % of it.
	DefaultTransferChunkBytes = 16000
	// DefaultTransferRateBytesPerSec paces chunks and resends. Below the
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
	DefaultTransferRateBytesPerSec = 900_000
	// DefaultTransferInFlightBytes bounds what is sent and not yet
	// acknowledged per stream: at the default rate it is 0.58 s of chunks.
	// Under 20 % loss a lost chunk stays in flight for a round trip and a
	// resend timer (up to 0.7 s on the lossy channel), and with half this
	// the bound, not the pacer, held 1 MB back there (1.80 s median of 100
	// seeds, 1.74 s with this). It is also the new chunks a sender sends to
	// a receiver that vanished.
	DefaultTransferInFlightBytes = 512 << 10
	// DefaultTransferInitialRTTMS is the round trip assumed before the
	// first acknowledgement measures one: a chunk is first resent after
	// three times this.
	DefaultTransferInitialRTTMS = 200
	// DefaultTransferMinResendMS is the floor of the resend timer: acks
	// leave once a pass, and a resend timer below the jitter between two
	// passes would resend chunks that were only waiting for it.
	DefaultTransferMinResendMS = 100
	// DefaultTransferMaxResendMS caps the resend timer, so that one
	// outlying round trip cannot make a stream wait seconds for a resend:
	// a sender whose receiver's final acks were all lost still asks again
	// (and is answered) at least four times before the deadline.
	DefaultTransferMaxResendMS = 1000
	// DefaultTransferStallMS: a stream with no progress for this long is
	// dropped at both ends. It is BrowserTimeouts.TimeoutMS: a peer
	// silent for that long is gone, and its connection goes with it.
	DefaultTransferStallMS = 4000
	// DefaultTransferMaxStreamBytes is the longest stream either end takes:
	// twice the 4 MB a game state may reach.
	DefaultTransferMaxStreamBytes = 8 << 20
	// DefaultTransferMaxHeldBytes bounds what the receiving end holds for
	// all its incoming streams together: two of the longest.
	DefaultTransferMaxHeldBytes = 2 * DefaultTransferMaxStreamBytes
	// DefaultTransferMaxIncoming and DefaultTransferMaxOutgoing bound the
	// streams open at once each way (a server may feed several joiners).
	DefaultTransferMaxIncoming = 4
	DefaultTransferMaxOutgoing = 8
)

// MinTransferChunkBytes is the smallest chunk a sender uses: the sender
// keeps 9 bytes of bookkeeping per chunk, under 2 % of the data at this
// size, and the headers are 59 bytes a chunk.
const MinTransferChunkBytes = 512

// Constants of the mechanism.
const (
	// transferClosedMemory is how many finished streams each end
	// remembers, for twice StallMS after each ended: a late chunk or ack of
	// a finished stream is recognised as such (and answered) for longer
	// than the other end can keep the stream open.
	transferClosedMemory = 64
	// transferCopies aborts go out for a stream this end drops, and final
	// acks for a stream it received, transferRepeatMS apart: with 20 %
	// loss all three are lost once in 125. Then a dropped stream's other
	// end still drops it at its deadline, and a received stream's sender
	// gets the final ack in answer to its next resend.
	transferCopies   = 3
	transferRepeatMS = 100
	// transferReplyMS is the least time between two answers to chunks or
	// acks of one finished stream: a flood of replays gets one per period.
	transferReplyMS = 100
	// transferChunkOverhead is a chunk frame's bytes besides its data:
	// frame header, packet header, chunk header.
	transferChunkOverhead = link.FrameHeaderLen + 2 + wire.TransferChunkHeaderLen
)

// LoopbackTransfer is the TransferConfig of a client in the server's own
// process (over a Loopback): it hands its snapshots to the server in
// memory, so there is nothing to pace and no frame limit.
var LoopbackTransfer = TransferConfig{RateBytesPerSec: 1 << 40, BurstBytes: 1 << 30,
	MaxInFlightBytes: 1 << 30, ChunkBytes: wire.MaxTransferChunkSize}

// TransferConfig tunes a Transfers. A zero field takes its default.
type TransferConfig struct {
	// ChunkBytes is the data in one chunk, from MinTransferChunkBytes to
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

func (c *TransferConfig) fill() {
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
	defInt(&c.ChunkBytes, DefaultTransferChunkBytes)
	c.ChunkBytes = min(max(c.ChunkBytes, MinTransferChunkBytes), wire.MaxTransferChunkSize)
	def(&c.RateBytesPerSec, DefaultTransferRateBytesPerSec)
	c.BurstBytes = max(c.BurstBytes, c.ChunkBytes+transferChunkOverhead)
	defInt(&c.MaxInFlightBytes, DefaultTransferInFlightBytes)
	c.MaxInFlightBytes = max(c.MaxInFlightBytes, c.ChunkBytes+transferChunkOverhead)
	def(&c.InitialRTTMS, DefaultTransferInitialRTTMS)
	def(&c.MinResendMS, DefaultTransferMinResendMS)
	def(&c.MaxResendMS, DefaultTransferMaxResendMS)
	c.MaxResendMS = max(c.MaxResendMS, c.MinResendMS)
	def(&c.StallMS, DefaultTransferStallMS)
	defInt(&c.MaxStreamBytes, DefaultTransferMaxStreamBytes)
	c.MaxStreamBytes = int(min(int64(c.MaxStreamBytes), math.MaxUint32)) // a chunk's total is a u32
	def(&c.MaxHeldBytes, DefaultTransferMaxHeldBytes)
	defInt(&c.MaxIncoming, DefaultTransferMaxIncoming)
	defInt(&c.MaxOutgoing, DefaultTransferMaxOutgoing)
}

// TransferEventKind says what happened to a stream.
type TransferEventKind uint8

const (
	// TransferReceived: an incoming stream arrived whole and matched its
	// hash. Data is the stream; it is the caller's from now on.
	TransferReceived TransferEventKind = iota + 1
	// TransferDelivered: the receiver has every chunk of an outgoing
	// stream and its hash checked. The stream's data is the caller's again.
	TransferDelivered
	// TransferDropped: a stream ended without arriving; Reason says why and
	// ByPeer whether the other end decided it. An outgoing stream's data is
	// the caller's again, an incoming stream's memory is freed.
	TransferDropped
)

var transferEventNames = [...]string{
	TransferReceived: "received", TransferDelivered: "delivered", TransferDropped: "dropped",
}

func (k TransferEventKind) String() string {
	if int(k) < len(transferEventNames) && transferEventNames[k] != "" {
		return transferEventNames[k]
	}
	return "transfer event(" + strconv.Itoa(int(k)) + ")"
}

// TransferEvent is the end of a stream.
type TransferEvent struct {
	Kind     TransferEventKind
	Peer     Addr   // the other end
	Stream   uint32 // the stream's id
	Outgoing bool   // this end sent the stream
	Data     []byte // TransferReceived only
	Reason   wire.TransferReason
	ByPeer   bool // TransferDropped: the other end aborted it
}

func (e TransferEvent) String() string {
	dir := "from"
	if e.Outgoing {
		dir = "to"
	}
	s := "transfer " + e.Kind.String() + " " + dir + " " + strconv.FormatUint(uint64(e.Peer), 10) + " stream " + strconv.FormatUint(uint64(e.Stream), 10)
	if e.Data != nil {
		s += " (" + strconv.Itoa(len(e.Data)) + " bytes)"
	}
	if e.Kind == TransferDropped {
		s += ": " + e.Reason.String()
		if e.ByPeer {
			s += " (by the peer)"
		}
	}
	return s
}

// TransferCounters are what a Transfers counted. Every transfer packet
// handed to Handle is either used (a chunk new to its stream, an ack, an
// abort that ends a stream) or counted once in the first of Malformed,
// Forged, OutOfRange, Duplicates, Stale and NoRoom that applies.
type TransferCounters struct {
	// Sending.
	StreamsStarted   int64
	ChunksSent       int64 // first transmissions
	ChunkBytesSent   int64 // their data bytes
	ChunksResent     int64
	ChunkBytesResent int64
	AcksReceived     int64 // acks that matched an outgoing stream
	StreamsDelivered int64
	RTTSamples       int64
	// Receiving.
	StreamsOpened      int64
	ChunksReceived     int64 // chunks new to their stream
	ChunkBytesReceived int64
	AcksSent           int64
	StreamsCompleted   int64
	HashMismatches     int64
	StreamsRefused     int64 // too large, or no room
	// Both ways.
	StreamsStalled   int64 // dropped: no progress within StallMS
	StreamsAborted   int64 // dropped: the other end aborted
	StreamsCancelled int64 // dropped: CancelSend, CancelReceive or DropPeer
	AbortsSent       int64
	// Packets dropped, by the first reason that applies.
	Malformed  int64 // did not decode, or not a transfer kind
	Forged     int64 // from a peer not accepted, or about a stream never had with that peer
	OutOfRange int64 // numbers beyond this end's limits or disagreeing with the stream they name
	Duplicates int64 // a chunk already held, or of a stream already received
	Stale      int64 // about a stream this end has dropped or finished
	NoRoom     int64 // would open a stream beyond MaxIncoming or MaxHeldBytes
	// PeakBytesHeld is the most BytesHeld has been.
	PeakBytesHeld int64
}

// Dropped is the sum of the drop counters.
func (c *TransferCounters) Dropped() int64 {
	return c.Malformed + c.Forged + c.OutOfRange + c.Duplicates + c.Stale + c.NoRoom
}

// Errors of Send.
var (
	ErrTransferEmpty    = errors.New("transfer: empty stream")
	ErrTransferTooLarge = errors.New("transfer: stream longer than MaxStreamBytes")
	ErrTransferBusy     = errors.New("transfer: MaxOutgoing streams already open")
	ErrTransferIDInUse  = errors.New("transfer: stream id in use or recently used with this peer")
	// A stream goes to one peer, whose acks it needs.
	ErrTransferBroadcast = errors.New("transfer: a stream needs one receiver, not Broadcast")
)

// Transfers is one endpoint's bulk streams, outgoing and incoming. It is
// sans-IO: time comes in as an argument, packets go out through the
// Transport it was given, and nothing runs between calls.
type Transfers struct {
	cfg    TransferConfig
	tr     Transport
	accept []Addr // peers whose streams this end takes

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
	c     TransferCounters
}

// NewTransfers returns an endpoint that sends through tr.
func NewTransfers(cfg TransferConfig, tr Transport) *Transfers {
	cfg.fill()
	return &Transfers{cfg: cfg, tr: tr}
}

// Config is the configuration in use, defaults filled in.
func (t *Transfers) Config() TransferConfig { return t.cfg }

// Counters returns what the endpoint counted.
func (t *Transfers) Counters() TransferCounters { return t.c }

// BytesHeld is what the incoming streams hold: their buffers, allocated
// whole when a stream opens, and their bookkeeping. It never exceeds
// MaxHeldBytes.
func (t *Transfers) BytesHeld() int64 { return t.held }

// BytesReferenced is the length of the outgoing streams' data, which the
// caller lent Send and this end keeps alive until each stream ends.
func (t *Transfers) BytesReferenced() int64 { return t.referenced }

// Open is the number of streams open each way.
func (t *Transfers) Open() (outgoing, incoming int) { return len(t.out), len(t.in) }

// AcceptFrom makes this end take streams from peer (a client: the server;
// a server: nobody until host migration asks). Chunks from any other peer
// are dropped as forged.
func (t *Transfers) AcceptFrom(peer Addr) {
	if !t.accepts(peer) {
		t.accept = append(t.accept, peer)
	}
}

func (t *Transfers) accepts(peer Addr) bool {
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
func (t *Transfers) DropPeer(now int64, peer Addr) int {
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
func (t *Transfers) Handle(now int64, from Addr, body []byte) (TransferEvent, bool) {
	kind, err := wire.TicnetKind(body)
	if err != nil {
		t.c.Malformed++
		return TransferEvent{}, false
	}
	switch kind {
	case wire.TicnetKindTransferChunk:
		if t.chunk.DecodeBody(body) != nil {
			t.c.Malformed++
			return TransferEvent{}, false
		}
		return t.onChunk(now, from, &t.chunk)
	case wire.TicnetKindTransferAck:
		if t.ack.DecodeBody(body) != nil {
			t.c.Malformed++
			return TransferEvent{}, false
		}
		return t.onAck(now, from, &t.ack)
	case wire.TicnetKindTransferAbort:
		if t.abort.DecodeBody(body) != nil {
			t.c.Malformed++
			return TransferEvent{}, false
		}
		if t.abort.FromReceiver {
			return t.onAbortOut(now, from, &t.abort)
		}
		return t.onAbortIn(now, from, &t.abort)
	}
	t.c.Malformed++
	return TransferEvent{}, false
}

// Pump does a pass's transfer work: it drops streams past their deadline
// (appending their events to events), sends the acks and answers due, then
// as many chunks and resends as the pacing allows. Call it once per pass,
// after the pass's tics have been sent.
func (t *Transfers) Pump(now int64, events []TransferEvent) []TransferEvent {
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
func (t *Transfers) refill(now int64) {
	frame := int64(t.cfg.ChunkBytes + transferChunkOverhead)
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
func (t *Transfers) spend(n int) { t.tokens -= int64(n+link.FrameHeaderLen) * 1000 }

// send transmits a transfer message to peer.
func (t *Transfers) send(to Addr, m wire.Message) {
	t.buf = wire.Encode(t.buf[:0], m, false, 0)
	t.tr.Send(to, t.buf)
	t.spend(len(t.buf))
}

// sendAbort tells peer to drop a stream.
func (t *Transfers) sendAbort(to Addr, stream uint32, fromReceiver bool, reason wire.TransferReason) {
	t.send(to, &wire.TransferAbort{Stream: stream, FromReceiver: fromReceiver, Reason: reason})
	t.c.AbortsSent++
}

// expire drops the streams that made no progress within StallMS, and
// forgets finished streams past their memory.
func (t *Transfers) expire(now int64, events []TransferEvent) []TransferEvent {
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

// sendClosedReplies sends the answers due for finished streams: repeated
// aborts of streams this end dropped, and answers to chunks or acks of
// finished streams (a final ack, or the abort again).
func (t *Transfers) sendClosedReplies(now int64) {
	for _, cs := range []*closedStreams{&t.closedOut, &t.closedIn} {
		outgoing := cs == &t.closedOut
		for i := range cs.n {
			e := &cs.e[i]
			if !e.replyDue(now) {
				continue
			}
			e.replied(now)
			if e.completed && !outgoing {
				t.send(e.peer, &wire.TransferAck{Stream: e.stream, Base: e.count})
				t.c.AcksSent++
				continue
			}
			if !e.completed {
				t.sendAbort(e.peer, e.stream, !outgoing, e.reason)
			}
		}
	}
}

// closedStream is a stream this end finished: received or delivered
// (completed), or dropped for reason. Its header tells a late chunk of it
// from a chunk of another stream under the same id.
type closedStream struct {
	peer      Addr
	stream    uint32
	total     uint32
	chunk     uint32
	hash      [wire.TransferHashLen]byte
	count     uint32
	completed bool
	reason    wire.TransferReason
	untilMS   int64 // forgotten after this

	copiesLeft int   // answers (abort, or final ack) still to send unasked
	asked      bool  // the other end sent something that wants an answer
	nextMS     int64 // no answer before this
}

func (e *closedStream) replyDue(now int64) bool {
	return now >= e.nextMS && (e.copiesLeft > 0 || e.asked)
}

func (e *closedStream) replied(now int64) {
	e.copiesLeft = max(e.copiesLeft-1, 0)
	e.nextMS = now + transferRepeatMS
	if e.copiesLeft == 0 {
		e.nextMS = now + transferReplyMS
	}
	e.asked = false
}

// closedStreams remembers the last transferClosedMemory finished streams
// of one direction; when it is full, a new one takes the oldest's place.
type closedStreams struct {
	e [transferClosedMemory]closedStream
	n int
}

func (cs *closedStreams) add(e closedStream) {
	if cs.n < len(cs.e) {
		cs.e[cs.n] = e
		cs.n++
		return
	}
	oldest := 0
	for i := range cs.e {
		if cs.e[i].untilMS < cs.e[oldest].untilMS {
			oldest = i
		}
	}
	cs.e[oldest] = e
}

func (cs *closedStreams) find(peer Addr, stream uint32) *closedStream {
	for i := range cs.n {
		if e := &cs.e[i]; e.peer == peer && e.stream == stream {
			return e
		}
	}
	return nil
}

// expire forgets the streams past their memory.
func (cs *closedStreams) expire(now int64) {
	for i := 0; i < cs.n; {
		if now <= cs.e[i].untilMS {
			i++
			continue
		}
		cs.n--
		cs.e[i] = cs.e[cs.n]
		cs.e[cs.n] = closedStream{}
	}
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
