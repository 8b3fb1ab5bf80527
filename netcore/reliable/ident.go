package reliable

import (
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/wire"
)

// A connection's identity, under the extension (wire.Ident): chosen by the
// client at its handshake, with the server's term. Once the connection is
// framed, every frame it sends carries its tag (Tag), and every frame it
// takes must carry it (Untag, the connection filter): a late copy of
// another connection's frame, or of another term's, is dropped and counted
// (Counters.Stale). Once it is secured as well, every frame it sends
// carries its authentication (netcore/auth), and a frame it takes must
// check: one that does not, or that came before, is dropped and counted
// (Counters.Forged, Counters.Replayed) before anything reads it. Who
// chooses the identity and agrees the keys, and when a connection becomes
// framed and secured, is the client's and the server's handshake to say.

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

// Secure makes the connection's frames authenticated, both ways, by a:
// its end of the keys agreed at the handshake.
func (c *Conn) Secure(a *auth.Conn) { c.auth = a }

// Secured reports whether the connection's frames are authenticated.
func (c *Conn) Secured() bool { return c.auth != nil }

// SealFor makes what the connection sends until it is secured carry a
// tag under each of the keys of to (by recipient number): a copy that
// reattaches does not know yet which player's copy took its game over,
// and its first word goes with its SYN.
func (c *Conn) SealFor(to *[auth.MaxRecipients]*auth.Conn) { c.sealFor = to }

// SealedFor makes the connection, secured, take the peer's frames sealed
// for recipient number self among others (its SealFor) until one comes
// sealed for it alone.
func (c *Conn) SealedFor(self int) { c.sealedFor = self }

// SyncBroadcasts passes on how many frames the server broadcast, at a
// secured client's end (auth.Conn.SyncBroadcasts).
func (c *Conn) SyncBroadcasts(sent uint64, now int64) {
	if c.auth != nil {
		c.auth.SyncBroadcasts(sent, now)
	}
}

// Auth is the connection's end of its keys (nil: not secured), for the
// frames its owner authenticates for many at once (auth.Broadcast).
func (c *Conn) Auth() *auth.Conn { return c.auth }

// Tag returns pkt as the connection sends it: with its tag once it is
// framed, and its authentication once it is secured (in a scratch buffer,
// valid until the next Tag).
func (c *Conn) Tag(pkt []byte) []byte {
	if !c.framed {
		return pkt
	}
	c.out = append(c.out[:0], pkt...)
	wire.SetTag(c.out, wire.ConnTag(c.id.Conn))
	switch {
	case c.auth != nil:
		c.out = c.auth.Seal(c.out)
	case c.sealFor != nil:
		c.out = c.pre.Seal(c.out, c.sealFor)
	}
	return c.out
}

// Untag is the connection filter: a frame of a framed connection must
// carry its tag, or, when broadcasts are allowed, the tag of the term
// this end knows; a secured connection's must check (a broadcast by this
// end's tag in it, as recipient number player; one for no player, a
// watcher's or a host's own client's, is taken as it is). It returns the
// frame with its tag and authentication off (in a scratch buffer, valid
// until the next frame untagged: the frame itself may be shared); ok
// false: the frame is another connection's or another term's (a late
// copy of an old one), dropped and counted as Stale, or does not check
// or came before, counted as Forged or Replayed.
func (c *Conn) Untag(now int64, frame []byte, broadcast bool, player int) ([]byte, bool) {
	tag := wire.TagOf(frame)
	cast := broadcast && c.id.Term != 0 && tag == wire.TermTag(c.id.Term)
	if tag == 0 || tag != wire.ConnTag(c.id.Conn) && !cast {
		c.count.Stale++
		return nil, false
	}
	var err error
	switch {
	case cast && (c.auth == nil || player < 0):
		frame, err = auth.StripBroadcast(frame)
	case cast:
		frame, err = c.auth.OpenBroadcast(now, frame, player)
	case c.auth != nil:
		frame, err = c.open(now, frame)
	}
	switch err {
	case nil:
	case auth.ErrReplayed:
		c.count.Replayed++
		return nil, false
	case auth.ErrBefore:
		c.count.Stale++
		return nil, false
	default:
		c.count.Forged++
		return nil, false
	}
	c.in = append(c.in[:0], frame...)
	wire.SetTag(c.in, 0)
	return c.in, true
}

// open checks a frame of the peer's, sealed for this end alone or, until
// one is, for it among others (SealedFor).
func (c *Conn) open(now int64, frame []byte) ([]byte, error) {
	body, err := c.auth.Open(now, frame)
	switch {
	case err == nil:
		c.sealedFor = -1
	case c.sealedFor >= 0:
		if b, err2 := c.auth.OpenBroadcast(now, frame, c.sealedFor); err2 == nil {
			return b, nil
		}
	}
	return body, err
}
