package transfer_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// relaySim is a source (UID 1), a relay (UID 2) and a receiver (UID 3) on
// one channel, as a client, a dedicated server and a joiner: the source
// streams to the relay, which sends the stream on to the receiver.
type relaySim struct {
	net           *simnet.Network
	src, mid, dst *xferPeer
	now           int64
	// peak is the most the relay held and referenced after any pass.
	peak int64
}

func newRelaySim(seed uint64, channel simnet.Link, srcCfg transfer.Config) *relaySim {
	n := simnet.New(seed, channel)
	n.SetDefaultBandwidth(xferUplinkBPS)
	peer := func(uid link.Addr, cfg transfer.Config) *xferPeer {
		nd := n.AddNode()
		tr := simnet.NewFrameTransport(nd, uid)
		return &xferPeer{node: nd, tr: tr, x: transfer.New(cfg, tr)}
	}
	s := &relaySim{net: n, src: peer(1, srcCfg), mid: peer(2, transfer.Config{}), dst: peer(3, transfer.Config{})}
	s.mid.x.AcceptFrom(1)
	s.dst.x.AcceptFrom(2)
	return s
}

func (s *relaySim) runUntil(limitMS int64, done func() bool) bool {
	for end := s.now + limitMS; s.now < end; {
		s.now += xferPassMS
		s.net.AdvanceTo(s.now)
		s.src.pass(s.now, nil)
		s.mid.pass(s.now, nil)
		s.dst.pass(s.now, nil)
		s.peak = max(s.peak, s.mid.x.BytesHeld()+s.mid.x.BytesReferenced())
		if done() {
			return true
		}
	}
	return false
}

// relayed sends size bytes from the source through the relay to the
// receiver, relayed as they arrive or, with storeAndForward, sent on once
// whole, and returns when the receiver had them.
func relayed(t *testing.T, seed uint64, channel simnet.Link, srcCfg transfer.Config, size int, storeAndForward bool) (*relaySim, int64) {
	t.Helper()
	s := newRelaySim(seed, channel, srcCfg)
	data := xferPayload(size, seed)
	if !storeAndForward {
		if err := s.mid.x.Relay(0, 1, 5, 3, 9); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.src.x.Send(0, 2, 5, data); err != nil {
		t.Fatal(err)
	}
	forwarded := false
	if !s.runUntil(30_000, func() bool {
		if ev, ok := s.mid.event(transfer.Received); ok && storeAndForward && !forwarded {
			if err := s.mid.x.Send(s.now, 3, 9, ev.Data); err != nil {
				t.Fatal(err)
			}
			forwarded = true
		}
		_, ok := s.dst.event(transfer.Received)
		return ok
	}) {
		t.Fatalf("seed %d: nothing arrived; relay %v %+v, receiver %v", seed, s.mid.events, s.mid.x.Counters(), s.dst.events)
	}
	if ev, _ := s.dst.event(transfer.Received); !bytes.Equal(ev.Data, data) || ev.Stream != 9 || ev.Peer != 2 {
		t.Fatalf("seed %d: the receiver got stream %d from %d, %d bytes, not the data sent", seed, ev.Stream, ev.Peer, len(ev.Data))
	}
	return s, s.now
}

func TestTransferRelaySendsAStreamOnAsItArrives(t *testing.T) {
	for _, ch := range []struct {
		name string
		link simnet.Link
	}{{"lossless", xferLossless}, {"lossy", xferLossy}} {
		for _, size := range []int{64 << 10, 1 << 20} {
			var relayMS, forwardMS []int64
			for seed := uint64(1); seed <= 10; seed++ {
				// The source's chunks are not the relay's: the relay sends a
				// chunk once every byte of it has come.
				s, ms := relayed(t, seed, ch.link, transfer.Config{ChunkBytes: 40000}, size, false)
				_, fwd := relayed(t, seed, ch.link, transfer.Config{ChunkBytes: 40000}, size, true)
				relayMS, forwardMS = append(relayMS, ms), append(forwardMS, fwd)
				s.runUntil(10_000, func() bool { o, i := s.mid.x.Open(); return o+i == 0 })
				mid := s.mid.x
				if o, i := mid.Open(); o+i != 0 || mid.BytesHeld() != 0 || mid.BytesReferenced() != 0 {
					t.Fatalf("%s, %d bytes, seed %d: the relay still has %d+%d streams, %d bytes held, %d referenced",
						ch.name, size, seed, o, i, mid.BytesHeld(), mid.BytesReferenced())
				}
				// One buffer, the incoming stream's, held and then lent to the
				// relayed stream: never two.
				if s.peak > heldFor(size) {
					t.Fatalf("%s, %d bytes, seed %d: the relay peaked at %d bytes, over %d", ch.name, size, seed, s.peak, heldFor(size))
				}
				if _, ok := s.mid.event(transfer.Delivered); !ok {
					t.Fatalf("%s, %d bytes, seed %d: the relay's events are %v", ch.name, size, seed, s.mid.events)
				}
			}
			slices.Sort(relayMS)
			slices.Sort(forwardMS)
			relay, forward := relayMS[len(relayMS)/2], forwardMS[len(forwardMS)/2]
			t.Logf("%s, %d bytes: arrived at %d ms relayed, %d ms stored and forwarded (medians of 10 seeds)", ch.name, size, relay, forward)
			if size == 1<<20 && relay*10 > forward*7 {
				t.Errorf("%s: relayed 1 MB took %d ms, not under 70 %% of the %d ms stored and forwarded", ch.name, relay, forward)
			}
		}
	}
}

func TestTransferRelayIsDroppedWithItsSource(t *testing.T) {
	s := newRelaySim(7, xferLossy, transfer.Config{})
	if err := s.mid.x.Relay(0, 1, 5, 3, 9); err != nil {
		t.Fatal(err)
	}
	s.src.x.Send(0, 2, 5, xferPayload(1<<20, 7))
	s.runUntil(10_000, func() bool { got, _, _ := s.dst.x.ReceiveProgress(2, 9); return got > 256<<10 })
	s.src.x.CancelSend(s.now, 2, 5, wire.TransferReasonCancelled)
	if !s.runUntil(5_000, func() bool {
		_, ok := s.dst.event(transfer.Dropped)
		return ok
	}) {
		t.Fatalf("the receiver's events are %v; the relay's %v", s.dst.events, s.mid.events)
	}
	if len(s.mid.events) != 2 {
		t.Fatalf("the relay's events are %v, want the incoming stream's drop and the relayed one's", s.mid.events)
	}
	for _, ev := range s.mid.events {
		if ev.Kind != transfer.Dropped || ev.Reason != wire.TransferReasonCancelled {
			t.Fatalf("the relay's events are %v", s.mid.events)
		}
	}
	if ev, _ := s.dst.event(transfer.Dropped); !ev.ByPeer || ev.Reason != wire.TransferReasonCancelled {
		t.Fatalf("the receiver's events are %v", s.dst.events)
	}
	if mid := s.mid.x; mid.BytesHeld() != 0 || mid.BytesReferenced() != 0 {
		t.Fatalf("the relay holds %d bytes and references %d", mid.BytesHeld(), mid.BytesReferenced())
	}
	if _, i := s.dst.x.Open(); i != 0 || s.dst.x.BytesHeld() != 0 {
		t.Fatalf("the receiver holds %d bytes", s.dst.x.BytesHeld())
	}
}

func TestTransferRelayOfAStreamThatNeverBeginsEnds(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		s := newRelaySim(8, xferLossless, transfer.Config{})
		s.mid.x.Relay(0, 1, 5, 3, 9)
		s.src.x.Refuse(0, 2, 5, wire.TransferReasonNoSnapshot)
		if !s.runUntil(1_000, func() bool { _, ok := s.dst.event(transfer.Dropped); return ok }) {
			t.Fatalf("the receiver's events are %v; the relay's %v", s.dst.events, s.mid.events)
		}
		if ev, _ := s.mid.event(transfer.Dropped); len(s.mid.events) != 2 || ev.Reason != wire.TransferReasonNoSnapshot {
			t.Fatalf("the relay's events are %v", s.mid.events)
		}
		if ev, _ := s.dst.event(transfer.Dropped); ev.Reason != wire.TransferReasonNoSnapshot || ev.Stream != 9 {
			t.Fatalf("the receiver's events are %v", s.dst.events)
		}
	})
	t.Run("silent source", func(t *testing.T) {
		s := newRelaySim(9, xferLossless, transfer.Config{})
		s.mid.x.Relay(0, 1, 5, 3, 9)
		stall := s.mid.x.Config().StallMS
		s.runUntil(stall+100, func() bool { o, _ := s.mid.x.Open(); return o == 0 })
		if ev, ok := s.mid.event(transfer.Dropped); !ok || ev.Reason != wire.TransferReasonStalled || s.now < stall {
			t.Fatalf("at %d ms the relay's events are %v", s.now, s.mid.events)
		}
	})
	t.Run("source leaves", func(t *testing.T) {
		s := newRelaySim(10, xferLossless, transfer.Config{})
		s.mid.x.Relay(0, 1, 5, 3, 9)
		s.runUntil(100, func() bool { return false })
		s.mid.x.DropPeer(s.now, 1)
		s.runUntil(100, func() bool { return false })
		if ev, ok := s.mid.event(transfer.Dropped); !ok || ev.Reason != wire.TransferReasonPeerLeft || !ev.Outgoing {
			t.Fatalf("the relay's events are %v", s.mid.events)
		}
	})
}

func TestTransferRelayRefusesWhatItCannotSend(t *testing.T) {
	s := newRelaySim(11, simnet.Link{LatencyMS: 10}, transfer.Config{})
	s.src.x.Send(0, 2, 5, []byte("whole"))
	s.runUntil(1_000, func() bool { _, ok := s.mid.event(transfer.Received); return ok })
	mid := s.mid.x
	if err := mid.Relay(s.now, 1, 5, 3, 1); err != transfer.ErrRelayEnded {
		t.Fatalf("relaying a stream that has arrived: %v", err)
	}
	if err := mid.Relay(s.now, 1, 6, link.Broadcast, 1); err != transfer.ErrBroadcast {
		t.Fatalf("relaying to everyone: %v", err)
	}
	if err := mid.Relay(s.now, 1, 6, 3, 1); err != nil {
		t.Fatal(err)
	}
	if err := mid.Relay(s.now, 1, 7, 3, 1); err != transfer.ErrIDInUse {
		t.Fatalf("relaying under an id in use: %v", err)
	}
	for id := uint32(100); ; id++ {
		err := mid.Relay(s.now, 1, id, 3, id)
		if err == transfer.ErrBusy {
			if o, _ := mid.Open(); o != mid.Config().MaxOutgoing {
				t.Fatalf("busy with %d streams out of %d", o, mid.Config().MaxOutgoing)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestTransferRelayOfAStreamAlreadyArrivingSendsWhatCameAndTheRest(t *testing.T) {
	s := newRelaySim(12, xferLossy, transfer.Config{})
	data := xferPayload(256<<10, 12)
	s.src.x.Send(0, 2, 5, data)
	s.runUntil(10_000, func() bool { got, _, _ := s.mid.x.ReceiveProgress(1, 5); return got > 64<<10 })
	if err := s.mid.x.Relay(s.now, 1, 5, 3, 9); err != nil {
		t.Fatal(err)
	}
	if !s.runUntil(10_000, func() bool { _, ok := s.dst.event(transfer.Received); return ok }) {
		t.Fatalf("the receiver's events are %v; the relay's %v", s.dst.events, s.mid.events)
	}
	if ev, _ := s.dst.event(transfer.Received); !bytes.Equal(ev.Data, data) {
		t.Fatal("the receiver got other data")
	}
}
