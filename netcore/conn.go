package netcore

import (
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// connState is a connection's state (spec §5).
type connState uint8

const (
	connConnecting connState = iota // client only: SYN sent, no reply yet
	connConnected
	connDisconnecting // we asked to leave: DISCONNECT sent, waiting for the ack
	connDisconnected
	connDisconnectedSleep // the peer left: linger so its retries get acks
)

// connEnd is who ended a connection: what the code above acts on, where
// the connection's reason says it to people.
type connEnd uint8

const (
	endNone     connEnd = iota
	endByUs             // this end said DISCONNECT (disconnect)
	endByPeer           // the peer said DISCONNECT
	endTimedOut         // the peer fell silent
)

// conn is one end of a connection: the reliable sub-protocol, keepalives,
// the timeout and the disconnect handshake, shared by client and server.
type conn struct {
	addr     link.Addr
	tr       link.Transport
	timeouts Timeouts
	state    connState
	reason   string  // why it ended, for people, once disconnected
	ended    connEnd // who ended it, for the code, once disconnected

	lastSendMS, lastRecvMS int64

	sendSeq, recvSeq uint8
	reliable         []reliablePacket // FIFO; only the head is ever in flight

	disconnectTries  int
	disconnectLastMS int64
	sleepUntilMS     int64

	resendMS int64  // reliable resend period
	buf      []byte // scratch for small packets
	counter  *Counters

	// id is the connection's identity under the extension (wire.Ident);
	// framed: its frames carry its tag, both ways (from the handshake's
	// end, or at once for a client that reattaches).
	id     wire.Ident
	framed bool
	out    []byte // scratch: a frame with its tag
	in     []byte // scratch: a frame received, its tag cleared
}

type reliablePacket struct {
	seq        uint8
	pkt        []byte
	lastSentMS int64
	sent       bool
	bare       bool // the SYN reply: its name carries the identity
}

func newConn(addr link.Addr, tr link.Transport, t Timeouts, now int64, state connState, c *Counters) conn {
	return conn{addr: addr, tr: tr, timeouts: t, state: state, lastSendMS: now, lastRecvMS: now, counter: c,
		resendMS: ReliableResendMS}
}

func (c *conn) connected() bool { return c.state == connConnected }

// send transmits a packet now, with the connection's identity once it is
// framed.
func (c *conn) send(now int64, pkt []byte) {
	c.sendBare(now, c.frame(pkt))
}

// frame returns pkt as the connection sends it: with its tag once it is
// framed (in a scratch buffer, valid until the next frame).
func (c *conn) frame(pkt []byte) []byte {
	if !c.framed {
		return pkt
	}
	c.out = append(c.out[:0], pkt...)
	wire.SetTag(c.out, wire.ConnTag(c.id.Conn))
	return c.out
}

// sendBare transmits a packet now as it is: a handshake's.
func (c *conn) sendBare(now int64, pkt []byte) {
	c.tr.Send(c.addr, pkt)
	c.lastSendMS = now
	c.counter.PacketsSent++
	c.counter.BytesSent += int64(len(pkt))
}

// sendMessage encodes and transmits an unreliable message.
func (c *conn) sendMessage(now int64, m wire.Message) {
	c.buf = wire.Encode(c.buf[:0], m, false, 0)
	c.send(now, c.buf)
}

// sendReliable queues a reliable message; run transmits it in turn.
func (c *conn) sendReliable(m wire.Message) {
	pkt := wire.Encode(nil, m, true, c.sendSeq)
	c.reliable = append(c.reliable, reliablePacket{seq: c.sendSeq, pkt: pkt})
	c.sendSeq++
}

// sendReply queues the server's SYN reply, which goes without the
// connection's identity: its name carries it.
func (c *conn) sendReply(m *wire.SYNReply) {
	c.sendReliable(m)
	c.reliable[len(c.reliable)-1].bare = true
}

// untag is the connection filter: a frame of a framed connection must
// carry its tag, or, when broadcasts are allowed, the tag of the term
// this end knows. It returns the frame with the tag cleared (in a scratch
// buffer, valid until the next frame received: the frame itself may be
// shared); ok false: the frame is another connection's or another term's
// (a late copy of an old one), dropped and counted as Stale.
func (c *conn) untag(frame []byte, broadcast bool) ([]byte, bool) {
	tag := wire.TagOf(frame)
	if tag == 0 || tag != wire.ConnTag(c.id.Conn) && !(broadcast && c.id.Term != 0 && tag == wire.TermTag(c.id.Term)) {
		c.counter.Stale++
		return nil, false
	}
	c.in = append(c.in[:0], frame...)
	wire.SetTag(c.in, 0)
	return c.in, true
}

// handle runs the common part of receiving a packet. It reports whether the
// packet should go on to the client or server logic: reliable packets out
// of sequence, acks and keepalives stop here.
func (c *conn) handle(now int64, h wire.Header, body []byte) bool {
	c.lastRecvMS = now
	switch h.Type {
	case wire.TypeReliableAck:
		var ack wire.ReliableAck
		if ack.DecodeBody(body) != nil {
			c.counter.Malformed++
			return false
		}
		if len(c.reliable) > 0 && ack.Ack == c.reliable[0].seq+1 {
			c.reliable = c.reliable[1:]
		}
		return false
	case wire.TypeKeepalive:
		return false
	case wire.TypeDisconnect:
		c.sendMessage(now, wire.DisconnectAck)
		if c.state != connDisconnectedSleep {
			c.state = connDisconnectedSleep
			c.reason, c.ended = ReasonLeft, endByPeer
			c.sleepUntilMS = now + DisconnectSleepMS
		}
		return false
	case wire.TypeDisconnectAck:
		if c.state == connDisconnecting {
			c.state = connDisconnected
		}
		return false
	}
	if h.Reliable {
		// Decode before the sequence number is taken: a packet that does
		// not decode must not use up a sequence number, or the real one
		// that carries it would be dropped as a duplicate.
		if !validReliable(h, body) {
			c.counter.Malformed++
			return false
		}
		accept := h.Seq == c.recvSeq
		if accept {
			c.recvSeq++
		}
		c.buf = wire.Encode(c.buf[:0], &wire.ReliableAck{Ack: c.recvSeq}, false, 0)
		c.send(now, c.buf)
		if !accept {
			c.counter.Duplicates++
		}
		return accept
	}
	return true
}

// run does the periodic work: reliable (re)sends, keepalives, timeout,
// disconnect retries.
func (c *conn) run(now int64) {
	switch c.state {
	case connConnected:
		c.sendReliableHead(now)
		if now-c.lastRecvMS > c.timeouts.TimeoutMS {
			c.state = connDisconnected
			c.reason, c.ended = ReasonTimeout, endTimedOut
			return
		}
		if now-c.lastSendMS > c.timeouts.KeepaliveMS {
			c.sendMessage(now, wire.Keepalive)
		}
	case connDisconnecting:
		if c.disconnectTries >= DisconnectRetries {
			c.state = connDisconnected
			return
		}
		if c.disconnectTries == 0 || now-c.disconnectLastMS >= DisconnectRetryMS {
			c.sendMessage(now, wire.Disconnect)
			c.disconnectTries++
			c.disconnectLastMS = now
		}
	case connDisconnectedSleep:
		if now >= c.sleepUntilMS {
			c.state = connDisconnected
		}
	}
}

func (c *conn) sendReliableHead(now int64) {
	if len(c.reliable) > 0 && (!c.reliable[0].sent || now-c.reliable[0].lastSentMS > c.resendMS) {
		c.sendReliableHeadNow(now)
	}
}

// queued reports whether the reliable message with sequence number seq
// waits in the queue (it is not acknowledged yet).
func (c *conn) queued(seq uint8) bool {
	for _, r := range c.reliable {
		if r.seq == seq {
			return true
		}
	}
	return false
}

// sendReliableHeadNow (re)sends the head of the reliable queue now, if
// there is one.
func (c *conn) sendReliableHeadNow(now int64) {
	if len(c.reliable) == 0 {
		return
	}
	head := &c.reliable[0]
	if head.sent {
		c.counter.ReliableResends++
	}
	if head.bare {
		c.sendBare(now, head.pkt)
	} else {
		c.send(now, head.pkt)
	}
	head.sent = true
	head.lastSentMS = now
}

// disconnect starts the disconnect handshake, sending DISCONNECT at once.
func (c *conn) disconnect(now int64, reason string) {
	if c.state == connConnected || c.state == connConnecting {
		c.state = connDisconnecting
		c.reason, c.ended = reason, endByUs
		c.disconnectTries = 0
		c.run(now)
	}
}

// Counters are what an endpoint counts; every dropped packet is counted.
type Counters struct {
	PacketsSent, BytesSent         int64
	PacketsReceived, BytesReceived int64
	Malformed                      int64 // packets that did not decode
	// Stale: extension frames of another connection or another server
	// term (a late copy of an old one), dropped by the connection filter.
	Stale               int64
	Unexpected          int64 // well-formed but not acceptable now, or from a stranger
	Duplicates          int64 // reliable packets received again
	ReliableResends     int64
	ResendRequests      int64 // GAMEDATA_RESEND sent
	TicsResent          int64 // tics sent again on request or deadlock
	LateDropped         int64 // ticnet: real commands that came after their substitute
	EventsCarried       int64 // ticnet: own substituted commands whose events went into later ones
	EventsDropped       int64 // ticnet: of those, events dropped: MaxCarried commands' worth waited
	Substituted         int64 // ticnet: commands the server substituted
	ConsistencyFailures int64
	Rejected            int64 // server: connection requests refused
	Queries             int64 // server: QUERY packets answered
	// RejoinRefused: server: rejoin tokens presented while their player
	// was still connected from another address (the copy joins as a new
	// player).
	RejoinRefused int64
	// TicsRun: client: the tics its game ran.
	TicsRun int64
}

// errUnexpected marks a well-formed packet that is not acceptable now.
type errUnexpected struct{}

func (errUnexpected) Error() string { return "unexpected packet" }

// tally counts a handler's verdict on a packet: malformed, unexpected, or
// (nil) taken.
func (c *Counters) tally(err error) {
	if err == nil {
		return
	}
	if _, ok := err.(*wire.DecodeError); ok {
		c.Malformed++
	} else {
		c.Unexpected++
	}
}

// validReliable reports whether a reliable packet's body decodes. The
// direction does not matter for reliable packets: the layouts that differ
// by direction (GAMEDATA, LAUNCH) differ between a reliable and an
// unreliable sender too, and only the server's LAUNCH is reliable.
func validReliable(h wire.Header, body []byte) bool {
	m, err := wire.NewMessage(h, body, wire.ServerToClient, false)
	if err != nil {
		return false
	}
	if h.Type == wire.TypeLaunch && len(body) == 0 {
		return true // a client's LAUNCH request is empty
	}
	return m.DecodeBody(body) == nil
}
