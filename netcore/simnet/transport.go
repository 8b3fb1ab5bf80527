package simnet

import "github.com/ticnet/ticnet/netcore"

// FrameTransport is a netcore.Transport over a node: it frames packets as
// [to][from][payload], and keeps only frames addressed to its UID or to
// everyone, as the browser shim does. Frames it cannot use are counted.
type FrameTransport struct {
	Node      *Node
	UID       netcore.Addr
	out       []byte
	Malformed int64 // frames too short to have a header, or claiming our UID
	NotForUs  int64 // frames addressed to another peer: normal on a broadcast channel
}

// NewFrameTransport returns a transport for uid on nd.
func NewFrameTransport(nd *Node, uid netcore.Addr) *FrameTransport {
	return &FrameTransport{Node: nd, UID: uid}
}

// Send broadcasts payload framed for to.
func (t *FrameTransport) Send(to netcore.Addr, payload []byte) {
	t.out = netcore.AppendFrame(t.out[:0], to, t.UID, payload)
	t.Node.Broadcast(t.out)
}

// Recv returns the next packet for this UID.
func (t *FrameTransport) Recv() (netcore.Addr, []byte, bool) {
	for {
		frame, ok := t.Node.Receive()
		if !ok {
			return 0, nil, false
		}
		to, from, payload, ok := netcore.ParseFrame(frame)
		switch {
		case !ok || from == t.UID:
			t.Malformed++
			continue
		case to != t.UID && to != netcore.Broadcast:
			t.NotForUs++
			continue
		}
		return from, payload, true
	}
}
