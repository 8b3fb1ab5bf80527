package netcore

import (
	"slices"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Connection identity, under the extension (wire.Ident): a client chooses
// its connection's identity at each handshake (connID), the server names
// its term, and every frame of the connection after the handshake carries
// the connection's tag (a broadcast, the term's). reliable.Conn keeps the
// identity and tags and filters the frames (Conn.Tag, Conn.Untag, the
// one filter, at each end's receive): a late copy of another
// connection's frame (a SYN reply, a DISCONNECT, a chunk) or of another
// term's (a broadcast of the server before) is dropped and counted
// (Counters.Stale), where the reference protocol took it for the new
// connection's. What is here is each end's part: the client's choice of
// identity and its handshake's admission, the server's broadcast, the
// framers of the bulk streams, and the connections the server retired.

// connID is the identity of a client's connection number seq (its
// config's ConnSeq, and one more for each reattach): its remainder by 127
// is seq's, so that the copy's last 127 connections have tags of their
// own (wire.ConnTag); the rest is a hash of the copy (its token and
// name) and the time, never 0, chosen without a clock or randomness of
// its own.
func connID(cfg *ClientConfig, now int64, seq int) uint32 {
	h := uint32(2166136261) // FNV-1a
	mix := func(b byte) { h = (h ^ uint32(b)) * 16777619 }
	for _, b := range cfg.Token {
		mix(b)
	}
	for i := range len(cfg.Name) {
		mix(cfg.Name[i])
	}
	for i := range 8 {
		mix(byte(now >> (8 * i)))
	}
	h &= 0x7fffffff
	return max(h-h%127, 127) + uint32(seq%127)
}

// broadcast sends m once to every client (UID 0), with the server's term
// and no connection.
func (s *Server) broadcast(m wire.Message) {
	s.pkt = wire.Encode(s.pkt[:0], m, false, 0)
	wire.SetTag(s.pkt, wire.TermTag(s.cfg.Term))
	s.tr.Send(link.Broadcast, s.pkt)
	s.stats.PacketsSent++
	s.stats.BytesSent += int64(len(s.pkt))
}

// serverFramer is the transport of the server's bulk streams: a frame to
// a client of a framed connection carries its tag.
type serverFramer struct{ s *Server }

func (f serverFramer) Send(to link.Addr, pkt []byte) {
	if sc := f.s.slots.find(to); sc != nil {
		pkt = sc.conn.Tag(pkt)
	}
	f.s.tr.Send(to, pkt)
}

func (serverFramer) Recv() (link.Addr, []byte, bool) { return 0, nil, false }

// clientFramer is the transport of a client's bulk streams: its frames
// carry the connection's tag once it is framed; those of a state feed,
// the watcher's.
type clientFramer struct{ c *Client }

func (f clientFramer) Send(to link.Addr, pkt []byte) {
	if to != f.c.server {
		f.c.tr.Send(to, f.c.feeds.tag(to, pkt)) // a state feed's (client_feed.go)
		return
	}
	f.c.tr.Send(to, f.c.conn.Tag(pkt))
}

func (clientFramer) Recv() (link.Addr, []byte, bool) { return 0, nil, false }

// offersTicnet reports whether the client offers the extension.
func (hs *handshake) offersTicnet() bool { return wire.Known(wire.ProtocolTicnet, hs.c.cfg.Protocols) }

// admit is the client's side of the connection filter. The server's SYN
// reply names the connection and the term (wire.ReplyName): one that
// names another connection is dropped before the reliable layer takes
// its sequence number; this one's makes the connection framed. Every
// other frame of a framed connection must carry its tag, or its server's
// term's; a tagged frame before the reply (a joiner's first chunks) is
// an extension server's, and frames the connection too. It returns the
// frame with its tag cleared.
func (hs *handshake) admit(pkt []byte) ([]byte, bool) {
	c := hs.c
	cn := &c.conn
	if !hs.offersTicnet() {
		return pkt, true
	}
	if tag := wire.TagOf(pkt); tag != 0 {
		if cn.Framed() && cn.Ident().Term == 0 && tag != wire.ConnTag(cn.Ident().Conn) && len(hs.unsure) < maxUnsure {
			// Maybe a broadcast of the server's term, which this
			// client learns with its reply or its Resume: kept until
			// then (flushUnsure).
			hs.unsure = append(hs.unsure, slices.Clone(pkt))
			return nil, false
		}
		pkt, ok := cn.Untag(pkt, true)
		if ok && !cn.Framed() {
			cn.Frame(cn.Ident())
		}
		return pkt, ok
	}
	h, body, _ := wire.ParseHeader(pkt)
	var m wire.SYNReply
	switch {
	case h.Type == wire.TypeSYN && h.Reliable && m.DecodeBody(body) == nil:
		id, ok := wire.ParseReply(m.Protocol)
		switch {
		case !ok:
			return pkt, true // the reference's reply: the handshake judges it
		case id.Conn != cn.Ident().Conn:
			c.stats.Stale++
			return nil, false
		}
		cn.Frame(id) // its Conn is this connection's
	case cn.Framed():
		c.stats.Stale++ // a bare frame, on a connection whose frames carry its tag
		return nil, false
	}
	return pkt, true
}

// maxUnsure bounds the frames a client keeps while it cannot tell
// whether they are its server's broadcasts (it does not know the term
// yet): a reattaching copy, between the new server's first tic sets and
// its reply or Resume. More are dropped and counted as stale.
const maxUnsure = 64

// flushUnsure takes the frames kept while the term was unknown, once it
// is known: those of its term go on, the others are stale (all of them,
// if the connection ends first).
func (hs *handshake) flushUnsure(now int64) {
	c := hs.c
	switch {
	case len(hs.unsure) == 0:
	case c.conn.Ident().Term != 0:
		kept := hs.unsure
		hs.unsure = nil
		for _, f := range kept {
			c.receive(now, c.server, f)
		}
	case c.phase.state() == ClientDisconnected:
		c.stats.Stale += int64(len(hs.unsure)) // the term never came
		hs.unsure = nil
	}
}

// retiredConns remembers the connections the server's slots had, once
// they ended or a new connection from their address took their place
// (extension): a late copy of one's SYN is stale, not a new connection,
// though its slot is gone. A ring of the last retiredLen: a copy makes a
// connection for each reattach or join attempt, a few within the time a
// frame can linger on the way, and a game has at most wire.MaxNodes.
type retiredConns struct {
	ring [retiredLen]retiredConn
	next int
}

type retiredConn struct {
	addr link.Addr
	conn uint32
}

const retiredLen = 64

// retire remembers sc's connection, if it had an identity.
func (r *retiredConns) retire(sc *serverClient) {
	if sc.conn.Ident().Conn == 0 {
		return
	}
	r.ring[r.next] = retiredConn{sc.addr, sc.conn.Ident().Conn}
	r.next = (r.next + 1) % retiredLen
}

// has reports whether conn, from addr, is a connection that ended.
func (r *retiredConns) has(addr link.Addr, conn uint32) bool {
	return conn != 0 && slices.Contains(r.ring[:], retiredConn{addr, conn})
}
