package auth

import (
	"crypto/subtle"
	"errors"
	"math/bits"
)

// The trailer of an authenticated frame: the tag, then the low byte of
// the sender's counter; a broadcast's has a tag per recipient, then the
// counter's byte and the mask of the recipients.
//
// A tag of 4 bytes lets a forger's frame through once in 2^32: on a
// channel where each guess is a frame sent, and a hit buys one frame (a
// command for one tic, never the key), a member sending a thousand frames
// a second would wait 50 days for one. SRTP's shortest tag
// (HMAC-SHA1-32, RFC 3711) is the same length, for the same reason: a
// frame's worth of bytes per tic is what the game pays.
const (
	TagLen     = 4
	CounterLen = 1
	// Overhead is what authentication adds to a frame of a connection.
	Overhead = TagLen + CounterLen
	// MaxRecipients is how many recipients a broadcast's mask can name:
	// the game's players, by number.
	MaxRecipients = 8
)

// The errors of a frame dropped: its tag does not check (or it has no
// trailer, or a broadcast none for this receiver), or it was taken
// before or is older than the window.
var (
	ErrForged   = errors.New("auth: the frame's tag does not check")
	ErrReplayed = errors.New("auth: the frame was seen before, or is too old")
	// ErrBefore is the error of a broadcast sent before this end could
	// check it (SyncBroadcasts): it had no tag for it then.
	ErrBefore = errors.New("auth: the frame was sent before this end could check it")
)

// Conn is one end of an authenticated connection: its keys, the counter
// of what it sent, and what it took of the peer's frames (a client's
// also of the server's broadcasts).
type Conn struct {
	keys         Keys
	sent         uint64
	uni, casts   window
	sendDom, rcv byte // the domains of what it sends and receives
}

// NewConn makes an end of a connection whose keys were agreed at now, the
// client's or the server's.
func NewConn(k Keys, client bool, now int64) *Conn {
	c := &Conn{keys: k, sendDom: domainToClient, rcv: domainToServer}
	if client {
		c.sendDom, c.rcv = domainToServer, domainToClient
	}
	c.uni.lastMS, c.casts.lastMS = now, now
	return c
}

// Seal appends the trailer to frame (in place, when its capacity allows).
func (c *Conn) Seal(frame []byte) []byte {
	c.sent++
	t := c.keys.send.tag(c.sendDom, 0, c.sent, frame)
	return append(append(frame, t[:]...), byte(c.sent))
}

// Open checks a frame of the peer's and returns it without its trailer
// (a slice of frame).
func (c *Conn) Open(now int64, frame []byte) ([]byte, error) {
	if len(frame) < Overhead {
		return nil, ErrForged
	}
	n := len(frame) - Overhead
	body, tag, low := frame[:n], [TagLen]byte(frame[n:]), frame[len(frame)-1]
	if err := c.keys.recv.open(now, &c.uni, c.rcv, 0, body, low, tag); err != nil {
		return nil, err
	}
	return body, nil
}

// OpenBroadcast checks a frame sealed for many (Broadcast.Seal), by this
// end's tag in it, as recipient number player, and returns it without
// its trailer: a frame the server broadcast, at a client that plays
// player; or, at a server that took a game over as player's copy, the
// first words of a copy that reattaches, sealed for every player's copy
// that may have taken it over.
func (c *Conn) OpenBroadcast(now int64, frame []byte, player int) ([]byte, error) {
	if len(frame) < 2 || player < 0 || player >= MaxRecipients {
		return nil, ErrForged
	}
	mask, low := frame[len(frame)-1], frame[len(frame)-2]
	k := bits.OnesCount8(mask)
	n := len(frame) - 2 - k*TagLen
	switch {
	case c.casts.nearest(low) <= c.casts.floor:
		return nil, ErrBefore // with no tag for this end, likely
	case n < 0 || mask&(1<<player) == 0:
		return nil, ErrForged
	}
	at := n + bits.OnesCount8(mask&(1<<player-1))*TagLen
	body, tag := frame[:n], [TagLen]byte(frame[at:])
	if err := c.keys.recv.open(now, &c.casts, domainBroadcast, mask, body, low, tag); err != nil {
		return nil, err
	}
	return body, nil
}

// StripBroadcast takes the trailer off a frame the server broadcast,
// unchecked: for a copy that has no tag in it (a watcher, which checks
// the tics it runs against the chain the server signs, or a host's own
// client, which the channel cannot reach).
func StripBroadcast(frame []byte) ([]byte, error) {
	if len(frame) < 2 {
		return nil, ErrForged
	}
	n := len(frame) - 2 - bits.OnesCount8(frame[len(frame)-1])*TagLen
	if n < 0 {
		return nil, ErrForged
	}
	return frame[:n], nil
}

// open takes into w the counter whose low byte is low, if body's tag
// under it, in domain with mask, is tag: the counter nearest the highest
// taken, or after a silence (window.resyncs) one 256 further, or 512...
func (k *Key) open(now int64, w *window, domain, mask byte, body []byte, low byte, tag [TagLen]byte) error {
	ctr := w.nearest(low)
	if ctr <= w.floor {
		return ErrBefore
	}
	fresh := w.fresh(ctr)
	ok := fresh && k.check(domain, mask, ctr, body, tag)
	for i := 0; !ok && i < w.resyncs(now); i++ {
		ctr += 256
		ok = k.check(domain, mask, ctr, body, tag)
	}
	switch {
	case ok:
		w.take(now, ctr)
		return nil
	case !fresh:
		return ErrReplayed
	}
	return ErrForged
}

// SyncBroadcasts tells a client's end how many frames the server had
// broadcast (Broadcast.Sent), as of now: it checks those that follow,
// which it could not tell from a frame's counter byte alone once it had
// checked none for a while (it joined a game in progress, or watched the
// last one).
func (c *Conn) SyncBroadcasts(sent uint64, now int64) {
	c.casts = window{hi: sent, seen: ^uint64(0), lastMS: now, floor: sent}
}

// Broadcast is the server's counter of the frames it broadcasts.
type Broadcast struct{ sent uint64 }

// Sent is how many frames it broadcast.
func (b *Broadcast) Sent() uint64 { return b.sent }

// Seal appends to frame a tag for each connection of to (by recipient
// number; nil: none), the counter's byte and the mask.
func (b *Broadcast) Seal(frame []byte, to *[MaxRecipients]*Conn) []byte {
	b.sent++
	var mask byte
	for p, c := range to {
		if c != nil {
			mask |= 1 << p
		}
	}
	n := len(frame)
	for _, c := range to {
		if c != nil {
			t := c.keys.send.tag(domainBroadcast, mask, b.sent, frame[:n])
			frame = append(frame, t[:]...)
		}
	}
	return append(frame, byte(b.sent), mask)
}

// check reports, in constant time, whether tag is body's.
func (k *Key) check(domain, mask byte, ctr uint64, body []byte, tag [TagLen]byte) bool {
	t := k.tag(domain, mask, ctr, body)
	return subtle.ConstantTimeCompare(t[:], tag[:]) == 1
}
