package simnet

import (
	"fmt"
	"testing"

	"github.com/ticnet/ticnet/netcore/link"
)

func TestBroadcastReachesEveryOtherNodeAfterLatency(t *testing.T) {
	n := New(1, Link{LatencyMS: 10})
	a, b, c := n.AddNode(), n.AddNode(), n.AddNode()
	a.Broadcast([]byte("hi"))
	n.AdvanceTo(9)
	if _, ok := b.Receive(); ok {
		t.Fatal("frame arrived before its latency")
	}
	n.AdvanceTo(10)
	for _, nd := range []*Node{b, c} {
		f, ok := nd.Receive()
		if !ok || string(f) != "hi" {
			t.Fatalf("node %d got %q, %v", nd.ID(), f, ok)
		}
	}
	if _, ok := a.Receive(); ok {
		t.Fatal("sender received its own frame")
	}
	if n.Stats.Frames != 1 || n.Stats.Bytes != 2 || n.Stats.Delivered != 2 {
		t.Fatalf("stats %+v", n.Stats)
	}
}

func TestPartitionCutsAndHealRestores(t *testing.T) {
	n := New(1, Link{})
	a, b := n.AddNode(), n.AddNode()
	n.Partition([]*Node{a}, []*Node{b})
	a.Broadcast([]byte{1})
	n.AdvanceTo(1)
	if _, ok := b.Receive(); ok {
		t.Fatal("frame crossed a partition")
	}
	n.Heal()
	a.Broadcast([]byte{2})
	n.AdvanceTo(2)
	if f, ok := b.Receive(); !ok || f[0] != 2 {
		t.Fatal("frame lost after heal")
	}
}

func TestSilentNodeNeitherSendsNorReceives(t *testing.T) {
	n := New(1, Link{LatencyMS: 5})
	a, b := n.AddNode(), n.AddNode()
	b.Broadcast([]byte{1}) // in flight when a goes silent
	a.SetSilent(true)
	a.Broadcast([]byte{2})
	n.AdvanceTo(5)
	if _, ok := a.Receive(); ok {
		t.Fatal("silent node received")
	}
	if _, ok := b.Receive(); ok {
		t.Fatal("silent node's frame arrived")
	}
	if n.Stats.Lost != 2 {
		t.Fatalf("lost %d, want 2", n.Stats.Lost)
	}
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
	if got < 8000 || got > 9200 || dup < 500 || dup > 1200 {
		t.Fatalf("got %d frames with %d duplicated; want about 8800 and 800", got, dup)
	}
	if g2, d2 := run(); g2 != got || d2 != dup {
		t.Fatal("the same seed gave a different run")
	}
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
	if !ok || from != 7 || string(p) != "to b" {
		t.Fatalf("b got %v %q %v", from, p, ok)
	}
	if _, p, _ := b.Recv(); string(p) != "to all" {
		t.Fatalf("b got %q", p)
	}
	if _, _, ok := b.Recv(); ok {
		t.Fatal("b got the short frame")
	}
	if _, p, ok := c.Recv(); !ok || string(p) != "to all" {
		t.Fatalf("c got %q", p)
	}
	if _, _, ok := c.Recv(); ok {
		t.Fatal("c got more")
	}
	if c.Filter.NotForUs != 1 || c.Filter.Malformed != 1 || b.Filter.Malformed != 1 {
		t.Fatalf("c %d/%d b %d", c.Filter.NotForUs, c.Filter.Malformed, b.Filter.Malformed)
	}
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
	if allocs := testing.AllocsPerRun(1000, step); allocs != 0 {
		t.Fatalf("%v allocs per broadcast", allocs)
	}
}

func TestBandwidthQueuesASendersFramesBehindEachOther(t *testing.T) {
	n := New(1, Link{LatencyMS: 10})
	a, b := n.AddNode(), n.AddNode()
	n.SetBandwidth(a, 1_000_000) // 1 MB/s: 1000 bytes per ms
	a.Broadcast(make([]byte, 16000))
	a.Broadcast(make([]byte, 500))
	if d := a.QueueDelayMS(); d != 17 { // 16.5 ms queued, rounded up
		t.Fatalf("queue delay %d ms, want 17", d)
	}
	n.AdvanceTo(20) // the uplink went idle at 16.5 ms
	if d := a.QueueDelayMS(); d != 0 {
		t.Fatalf("queue delay %d ms after the uplink went idle", d)
	}
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
	if fmt.Sprint(arrivals) != fmt.Sprint(want) {
		t.Fatalf("arrivals (ms, bytes) %v, want %v", arrivals, want)
	}
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
	if last != 10000 {
		t.Fatalf("the last frame arrived at %d ms, want 10000", last)
	}
	// b's own uplink has the default rate too; a negative rate lifts it.
	b.Broadcast(make([]byte, 100_000))
	if d := b.QueueDelayMS(); d != 1000 {
		t.Fatalf("b's queue %d ms, want 1000", d)
	}
	n.SetBandwidth(a, -1)
	a.Broadcast(make([]byte, 100_000))
	if d := a.QueueDelayMS(); d != 0 {
		t.Fatalf("unlimited uplink queued %d ms", d)
	}
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
	if a, b := run(0), run(2_000_000); fmt.Sprint(a) != fmt.Sprint(b) || len(a) < 3000 {
		t.Fatalf("%d arrivals unlimited, %d with a bandwidth, or they differ", len(a)/2, len(b)/2)
	}
}

func TestSilentNodeOccupiesNoBandwidth(t *testing.T) {
	n := New(1, Link{LatencyMS: 1})
	n.SetDefaultBandwidth(1000)
	a, b := n.AddNode(), n.AddNode()
	a.SetSilent(true)
	a.Broadcast(make([]byte, 5000))
	a.SetSilent(false)
	if d := a.QueueDelayMS(); d != 0 {
		t.Fatalf("a silent node's frame queued %d ms", d)
	}
	a.Broadcast([]byte{1})
	n.AdvanceTo(2)
	if f, ok := b.Receive(); !ok || f[0] != 1 {
		t.Fatal("frame after silence did not arrive at 1 ms + 1 ms")
	}
}
