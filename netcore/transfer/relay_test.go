package transfer_test

import (
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		err := s.mid.x.Relay(0, 1, 5, 3, 9)
		require.NoError(t, err)
	}
	err := s.src.x.Send(0, 2, 5, data)
	require.NoError(t, err)
	forwarded := false
	require.True(t, s.runUntil(30_000, func() bool {
		if ev, ok := s.mid.event(transfer.Received); ok && storeAndForward && !forwarded {
			err := s.mid.x.Send(s.now, 3, 9, ev.Data)
			require.NoError(t, err)
			forwarded = true
		}
		_, ok := s.dst.event(transfer.Received)
		return ok
	}), "seed %d: nothing arrived; relay %v %+v, receiver %v", seed, s.mid.events, s.mid.x.Counters(), s.dst.events)
	ev, _ := s.dst.event(transfer.Received)
	require.Equal(t, data, ev.Data, "seed %d: the receiver got stream %d from %d, %d bytes, not the data sent", seed, ev.Stream, ev.Peer, len(ev.Data))
	require.Equal(t, uint32(9), ev.Stream, "seed %d: the receiver got stream %d from %d, %d bytes, not the data sent", seed, ev.Stream, ev.Peer, len(ev.Data))
	require.Equal(t, link.Addr(2), ev.Peer, "seed %d: the receiver got stream %d from %d, %d bytes, not the data sent", seed, ev.Stream, ev.Peer, len(ev.Data))
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
				o, i := mid.Open()
				require.Equal(t, 0, o+i, "%s, %d bytes, seed %d: the relay still has %d+%d streams, %d bytes held, %d referenced", ch.name, size, seed, o, i, mid.BytesHeld(), mid.BytesReferenced())
				require.Equal(t, int64(0), mid.BytesHeld(), "%s, %d bytes, seed %d: the relay still has %d+%d streams, %d bytes held, %d referenced", ch.name, size, seed, o, i, mid.BytesHeld(), mid.BytesReferenced())
				require.Equal(t, int64(0), mid.BytesReferenced(), "%s, %d bytes, seed %d: the relay still has %d+%d streams, %d bytes held, %d referenced", ch.name, size, seed, o, i, mid.BytesHeld(), mid.BytesReferenced())
				// One buffer, the incoming stream's, held and then lent to the
				// relayed stream: never two.
				require.LessOrEqual(t, s.peak, heldFor(size), "%s, %d bytes, seed %d: the relay peaked at %d bytes, over %d", ch.name, size, seed, s.peak, heldFor(size))
				_, ok := s.mid.event(transfer.Delivered)
				require.True(t, ok, "%s, %d bytes, seed %d: the relay's events are %v", ch.name, size, seed, s.mid.events)
			}
			slices.Sort(relayMS)
			slices.Sort(forwardMS)
			relay, forward := relayMS[len(relayMS)/2], forwardMS[len(forwardMS)/2]
			t.Logf("%s, %d bytes: arrived at %d ms relayed, %d ms stored and forwarded (medians of 10 seeds)", ch.name, size, relay, forward)
			if size == 1<<20 {
				assert.LessOrEqual(t, relay*10, forward*7, "%s: relayed 1 MB took %d ms, not under 70 %% of the %d ms stored and forwarded", ch.name, relay, forward)
			}
		}
	}
}

func TestTransferRelayIsDroppedWithItsSource(t *testing.T) {
	s := newRelaySim(7, xferLossy, transfer.Config{})
	err := s.mid.x.Relay(0, 1, 5, 3, 9)
	require.NoError(t, err)
	s.src.x.Send(0, 2, 5, xferPayload(1<<20, 7))
	s.runUntil(10_000, func() bool { got, _, _ := s.dst.x.ReceiveProgress(2, 9); return got > 256<<10 })
	s.src.x.CancelSend(s.now, 2, 5, wire.TransferReasonCancelled)
	require.True(t, s.runUntil(5_000, func() bool {
		_, ok := s.dst.event(transfer.Dropped)
		return ok
	}), "the receiver's events are %v; the relay's %v", s.dst.events, s.mid.events)
	require.Equal(t, 2, len(s.mid.events), "the relay's events are %v, want the incoming stream's drop and the relayed one's", s.mid.events)
	for _, ev := range s.mid.events {
		require.Equal(t, transfer.Dropped, ev.Kind, "the relay's events are %v", s.mid.events)
		require.Equal(t, wire.TransferReasonCancelled, ev.Reason, "the relay's events are %v", s.mid.events)
	}
	ev, _ := s.dst.event(transfer.Dropped)
	require.True(t, ev.ByPeer, "the receiver's events are %v", s.dst.events)
	require.Equal(t, wire.TransferReasonCancelled, ev.Reason, "the receiver's events are %v", s.dst.events)
	mid := s.mid.x
	require.Equal(t, int64(0), mid.BytesHeld(), "the relay holds %d bytes and references %d", mid.BytesHeld(), mid.BytesReferenced())
	require.Equal(t, int64(0), mid.BytesReferenced(), "the relay holds %d bytes and references %d", mid.BytesHeld(), mid.BytesReferenced())
	_, i := s.dst.x.Open()
	require.Equal(t, 0, i, "the receiver holds %d bytes", s.dst.x.BytesHeld())
	require.Equal(t, int64(0), s.dst.x.BytesHeld(), "the receiver holds %d bytes", s.dst.x.BytesHeld())
}

func TestTransferRelayOfAStreamThatNeverBeginsEnds(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		s := newRelaySim(8, xferLossless, transfer.Config{})
		s.mid.x.Relay(0, 1, 5, 3, 9)
		s.src.x.Refuse(0, 2, 5, wire.TransferReasonNoSnapshot)
		require.True(t, s.runUntil(1_000, func() bool { _, ok := s.dst.event(transfer.Dropped); return ok }), "the receiver's events are %v; the relay's %v", s.dst.events, s.mid.events)
		ev, _ := s.mid.event(transfer.Dropped)
		require.Equal(t, 2, len(s.mid.events), "the relay's events are %v", s.mid.events)
		require.Equal(t, wire.TransferReasonNoSnapshot, ev.Reason, "the relay's events are %v", s.mid.events)
		ev, _ = s.dst.event(transfer.Dropped)
		require.Equal(t, wire.TransferReasonNoSnapshot, ev.Reason, "the receiver's events are %v", s.dst.events)
		require.Equal(t, uint32(9), ev.Stream, "the receiver's events are %v", s.dst.events)
	})
	t.Run("silent source", func(t *testing.T) {
		s := newRelaySim(9, xferLossless, transfer.Config{})
		s.mid.x.Relay(0, 1, 5, 3, 9)
		stall := s.mid.x.Config().StallMS
		s.runUntil(stall+100, func() bool { o, _ := s.mid.x.Open(); return o == 0 })
		ev, ok := s.mid.event(transfer.Dropped)
		require.True(t, ok, "at %d ms the relay's events are %v", s.now, s.mid.events)
		require.Equal(t, wire.TransferReasonStalled, ev.Reason, "at %d ms the relay's events are %v", s.now, s.mid.events)
		require.GreaterOrEqual(t, s.now, stall, "at %d ms the relay's events are %v", s.now, s.mid.events)
	})
	t.Run("source leaves", func(t *testing.T) {
		s := newRelaySim(10, xferLossless, transfer.Config{})
		s.mid.x.Relay(0, 1, 5, 3, 9)
		s.runUntil(100, func() bool { return false })
		s.mid.x.DropPeer(s.now, 1)
		s.runUntil(100, func() bool { return false })
		ev, ok := s.mid.event(transfer.Dropped)
		require.True(t, ok, "the relay's events are %v", s.mid.events)
		require.Equal(t, wire.TransferReasonPeerLeft, ev.Reason, "the relay's events are %v", s.mid.events)
		require.True(t, ev.Outgoing, "the relay's events are %v", s.mid.events)
	})
}

func TestTransferRelayRefusesWhatItCannotSend(t *testing.T) {
	s := newRelaySim(11, simnet.Link{LatencyMS: 10}, transfer.Config{})
	s.src.x.Send(0, 2, 5, []byte("whole"))
	s.runUntil(1_000, func() bool { _, ok := s.mid.event(transfer.Received); return ok })
	mid := s.mid.x
	err := mid.Relay(s.now, 1, 5, 3, 1)
	require.True(t, err == transfer.ErrRelayEnded, "relaying a stream that has arrived: %v", err)
	err = mid.Relay(s.now, 1, 6, link.Broadcast, 1)
	require.True(t, err == transfer.ErrBroadcast, "relaying to everyone: %v", err)
	err = mid.Relay(s.now, 1, 6, 3, 1)
	require.NoError(t, err)
	err = mid.Relay(s.now, 1, 7, 3, 1)
	require.True(t, err == transfer.ErrIDInUse, "relaying under an id in use: %v", err)
	for id := uint32(100); ; id++ {
		err := mid.Relay(s.now, 1, id, 3, id)
		if err == transfer.ErrBusy {
			o, _ := mid.Open()
			require.Equal(t, mid.Config().MaxOutgoing, o, "busy with %d streams out of %d", o, mid.Config().MaxOutgoing)
			break
		}
		require.NoError(t, err)
	}
}

func TestTransferRelayOfAStreamAlreadyArrivingSendsWhatCameAndTheRest(t *testing.T) {
	s := newRelaySim(12, xferLossy, transfer.Config{})
	data := xferPayload(256<<10, 12)
	s.src.x.Send(0, 2, 5, data)
	s.runUntil(10_000, func() bool { got, _, _ := s.mid.x.ReceiveProgress(1, 5); return got > 64<<10 })
	err := s.mid.x.Relay(s.now, 1, 5, 3, 9)
	require.NoError(t, err)
	require.True(t, s.runUntil(10_000, func() bool { _, ok := s.dst.event(transfer.Received); return ok }), "the receiver's events are %v; the relay's %v", s.dst.events, s.mid.events)
	ev, _ := s.dst.event(transfer.Received)
	require.Equal(t, data, ev.Data, "the receiver got other data")
}
