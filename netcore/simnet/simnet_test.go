package simnet

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/link"

	"github.com/stretchr/testify/require"
)

func TestBroadcastReachesEveryOtherNodeAfterLatency(t *testing.T) {
	n := New(1, Link{LatencyMS: 10})
	a, b, c := n.AddNode(), n.AddNode(), n.AddNode()
	a.Broadcast([]byte("hi"))
	n.AdvanceTo(9)
	_, ok := b.Receive()
	require.False(t, ok, "frame arrived before its latency")
	n.AdvanceTo(10)
	for _, nd := range []*Node{b, c} {
		f, ok := nd.Receive()
		require.True(t, ok, "node %d got %q, %v", nd.ID(), f, ok)
		require.Equal(t, "hi", string(f), "node %d got %q, %v", nd.ID(), f, ok)
	}
	_, ok = a.Receive()
	require.False(t, ok, "sender received its own frame")
	require.Equal(t, int64(1), n.Stats.Frames, "stats %+v", n.Stats)
	require.Equal(t, int64(2), n.Stats.Bytes, "stats %+v", n.Stats)
	require.Equal(t, int64(2), n.Stats.Delivered, "stats %+v", n.Stats)
}

func TestPartitionCutsAndHealRestores(t *testing.T) {
	n := New(1, Link{})
	a, b := n.AddNode(), n.AddNode()
	n.Partition([]*Node{a}, []*Node{b})
	a.Broadcast([]byte{1})
	n.AdvanceTo(1)
	_, ok := b.Receive()
	require.False(t, ok, "frame crossed a partition")
	n.Heal()
	a.Broadcast([]byte{2})
	n.AdvanceTo(2)
	f, ok := b.Receive()
	require.True(t, ok, "frame lost after heal")
	require.Equal(t, byte(2), f[0], "frame lost after heal")
}

func TestSilentNodeNeitherSendsNorReceives(t *testing.T) {
	n := New(1, Link{LatencyMS: 5})
	a, b := n.AddNode(), n.AddNode()
	b.Broadcast([]byte{1}) // in flight when a goes silent
	a.SetSilent(true)
	a.Broadcast([]byte{2})
	n.AdvanceTo(5)
	_, ok := a.Receive()
	require.False(t, ok, "silent node received")
	_, ok = b.Receive()
	require.False(t, ok, "silent node's frame arrived")
	require.Equal(t, int64(2), n.Stats.Lost)
}

func TestLossDuplicationAndJitterAreSeededAndApproximatelyRight(t *testing.T) {
	run := func() (got, dup int) {
		n := New(42, Link{LatencyMS: 50, JitterMS: 100, Loss: 0.2, Duplicate: 0.1})
		a, b := n.AddNode(), n.AddNode()
		for i := range 10000 {
			a.Broadcast([]byte{byte(i), byte(i >> 8)})
		}
		n.AdvanceTo(1000)
		seen := map[uint16]int{}
		for f, ok := b.Receive(); ok; f, ok = b.Receive() {
			seen[uint16(f[0])|uint16(f[1])<<8]++
			got++
		}
		for _, c := range seen {
			if c > 1 {
				dup++
			}
		}
		return got, dup
	}
	got, dup := run()
	require.GreaterOrEqual(t, got, 8000, "got %d frames with %d duplicated; want about 8800 and 800", got, dup)
	require.LessOrEqual(t, got, 9200, "got %d frames with %d duplicated; want about 8800 and 800", got, dup)
	require.GreaterOrEqual(t, dup, 500, "got %d frames with %d duplicated; want about 8800 and 800", got, dup)
	require.LessOrEqual(t, dup, 1200, "got %d frames with %d duplicated; want about 8800 and 800", got, dup)
	g2, d2 := run()
	require.Equal(t, got, g2, "the same seed gave a different run")
	require.Equal(t, dup, d2, "the same seed gave a different run")
}

func TestFrameTransportFiltersByUID(t *testing.T) {
	n := New(1, Link{})
	a := NewFrameTransport(n.AddNode(), 7)
	b := NewFrameTransport(n.AddNode(), 9)
	c := NewFrameTransport(n.AddNode(), 11)
	a.Send(9, []byte("to b"))
	a.Send(link.Broadcast, []byte("to all"))
	a.Node.Broadcast([]byte{1, 2, 3}) // too short for a header
	n.AdvanceTo(1)
	from, p, ok := b.Recv()
	require.True(t, ok, "b got %v %q %v", from, p, ok)
	require.Equal(t, link.Addr(7), from, "b got %v %q %v", from, p, ok)
	require.Equal(t, "to b", string(p), "b got %v %q %v", from, p, ok)
	_, p, _ = b.Recv()
	require.Equal(t, "to all", string(p), "b got %q", p)
	_, _, ok = b.Recv()
	require.False(t, ok, "b got the short frame")
	_, p, ok = c.Recv()
	require.True(t, ok, "c got %q", p)
	require.Equal(t, "to all", string(p), "c got %q", p)
	_, _, ok = c.Recv()
	require.False(t, ok, "c got more")
	require.Equal(t, int64(1), c.Filter.NotForUs, "c %d/%d b %d", c.Filter.NotForUs, c.Filter.Malformed, b.Filter.Malformed)
	require.Equal(t, int64(1), c.Filter.Malformed, "c %d/%d b %d", c.Filter.NotForUs, c.Filter.Malformed, b.Filter.Malformed)
	require.Equal(t, int64(1), b.Filter.Malformed, "c %d/%d b %d", c.Filter.NotForUs, c.Filter.Malformed, b.Filter.Malformed)
}

func TestSteadyStateBroadcastAllocatesNothing(t *testing.T) {
	n := New(1, Link{LatencyMS: 3, JitterMS: 2})
	a, b := n.AddNode(), n.AddNode()
	frame := make([]byte, 40)
	step := func() {
		a.Broadcast(frame)
		n.AdvanceTo(n.Now() + 5)
		for _, ok := b.Receive(); ok; _, ok = b.Receive() {
		}
	}
	for range 100 {
		step()
	}
	allocs := testing.AllocsPerRun(1000, step)
	require.Equal(t, float64(0), allocs, "%v allocs per broadcast", allocs)
}

func TestBandwidthQueuesASendersFramesBehindEachOther(t *testing.T) {
	n := New(1, Link{LatencyMS: 10})
	a, b := n.AddNode(), n.AddNode()
	n.SetBandwidth(a, 1_000_000) // 1 MB/s: 1000 bytes per ms
	a.Broadcast(make([]byte, 16000))
	a.Broadcast(make([]byte, 500))
	// 16.5 ms queued, rounded up.
	require.Equal(t, int64(17), a.QueueDelayMS(), "queue delay, ms")
	n.AdvanceTo(20) // the uplink went idle at 16.5 ms
	require.Equal(t, int64(0), a.QueueDelayMS(), "queue delay after the uplink went idle, ms")
	a.Broadcast(make([]byte, 1000))
	var arrivals []int64
	for now := int64(20); now <= 40; now++ {
		n.AdvanceTo(now)
		for f, ok := b.Receive(); ok; f, ok = b.Receive() {
			arrivals = append(arrivals, now, int64(len(f)))
		}
	}
	// 16000 bytes leave at 16 ms, 500 at 16.5 (so 17), 1000 at 21 ms; each
	// then takes the link's 10 ms.
	want := []int64{26, 16000, 27, 500, 31, 1000}
	require.Equal(t, want, arrivals, "arrivals (ms, bytes)")
}

func TestBandwidthCarriesItsRateAndNoMore(t *testing.T) {
	n := New(1, Link{})
	n.SetDefaultBandwidth(100_000)
	a, b := n.AddNode(), n.AddNode()
	for range 1000 {
		a.Broadcast(make([]byte, 1000)) // 1 MB at 100 kB/s: 10 s
	}
	last := int64(0)
	for now := int64(0); now <= 11000; now++ {
		n.AdvanceTo(now)
		for _, ok := b.Receive(); ok; _, ok = b.Receive() {
			last = now
		}
	}
	require.Equal(t, int64(10000), last, "the last frame's arrival, ms")
	// b's own uplink has the default rate too; a negative rate lifts it.
	b.Broadcast(make([]byte, 100_000))
	require.Equal(t, int64(1000), b.QueueDelayMS(), "b's queue, ms")
	n.SetBandwidth(a, -1)
	a.Broadcast(make([]byte, 100_000))
	require.Equal(t, int64(0), a.QueueDelayMS(), "unlimited uplink's queue, ms")
}

func TestBandwidthKeepsTheSeededRunWhenItNeverQueues(t *testing.T) {
	run := func(bandwidth int64) []int64 {
		n := New(42, Link{LatencyMS: 50, JitterMS: 100, Loss: 0.2, Duplicate: 0.1, Reorder: 0.1, ReorderMS: 30})
		n.SetDefaultBandwidth(bandwidth)
		a, b := n.AddNode(), n.AddNode()
		var got []int64
		for now := range int64(2000) {
			n.AdvanceTo(now)
			a.Broadcast([]byte{byte(now), byte(now >> 8)})
			for f, ok := b.Receive(); ok; f, ok = b.Receive() {
				got = append(got, now, int64(f[0])|int64(f[1])<<8)
			}
		}
		return got
	}
	// 2 bytes a millisecond on a 2 MB/s uplink leave within the millisecond
	// they are sent: every choice and every arrival is the unlimited run's.
	unlimited, limited := run(0), run(2_000_000)
	require.Equal(t, unlimited, limited, "%d arrivals unlimited, %d with a bandwidth", len(unlimited)/2, len(limited)/2)
	require.GreaterOrEqual(t, len(unlimited), 3000, "%d arrivals unlimited", len(unlimited)/2)
}

func TestSilentNodeOccupiesNoBandwidth(t *testing.T) {
	n := New(1, Link{LatencyMS: 1})
	n.SetDefaultBandwidth(1000)
	a, b := n.AddNode(), n.AddNode()
	a.SetSilent(true)
	a.Broadcast(make([]byte, 5000))
	a.SetSilent(false)
	require.Equal(t, int64(0), a.QueueDelayMS(), "a silent node's frame queued, ms")
	a.Broadcast([]byte{1})
	n.AdvanceTo(2)
	f, ok := b.Receive()
	require.True(t, ok, "frame after silence did not arrive at 1 ms + 1 ms")
	require.Equal(t, byte(1), f[0], "frame after silence")
}
