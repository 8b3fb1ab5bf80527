package transfer

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"testing"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Unit tests of the bulk transfer over a hand-driven link: every packet is
// seen, and can be lost, forged or replayed on purpose. Simulated channels
// are in sim_test.go.

// xferPacket is a packet one end sent.
type xferPacket struct {
	to  link.Addr
	pkt []byte
}

// xferWire records what an end sends.
type xferWire struct{ sent []xferPacket }

func (w *xferWire) Send(to link.Addr, p []byte) {
	w.sent = append(w.sent, xferPacket{to, bytes.Clone(p)})
}
func (w *xferWire) Recv() (link.Addr, []byte, bool) { return 0, nil, false }
func (w *xferWire) take() (ps []xferPacket)         { ps, w.sent = w.sent, nil; return ps }
func (p xferPacket) body() []byte                   { return p.pkt[2:] }
func (p xferPacket) kind() uint8                    { return p.pkt[2] }
func (p xferPacket) chunk(t *testing.T) *wire.TransferChunk {
	t.Helper()
	var m wire.TransferChunk
	err := m.DecodeBody(p.body())
	require.NoError(t, err)
	return &m
}

// xferEnd is one end of the hand-driven link.
type xferEnd struct {
	addr   link.Addr
	w      *xferWire
	x      *Endpoint
	events []Event
}

func newXferEnd(addr link.Addr, cfg Config) *xferEnd {
	w := &xferWire{}
	return &xferEnd{addr: addr, w: w, x: New(cfg, w)}
}

func (e *xferEnd) handle(now int64, from link.Addr, body []byte) {
	if ev, ok := e.x.Handle(now, from, body); ok {
		e.events = append(e.events, ev)
	}
}

// xferLink is a sender a (UID 1) and a receiver b (UID 2), and any other
// ends a test adds; drop decides which packets are lost.
type xferLink struct {
	a, b *xferEnd
	ends []*xferEnd
	now  int64
	drop func(from *xferEnd, p xferPacket) bool
}

func newXferLink(cfg Config) *xferLink {
	l := &xferLink{a: newXferEnd(1, cfg), b: newXferEnd(2, cfg)}
	l.ends = []*xferEnd{l.a, l.b}
	l.b.x.AcceptFrom(1)
	return l
}

// step runs one 5 ms pass: each end pumps, and what it sent arrives at the
// start of the next pass.
func (l *xferLink) step() {
	l.now += 5
	for _, e := range l.ends {
		e.events = e.x.Pump(l.now, e.events)
	}
	l.deliver()
}

// deliver hands every packet sent to its addressee.
func (l *xferLink) deliver() {
	for _, from := range l.ends {
		for _, p := range from.w.take() {
			if l.drop != nil && l.drop(from, p) {
				continue
			}
			for _, to := range l.ends {
				if to.addr == p.to {
					to.handle(l.now, from.addr, p.body())
				}
			}
		}
	}
}

// run steps until both ends have reported an event, or ms have passed.
func (l *xferLink) run(t *testing.T, ms int64) {
	t.Helper()
	for end := l.now + ms; l.now < end; {
		l.step()
		if len(l.a.events) > 0 && len(l.b.events) > 0 {
			return
		}
	}
}

func xferData(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7) ^ byte(i>>9) ^ seed
	}
	return b
}

// small is a configuration with 1000-byte chunks, so that a test stream
// has many.
var small = Config{ChunkBytes: 1000}

func TestTransferDeliversAStreamWholeAndCountsEveryChunkOnce(t *testing.T) {
	l := newXferLink(small)
	data := xferData(10500, 1)
	err := l.a.x.Send(0, 2, 77, data)
	require.NoError(t, err)
	l.run(t, 5000)
	require.Equal(t, 1, len(l.b.events), "events: sender %v, receiver %v", l.a.events, l.b.events)
	require.Equal(t, 1, len(l.a.events), "events: sender %v, receiver %v", l.a.events, l.b.events)
	got, sent := l.b.events[0], l.a.events[0]
	require.Equal(t, Received, got.Kind, "receiver: %+v", got)
	require.Equal(t, link.Addr(1), got.Peer, "receiver: %+v", got)
	require.Equal(t, uint32(77), got.Stream, "receiver: %+v", got)
	require.False(t, got.Outgoing, "receiver: %+v", got)
	require.Equal(t, data, got.Data, "receiver: %+v", got)
	require.Equal(t, Delivered, sent.Kind, "sender: %+v", sent)
	require.Equal(t, link.Addr(2), sent.Peer, "sender: %+v", sent)
	require.Equal(t, uint32(77), sent.Stream, "sender: %+v", sent)
	require.True(t, sent.Outgoing, "sender: %+v", sent)
	ca, cb := l.a.x.Counters(), l.b.x.Counters()
	require.Equal(t, int64(11), ca.ChunksSent, "sender counters %+v", ca)
	require.Equal(t, int64(10500), ca.ChunkBytesSent, "sender counters %+v", ca)
	require.Equal(t, int64(0), ca.ChunksResent, "sender counters %+v", ca)
	require.Equal(t, int64(1), ca.StreamsDelivered, "sender counters %+v", ca)
	require.Equal(t, int64(11), cb.ChunksReceived, "receiver counters %+v", cb)
	require.Equal(t, int64(10500), cb.ChunkBytesReceived, "receiver counters %+v", cb)
	require.Equal(t, int64(1), cb.StreamsCompleted, "receiver counters %+v", cb)
	require.Equal(t, int64(0), cb.Dropped(), "receiver counters %+v", cb)
	require.Equal(t, int64(0), ca.Dropped(), "receiver counters %+v", cb)
	// 10 500 bytes and 11 bits of bookkeeping (one word) held, then nothing.
	require.Equal(t, int64(10508), cb.PeakBytesHeld, "peak %d, held %d, referenced %d", cb.PeakBytesHeld, l.b.x.BytesHeld(), l.a.x.BytesReferenced())
	require.Equal(t, int64(0), l.b.x.BytesHeld(), "peak %d, held %d, referenced %d", cb.PeakBytesHeld, l.b.x.BytesHeld(), l.a.x.BytesReferenced())
	require.Equal(t, int64(0), l.a.x.BytesReferenced(), "peak %d, held %d, referenced %d", cb.PeakBytesHeld, l.b.x.BytesHeld(), l.a.x.BytesReferenced())
	o, i := l.a.x.Open()
	require.Equal(t, 0, o, "%v %v %v", "streams left open", o, i)
	require.Equal(t, 0, i, "%v %v %v", "streams left open", o, i)
}

func TestTransferChunkCarriesItsStreamAndTheDataUncopiedUntilSent(t *testing.T) {
	l := newXferLink(small)
	data := xferData(2500, 2)
	l.a.x.Send(0, 2, 0x01020304, data)
	l.a.events = l.a.x.Pump(5, nil)
	ps := l.a.w.take()
	require.Equal(t, 1, len(ps), "%d packets", len(ps))
	require.Equal(t, link.Addr(2), ps[0].to, "%d packets", len(ps))
	p := ps[0].pkt
	want := []byte{0x00, 0x70, wire.TicnetKindTransferChunk, 1, 2, 3, 4, 0, 0, 0x09, 0xc4, 0, 0, 0x03, 0xe8, 0, 0, 0, 0}
	h := sha256.Sum256(data)
	want = append(append(want, h[:]...), data[:1000]...)
	require.Equal(t, want, p, "chunk 0:\n% x\nwant\n% x", p[:60], want[:60])
	require.Equal(t, int64(2500), l.a.x.BytesReferenced(), l.a.x.BytesReferenced())
}

func TestTransferLosingTheFirstChunkCostsOneResendNotAStall(t *testing.T) {
	l := newXferLink(small)
	lost := false
	l.drop = func(from *xferEnd, p xferPacket) bool {
		if from == l.a && !lost && p.kind() == wire.TicnetKindTransferChunk && p.chunk(t).Index == 0 {
			lost = true
			return true
		}
		return false
	}
	data := xferData(5000, 3)
	l.a.x.Send(0, 2, 1, data)
	l.step()
	l.step()
	// Chunk 1 opened the stream: its length came with it.
	got, total, ok := l.b.x.ReceiveProgress(1, 1)
	require.True(t, ok, "progress %d of %d, %v", got, total, ok)
	require.Equal(t, 1000, got, "progress %d of %d, %v", got, total, ok)
	require.Equal(t, 5000, total, "progress %d of %d, %v", got, total, ok)
	l.run(t, 5000)
	require.Equal(t, 1, len(l.b.events), "events %+v", l.b.events)
	require.Equal(t, data, l.b.events[0].Data, "events %+v", l.b.events)
	c := l.a.x.Counters()
	require.Equal(t, int64(1), c.ChunksResent, "%d resends", c.ChunksResent)
}

func TestTransferSelectiveAcksResendOnlyTheLostChunks(t *testing.T) {
	l := newXferLink(small)
	seen := map[uint32]bool{}
	l.drop = func(from *xferEnd, p xferPacket) bool {
		if from != l.a || p.kind() != wire.TicnetKindTransferChunk {
			return false
		}
		i := p.chunk(t).Index
		first := !seen[i]
		seen[i] = true
		return first && (i == 2 || i == 5 || i == 6)
	}
	data := xferData(9000, 4)
	l.a.x.Send(0, 2, 1, data)
	l.run(t, 5000)
	require.Equal(t, 1, len(l.b.events), "events %+v", l.b.events)
	require.Equal(t, data, l.b.events[0].Data, "events %+v", l.b.events)
	c := l.a.x.Counters()
	require.Equal(t, int64(3), c.ChunksResent, "sent %d, resent %d", c.ChunksSent, c.ChunksResent)
	require.Equal(t, int64(9), c.ChunksSent, "sent %d, resent %d", c.ChunksSent, c.ChunksResent)
	c = l.b.x.Counters()
	require.Equal(t, int64(0), c.Duplicates, "%d duplicates", c.Duplicates)
}

func TestTransferAckSaysTheFirstMissingChunkAndABitmapOfTheRest(t *testing.T) {
	l := newXferLink(small)
	var last *wire.TransferAck
	l.drop = func(from *xferEnd, p xferPacket) bool {
		if from == l.b && p.kind() == wire.TicnetKindTransferAck {
			last = &wire.TransferAck{}
			err := last.DecodeBody(p.body())
			require.NoError(t, err)
		}
		return from == l.a && p.kind() == wire.TicnetKindTransferChunk && (p.chunk(t).Index == 1 || p.chunk(t).Index == 3)
	}
	l.a.x.Send(0, 2, 9, xferData(20000, 5))
	// One chunk a pass (the burst is one chunk frame): chunk k goes in pass
	// k+1 and arrives for pass k+2, whose ack says what it found.
	for range 8 {
		l.step()
	}
	require.NotNil(t, last, "ack %+v", last)
	require.Equal(t, uint32(9), last.Stream, "ack %+v", last)
	require.Equal(t, uint32(1), last.Base, "ack %+v", last)
	require.Equal(t, 1, len(last.Bitmap), "ack %+v", last)
	require.Equal(t, byte(0b11101), last.Bitmap[0], "ack %+v", last)
	// Bit j of byte i is chunk Base+1+8i+j: 2 and 4 to 6 held, 3 not.
	require.True(t, last.Holds(0), "ack %+v", last)
	require.False(t, last.Holds(1), "ack %+v", last)
	require.True(t, last.Holds(2), "ack %+v", last)
	require.False(t, last.Holds(3), "ack %+v", last)
	require.True(t, last.Holds(6), "ack %+v", last)
	require.False(t, last.Holds(7), "ack %+v", last)
}

func TestTransferPacesItsChunksAndBoundsWhatIsInFlight(t *testing.T) {
	cfg := Config{ChunkBytes: 1000, RateBytesPerSec: 100_000, MaxInFlightBytes: 5000}
	l := newXferLink(cfg)
	l.drop = func(from *xferEnd, p xferPacket) bool { return from == l.b } // no acks ever arrive
	l.a.x.Send(0, 2, 1, xferData(100_000, 6))
	var sentBytes int64
	for range 40 { // 200 ms
		l.now += 5
		l.a.events = l.a.x.Pump(l.now, l.a.events)
		for _, p := range l.a.w.take() {
			sentBytes += int64(len(p.pkt) + link.FrameHeaderLen)
		}
		// Never more than the burst plus the rate since the first pass.
		limit := int64(l.a.x.Config().BurstBytes) + (l.now-5)*100
		require.LessOrEqual(t, sentBytes, limit, "at %d ms %d bytes sent, limit %d", l.now, sentBytes, limit)
	}
	// 5000 bytes in flight: 4 chunks of 1059-byte frames; no acks, so the
	// rest waits. The first resend comes after three times the assumed
	// 200 ms round trip.
	c := l.a.x.Counters()
	require.Equal(t, int64(4), c.ChunksSent, "sent %d, resent %d", c.ChunksSent, c.ChunksResent)
	require.Equal(t, int64(0), c.ChunksResent, "sent %d, resent %d", c.ChunksSent, c.ChunksResent)
}

// The window counts each chunk's frame, headers included, to the byte: a
// window of exactly five 1059-byte frames lets five chunks go before an
// ack, one byte less only four, and an ack of one chunk frees exactly its
// frame, for exactly one more. The pacing does not hold them back here.
func TestTransferKeepsExactlyItsWindowOfFrameBytesInFlight(t *testing.T) {
	frame := 1000 + chunkOverhead
	require.Equal(t, 1059, frame, "a 1000-byte chunk's frame")
	for _, c := range []struct {
		window, chunks int
	}{{5 * frame, 5}, {5*frame - 1, 4}} {
		cfg := Config{ChunkBytes: 1000, RateBytesPerSec: 1 << 30, BurstBytes: 1 << 20, MaxInFlightBytes: c.window}
		l := newXferLink(cfg)
		// a's frames on the channel; only chunk 0 arrives, so one ack
		// comes back, at 10 ms.
		var frames []int
		l.drop = func(from *xferEnd, p xferPacket) bool {
			if from != l.a {
				return false
			}
			frames = append(frames, len(p.pkt)+link.FrameHeaderLen)
			return p.chunk(t).Index != 0
		}
		require.NoError(t, l.a.x.Send(0, 2, 1, xferData(100_000, 6)))
		l.step() // 5 ms: the window fills
		s := l.a.x.out[0]
		require.Len(t, frames, c.chunks, "window %d: chunks sent before an ack", c.window)
		require.Equal(t, c.chunks*frame, s.inFlight, "window %d: bytes in flight before an ack", c.window)
		for range 9 { // to 50 ms, before any resend timer runs out
			l.step()
		}
		require.Len(t, frames, c.chunks+1, "window %d: chunks sent once chunk 0 was acknowledged", c.window)
		require.Equal(t, c.chunks*frame, s.inFlight, "window %d: bytes in flight once chunk 0 was acknowledged", c.window)
		for i, f := range frames {
			require.Equal(t, frame, f, "window %d: frame %d's bytes on the channel", c.window, i)
		}
		require.Equal(t, int64(c.chunks+1), l.a.x.Counters().ChunksSent, "window %d: chunks sent", c.window)
		require.Equal(t, int64(0), l.a.x.Counters().ChunksResent, "window %d: chunks resent", c.window)
	}
}

// The pacer lets chunks go at exactly its rate, frame headers counted:
// at 100 bytes a millisecond, with no burst beyond one frame, the first
// 1059-byte chunk goes at once (5 ms) and by each later pass at t ms
// exactly 1 + (t-5)*100/1059 have gone. The window does not hold them back.
func TestTransferPacesItsChunksAtExactlyItsRate(t *testing.T) {
	frame := int64(1000 + chunkOverhead)
	cfg := Config{ChunkBytes: 1000, RateBytesPerSec: 100_000, BurstBytes: 1, MaxInFlightBytes: 1 << 20}
	l := newXferLink(cfg)
	l.drop = func(*xferEnd, xferPacket) bool { return true }
	require.NoError(t, l.a.x.Send(0, 2, 1, xferData(100_000, 6)))
	var chunks, sentBytes int64
	for range 80 { // 400 ms, before the first resend timer (600 ms) runs out
		l.now += 5
		l.a.events = l.a.x.Pump(l.now, l.a.events)
		for _, p := range l.a.w.take() {
			chunks++
			sentBytes += int64(len(p.pkt) + link.FrameHeaderLen)
		}
		require.Equal(t, 1+(l.now-5)*100/frame, chunks, "chunks sent by %d ms", l.now)
		require.Equal(t, chunks*frame, sentBytes, "bytes sent by %d ms", l.now)
	}
	require.Equal(t, int64(38), chunks, "chunks sent in 400 ms")
}

func TestTransferResendTimerFollowsTheMeasuredRoundTripWithinItsBounds(t *testing.T) {
	s := &outStream{srttUS: 200_000, rttvarUS: 100_000, count: 10}
	cfg := Config{}
	cfg.fill()
	got := s.resendAfterMS(&cfg)
	require.Equal(t, int64(600), got, "before a measurement: %d ms", got)
	s.next = 10 // every chunk sent: the tail
	got = s.resendAfterMS(&cfg)
	require.Equal(t, int64(300), got, "in the tail, before a measurement: %d ms", got)
	s.next = 0
	for range 50 {
		s.measure(40)
	}
	got = s.resendAfterMS(&cfg)
	require.Equal(t, cfg.MinResendMS, got, "steady 40 ms round trip: %d ms, want the floor %d", got, cfg.MinResendMS)
	for range 50 {
		s.measure(900)
	}
	got = s.resendAfterMS(&cfg)
	require.GreaterOrEqual(t, got, int64(900), "steady 900 ms round trip: %d ms", got)
	require.LessOrEqual(t, got, int64(1000), "steady 900 ms round trip: %d ms", got)
	s.measure(60_000)
	got = s.resendAfterMS(&cfg)
	require.Equal(t, cfg.MaxResendMS, got, "after a 60 s outlier: %d ms, want the cap %d", got, cfg.MaxResendMS)
}

// xferChunkBody encodes a chunk body.
func xferChunkBody(stream, total, size, index uint32, hash [32]byte, data []byte) []byte {
	m := wire.TransferChunk{Stream: stream, Total: total, ChunkSize: size, Index: index, Hash: hash, Data: data}
	return m.AppendBody(nil)
}

func TestTransferDropsEveryBadPacketUnderExactlyOneCounter(t *testing.T) {
	l := newXferLink(small)
	data := xferData(10000, 7)
	l.a.x.Send(0, 2, 5, data)
	l.a.x.Send(0, 2, 6, xferData(3000, 8))
	for range 3 {
		l.step()
	}
	h := sha256.Sum256(data)
	real := xferChunkBody(5, 10000, 1000, 0, h, data[:1000])
	inflight := l.b.x.BytesHeld()
	cfg := l.b.x.Config()
	var other [32]byte
	for _, tc := range []struct {
		name  string
		to    *xferEnd
		from  link.Addr
		body  []byte
		count func(c *Counters) int64
	}{
		{"empty body", l.b, 1, nil, func(c *Counters) int64 { return c.Malformed }},
		{"not a transfer kind", l.b, 1, []byte{wire.TicnetKindMode, 1}, func(c *Counters) int64 { return c.Malformed }},
		{"chunk cut short", l.b, 1, real[:len(real)-1], func(c *Counters) int64 { return c.Malformed }},
		{"chunk index past its stream", l.b, 1, func() []byte { b := bytes.Clone(real); b[16] = 10; return b }(), func(c *Counters) int64 { return c.Malformed }},
		{"ack with a bitmap too long", l.a, 2, append([]byte{wire.TicnetKindTransferAck, 0, 0, 0, 5, 0, 0, 0, 0, 65}, make([]byte, 65)...), func(c *Counters) int64 { return c.Malformed }},
		{"abort with unknown flags", l.b, 1, []byte{wire.TicnetKindTransferAbort, 4, 0, 0, 0, 5, 1}, func(c *Counters) int64 { return c.Malformed }},
		{"chunk from a stranger", l.b, 99, real, func(c *Counters) int64 { return c.Forged }},
		{"abort from a stranger", l.b, 99, (&wire.TransferAbort{Stream: 5, Reason: 1}).AppendBody(nil), func(c *Counters) int64 { return c.Forged }},
		{"ack from a stranger", l.a, 99, (&wire.TransferAck{Stream: 5, Base: 1}).AppendBody(nil), func(c *Counters) int64 { return c.Forged }},
		{"ack of a stream never sent", l.a, 2, (&wire.TransferAck{Stream: 1234, Base: 1}).AppendBody(nil), func(c *Counters) int64 { return c.Forged }},
		{"abort of a stream never sent", l.a, 2, (&wire.TransferAbort{Stream: 1234, FromReceiver: true, Reason: 1}).AppendBody(nil), func(c *Counters) int64 { return c.Forged }},
		{"chunk of another length under the stream's id", l.b, 1, xferChunkBody(5, 20000, 1000, 3, h, data[:1000]), func(c *Counters) int64 { return c.OutOfRange }},
		{"chunk of another hash under the stream's id", l.b, 1, xferChunkBody(5, 10000, 1000, 3, other, data[:1000]), func(c *Counters) int64 { return c.OutOfRange }},
		{"chunk of another chunk size under the stream's id", l.b, 1, xferChunkBody(5, 10000, 500, 3, h, data[:500]), func(c *Counters) int64 { return c.OutOfRange }},
		{"ack of chunks never sent", l.a, 2, (&wire.TransferAck{Stream: 5, Base: 9}).AppendBody(nil), func(c *Counters) int64 { return c.OutOfRange }},
		{"ack bitmap past the chunks sent", l.a, 2, (&wire.TransferAck{Stream: 5, Base: 0, Bitmap: []byte{0, 0, 1}}).AppendBody(nil), func(c *Counters) int64 { return c.OutOfRange }},
		{"chunk already held", l.b, 1, real, func(c *Counters) int64 { return c.Duplicates }},
	} {
		before := tc.to.x.Counters()
		tc.to.handle(l.now, tc.from, tc.body)
		after := tc.to.x.Counters()
		assert.Equal(t, tc.count(&before)+1, tc.count(&after), "%s: counters went from %+v to %+v", tc.name, before, after)
		assert.Equal(t, before.Dropped()+1, after.Dropped(), "%s: counters went from %+v to %+v", tc.name, before, after)
	}
	require.Equal(t, inflight, l.b.x.BytesHeld(), "bad packets changed the streams: held %d (was %d), events %v %v", l.b.x.BytesHeld(), inflight, l.a.events, l.b.events)
	require.Equal(t, 0, len(l.a.events)+len(l.b.events), "bad packets changed the streams: held %d (was %d), events %v %v", l.b.x.BytesHeld(), inflight, l.a.events, l.b.events)
	// A stream above the receiver's limit is refused: out of range, its
	// sender told, and its next chunks stale.
	big := xferChunkBody(40, uint32(cfg.MaxStreamBytes)+1, 1000, 0, h, data[:1000])
	before := l.b.x.Counters()
	l.b.handle(l.now, 1, big)
	l.b.handle(l.now, 1, big)
	after := l.b.x.Counters()
	require.Equal(t, before.OutOfRange+1, after.OutOfRange, "too large: %+v", after)
	require.Equal(t, before.Stale+1, after.Stale, "too large: %+v", after)
	require.Equal(t, before.StreamsRefused+1, after.StreamsRefused, "too large: %+v", after)
	// Both real streams still arrive whole.
	l.run(t, 5000)
	for l.now < 10000 && len(l.b.events) < 2 {
		l.step()
	}
	require.Equal(t, 2, len(l.b.events), "receiver events %v", l.b.events)
	require.Equal(t, uint32(6), l.b.events[0].Stream, "receiver events %v", l.b.events)
	require.Equal(t, uint32(5), l.b.events[1].Stream, "receiver events %v", l.b.events)
	require.Equal(t, data, l.b.events[1].Data, "receiver events %v", l.b.events)
}

func TestTransferAStaleStreamsChunksCannotCorruptANewerOne(t *testing.T) {
	l := newXferLink(small)
	old, cur := xferData(4000, 9), xferData(4000, 10)
	l.a.x.Send(0, 2, 1, old)
	l.run(t, 5000)
	var replay [][]byte // the old stream's chunks, as an attacker recorded them
	hOld := sha256.Sum256(old)
	for i := range uint32(4) {
		replay = append(replay, xferChunkBody(1, 4000, 1000, i, hOld, old[i*1000:(i+1)*1000]))
	}
	l.a.events, l.b.events = nil, nil
	l.a.x.Send(l.now, 2, 2, cur)
	l.step()
	for _, b := range replay { // under the new stream's id: the hash differs
		b = bytes.Clone(b)
		binary.BigEndian.PutUint32(b[1:], 2)
		l.b.handle(l.now, 1, b)
	}
	for _, b := range replay { // under their own id: a finished stream
		l.b.handle(l.now, 1, b)
	}
	l.run(t, 5000)
	require.Equal(t, 1, len(l.b.events), "events %+v", l.b.events)
	require.Equal(t, cur, l.b.events[0].Data, "events %+v", l.b.events)
	c := l.b.x.Counters()
	require.Equal(t, int64(4), c.OutOfRange, "counters %+v", c)
	require.Equal(t, int64(4), c.Duplicates, "counters %+v", c)
}

func TestTransferRefusedStreamIsReportedDroppedAtOnceAndNeverOpens(t *testing.T) {
	l := newXferLink(small)
	// b asked a for stream 12 (the server asked a client for a snapshot);
	// a cannot give it.
	l.a.x.Refuse(0, 2, 12, wire.TransferReasonNoSnapshot)
	l.deliver()
	require.Equal(t, 1, len(l.b.events), "events %v", l.b.events)
	require.Equal(t, "transfer dropped from 1 stream 12: no snapshot (by the peer)", l.b.events[0].String(), "events %v", l.b.events)
	// A chunk of that id arriving late does not open it; the abort's
	// copies are stale; the id is spent at a.
	l.b.handle(l.now, 1, xferChunkBody(12, 10, 10, 0, [32]byte{}, make([]byte, 10)))
	for range 60 {
		l.step()
	}
	c := l.b.x.Counters()
	require.Equal(t, int64(3), c.Stale, "counters %+v", c)
	require.Equal(t, int64(1), c.StreamsAborted, "counters %+v", c)
	require.Equal(t, int64(0), c.StreamsOpened, "counters %+v", c)
	require.Equal(t, int64(0), l.b.x.BytesHeld(), "counters %+v", c)
	err := l.a.x.Send(l.now, 2, 12, []byte{1})
	require.True(t, err == ErrIDInUse, "%v", err)
	// Refusing a stream already on its way cancels it.
	l.a.x.Send(l.now, 2, 13, xferData(50000, 1))
	l.step()
	l.step()
	l.a.x.Refuse(l.now, 2, 13, wire.TransferReasonNoSnapshot)
	l.deliver()
	o, i := l.a.x.Open()
	require.Equal(t, 0, o, "open %d/%d, events %v", o, i, l.b.events)
	require.Equal(t, 0, i, "open %d/%d, events %v", o, i, l.b.events)
	require.Equal(t, 2, len(l.b.events), "open %d/%d, events %v", o, i, l.b.events)
	require.Equal(t, int64(0), l.b.x.BytesHeld(), "open %d/%d, events %v", o, i, l.b.events)
}

func TestTransferHashMismatchDropsTheStreamAtBothEnds(t *testing.T) {
	l := newXferLink(small)
	data := xferData(3000, 11)
	l.a.x.Send(0, 2, 3, data)
	// A forged chunk 2 with the right header and wrong bytes gets there first.
	h := sha256.Sum256(data)
	l.b.handle(0, 1, xferChunkBody(3, 3000, 1000, 2, h, make([]byte, 1000)))
	l.run(t, 5000)
	for l.now < 5000 && len(l.a.events) == 0 {
		l.step()
	}
	require.Equal(t, 1, len(l.b.events), "receiver %+v", l.b.events)
	require.Equal(t, Dropped, l.b.events[0].Kind, "receiver %+v", l.b.events)
	require.Equal(t, wire.TransferReasonHashMismatch, l.b.events[0].Reason, "receiver %+v", l.b.events)
	require.False(t, l.b.events[0].ByPeer, "receiver %+v", l.b.events)
	require.Equal(t, 1, len(l.a.events), "sender %+v", l.a.events)
	require.Equal(t, Dropped, l.a.events[0].Kind, "sender %+v", l.a.events)
	require.Equal(t, wire.TransferReasonHashMismatch, l.a.events[0].Reason, "sender %+v", l.a.events)
	require.True(t, l.a.events[0].ByPeer, "sender %+v", l.a.events)
	c := l.b.x.Counters()
	require.Equal(t, int64(1), c.HashMismatches, "counters %+v", c)
	require.Equal(t, int64(0), l.b.x.BytesHeld(), "counters %+v", c)
	require.Equal(t, int64(0), l.a.x.BytesReferenced(), "counters %+v", c)
}

func TestTransferCancelFreesTheOtherEndAsSoonAsTheAbortArrives(t *testing.T) {
	for _, bySender := range []bool{true, false} {
		l := newXferLink(small)
		l.a.x.Send(0, 2, 4, xferData(50000, 12))
		for range 4 {
			l.step()
		}
		require.NotEqual(t, int64(0), l.b.x.BytesHeld(), "nothing received yet")
		var ok bool
		if bySender {
			ok = l.a.x.CancelSend(l.now, 2, 4, wire.TransferReasonCancelled)
		} else {
			ok = l.b.x.CancelReceive(l.now, 1, 4, wire.TransferReasonCancelled)
		}
		require.True(t, ok, "no stream to cancel")
		l.deliver() // the abort goes at once, not at the next Pump
		require.Equal(t, int64(0), l.b.x.BytesHeld(), "bySender=%v: held %d, referenced %d", bySender, l.b.x.BytesHeld(), l.a.x.BytesReferenced())
		require.Equal(t, int64(0), l.a.x.BytesReferenced(), "bySender=%v: held %d, referenced %d", bySender, l.b.x.BytesHeld(), l.a.x.BytesReferenced())
		other := l.b
		if !bySender {
			other = l.a
		}
		require.Equal(t, 1, len(other.events), "bySender=%v: events %+v", bySender, other.events)
		require.Equal(t, wire.TransferReasonCancelled, other.events[0].Reason, "bySender=%v: events %+v", bySender, other.events)
		require.True(t, other.events[0].ByPeer, "bySender=%v: events %+v", bySender, other.events)
		// The abort is sent three times in all; the copies are stale.
		for range 60 {
			l.step()
		}
		ca, cb := l.a.x.Counters(), l.b.x.Counters()
		require.Equal(t, int64(3), ca.AbortsSent+cb.AbortsSent, "bySender=%v: sender %+v receiver %+v", bySender, ca, cb)
		require.GreaterOrEqual(t, ca.Stale+cb.Stale, int64(2), "bySender=%v: sender %+v receiver %+v", bySender, ca, cb)
		require.Equal(t, int64(1), ca.StreamsCancelled+cb.StreamsCancelled, "bySender=%v: sender %+v receiver %+v", bySender, ca, cb)
	}
}

func TestTransferStreamsWithoutProgressAreDroppedAtBothEndsAtTheDeadline(t *testing.T) {
	l := newXferLink(small)
	cut := false
	l.drop = func(*xferEnd, xferPacket) bool { return cut }
	l.a.x.Send(0, 2, 8, xferData(50000, 13))
	for range 4 {
		l.step()
	}
	cut = true
	lastProgress := l.now
	stall := l.a.x.Config().StallMS
	for l.now < lastProgress+stall+10 {
		l.step()
		o, _ := l.a.x.Open()
		if o == 0 {
			require.GreaterOrEqual(t, l.now, lastProgress+stall-5, "sender dropped at %d, before the deadline", l.now)
		}
	}
	o, i := l.a.x.Open()
	require.Equal(t, 0, o, "left open: %d out, %d in, %d held", o, i, l.b.x.BytesHeld())
	require.Equal(t, 0, i, "left open: %d out, %d in, %d held", o, i, l.b.x.BytesHeld())
	require.Equal(t, int64(0), l.b.x.BytesHeld(), "left open: %d out, %d in, %d held", o, i, l.b.x.BytesHeld())
	require.Equal(t, int64(0), l.a.x.BytesReferenced(), "left open: %d out, %d in, %d held", o, i, l.b.x.BytesHeld())
	for _, e := range []*xferEnd{l.a, l.b} {
		require.Equal(t, 1, len(e.events), "events %+v", e.events)
		require.Equal(t, wire.TransferReasonStalled, e.events[0].Reason, "events %+v", e.events)
		require.False(t, e.events[0].ByPeer, "events %+v", e.events)
		c := e.x.Counters()
		require.Equal(t, int64(1), c.StreamsStalled, "counters %+v", c)
	}
}

func TestTransferRefusesStreamsBeyondItsRoomAndTellsTheSender(t *testing.T) {
	cfg := small
	cfg.MaxIncoming = 1
	l := newXferLink(cfg)
	c := newXferEnd(3, cfg)
	l.ends = append(l.ends, c)
	l.b.x.AcceptFrom(3)
	l.a.x.Send(0, 2, 1, xferData(20000, 14))
	c.x.Send(0, 2, 1, xferData(20000, 15))
	for range 3 {
		l.step()
	}
	require.Equal(t, 1, len(c.events), "refused sender's events %v", c.events)
	require.Equal(t, wire.TransferReasonNoRoom, c.events[0].Reason, "refused sender's events %v", c.events)
	require.True(t, c.events[0].ByPeer, "refused sender's events %v", c.events)
	require.Equal(t, int64(0), c.x.BytesReferenced(), "refused sender's events %v", c.events)
	// c sent a chunk a pass: the first is refused, the second stale; the
	// abort reached c before its third.
	cb := l.b.x.Counters()
	require.Equal(t, int64(1), cb.NoRoom, "receiver %+v", cb)
	require.Equal(t, int64(1), cb.Stale, "receiver %+v", cb)
	require.Equal(t, int64(1), cb.StreamsRefused, "receiver %+v", cb)
	require.Equal(t, int64(1), cb.StreamsOpened, "receiver %+v", cb)
	l.run(t, 5000)
	require.Equal(t, 1, len(l.b.events), "receiver events %v", l.b.events)
	require.Equal(t, link.Addr(1), l.b.events[0].Peer, "receiver events %v", l.b.events)
}

func TestTransferSendRefusesWhatItCannotSend(t *testing.T) {
	x := New(Config{MaxStreamBytes: 100, MaxOutgoing: 1}, &xferWire{})
	for _, tc := range []struct {
		to   link.Addr
		id   uint32
		n    int
		want error
	}{
		{2, 1, 0, ErrEmpty},
		{link.Broadcast, 1, 10, ErrBroadcast},
		{2, 1, 101, ErrTooLarge},
		{2, 1, 100, nil},
		{2, 1, 10, ErrBusy},
	} {
		err := x.Send(0, tc.to, tc.id, make([]byte, tc.n))
		assert.True(t, err == tc.want, "Send(to %d, %d bytes) = %v, want %v", tc.to, tc.n, err, tc.want)
	}
	x.CancelSend(0, 2, 1, wire.TransferReasonCancelled)
	err := x.Send(0, 2, 1, []byte{1})
	require.True(t, err == ErrIDInUse, "reusing a cancelled id at once: %v", err)
	x.Pump(2*x.Config().StallMS+1, nil)
	err = x.Send(2*x.Config().StallMS+1, 2, 1, []byte{1})
	require.NoError(t, err, "reusing an id after 2×StallMS")
}

func TestConfigDefaultsAndBounds(t *testing.T) {
	var c Config
	c.fill()
	require.Equal(t, 16000, c.ChunkBytes, "%+v", c)
	require.Equal(t, int64(900_000), c.RateBytesPerSec, "%+v", c)
	require.Equal(t, 16059, c.BurstBytes, "%+v", c)
	require.Equal(t, int64(4000), c.StallMS, "%+v", c)
	require.Equal(t, 8<<20, c.MaxStreamBytes, "%+v", c)
	require.Equal(t, int64(16<<20), c.MaxHeldBytes, "%+v", c)
	// A 16 000-byte chunk's frame takes 16 ms of a 1 MB/s uplink, and the
	// pacer lets the next go only after the uplink has drained it.
	frame := int64(c.ChunkBytes + chunkOverhead)
	busyMS, gapMS := frame*1000/1_000_000, frame*1000/c.RateBytesPerSec
	require.Less(t, busyMS, int64(1000/wire.DefaultTicRate), "a chunk busies a 1 MB/s uplink %d ms, one goes every %d ms", busyMS, gapMS)
	require.Greater(t, gapMS, busyMS, "a chunk busies a 1 MB/s uplink %d ms, one goes every %d ms", busyMS, gapMS)
	tiny := Config{ChunkBytes: 1}
	tiny.fill()
	require.Equal(t, MinChunkBytes, tiny.ChunkBytes, "%+v", tiny)
	big := Config{ChunkBytes: 1 << 20, BurstBytes: 10, MaxInFlightBytes: 10}
	big.fill()
	require.Equal(t, wire.MaxTransferChunkSize, big.ChunkBytes, "%+v", big)
	require.Equal(t, link.MaxFrame, big.ChunkBytes+chunkOverhead, "%+v", big)
	require.Equal(t, link.MaxFrame, big.BurstBytes, "%+v", big)
	require.Equal(t, link.MaxFrame, big.MaxInFlightBytes, "%+v", big)
}

// xferSink is a transport that drops what it is given.
type xferSink struct{ frames int }

func (s *xferSink) Send(link.Addr, []byte)          { s.frames++ }
func (s *xferSink) Recv() (link.Addr, []byte, bool) { return 0, nil, false }

func TestTransferSteadyStateAllocatesNothing(t *testing.T) {
	sender := New(Config{}, &xferSink{})
	receiver := New(Config{}, &xferSink{})
	receiver.AcceptFrom(1)
	data := xferData(4<<20, 16)
	h := sha256.Sum256(data)
	var chunks [][]byte
	for i := range uint32(150) {
		chunks = append(chunks, xferChunkBody(1, 4<<20, 16000, i, h, data[i*16000:(i+1)*16000]))
	}
	sender.Send(0, 2, 1, data)
	receiver.Handle(0, 1, chunks[0]) // opens the stream: its one allocation
	now, next := int64(0), 1
	a := testing.AllocsPerRun(100, func() {
		now += 5
		receiver.Handle(now, 1, chunks[next])
		next++
		receiver.Pump(now, nil)
		sender.Pump(now, nil)
	})
	assert.Equal(t, float64(0), a, "a pass that takes a chunk and acks it, and sends chunks: %v allocations", a)
	ack := (&wire.TransferAck{Stream: 1, Base: 1, Bitmap: []byte{1}}).AppendBody(nil)
	a = testing.AllocsPerRun(100, func() { sender.Handle(now, 2, ack) })
	assert.Equal(t, float64(0), a, "handling an ack: %v allocations", a)
}

func TestTransferRefusesAStreamBeyondTheBytesItMayHold(t *testing.T) {
	cfg := small
	cfg.MaxHeldBytes = 30000
	l := newXferLink(cfg)
	c := newXferEnd(3, cfg)
	l.ends = append(l.ends, c)
	l.b.x.AcceptFrom(3)
	l.a.x.Send(0, 2, 1, xferData(20000, 17))
	l.step()
	c.x.Send(l.now, 2, 1, xferData(20000, 18))
	for range 3 {
		l.step()
	}
	require.Equal(t, 1, len(c.events), "events %v", c.events)
	require.Equal(t, wire.TransferReasonNoRoom, c.events[0].Reason, "events %v", c.events)
	cb := l.b.x.Counters()
	require.Equal(t, int64(1), cb.NoRoom, "receiver %+v", cb)
	require.Equal(t, int64(20008), cb.PeakBytesHeld, "receiver %+v", cb)
}

func TestTransferDropPeerEndsItsStreamsBothWaysAndStopsTakingItsStreams(t *testing.T) {
	l := newXferLink(small)
	l.a.x.AcceptFrom(2)
	l.a.x.Send(0, 2, 1, xferData(30000, 19))
	l.b.x.Send(0, 1, 1, xferData(30000, 20))
	for range 4 {
		l.step()
	}
	o, i := l.a.x.Open()
	require.Equal(t, 1, o, "open %d/%d", o, i)
	require.Equal(t, 1, i, "open %d/%d", o, i)
	acked, total, ok := l.a.x.SendProgress(2, 1)
	require.True(t, ok, "send progress %d of %d, %v", acked, total, ok)
	require.NotEqual(t, 0, acked, "send progress %d of %d, %v", acked, total, ok)
	require.Equal(t, 30000, total, "send progress %d of %d, %v", acked, total, ok)
	n := l.a.x.DropPeer(l.now, 2)
	require.Equal(t, 2, n, "dropped %d streams", n)
	o, i = l.a.x.Open()
	require.Equal(t, 0, o, "still open %d/%d", o, i)
	require.Equal(t, 0, i, "still open %d/%d", o, i)
	require.Equal(t, int64(0), l.a.x.BytesHeld(), "still open %d/%d", o, i)
	require.Equal(t, int64(0), l.a.x.BytesReferenced(), "still open %d/%d", o, i)
	l.deliver()
	o, i = l.b.x.Open()
	require.Equal(t, 0, o, "the peer still has %d/%d open", o, i)
	require.Equal(t, 0, i, "the peer still has %d/%d open", o, i)
	before := l.a.x.Counters().Forged
	l.b.x.Send(l.now, 1, 2, []byte{1, 2, 3})
	l.step()
	require.Equal(t, before+1, l.a.x.Counters().Forged, "a dropped peer's new stream was taken")
}

// FuzzEndpointHandle feeds any packet, three times, to both ends of a
// stream in progress: nothing panics, each is used or dropped exactly once
// (counted), what an end holds stays within its limit, and five seconds
// later every stream has ended, the real one delivered or not.
func FuzzEndpointHandle(f *testing.F) {
	data := xferData(20000, 21)
	h := sha256.Sum256(data)
	f.Add(xferChunkBody(1, 20000, 1000, 3, h, data[3000:4000]), byte(1))
	f.Add(xferChunkBody(9, 5, 5, 0, h, data[:5]), byte(1))
	f.Add((&wire.TransferAck{Stream: 1, Base: 2, Bitmap: []byte{3}}).AppendBody(nil), byte(2))
	f.Add((&wire.TransferAbort{Stream: 1, Reason: 1}).AppendBody(nil), byte(1))
	f.Add((&wire.TransferAbort{Stream: 1, FromReceiver: true, Reason: 2}).AppendBody(nil), byte(2))
	f.Add([]byte{wire.TicnetKindTransferChunk, 0, 0}, byte(7))
	f.Fuzz(func(t *testing.T, body []byte, who byte) { endpointHandleOnce(t, data, body, who) })
}

// endpointHandleOnce is one run of FuzzEndpointHandle.
func endpointHandleOnce(t *testing.T, data, body []byte, who byte) {
	cfg := small
	cfg.MaxHeldBytes = 40000
	l := newXferLink(cfg)
	l.a.x.Send(0, 2, 1, data)
	for range 3 {
		l.step()
	}
	from := link.Addr(who % 4) // 0 and 3: strangers; 1: the sender; 2: the receiver
	tally := func(e *xferEnd) int64 {
		c := e.x.Counters()
		return c.ChunksReceived + c.AcksReceived + c.StreamsAborted + c.Dropped()
	}
	for _, to := range []*xferEnd{l.a, l.b} {
		for range 3 { // new, then again as replays
			before := tally(to)
			to.handle(l.now, from, body)
			got := tally(to) - before
			require.Equal(t, int64(1), got, "one packet used or dropped %d times: %+v", got, to.x.Counters())
		}
	}
	for l.now < 5000 { // past the deadline of any stream the packet opened
		l.step()
	}
	for _, e := range []*xferEnd{l.a, l.b} {
		c := e.x.Counters()
		require.LessOrEqual(t, e.x.BytesHeld(), cfg.MaxHeldBytes, "held %d, peak %d", e.x.BytesHeld(), c.PeakBytesHeld)
		require.LessOrEqual(t, c.PeakBytesHeld, cfg.MaxHeldBytes, "held %d, peak %d", e.x.BytesHeld(), c.PeakBytesHeld)
		o, i := e.x.Open()
		require.Equal(t, 0, o, "streams still open after 5 s: %d out, %d in", o, i)
		require.Equal(t, 0, i, "streams still open after 5 s: %d out, %d in", o, i)
	}
}
