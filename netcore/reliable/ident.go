package reliable

import "github.com/ticnet/ticnet/netcore/wire"

// A connection's identity, under the extension (wire.Ident): chosen by the
// client at its handshake, with the server's term. Once the connection is
// framed, every frame it sends carries its tag (Tag), and every frame it
// takes must carry it (Untag, the connection filter): a late copy of
// another connection's frame, or of another term's, is dropped and counted
// (Counters.Stale). Who chooses the identity, and when a connection
// becomes framed, is the client's and the server's handshake to say.

// Ident returns the connection's identity (zero under the reference).
func (c *Conn) Ident() wire.Ident { return c.id }

// Framed reports whether the connection's frames carry its tag.
func (c *Conn) Framed() bool { return c.framed }

// Name gives the connection its identity; whether its frames carry the
// tag stays as it was.
func (c *Conn) Name(id wire.Ident) { c.id = id }

// Frame gives the connection its identity, and its frames, both ways,
// carry its tag from now on.
func (c *Conn) Frame(id wire.Ident) { c.id, c.framed = id, true }

// Tag returns pkt as the connection sends it: with its tag once it is
// framed (in a scratch buffer, valid until the next Tag).
func (c *Conn) Tag(pkt []byte) []byte {
	if !c.framed {
		return pkt
	}
	c.out = append(c.out[:0], pkt...)
	wire.SetTag(c.out, wire.ConnTag(c.id.Conn))
	return c.out
}

// Untag is the connection filter: a frame of a framed connection must
// carry its tag, or, when broadcasts are allowed, the tag of the term
// this end knows. It returns the frame with the tag cleared (in a scratch
// buffer, valid until the next frame untagged: the frame itself may be
// shared); ok false: the frame is another connection's or another term's
// (a late copy of an old one), dropped and counted as Stale.
func (c *Conn) Untag(frame []byte, broadcast bool) ([]byte, bool) {
	tag := wire.TagOf(frame)
	if tag == 0 || tag != wire.ConnTag(c.id.Conn) && !(broadcast && c.id.Term != 0 && tag == wire.TermTag(c.id.Term)) {
		c.count.Stale++
		return nil, false
	}
	c.in = append(c.in[:0], frame...)
	wire.SetTag(c.in, 0)
	return c.in, true
}
