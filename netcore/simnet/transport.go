package simnet

import "github.com/ticnet/ticnet/netcore/link"

// FrameTransport is a link.Transport over a node: it frames packets as
// a broadcast channel does, and keeps only the frames for its UID through
// the filter the browser's router uses (link.FrameFilter), which counts
// the frames it drops.
type FrameTransport struct {
	Node   *Node
	UID    link.Addr
	Filter link.FrameFilter
	out    []byte
}

// NewFrameTransport returns a transport for uid on nd.
func NewFrameTransport(nd *Node, uid link.Addr) *FrameTransport {
	return &FrameTransport{Node: nd, UID: uid}
}

// Send broadcasts payload framed for to.
func (t *FrameTransport) Send(to link.Addr, payload []byte) {
	t.out = link.AppendFrame(t.out[:0], to, t.UID, payload)
	t.Node.Broadcast(t.out)
}

// Recv returns the next packet for this UID.
func (t *FrameTransport) Recv() (link.Addr, []byte, bool) {
	for {
		frame, ok := t.Node.Receive()
		if !ok {
			return 0, nil, false
		}
		if _, from, payload, ok := t.Filter.Keep(frame, t.UID, t.UID); ok {
			return from, payload, true
		}
	}
}
