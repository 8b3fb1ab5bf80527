package netcore

import "github.com/ticnet/ticnet/netcore/link"

// LocalClientAddr is the address under which a host's own client (the one
// in the server's process, reached through a Loopback) appears to its
// server. No channel peer may use it as its UID.
const LocalClientAddr link.Addr = 0xFFFFFFFE

// Loopback is one end of an in-process connection between a server and its
// host's own client, as Chocolate Doom's -server mode has.
type Loopback struct {
	peer  *Loopback
	addr  link.Addr // the address this end's packets appear to come from
	inbox [][]byte
	head  int
	cur   []byte   // the packet Recv returned last
	spare [][]byte // buffers to reuse
}

// NewLoopback returns two connected ends: the server's and the client's.
// The client's packets reach the server from LocalClientAddr; the server's
// reach the client from server.
func NewLoopback(server link.Addr) (serverEnd, clientEnd *Loopback) {
	serverEnd = &Loopback{addr: server}
	clientEnd = &Loopback{addr: LocalClientAddr}
	serverEnd.peer, clientEnd.peer = clientEnd, serverEnd
	return serverEnd, clientEnd
}

// Send delivers payload to the other end; the other end is the only one
// there is, so the address is not needed.
func (l *Loopback) Send(_ link.Addr, payload []byte) {
	p := l.peer
	var b []byte
	if k := len(p.spare); k > 0 {
		b, p.spare = p.spare[k-1][:0], p.spare[:k-1]
	}
	p.inbox = append(p.inbox, append(b, payload...))
}

// Recv returns the next packet from the other end.
func (l *Loopback) Recv() (link.Addr, []byte, bool) {
	if l.cur != nil {
		l.spare = append(l.spare, l.cur)
		l.cur = nil
	}
	if l.head == len(l.inbox) {
		l.inbox, l.head = l.inbox[:0], 0
		return 0, nil, false
	}
	l.cur = l.inbox[l.head]
	l.inbox[l.head] = nil
	l.head++
	return l.peer.addr, l.cur, true
}

// HostTransport is the transport of a server whose host also plays: packets
// for LocalClientAddr go through Local, everything else through Channel,
// and a broadcast goes through both.
type HostTransport struct {
	Channel link.Transport
	Local   *Loopback
}

func (h *HostTransport) Send(to link.Addr, payload []byte) {
	switch to {
	case LocalClientAddr:
		h.Local.Send(to, payload)
	case link.Broadcast:
		h.Local.Send(to, payload)
		h.Channel.Send(to, payload)
	default:
		h.Channel.Send(to, payload)
	}
}

func (h *HostTransport) Recv() (link.Addr, []byte, bool) {
	if from, p, ok := h.Local.Recv(); ok {
		return from, p, true
	}
	return h.Channel.Recv()
}

// AddrString names the host's own client as the reference does.
func (h *HostTransport) AddrString(a link.Addr) string {
	if a == LocalClientAddr {
		return "local client"
	}
	if n, ok := h.Channel.(AddrNamer); ok {
		return n.AddrString(a)
	}
	return defaultAddrString(a)
}
