// Package simnet is a simulated broadcast channel under virtual time, for
// tests and benchmarks of ticnet's engine and election.
//
// It behaves like the WebXDC realtime channel and BroadcastChannel: a frame
// one node sends reaches every other node, never its sender. Each directed
// link between two nodes has its own latency, jitter, loss, duplication and
// reordering, links can be cut (partitions) and nodes can go silent. Time
// moves only when the test calls AdvanceTo, and every random choice comes
// from the seed, so a run is reproducible and ten minutes of play take well
// under a second.
//
// A node's uplink can have a bandwidth (SetBandwidth, SetDefaultBandwidth):
// its frames then queue behind each other, each occupying the uplink for
// its length divided by the rate, before a link's latency applies. Without
// one (the default) a frame takes no time to send, and a run is exactly
// what it was before bandwidths existed.
package simnet

import (
	"math/rand/v2"
)

// Link describes one direction between two nodes.
type Link struct {
	LatencyMS int64   // one-way base delay
	JitterMS  int64   // extra delay, uniform in [0, JitterMS]
	Loss      float64 // probability that a frame is lost
	Duplicate float64 // probability that a frame arrives twice
	Reorder   float64 // probability that a frame is held back ReorderMS more
	ReorderMS int64
	Down      bool // cut: nothing passes
}

// Stats counts what the channel carried.
type Stats struct {
	Frames    int64 // frames sent (one per Broadcast, whatever the number of receivers)
	Bytes     int64 // bytes sent, frame headers included
	Delivered int64 // copies delivered to a receiver
	Lost      int64 // copies lost to loss, cuts or silence
}

// Network is the channel and its clock.
type Network struct {
	now     int64
	rng     *rand.Rand
	def     Link
	links   map[[2]int]Link
	nodes   []*Node
	pending eventHeap
	seq     uint64
	free    []*buffer
	// defBandwidth is the uplink rate of a node without its own, in bytes
	// per second; 0 is unlimited.
	defBandwidth int64
	Stats        Stats
	// Tap, if set, sees every frame a node sends, when it sends it,
	// silent or not (tests fingerprint whole games with it).
	Tap func(ms int64, node int, frame []byte)
}

// New returns an empty network whose links all behave as def until set.
func New(seed uint64, def Link) *Network {
	return &Network{
		rng:   rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		def:   def,
		links: make(map[[2]int]Link),
	}
}

// Now is the virtual time in milliseconds.
func (n *Network) Now() int64 { return n.now }

// Rand is the network's seeded source, for scenarios that want randomness
// reproducible from the same seed.
func (n *Network) Rand() *rand.Rand { return n.rng }

// AddNode attaches a new node to the channel.
func (n *Network) AddNode() *Node {
	nd := &Node{net: n, id: len(n.nodes)}
	n.nodes = append(n.nodes, nd)
	return nd
}

// Nodes returns every node, in the order they were added.
func (n *Network) Nodes() []*Node { return n.nodes }

// SetLink sets the link from one node to another (one direction).
func (n *Network) SetLink(from, to *Node, l Link) { n.links[[2]int{from.id, to.id}] = l }

// SetLinks sets both directions of every link that touches nd.
func (n *Network) SetLinks(nd *Node, l Link) {
	for _, o := range n.nodes {
		if o != nd {
			n.SetLink(nd, o, l)
			n.SetLink(o, nd, l)
		}
	}
}

// Link returns the link from one node to another.
func (n *Network) Link(from, to *Node) Link {
	if l, ok := n.links[[2]int{from.id, to.id}]; ok {
		return l
	}
	return n.def
}

// Partition cuts every link between nodes of different groups; nodes in no
// group keep their links. Heal undoes it.
func (n *Network) Partition(groups ...[]*Node) {
	group := make(map[*Node]int)
	for i, g := range groups {
		for _, nd := range g {
			group[nd] = i + 1
		}
	}
	for _, a := range n.nodes {
		for _, b := range n.nodes {
			if a != b && group[a] != 0 && group[b] != 0 && group[a] != group[b] {
				l := n.Link(a, b)
				l.Down = true
				n.SetLink(a, b, l)
			}
		}
	}
}

// Heal restores every cut link.
func (n *Network) Heal() {
	for k, l := range n.links {
		l.Down = false
		n.links[k] = l
	}
}

// AdvanceTo moves the clock to t, delivering every frame due by then.
func (n *Network) AdvanceTo(t int64) {
	for len(n.pending) > 0 && n.pending[0].at <= t {
		ev := n.pending.pop()
		if ev.to.silent {
			n.Stats.Lost++
			ev.buf.release(n)
			continue
		}
		n.Stats.Delivered++
		ev.to.inbox = append(ev.to.inbox, ev.buf)
	}
	if t > n.now {
		n.now = t
	}
}

// SetDefaultBandwidth sets the uplink rate, in bytes per second, of every
// node that has none of its own; 0 (the default) is unlimited.
func (n *Network) SetDefaultBandwidth(bytesPerSec int64) { n.defBandwidth = max(bytesPerSec, 0) }

// SetBandwidth sets nd's uplink rate in bytes per second: a frame of b bytes
// occupies the uplink b/rate seconds, after the frames sent before it. 0
// gives nd the network's default again; a negative rate makes nd's uplink
// unlimited whatever the default.
func (n *Network) SetBandwidth(nd *Node, bytesPerSec int64) { nd.bandwidth = bytesPerSec }

// Node is one peer's attachment to the channel.
type Node struct {
	net     *Network
	id      int
	silent  bool
	inbox   []*buffer
	head    int
	current *buffer
	// bandwidth is the uplink rate in bytes per second: 0 takes the
	// network's default, negative is unlimited.
	bandwidth int64
	// linkFreeUS is when the uplink has sent every frame queued so far, in
	// microseconds of virtual time.
	linkFreeUS int64
	// bytesSent counts what this node broadcast, frame headers included,
	// and framesSent its frames.
	bytesSent, framesSent int64
}

// rate is nd's uplink rate in bytes per second; 0 is unlimited.
func (nd *Node) rate() int64 {
	switch {
	case nd.bandwidth > 0:
		return nd.bandwidth
	case nd.bandwidth < 0:
		return 0
	}
	return nd.net.defBandwidth
}

// QueueDelayMS is how long a frame sent now would wait behind the frames
// queued on nd's uplink before its first byte goes (0 when the uplink is
// idle or unlimited), rounded up to a whole millisecond.
func (nd *Node) QueueDelayMS() int64 {
	wait := nd.linkFreeUS - nd.net.now*1000
	if wait <= 0 {
		return 0
	}
	return (wait + 999) / 1000
}

// transmit queues a frame of size bytes on nd's uplink and returns when its
// last byte has left, to the nearest millisecond (the clock's resolution: a
// frame that takes a few microseconds on an idle uplink leaves when it was
// sent). An unlimited uplink sends at once.
func (nd *Node) transmit(size int) int64 {
	rate := nd.rate()
	if rate == 0 {
		return nd.net.now
	}
	start := max(nd.linkFreeUS, nd.net.now*1000)
	nd.linkFreeUS = start + (int64(size)*1_000_000+rate-1)/rate
	return (nd.linkFreeUS + 500) / 1000
}

// SetSilent makes a node go silent (true) or come back (false). A silent
// node's frames are lost, and so is everything that reaches it meanwhile, as
// with a phone that went to sleep.
func (nd *Node) SetSilent(on bool) { nd.silent = on }

// Silent reports whether the node is silent.
func (nd *Node) Silent() bool { return nd.silent }

// ID is the node's index in the network.
func (nd *Node) ID() int { return nd.id }

// BytesSent is what this node has broadcast, frame headers included: its
// share of Stats.Bytes.
func (nd *Node) BytesSent() int64 { return nd.bytesSent }

// FramesSent is how many frames this node has broadcast: its share of
// Stats.Frames.
func (nd *Node) FramesSent() int64 { return nd.framesSent }

// Broadcast sends a frame to every other node. It does not retain frame.
func (nd *Node) Broadcast(frame []byte) {
	n := nd.net
	if n.Tap != nil {
		n.Tap(n.now, nd.id, frame)
	}
	n.Stats.Frames++
	n.Stats.Bytes += int64(len(frame))
	nd.bytesSent += int64(len(frame))
	nd.framesSent++
	buf := n.get(frame)
	sent := n.now // when the frame has left the sender's uplink
	if !nd.silent {
		sent = nd.transmit(len(frame))
	}
	for _, to := range n.nodes {
		if to == nd {
			continue
		}
		l := n.Link(nd, to)
		copies := 1
		if l.Duplicate > 0 && n.rng.Float64() < l.Duplicate {
			copies = 2
		}
		for range copies {
			if nd.silent || l.Down || (l.Loss > 0 && n.rng.Float64() < l.Loss) {
				n.Stats.Lost++
				continue
			}
			at := sent + l.LatencyMS
			if l.JitterMS > 0 {
				at += n.rng.Int64N(l.JitterMS + 1)
			}
			if l.Reorder > 0 && n.rng.Float64() < l.Reorder {
				at += l.ReorderMS
			}
			buf.refs++
			n.seq++
			n.pending.push(event{at: at, seq: n.seq, to: to, buf: buf})
		}
	}
	if buf.refs == 0 {
		n.free = append(n.free, buf)
	}
}

// Pending reports whether a frame has arrived that Receive has not
// returned yet.
func (nd *Node) Pending() bool { return nd.head < len(nd.inbox) }

// Receive returns the next frame that has arrived. The frame is valid until
// the next call to Receive.
func (nd *Node) Receive() ([]byte, bool) {
	if nd.current != nil {
		nd.current.release(nd.net)
		nd.current = nil
	}
	if nd.head == len(nd.inbox) {
		nd.inbox, nd.head = nd.inbox[:0], 0
		return nil, false
	}
	nd.current = nd.inbox[nd.head]
	nd.inbox[nd.head] = nil
	nd.head++
	return nd.current.data, true
}

// buffer is a frame shared by its pending deliveries, returned to the
// network's free list when the last receiver is done with it.
type buffer struct {
	data []byte
	refs int
}

func (n *Network) get(frame []byte) *buffer {
	var b *buffer
	if k := len(n.free); k > 0 {
		b, n.free = n.free[k-1], n.free[:k-1]
	} else {
		b = new(buffer)
	}
	b.data = append(b.data[:0], frame...)
	return b
}

func (b *buffer) release(n *Network) {
	b.refs--
	if b.refs == 0 {
		n.free = append(n.free, b)
	}
}

type event struct {
	at  int64
	seq uint64 // ties keep sending order
	to  *Node
	buf *buffer
}

// eventHeap is a min-heap by (at, seq), written out so that pushing and
// popping allocate nothing once it has grown.
type eventHeap []event

func (h eventHeap) less(i, j int) bool {
	return h[i].at < h[j].at || (h[i].at == h[j].at && h[i].seq < h[j].seq)
}

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *eventHeap) pop() event {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s[last] = event{}
	s = s[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(s) && s.less(l, m) {
			m = l
		}
		if r < len(s) && s.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
