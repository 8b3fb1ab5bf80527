package reliable

import (
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// State is a connection's state (spec §5).
type State uint8

const (
	Connecting    State = iota // client only: SYN sent, no reply yet
	Connected                  // the handshake is done
	Disconnecting              // this end asked to leave: DISCONNECT sent, waiting for the ack
	Disconnected               // over
	// DisconnectedSleep: the peer left; the connection lingers for
	// DisconnectSleepMS so that its retries get acks.
	DisconnectedSleep
)

// Timing of the reference (spec §13). Names carry their unit.
const (
	ResendMS          = 1000 // resend the head of the reliable queue this often, unless told otherwise (SetResendMS)
	DisconnectRetryMS = 1000 // resend DISCONNECT this often
	DisconnectRetries = 5    // then give up and consider it done
	DisconnectSleepMS = 5000 // a connection the peer ended lingers this long
)

// Why a connection ended by itself (Reason); its owner gives the reason
// when it ends it (Disconnect, Drop).
const (
	ReasonTimeout = "timed out" // nothing came for Timers.TimeoutMS
	ReasonLeft    = "left"      // the peer's DISCONNECT
)

// Timers say how long a connection waits for a silent peer, and how long
// it stays silent itself.
type Timers struct {
	// TimeoutMS: a connection that has received nothing for this long is
	// over.
	TimeoutMS int64
	// KeepaliveMS: a connection that has sent nothing for this long sends
	// a KEEPALIVE.
	KeepaliveMS int64
}

// end is who ended a connection: what its owner acts on (TimedOut,
// PeerLeft), where Reason says it to people.
type end uint8

const (
	endNone     end = iota
	endByUs         // this end said DISCONNECT (Disconnect)
	endByPeer       // the peer said DISCONNECT
	endTimedOut     // the peer fell silent
)

// Conn is one end of a connection: the reliable sub-protocol (in-order
// delivery, acks, resends), keepalives, the timeout, the disconnect
// handshake and, under the extension, the connection's identity on its
// frames (ident.go); shared by client and server. Its state is changed
// only by its methods.
type Conn struct {
	peer   link.Addr
	tr     link.Transport
	timers Timers
	state  State
	reason string // why it ended, for people, once disconnected
	ended  end    // who ended it, for the code, once disconnected

	lastSendMS, lastRecvMS int64

	sendSeq, recvSeq uint8
	queue            []queued // FIFO; only the head is ever in flight

	disconnectTries  int
	disconnectLastMS int64
	sleepUntilMS     int64

	resendMS int64  // reliable resend period
	buf      []byte // scratch for small packets
	count    *Counters

	// id is the connection's identity under the extension (wire.Ident);
	// framed: its frames carry its tag, both ways.
	id     wire.Ident
	framed bool
	auth   *auth.Conn // once secured
	// Before it is secured, what a copy that reattaches sends carries a
	// tag for each copy that may have taken the game over (sealFor);
	// a server's slot for such a copy takes its frames by its own tag in
	// them (sealedFor, -1: none) until one comes sealed for it alone.
	sealFor   *[auth.MaxRecipients]*auth.Conn
	pre       auth.Broadcast
	sealedFor int
	out       []byte // scratch: a frame with its tag
	in        []byte // scratch: a frame received, its tag cleared
}

// queued is a reliable message waiting for its ack.
type queued struct {
	seq        uint8
	pkt        []byte
	lastSentMS int64
	sent       bool
	bare       bool  // the SYN reply: its name carries the identity
	latest     bool  // a state that a newer one replaces (SendLatest)
	urgent     bool  // repeated Repeats times, RepeatMS apart (SendUrgent)
	repeats    uint8 // of those, sent
	repeatedMS int64 // when it last went, first or repeated
}

// NewConn returns a connection to peer through tr, in state s (a client's
// starts Connecting, a server's Connected: it answers a SYN), made at now.
// It counts into count, which its owner may share among connections.
func NewConn(peer link.Addr, tr link.Transport, t Timers, now int64, s State, count *Counters) Conn {
	return Conn{peer: peer, tr: tr, timers: t, state: s, lastSendMS: now, lastRecvMS: now, count: count,
		resendMS: ResendMS, sealedFor: -1}
}

// State returns the connection's state.
func (c *Conn) State() State { return c.state }

// Connected reports whether the connection is up.
func (c *Conn) Connected() bool { return c.state == Connected }

// Establish notes that the handshake completed: the connection is up.
func (c *Conn) Establish() { c.state = Connected }

// Drop ends the connection at once, without the disconnect handshake: its
// owner gave it up. reason, if not empty, says why; otherwise the one it
// had stays.
func (c *Conn) Drop(reason string) {
	c.state = Disconnected
	if reason != "" {
		c.reason = reason
	}
}

// Reason says why the connection ended (empty while it has not).
func (c *Conn) Reason() string { return c.reason }

// TimedOut reports whether the connection ended because nothing came.
func (c *Conn) TimedOut() bool { return c.ended == endTimedOut }

// PeerLeft reports whether the peer ended the connection (its DISCONNECT)
// before this end asked to.
func (c *Conn) PeerLeft() bool { return c.ended == endByPeer && c.disconnectTries == 0 }

// SetResendMS sets how often the head of the reliable queue is sent again
// (ResendMS until told otherwise).
func (c *Conn) SetResendMS(ms int64) { c.resendMS = ms }

// ResendMS returns how often the head of the reliable queue is sent again.
func (c *Conn) ResendMS() int64 { return c.resendMS }

// Send transmits a packet now, with the connection's tag once it is
// framed.
func (c *Conn) Send(now int64, pkt []byte) {
	c.SendBare(now, c.Tag(pkt))
}

// SendBare transmits a packet now as it is: a handshake's.
func (c *Conn) SendBare(now int64, pkt []byte) {
	c.tr.Send(c.peer, pkt)
	c.lastSendMS = now
	c.count.PacketsSent++
	c.count.BytesSent += int64(len(pkt))
}

// NoteSent notes that the peer was sent something at now another way (a
// broadcast to everyone): it counts as traffic for the keepalive.
func (c *Conn) NoteSent(now int64) { c.lastSendMS = now }

// SendMessage encodes and transmits an unreliable message.
func (c *Conn) SendMessage(now int64, m wire.Message) {
	c.buf = wire.Encode(c.buf[:0], m, false, 0)
	c.Send(now, c.buf)
}

// SendReliable queues a reliable message; Run transmits it in turn.
func (c *Conn) SendReliable(m wire.Message) {
	pkt := wire.Encode(nil, m, true, c.sendSeq)
	c.queue = append(c.queue, queued{seq: c.sendSeq, pkt: pkt})
	c.sendSeq++
}

// SendLatest queues a reliable message that carries a state, which a
// newer one makes moot: when the last message queued is such a state and
// has not gone yet, m takes its place (and its sequence number), so that
// a peer never reads states it would only overwrite, and what follows
// waits for one at most.
func (c *Conn) SendLatest(m wire.Message) {
	if n := len(c.queue); n > 0 && c.queue[n-1].latest && !c.queue[n-1].sent {
		last := &c.queue[n-1]
		last.pkt = wire.Encode(last.pkt[:0], m, true, last.seq)
		return
	}
	c.SendReliable(m)
	c.queue[len(c.queue)-1].latest = true
}

// SendUrgent queues a reliable message that cannot wait for a resend
// timer (a desync repair's): once it has gone, it goes again Repeats
// times, RepeatMS apart, unless acknowledged first.
func (c *Conn) SendUrgent(m wire.Message) {
	c.SendReliable(m)
	c.queue[len(c.queue)-1].urgent = true
}

// An urgent message goes again Repeats times, RepeatMS apart. On a
// channel that loses one frame in five, waiting for the resend timer
// (300-700 ms there) delays one message in five; with two repeats a tic
// apart, one in 125, for two frames more.
const (
	RepeatMS = 30
	Repeats  = 2
)

// SendReply queues the server's SYN reply, which goes without the
// connection's tag: its name carries the identity. An urgent one goes
// again as an urgent message does (SendUrgent): under the extension the
// reply carries the server's key, without which the client can check
// nothing the server sends. (Late joins on the lossy channel, 20 seeds:
// median first SYN to playing 1 800 -> 1 470 ms with 64 KB, p90 2 630
// -> 2 200.)
func (c *Conn) SendReply(m *wire.SYNReply, urgent bool) {
	c.SendReliable(m)
	c.queue[len(c.queue)-1].bare = true
	c.queue[len(c.queue)-1].urgent = urgent
}

// NextSeq is the sequence number the next reliable message gets.
func (c *Conn) NextSeq() uint8 { return c.sendSeq }

// Queued reports whether the reliable message with sequence number seq
// waits in the queue (it is not acknowledged yet).
func (c *Conn) Queued(seq uint8) bool {
	for _, r := range c.queue {
		if r.seq == seq {
			return true
		}
	}
	return false
}

// HeardMS is when a packet of the peer last came (or the connection was
// made).
func (c *Conn) HeardMS() int64 { return c.lastRecvMS }

// Acked reports whether every reliable message was acknowledged.
func (c *Conn) Acked() bool { return len(c.queue) == 0 }

// Handle runs the common part of receiving a packet. It reports whether
// the packet goes on to the client or server logic: reliable packets out
// of sequence, acks and keepalives stop here.
func (c *Conn) Handle(now int64, h wire.Header, body []byte) bool {
	c.lastRecvMS = now
	switch h.Type {
	case wire.TypeReliableAck:
		var ack wire.ReliableAck
		if ack.DecodeBody(body) != nil {
			c.count.Malformed++
			return false
		}
		if len(c.queue) > 0 && ack.Ack == c.queue[0].seq+1 {
			c.queue = c.queue[1:]
		}
		return false
	case wire.TypeKeepalive:
		return false
	case wire.TypeDisconnect:
		c.SendMessage(now, wire.DisconnectAck)
		if c.state != DisconnectedSleep {
			c.state = DisconnectedSleep
			c.reason, c.ended = ReasonLeft, endByPeer
			c.sleepUntilMS = now + DisconnectSleepMS
		}
		return false
	case wire.TypeDisconnectAck:
		if c.state == Disconnecting {
			c.state = Disconnected
		}
		return false
	}
	if h.Reliable {
		// Decode before the sequence number is taken: a packet that does
		// not decode must not use up a sequence number, or the real one
		// that carries it would be dropped as a duplicate.
		if !validReliable(h, body) {
			c.count.Malformed++
			return false
		}
		accept := h.Seq == c.recvSeq
		if accept {
			c.recvSeq++
		}
		c.buf = wire.Encode(c.buf[:0], &wire.ReliableAck{Ack: c.recvSeq}, false, 0)
		c.Send(now, c.buf)
		if !accept {
			c.count.Duplicates++
		}
		return accept
	}
	return true
}

// Run does the periodic work: reliable (re)sends, keepalives, timeout,
// disconnect retries.
func (c *Conn) Run(now int64) {
	switch c.state {
	case Connected:
		c.SendReliableHead(now)
		if now-c.lastRecvMS > c.timers.TimeoutMS {
			c.state = Disconnected
			c.reason, c.ended = ReasonTimeout, endTimedOut
			return
		}
		if now-c.lastSendMS > c.timers.KeepaliveMS {
			c.SendMessage(now, wire.Keepalive)
		}
	case Disconnecting:
		if c.disconnectTries >= DisconnectRetries {
			c.state = Disconnected
			return
		}
		if c.disconnectTries == 0 || now-c.disconnectLastMS >= DisconnectRetryMS {
			c.SendMessage(now, wire.Disconnect)
			c.disconnectTries++
			c.disconnectLastMS = now
		}
	case DisconnectedSleep:
		if now >= c.sleepUntilMS {
			c.state = Disconnected
		}
	}
}

// SendReliableHead sends the head of the reliable queue if it has not
// gone yet, or went more than the resend period ago.
func (c *Conn) SendReliableHead(now int64) {
	if len(c.queue) == 0 {
		return
	}
	head := &c.queue[0]
	switch {
	case !head.sent || now-head.lastSentMS > c.resendMS:
		c.SendReliableHeadNow(now)
	case head.urgent && head.repeats < Repeats && now-head.repeatedMS >= RepeatMS:
		head.repeats++
		head.repeatedMS = now
		c.count.ReliableRepeats++
		c.Send(now, head.pkt) // its resend timer runs from the first
	}
}

// SendReliableHeadNow (re)sends the head of the reliable queue now, if
// there is one.
func (c *Conn) SendReliableHeadNow(now int64) {
	if len(c.queue) == 0 {
		return
	}
	head := &c.queue[0]
	if head.sent {
		c.count.ReliableResends++
	}
	if head.bare {
		c.SendBare(now, head.pkt)
	} else {
		c.Send(now, head.pkt)
	}
	head.sent = true
	head.lastSentMS, head.repeatedMS = now, now
}

// Disconnect starts the disconnect handshake, sending DISCONNECT at once;
// reason says why.
func (c *Conn) Disconnect(now int64, reason string) {
	if c.state == Connected || c.state == Connecting {
		c.state = Disconnecting
		c.reason, c.ended = reason, endByUs
		c.disconnectTries = 0
		c.Run(now)
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
