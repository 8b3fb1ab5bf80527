//go:build !js

package netcore

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"

	"github.com/ticnet/ticnet/netcore/link"
)

// MaxUDPDatagram is the longest datagram a UDP transport accepts.
const MaxUDPDatagram = 64 << 10

// UDPQueueLen is how many received datagrams wait for Recv before more are
// dropped (and counted): over three seconds of a full 8-player game at one
// pass every 5 ms.
const UDPQueueLen = 1024

// MaxUDPPeers bounds the address table. Every address that sends a
// datagram gets an entry for the life of the transport, so that its Addr
// stays the same; once the table is full, datagrams from new addresses are
// dropped and counted (Strangers). The reference serves 16 clients.
const MaxUDPPeers = 4096

// UDP is a Transport over one UDP socket, as the reference's: a peer is its
// IPv4 address and port, and each address is given an Addr of its own the
// first time it is seen, the same for as long as the transport lives.
//
// A reader goroutine feeds received datagrams into a bounded queue that
// Recv drains without blocking; Close stops it. Send, Recv, Peer and
// AddrString must be called from one goroutine (the engine's); Stats and
// Close may be called from any.
type UDP struct {
	conn *net.UDPConn
	in   chan datagram
	free chan []byte
	done chan struct{}
	once sync.Once

	cur    []byte // the payload Recv returned last
	ids    map[netip.AddrPort]link.Addr
	peers  []netip.AddrPort // peers[a-1] is Addr a
	sent   atomic.Int64
	recvd  atomic.Int64
	drops  atomic.Int64
	errs   atomic.Int64
	over   atomic.Int64
	strang atomic.Int64
	unrout atomic.Int64
}

type datagram struct {
	from netip.AddrPort
	b    []byte
}

// UDPStats is what a UDP transport counted.
type UDPStats struct {
	Sent, Received int64
	// Dropped: received while the queue was full.
	Dropped int64
	// Errors: failed reads and writes.
	Errors int64
	// Oversize: datagrams sent longer than MaxDatagram, which a reference
	// peer would truncate. Only ticnet peers may be sent those.
	Oversize int64
	// Strangers: datagrams from new addresses dropped because the address
	// table was full.
	Strangers int64
	// Unroutable: sends to an Addr that names no address (Broadcast
	// among them: UDP has no broadcast, so a server on UDP sends each
	// client its own copy, with ServerConfig.BroadcastTics off).
	Unroutable int64
}

// ListenUDP opens a UDP transport on addr ("127.0.0.1:2342", ":0"). IPv4
// only, as the reference.
func ListenUDP(addr string) (*UDP, error) {
	la, err := net.ResolveUDPAddr("udp4", addr)
	if err != nil {
		return nil, fmt.Errorf("udp: %w", err)
	}
	conn, err := net.ListenUDP("udp4", la)
	if err != nil {
		return nil, fmt.Errorf("udp: %w", err)
	}
	return newUDP(conn, UDPQueueLen), nil
}

func newUDP(conn *net.UDPConn, queueLen int) *UDP {
	u := &UDP{
		conn: conn,
		in:   make(chan datagram, queueLen),
		free: make(chan []byte, queueLen+1),
		done: make(chan struct{}),
		ids:  make(map[netip.AddrPort]link.Addr),
	}
	go u.read()
	return u
}

// LocalAddr is the address the socket is bound to.
func (u *UDP) LocalAddr() netip.AddrPort {
	return u.conn.LocalAddr().(*net.UDPAddr).AddrPort()
}

// read receives datagrams until the socket is closed.
func (u *UDP) read() {
	defer close(u.done)
	buf := make([]byte, MaxUDPDatagram)
	for {
		n, from, err := u.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			u.errs.Add(1)
			continue
		}
		var b []byte
		select {
		case b = <-u.free:
		default:
			b = make([]byte, 0, MaxDatagram)
		}
		d := datagram{from: unmap(from), b: append(b[:0], buf[:n]...)}
		select {
		case u.in <- d:
		default:
			u.drops.Add(1)
			u.recycle(d.b)
		}
	}
}

func (u *UDP) recycle(b []byte) {
	if cap(b) > MaxDatagram {
		return // keep only common sizes around
	}
	select {
	case u.free <- b:
	default:
	}
}

func unmap(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// Peer returns the Addr of a peer's address, adding it to the table: a
// client uses it to name its server. ok is false if the table is full.
func (u *UDP) Peer(a netip.AddrPort) (link.Addr, bool) {
	a = unmap(a)
	if id, ok := u.ids[a]; ok {
		return id, true
	}
	if len(u.peers) >= MaxUDPPeers {
		return 0, false
	}
	u.peers = append(u.peers, a)
	id := link.Addr(len(u.peers))
	u.ids[a] = id
	return id, true
}

// AddrPort returns the address an Addr stands for.
func (u *UDP) AddrPort(a link.Addr) (netip.AddrPort, bool) {
	if a == link.Broadcast || int(a) > len(u.peers) {
		return netip.AddrPort{}, false
	}
	return u.peers[a-1], true
}

// AddrString shows an address as the reference does: "a.b.c.d" on the
// default port, "a.b.c.d:port" on any other.
func (u *UDP) AddrString(a link.Addr) string {
	ap, ok := u.AddrPort(a)
	if !ok {
		return defaultAddrString(a)
	}
	if ap.Port() == DefaultPort {
		return ap.Addr().String()
	}
	return ap.String()
}

// Send sends payload to the peer to names.
func (u *UDP) Send(to link.Addr, payload []byte) {
	ap, ok := u.AddrPort(to)
	if !ok {
		u.unrout.Add(1)
		return
	}
	if len(payload) > MaxDatagram {
		u.over.Add(1)
	}
	if _, err := u.conn.WriteToUDPAddrPort(payload, ap); err != nil {
		u.errs.Add(1)
		return
	}
	u.sent.Add(1)
}

// Recv returns the next datagram received, if any, without waiting.
func (u *UDP) Recv() (link.Addr, []byte, bool) {
	if u.cur != nil {
		u.recycle(u.cur)
		u.cur = nil
	}
	for {
		select {
		case d := <-u.in:
			id, ok := u.Peer(d.from)
			if !ok {
				u.strang.Add(1)
				u.recycle(d.b)
				continue
			}
			u.recvd.Add(1)
			u.cur = d.b
			return id, d.b, true
		default:
			return 0, nil, false
		}
	}
}

// Stats returns what the transport has counted.
func (u *UDP) Stats() UDPStats {
	return UDPStats{Sent: u.sent.Load(), Received: u.recvd.Load(), Dropped: u.drops.Load(),
		Errors: u.errs.Load(), Oversize: u.over.Load(), Strangers: u.strang.Load(), Unroutable: u.unrout.Load()}
}

// Close closes the socket and waits for the reader to stop.
func (u *UDP) Close() error {
	var err error
	u.once.Do(func() {
		err = u.conn.Close()
		<-u.done
	})
	return err
}
