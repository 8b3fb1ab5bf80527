package transfer_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The bulk transfer over the simulated channel: two peers with
// FrameTransports, a pass every 5 ms (the browser's net loop), uplinks of
// 1 MB/s. Times are virtual, so every number here is exact for its seed.

const (
	xferPassMS    = 5
	xferUplinkBPS = 1_000_000
)

var (
	// xferFixed: 50 ms one way, always.
	xferFixed = simnet.Link{LatencyMS: 50}
	// xferLossless: 50-150 ms one way, nothing lost.
	xferLossless = simnet.Link{LatencyMS: 50, JitterMS: 100}
	// xferLossy: the scenario tests' hard channel: 50-150 ms, 20 % loss,
	// 5 % duplicated, 5 % held back 50 ms more.
	xferLossy = simnet.Link{LatencyMS: 50, JitterMS: 100, Loss: 0.2, Duplicate: 0.05, Reorder: 0.05, ReorderMS: 50}
)

// xferPeer is one copy: a transport on the channel and its Endpoint.
type xferPeer struct {
	node   *simnet.Node
	tr     *simnet.FrameTransport
	x      *transfer.Endpoint
	events []transfer.Event
	// other counts the packets that are not the transfer's; ticArrivals
	// notes when each arrived.
	other       int
	ticArrivals []int64
	gone        bool // the copy has closed: it runs no more passes
}

// pass is one pass of the net loop: take what arrived, send tics (if
// sendTic says so), then pump the transfers.
func (p *xferPeer) pass(now int64, sendTic func()) {
	if p.gone {
		return
	}
	for {
		from, pkt, ok := p.tr.Recv()
		if !ok {
			break
		}
		h, body, err := wire.ParseHeader(pkt)
		if err != nil || h.Type != wire.TypeTicnet || len(body) == 0 || !wire.IsTransferKind(body[0]) {
			p.other++
			p.ticArrivals = append(p.ticArrivals, now)
			continue
		}
		if ev, ok := p.x.Handle(now, from, body); ok {
			p.events = append(p.events, ev)
		}
	}
	if sendTic != nil {
		sendTic()
	}
	p.events = p.x.Pump(now, p.events)
}

func (p *xferPeer) event(kind transfer.EventKind) (transfer.Event, bool) {
	for _, e := range p.events {
		if e.Kind == kind {
			return e, true
		}
	}
	return transfer.Event{}, false
}

// xferSim is a sender (UID 1) and a receiver (UID 2) on one channel.
type xferSim struct {
	net  *simnet.Network
	a, b *xferPeer
	now  int64
	// maxHeld is the most the receiver held after any pass.
	maxHeld int64
}

func newXferSim(seed uint64, channel simnet.Link, cfg transfer.Config) *xferSim {
	n := simnet.New(seed, channel)
	n.SetDefaultBandwidth(xferUplinkBPS)
	peer := func(uid link.Addr) *xferPeer {
		nd := n.AddNode()
		tr := simnet.NewFrameTransport(nd, uid)
		return &xferPeer{node: nd, tr: tr, x: transfer.New(cfg, tr)}
	}
	s := &xferSim{net: n, a: peer(1), b: peer(2)}
	s.b.x.AcceptFrom(1)
	return s
}

func (s *xferSim) step() {
	s.now += xferPassMS
	s.net.AdvanceTo(s.now)
	s.a.pass(s.now, nil)
	s.b.pass(s.now, nil)
	s.maxHeld = max(s.maxHeld, s.b.x.BytesHeld())
}

// runUntil steps until done says so or limitMS of virtual time have passed.
func (s *xferSim) runUntil(limitMS int64, done func() bool) bool {
	for end := s.now + limitMS; s.now < end; {
		s.step()
		if done() {
			return true
		}
	}
	return false
}

func xferPayload(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 99))
	b := make([]byte, n)
	for i := 0; i < n; i += 8 {
		v := r.Uint64()
		for j := 0; j < 8 && i+j < n; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return b
}

// transferResult is what one simulated transfer measured.
type transferResult struct {
	receivedMS, deliveredMS int64 // -1: never
	sender, receiver        transfer.Counters
	maxHeld                 int64
}

// simulateTransfer sends size bytes from a to b and runs until both ends
// have reported the end of the stream (or 60 s of virtual time).
func simulateTransfer(t testing.TB, seed uint64, channel simnet.Link, size int) transferResult {
	s := newXferSim(seed, channel, transfer.Config{})
	data := xferPayload(size, seed)
	err := s.a.x.Send(s.now, 2, 1, data)
	require.NoError(t, err)
	res := transferResult{receivedMS: -1, deliveredMS: -1}
	s.runUntil(60_000, func() bool {
		if _, ok := s.b.event(transfer.Received); ok && res.receivedMS < 0 {
			res.receivedMS = s.now
		}
		if _, ok := s.a.event(transfer.Delivered); ok && res.deliveredMS < 0 {
			res.deliveredMS = s.now
		}
		return len(s.a.events) > 0 && len(s.b.events) > 0
	})
	ev, ok := s.b.event(transfer.Received)
	require.True(t, ok, "seed %d, %d bytes: the receiver's events are %v", seed, size, s.b.events)
	require.Equal(t, data, ev.Data, "seed %d, %d bytes: the receiver's events are %v", seed, size, s.b.events)
	_, ok = s.a.event(transfer.Delivered)
	require.True(t, ok, "seed %d, %d bytes: the sender's events are %v", seed, size, s.a.events)
	res.sender, res.receiver, res.maxHeld = s.a.x.Counters(), s.b.x.Counters(), s.maxHeld
	return res
}

// maxDelayMS is the longest a frame takes on link, queueing aside.
func maxDelayMS(l simnet.Link) int64 { return l.LatencyMS + l.JitterMS + l.ReorderMS }

// heldFor is what the receiver holds for one stream of size bytes in
// default chunks: the buffer and a bit per chunk, in whole words.
func heldFor(size int) int64 {
	chunks := (size + transfer.DefaultChunkBytes - 1) / transfer.DefaultChunkBytes
	return int64(size) + int64((chunks+63)/64*8)
}

func TestTransferArrivesWholeOverLosslessAndLossyChannels(t *testing.T) {
	for _, ch := range []struct {
		name string
		link simnet.Link
	}{{"fixed", xferFixed}, {"lossless", xferLossless}, {"lossy", xferLossy}} {
		for _, size := range []int{1000, 64 << 10, 1 << 20, 4 << 20} {
			t.Run(fmt.Sprintf("%s/%d", ch.name, size), func(t *testing.T) {
				r := simulateTransfer(t, 1, ch.link, size)
				chunks := int64((size + transfer.DefaultChunkBytes - 1) / transfer.DefaultChunkBytes)
				snd, rcv := r.sender, r.receiver
				// Memory: the stream's buffer and bookkeeping, never more.
				assert.LessOrEqual(t, r.maxHeld, heldFor(size), "held at most %d (peak %d), want %d", r.maxHeld, rcv.PeakBytesHeld, heldFor(size))
				assert.Equal(t, heldFor(size), rcv.PeakBytesHeld, "held at most %d (peak %d), want %d", r.maxHeld, rcv.PeakBytesHeld, heldFor(size))
				// Every chunk taken exactly once; nothing forged, malformed or
				// out of range can come from an honest peer.
				assert.Equal(t, chunks, rcv.ChunksReceived, "receiver %+v\nsender %+v", rcv, snd)
				assert.Equal(t, int64(size), rcv.ChunkBytesReceived, "receiver %+v\nsender %+v", rcv, snd)
				assert.Equal(t, int64(1), rcv.StreamsCompleted, "receiver %+v\nsender %+v", rcv, snd)
				assert.Equal(t, int64(0), rcv.Malformed+rcv.Forged+rcv.OutOfRange+rcv.NoRoom+snd.Malformed+snd.Forged+snd.OutOfRange, "receiver %+v\nsender %+v", rcv, snd)
				assert.Equal(t, chunks, snd.ChunksSent, "sender %+v", snd)
				assert.Equal(t, int64(size), snd.ChunkBytesSent, "sender %+v", snd)
				assert.Equal(t, int64(1), snd.StreamsDelivered, "sender %+v", snd)
				// On a steady channel nothing is resent. With 100 ms of jitter
				// each way, a round trip sometimes outlasts the timer (the
				// tail's timer is short on purpose); each such resend arrives
				// as a duplicate, unless the run ends first.
				// A stream of one chunk repeats it (Repeats times, RepeatMS
				// apart), unless acknowledged first; a repeat that arrives is
				// a duplicate.
				repeats := int64(0)
				if chunks == 1 {
					repeats = min(transfer.Repeats, r.deliveredMS/transfer.RepeatMS)
				}
				assert.Equal(t, repeats, snd.ChunksRepeated, "repeats")
				if ch.link.JitterMS == 0 {
					assert.Zero(t, snd.ChunksResent, "no loss, yet %d resent", snd.ChunksResent)
					assert.LessOrEqual(t, rcv.Duplicates, repeats, "no loss, yet %d duplicates", rcv.Duplicates)
				}
				if ch.link.Loss == 0 {
					assert.LessOrEqual(t, rcv.Duplicates, snd.ChunksResent+repeats, "no loss, yet %d resent, %d duplicates", snd.ChunksResent, rcv.Duplicates)
				}
				t.Logf("received at %d ms, delivered at %d ms; %d chunks, %d resent, %d duplicates, %d acks",
					r.receivedMS, r.deliveredMS, chunks, snd.ChunksResent, rcv.Duplicates, rcv.AcksSent)
			})
		}
	}
}

// TestTransferMeetsTheLateJoinGoals: 64 KB within 1 s on the lossless
// channel and 1 MB within 3 s with 20 % loss, at 1 MB/s, for 20 seeds each
// (virtual time: the numbers are exact).
func TestTransferMeetsTheLateJoinGoals(t *testing.T) {
	for _, g := range []struct {
		name   string
		link   simnet.Link
		size   int
		goalMS int64
	}{{"64KB lossless", xferLossless, 64 << 10, 1000}, {"1MB lossy", xferLossy, 1 << 20, 3000}} {
		worst := int64(0)
		for seed := uint64(1); seed <= 20; seed++ {
			worst = max(worst, simulateTransfer(t, seed, g.link, g.size).receivedMS)
		}
		assert.LessOrEqual(t, worst, g.goalMS, "%s: worst of 20 seeds %d ms, goal %d ms", g.name, worst, g.goalMS)
		t.Logf("%s: worst of 20 seeds %d ms", g.name, worst)
	}
}

func TestTransferSenderFreesTheStreamWhenTheReceiverVanishes(t *testing.T) {
	for _, ch := range []struct {
		name string
		link simnet.Link
	}{{"lossless", xferLossless}, {"lossy", xferLossy}} {
		t.Run(ch.name, func(t *testing.T) {
			s := newXferSim(3, ch.link, transfer.Config{})
			const size = 1 << 20
			s.a.x.Send(0, 2, 7, xferPayload(size, 3))
			s.runUntil(10_000, func() bool { got, _, _ := s.b.x.ReceiveProgress(1, 7); return got >= size/2 })
			vanished := s.now
			s.b.node.SetSilent(true) // the tab closed
			s.b.gone = true
			sentBefore := s.a.x.Counters()
			cfg := s.a.x.Config()
			// The last ack left before the receiver went: it arrives within
			// the channel's longest delay, and the deadline runs from it.
			limit := vanished + maxDelayMS(ch.link) + cfg.StallMS + xferPassMS
			s.runUntil(limit-s.now+1000, func() bool { o, _ := s.a.x.Open(); return o == 0 })
			o, _ := s.a.x.Open()
			require.Equal(t, 0, o, "the sender still holds the stream at %d ms", s.now)
			require.Equal(t, int64(0), s.a.x.BytesReferenced(), "the sender still holds the stream at %d ms", s.now)
			require.LessOrEqual(t, s.now, limit, "the sender freed the stream at %d ms, %d ms after the receiver vanished; limit %d", s.now, s.now-vanished, limit-vanished)
			ev, ok := s.a.event(transfer.Dropped)
			c := s.a.x.Counters()
			require.True(t, ok, "events %v, counters %+v", s.a.events, c)
			require.Equal(t, wire.TransferReasonStalled, ev.Reason, "events %v, counters %+v", s.a.events, c)
			require.Equal(t, int64(1), c.StreamsStalled, "events %v, counters %+v", s.a.events, c)
			after := s.a.x.Counters()
			wasted := after.ChunkBytesSent - sentBefore.ChunkBytesSent + after.ChunkBytesResent - sentBefore.ChunkBytesResent
			t.Logf("freed %d ms after the receiver vanished; %d bytes of chunks sent to nobody", s.now-vanished, wasted)
			// New chunks stop at the in-flight bound; what else goes is
			// resends: each chunk unacknowledged once per resend timer for
			// two timers, then one chunk per timer.
			new := after.ChunkBytesSent - sentBefore.ChunkBytesSent
			assert.LessOrEqual(t, new, int64(cfg.MaxInFlightBytes), "%d bytes of new chunks sent after the receiver vanished, bound %d", new, cfg.MaxInFlightBytes)
		})
	}
}

func TestTransferReceiverFreesTheStreamWhenTheSenderVanishes(t *testing.T) {
	for _, ch := range []struct {
		name string
		link simnet.Link
	}{{"lossless", xferLossless}, {"lossy", xferLossy}} {
		t.Run(ch.name, func(t *testing.T) {
			s := newXferSim(4, ch.link, transfer.Config{})
			const size = 4 << 20
			s.a.x.Send(0, 2, 7, xferPayload(size, 4))
			s.runUntil(20_000, func() bool { got, _, _ := s.b.x.ReceiveProgress(1, 7); return got >= size/2 })
			vanished := s.now
			s.a.node.SetSilent(true)
			s.a.gone = true
			cfg := s.b.x.Config()
			// Chunks in flight arrive within the channel's longest delay
			// plus the uplink's queue of one chunk (17 ms); the deadline
			// runs from the last.
			limit := vanished + maxDelayMS(ch.link) + 17 + cfg.StallMS + xferPassMS
			s.runUntil(limit-s.now+1000, func() bool { _, i := s.b.x.Open(); return i == 0 })
			_, i := s.b.x.Open()
			require.Equal(t, 0, i, "the receiver still holds %d bytes at %d ms", s.b.x.BytesHeld(), s.now)
			require.Equal(t, int64(0), s.b.x.BytesHeld(), "the receiver still holds %d bytes at %d ms", s.b.x.BytesHeld(), s.now)
			require.LessOrEqual(t, s.now, limit, "freed at %d ms, %d ms after the sender vanished; limit %d", s.now, s.now-vanished, limit-vanished)
			ev, ok := s.b.event(transfer.Dropped)
			c := s.b.x.Counters()
			require.True(t, ok, "events %v, counters %+v", s.b.events, c)
			require.Equal(t, wire.TransferReasonStalled, ev.Reason, "events %v, counters %+v", s.b.events, c)
			require.Equal(t, int64(1), c.StreamsStalled, "events %v, counters %+v", s.b.events, c)
			require.Equal(t, heldFor(size), c.PeakBytesHeld, "events %v, counters %+v", s.b.events, c)
			t.Logf("freed %d ms after the sender vanished", s.now-vanished)
		})
	}
}

// xferAttack forges frames from a node of its own, as a hostile peer on
// the channel can: garbage, chunks that no stream can hold, chunks under
// strangers' UIDs, chunks that contradict the live stream, streams too
// large to take, replays of the real chunks it overheard, and acks and
// aborts from strangers. It counts what it sent of each kind.
type xferAttack struct {
	node   *simnet.Node
	rng    *rand.Rand
	live   []byte // the body of a real chunk it overheard
	sent   [10]int64
	nextID uint32
	frame  []byte
}

func (k *xferAttack) send(to, from link.Addr, body []byte) {
	pkt := wire.Header{Type: wire.TypeTicnet}.AppendTo(nil)
	k.frame = link.AppendFrame(k.frame[:0], to, from, append(pkt, body...))
	k.node.Broadcast(k.frame)
}

// overhear keeps the latest real chunk it heard.
func (k *xferAttack) overhear() {
	for f, ok := k.node.Receive(); ok; f, ok = k.node.Receive() {
		to, from, pkt, ok := link.ParseFrame(f)
		if !ok || to != 2 || from != 1 || len(pkt) < 3 || pkt[2] != wire.TicnetKindTransferChunk {
			continue
		}
		k.live = append(k.live[:0], pkt[2:]...)
	}
}

func (k *xferAttack) forge(i int) {
	var m wire.TransferChunk
	if err := m.DecodeBody(k.live); err != nil {
		panic(err)
	}
	kind := i % 10
	k.sent[kind]++
	switch kind {
	case 0: // garbage shorter than any message of its kind
		body := []byte{wire.TicnetKindTransferChunk + uint8(k.rng.IntN(3))}
		for range k.rng.IntN(6) {
			body = append(body, byte(k.rng.Uint32()))
		}
		k.send(2, 1, body)
	case 1: // a real chunk cut short
		k.send(2, 1, k.live[:k.rng.IntN(len(k.live))])
	case 2: // a chunk past the end of its stream
		b := bytes.Clone(k.live)
		b[13], b[14], b[15], b[16] = 0xff, 0xff, 0xff, byte(k.rng.Uint32())
		k.send(2, 1, b)
	case 3: // a well-formed chunk from a stranger
		k.send(2, link.Addr(1000+k.rng.IntN(1000)), k.live)
	case 4: // the live stream's id with another length
		c := m
		c.Total, c.ChunkSize, c.Index, c.Data = 100, 100, 0, make([]byte, 100)
		k.send(2, 1, c.AppendBody(nil))
	case 5: // a new stream too large to take
		k.nextID++
		c := wire.TransferChunk{Stream: 1<<30 | k.nextID, Total: 0xffffffff, ChunkSize: 10, Data: make([]byte, 10)}
		k.send(2, 1, c.AppendBody(nil))
	case 6: // a replay of the real chunk the receiver already has
		k.send(2, 1, k.live)
	case 7: // an ack from a stranger
		k.send(1, link.Addr(3000+k.rng.IntN(100)), (&wire.TransferAck{Stream: m.Stream, Base: m.Count()}).AppendBody(nil))
	case 8: // an abort of the live stream from a stranger, to the receiver
		k.send(2, 5000, (&wire.TransferAbort{Stream: m.Stream, Reason: wire.TransferReasonCancelled}).AppendBody(nil))
	case 9: // an abort of the live stream from a stranger, to the sender
		k.send(1, 5001, (&wire.TransferAbort{Stream: m.Stream, FromReceiver: true, Reason: wire.TransferReasonCancelled}).AppendBody(nil))
	}
}

func TestTransferCompletesThroughAHundredThousandForgedFramesCountingEachDrop(t *testing.T) {
	for _, ch := range []struct {
		name string
		link simnet.Link
	}{{"lossless", simnet.Link{LatencyMS: 20}}, {"lossy", xferLossy}} {
		t.Run(ch.name, func(t *testing.T) {
			s := newXferSim(5, ch.link, transfer.Config{})
			k := &xferAttack{node: s.net.AddNode(), rng: rand.New(rand.NewPCG(5, 5))}
			s.net.SetLinks(k.node, simnet.Link{LatencyMS: 1}) // the attacker's own frames all arrive
			s.net.SetBandwidth(k.node, -1)                    // and its uplink is unlimited
			const size = 1 << 20
			data := xferPayload(size, 5)
			s.a.x.Send(0, 2, 42, data)
			const frames, perPass = 100_000, 500
			forged := 0
			done := s.runUntil(30_000, func() bool {
				k.overhear()
				if _, _, open := s.b.x.ReceiveProgress(1, 42); (open || forged > 0) && forged < frames && k.live != nil {
					for range perPass {
						k.forge(forged)
						forged++
					}
				}
				require.LessOrEqual(t, s.b.x.BytesHeld(), s.b.x.Config().MaxHeldBytes, "receiver holds %d bytes", s.b.x.BytesHeld())
				_, got := s.b.event(transfer.Received)
				_, delivered := s.a.event(transfer.Delivered)
				return forged == frames && got && delivered
			})
			for range 100 { // let the last forgeries and their answers land
				s.step()
			}
			ev, ok := s.b.event(transfer.Received)
			require.True(t, done, "forged %d; receiver events %v; sender events %v", forged, s.b.events, s.a.events)
			require.True(t, ok, "forged %d; receiver events %v; sender events %v", forged, s.b.events, s.a.events)
			require.Equal(t, data, ev.Data, "forged %d; receiver events %v; sender events %v", forged, s.b.events, s.a.events)
			rcv, snd := s.b.x.Counters(), s.a.x.Counters()
			n := k.sent
			want := map[string][2]int64{
				"receiver malformed":    {rcv.Malformed, n[0] + n[1] + n[2]},
				"receiver forged":       {rcv.Forged, n[3] + n[8]},
				"receiver out of range": {rcv.OutOfRange, n[4] + n[5]},
				"receiver no room":      {rcv.NoRoom, 0},
				"sender malformed":      {snd.Malformed, 0},
				"sender out of range":   {snd.OutOfRange, 0},
			}
			if ch.link.Loss == 0 {
				// The receiver tells the real sender of each too-large stream
				// refused in its name: streams the sender never had.
				want["sender forged"] = [2]int64{snd.Forged, n[7] + n[9] + rcv.AbortsSent}
				want["receiver duplicates"] = [2]int64{rcv.Duplicates, n[6]}
				want["sender resends"] = [2]int64{snd.ChunksResent, 0}
			}
			for name, v := range want {
				assert.Equal(t, v[1], v[0], "%s", name)
			}
			assert.Equal(t, heldFor(size), rcv.PeakBytesHeld, "peak held %d, want %d; now %d", rcv.PeakBytesHeld, heldFor(size), s.b.x.BytesHeld())
			assert.Equal(t, int64(0), s.b.x.BytesHeld(), "peak held %d, want %d; now %d", rcv.PeakBytesHeld, heldFor(size), s.b.x.BytesHeld())
			t.Logf("forged frames by kind %v; receiver dropped %d: %d malformed, %d forged, %d out of range, %d duplicates, %d stale; sender dropped %d",
				n, rcv.Dropped(), rcv.Malformed, rcv.Forged, rcv.OutOfRange, rcv.Duplicates, rcv.Stale, snd.Dropped())
		})
	}
}

// TestTransferWidensTheTicStreamsWorstGapByLessThanOneTic sends a tic frame
// of 505 bytes (8 players) 35 times a second from the sender's pass, first
// alone, then with a 4 MB transfer paced behind it, over a 1 MB/s uplink
// and a fixed 50 ms latency; the receiver notes when each tic arrives.
func TestTransferWidensTheTicStreamsWorstGapByLessThanOneTic(t *testing.T) {
	const ticMS = 1000.0 / 35
	run := func(withStream bool) (worstGapMS, worstQueueMS int64, doneMS int64) {
		s := newXferSim(6, simnet.Link{LatencyMS: 50}, transfer.Config{})
		tic := 0
		ticFrame := append(wire.Header{Type: wire.TypeTicnet}.AppendTo(nil), wire.TicnetKindTicSet)
		ticFrame = append(ticFrame, make([]byte, 505-len(ticFrame))...)
		sendTic := func() {
			for float64(s.now) >= float64(tic)*ticMS {
				s.a.tr.Send(link.Broadcast, ticFrame)
				tic++
			}
		}
		if withStream {
			s.a.x.Send(0, 2, 1, xferPayload(4<<20, 6))
		}
		doneMS = -1
		for s.now < 8000 {
			s.now += xferPassMS
			s.net.AdvanceTo(s.now)
			s.a.pass(s.now, sendTic)
			worstQueueMS = max(worstQueueMS, s.a.node.QueueDelayMS())
			s.b.pass(s.now, nil)
			if _, ok := s.b.event(transfer.Received); ok && doneMS < 0 {
				doneMS = s.now
			}
		}
		arr := s.b.ticArrivals
		for i := 1; i < len(arr); i++ {
			worstGapMS = max(worstGapMS, arr[i]-arr[i-1])
		}
		return worstGapMS, worstQueueMS, doneMS
	}
	alone, _, _ := run(false)
	with, queue, done := run(true)
	require.GreaterOrEqual(t, done, int64(0), "the transfer did not finish in 8 s")
	require.LessOrEqual(t, float64(with-alone), ticMS, "worst gap between tics %d ms alone, %d ms beside the transfer; uplink queue up to %d ms", alone, with, queue)
	require.Less(t, float64(queue), ticMS, "worst gap between tics %d ms alone, %d ms beside the transfer; uplink queue up to %d ms", alone, with, queue)
	t.Logf("worst gap between tics: %d ms alone, %d ms beside a 4 MB transfer (done at %d ms); uplink queue at most %d ms after a pass",
		alone, with, done, queue)
}
