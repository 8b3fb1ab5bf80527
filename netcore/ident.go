package netcore

import (
	"slices"

	"github.com/ticnet/ticnet/netcore/auth"
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
// own (wire.ConnTag); the rest is a hash of the copy (its token, key and
// name) and the time, never 0, chosen without a clock or randomness of
// its own.
func connID(cfg *ClientConfig, now int64, seq int) uint32 {
	h := uint32(2166136261) // FNV-1a
	mix := func(b byte) { h = (h ^ uint32(b)) * 16777619 }
	for _, b := range cfg.Token {
		mix(b)
	}
	for _, b := range cfg.Key.PublicKey().Bytes() {
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
// and no connection, and a tag for each player whose connection is
// secured, under its key (auth.Broadcast): no member can forge the
// server's stream to a player. A watcher, which has no player, takes it
// unchecked; a host's own client is reached through the Loopback.
func (s *Server) broadcast(m wire.Message) {
	s.pkt = wire.Encode(s.pkt[:0], m, false, 0)
	wire.SetTag(s.pkt, wire.TermTag(s.cfg.Term))
	var to [auth.MaxRecipients]*auth.Conn
	for _, sc := range s.slots {
		if sc.connected() && sc.player >= 0 && sc.player < auth.MaxRecipients {
			to[sc.player] = sc.conn.Auth()
		}
	}
	s.pkt = s.cast.Seal(s.pkt, &to)
	s.tr.Send(link.Broadcast, s.pkt)
	s.stats.PacketsSent++
	s.stats.BytesSent += int64(len(s.pkt))
}

// Seal returns pkt as the client's connection sends it: with its tag and
// its authentication (a scratch buffer, valid until the next frame it
// sends). For tests and tools that play a client that misbehaves: what
// it sends this way the server takes as this client's.
func (c *Client) Seal(pkt []byte) []byte { return c.conn.Tag(pkt) }

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
// reply names the connection and the term, with the server's key
// (wire.ReplyName): one that names another connection is dropped before
// the reliable layer takes its sequence number; this one's makes the
// connection framed, and secured by the keys agreed with the server's
// (secure). Every other frame of a framed connection must carry its tag,
// or its server's term's, and check; a tagged frame before the reply (a
// joiner's first chunks, a new server's Resume) is kept until the client
// can check it (flushUnsure). It returns the frame with its tag and
// authentication off.
func (hs *handshake) admit(now int64, pkt []byte) ([]byte, bool) {
	c := hs.c
	cn := &c.conn
	c.recv.sure = false
	if !hs.offersTicnet() {
		return pkt, true
	}
	if tag := wire.TagOf(pkt); tag != 0 {
		if !hs.checkable(tag) && !c.mig.learnServer(now, tag, pkt) {
			hs.keep(pkt)
			return nil, false
		}
		c.recv.sure = cn.Secured() && tag == wire.ConnTag(cn.Ident().Conn)
		pkt, ok := cn.Untag(now, pkt, true, c.player)
		if ok && !cn.Framed() {
			cn.Frame(cn.Ident()) // a host's own client, before its reply
		}
		return pkt, ok
	}
	h, body, _ := wire.ParseHeader(pkt)
	var m wire.SYNReply
	switch {
	case h.Type == wire.TypeSYN && h.Reliable && m.DecodeBody(body) == nil:
		id, key, ok := wire.ParseReply(m.Protocol)
		switch {
		case !ok:
			return pkt, true // the reference's reply: the handshake judges it
		case id.Conn != cn.Ident().Conn:
			c.stats.Stale++
			return nil, false
		case !hs.secure(now, key):
			c.stats.Forged++
			return nil, false
		}
		cn.Frame(id) // its Conn is this connection's
	case cn.Framed():
		c.stats.Stale++ // a bare frame, on a connection whose frames carry its tag
		return nil, false
	}
	return pkt, true
}

// checkable reports whether the client can check a frame with tag now:
// it has the connection's keys (a host's own client has none to wait
// for), and, for a frame that is not the connection's, a broadcast, knows
// its server's term and whether it is one of the players the broadcast
// has a tag for: a copy in the lobby learns its player, and how many
// frames the server broadcast before, with its game's start or its
// JoinStart, and keeps the broadcasts until then. (A watcher, or a copy
// that found the game full, has no player, and takes them unchecked.)
func (hs *handshake) checkable(tag uint8) bool {
	c := hs.c
	cn := &c.conn
	switch {
	case !hs.local && !cn.Secured():
		return false
	case tag == wire.ConnTag(cn.Ident().Conn) || !cn.Framed():
		return true
	case cn.Ident().Term == 0:
		return false
	}
	lobby := c.phase == phaseLobby || c.phase == phaseLaunched
	return hs.local || c.player >= 0 || c.cfg.Drone || !lobby
}

// secure agrees the connection's keys with the server's key from its
// reply; false if the reply cannot be the server's: it gives no key, or
// one that gives no secret, or, for a copy that reattaches, a key the
// roster does not name (the new server is a player of the game, maybe
// this copy's own); or, a
// copy of the reply, another key than the first. A host's own client
// takes a reply without a key.
func (hs *handshake) secure(now int64, key *wire.PublicKey) bool {
	c := hs.c
	cn := &c.conn
	switch {
	case hs.local:
		return key == nil
	case key == nil:
		return false
	case cn.Secured():
		return *key == hs.serverKey // a copy of the reply: the reliable layer drops it
	case c.phase.reattaching():
		a := c.mig.candidate(key)
		if a == nil {
			return false
		}
		hs.serverKey = *key
		cn.Secure(a)
		return true
	}
	keys, err := auth.Agree(c.cfg.Key, *key, cn.Ident().Conn, true)
	if err != nil {
		return false
	}
	hs.serverKey = *key
	cn.Secure(auth.NewConn(keys, true, now))
	return true
}

// maxUnsure bounds the frames a client keeps while it cannot check them:
// before its server's reply (a joiner's first chunks; a new server's
// Resume and tic sets, to a copy that reattaches), or while it does not
// know whether they are its server's broadcasts (the term, which comes
// with a reattaching copy's reply or Resume). More are dropped and
// counted as stale.
const maxUnsure = 64

// keep keeps a frame the client cannot check yet; past maxUnsure, the
// oldest goes, counted as stale (the newest are those a joiner needs: the
// tic sets that overtake its JoinStart).
func (hs *handshake) keep(pkt []byte) {
	if len(hs.unsure) == maxUnsure {
		hs.c.stats.Stale++
		hs.unsure = slices.Delete(hs.unsure, 0, 1)
	}
	hs.unsure = append(hs.unsure, slices.Clone(pkt))
}

// flushUnsure takes the frames kept while the client could not check
// them, those it can check now: those of its connection and term go on,
// the others are stale; all of them, if the connection ends first.
func (hs *handshake) flushUnsure(now int64) {
	c := hs.c
	if len(hs.unsure) == 0 {
		return
	}
	if c.phase.state() == ClientDisconnected {
		c.stats.Stale += int64(len(hs.unsure)) // the keys or the term never came
		hs.unsure = nil
		return
	}
	kept := hs.unsure
	hs.unsure = nil
	for _, f := range kept {
		if hs.checkable(wire.TagOf(f)) {
			c.receive(now, c.server, f)
		} else {
			hs.unsure = append(hs.unsure, f)
		}
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
