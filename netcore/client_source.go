package netcore

import (
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Tic sources, under the extension (watch_sources.go): a watcher asks the
// copy the server named for the tics it misses (wire.TicSource), not the
// server, as soon as it misses them, with a TicFetch tagged with its
// connection's tag, and takes the TicSet that answers, of the same tag,
// from that copy alone. A request that copy leaves unanswered for a
// resend timeout goes to the server. The copy answers the watchers the
// server named to it, at most MaxServes, with the tics it holds,
// confirmed or received while an earlier one is missing, and those it
// lacks once it has them, for PendingFetchMS.

// MaxServes bounds the watchers one copy answers for the tics they miss.
const MaxServes = 4

// MaxFetchTics bounds the tics one TicFetch is answered with: two sets of
// the most tics the server puts in one (32).
const MaxFetchTics = 64

// PendingFetchMS is how long a copy keeps the part of a request it could
// not answer, the tics it does not hold yet, to send them once it does:
// a watcher's source misses tics too, and gets them soon after.
const PendingFetchMS = 1000

// served is a watcher this copy answers.
type served struct {
	to     link.Addr
	tag    uint8
	usedMS int64 // when it last asked, or was named
	// The tics it asked for and this copy has not sent yet: bit i of
	// wanted is tic want+i; kept until wantUntilMS.
	want        uint32
	wanted      uint64
	wantUntilMS int64
}

// sourceSide is this copy's tic sources: the copy it asks for the tics it
// misses, if it watches, and the watchers it answers.
type sourceSide struct {
	c   *Client
	src link.Addr // 0: the server
	// For each tic of the window, the tic plus one if src was asked for
	// it.
	asked    [BackupTics]uint32
	serves   []served
	out      wire.TicSet // scratch for an answer
	in       wire.TicSet
	pkt, buf []byte // scratch for a frame sent, and one received
}

// reset forgets every source: a new game, or a new server, names them.
func (ss *sourceSide) reset() {
	*ss = sourceSide{c: ss.c, serves: ss.serves[:0], out: ss.out, in: ss.in, pkt: ss.pkt, buf: ss.buf}
}

// onTicSource takes the server's word: the copy this watcher asks, or a
// watcher this copy answers.
func (ss *sourceSide) onTicSource(now int64, body []byte) error {
	c := ss.c
	var m wire.TicSource
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	to := link.Addr(m.To)
	if c.phase.state() != ClientInGame || to == c.server || m.Serve && to == link.Broadcast {
		return errUnexpected{}
	}
	if !m.Serve {
		if c.player >= 0 || m.Tag != wire.ConnTag(c.conn.Ident().Conn) {
			return errUnexpected{}
		}
		ss.src = to
		return nil
	}
	for i := range ss.serves {
		if ss.serves[i].to == to {
			ss.serves[i] = served{to: to, tag: m.Tag, usedMS: now}
			return nil
		}
	}
	if len(ss.serves) < MaxServes {
		ss.serves = append(ss.serves, served{to: to, tag: m.Tag, usedMS: now})
		return nil
	}
	// Full: the server counts only the watchers still connected, so the
	// one that asked least lately is most likely gone.
	old := 0
	for i := range ss.serves {
		if ss.serves[i].usedMS < ss.serves[old].usedMS {
			old = i
		}
	}
	ss.serves[old] = served{to: to, tag: m.Tag, usedMS: now}
	return nil
}

// ask asks the copy named for tics [start, start+count), the first time
// they are asked for; it reports false when the server is to be asked:
// none is named, or the copy was asked already and did not answer in a
// resend timeout (it may lack them too, or the request or its answer was
// lost). The resend timeout is the one for the server: a watcher that
// waits longer on a lossy link risks falling a window behind.
func (ss *sourceSide) ask(start uint32, count uint8) bool {
	c := ss.c
	if ss.src == 0 || ss.asked[start%BackupTics] == start+1 {
		return false
	}
	for t := start; t-start < uint32(count); t++ {
		ss.asked[t%BackupTics] = t + 1
	}
	ss.pkt = wire.Encode(ss.pkt[:0], &wire.TicFetch{Start: start, Count: count}, false, 0)
	wire.SetTag(ss.pkt, wire.ConnTag(c.conn.Ident().Conn))
	c.tr.Send(ss.src, ss.pkt)
	c.stats.TicFetches++
	return true
}

// take takes a frame from another copy that is a tic source's: a TicSet
// from the copy named, or a TicFetch from a watcher this copy answers.
// It reports whether it took it.
func (ss *sourceSide) take(now int64, from link.Addr, pkt []byte) bool {
	c := ss.c
	if from == 0 || c.phase.state() != ClientInGame || c.phase.reattaching() || len(pkt) < 3 {
		return false
	}
	tag := wire.TagOf(pkt)
	body, ok := peerBody(&ss.buf, pkt)
	if !ok {
		return false
	}
	kind := body[0]
	switch {
	case kind == wire.TicnetKindTicSet && from == ss.src && tag == wire.ConnTag(c.conn.Ident().Conn):
		ss.onTicSet(now, body)
		return true
	case kind == wire.TicnetKindAttest && from == ss.src && tag == wire.ConnTag(c.conn.Ident().Conn):
		c.stats.tally(c.check.onAttest(body)) // signed: as good from it as from the server
		return true
	case kind == wire.TicnetKindTicFetch:
		for i := range ss.serves {
			if sv := &ss.serves[i]; sv.to == from && sv.tag == tag {
				sv.usedMS = now
				ss.answer(now, sv, body)
				return true
			}
		}
	}
	return false
}

// onTicSet stores the tics the copy named sent: as the server's, but
// they time nothing (clockSync, jitter and loss measure the server's
// stream).
func (ss *sourceSide) onTicSet(now int64, body []byte) {
	c := ss.c
	s := &ss.in
	*s = wire.TicSet{LowResTurn: c.settings.LowResTurn, InputSize: c.cfg.Input.Size, Near: c.recv.start, Tics: s.Tics[:0]}
	if err := s.DecodeBody(body); err != nil {
		c.stats.Malformed++
		return
	}
	if s.LeavesOutRecipient || len(s.Timing) > 0 || len(s.Figures) > 0 {
		c.stats.Unexpected++ // a server's, not a copy's
		return
	}
	c.recv.storeSet(now, s, false)
	if !c.send.ackPending {
		c.send.ackPending = true
		c.send.ackSinceMS = now
	}
	c.recv.advanceWindow()
}

// answer sends a watcher the tics it asks for that this copy holds, at
// most MaxFetchTics, and keeps those it lacks for PendingFetchMS (pump).
func (ss *sourceSide) answer(now int64, sv *served, body []byte) {
	c := ss.c
	var m wire.TicFetch
	if err := m.DecodeBody(body); err != nil {
		c.stats.Malformed++
		return
	}
	n := min(int(m.Count), MaxFetchTics)
	sv.want, sv.wanted = m.Start, 1<<n-1
	if n == 64 {
		sv.wanted = ^uint64(0)
	}
	sv.wantUntilMS = now + PendingFetchMS
	ss.send(sv)
}

// pump sends the watchers this copy answers the tics they asked for that
// it has received since.
func (ss *sourceSide) pump(now int64) {
	for i := range ss.serves {
		sv := &ss.serves[i]
		if sv.wanted == 0 {
			continue
		}
		if now > sv.wantUntilMS {
			sv.wanted = 0
			continue
		}
		ss.send(sv)
	}
}

// send sends sv the tics it wants that this copy holds: each run of them
// as a set of at most 32, then the newest attest this copy took (a
// watcher that misses tics likely missed the attest that vouches for
// them too).
func (ss *sourceSide) send(sv *served) {
	c := ss.c
	set := &ss.out
	sent := false
	send := func(m wire.Message) {
		ss.pkt = wire.Encode(ss.pkt[:0], m, false, 0)
		wire.SetTag(ss.pkt, sv.tag)
		c.tr.Send(sv.to, ss.pkt)
	}
	flush := func() {
		if len(set.Tics) == 0 {
			return
		}
		send(set)
		sent = true
		c.stats.TicsServed += int64(len(set.Tics))
		set.Tics = set.Tics[:0]
	}
	defer func() {
		if a, ok := c.check.newest(); sent && ok {
			send(&a)
		}
	}()
	*set = wire.TicSet{LowResTurn: c.settings.LowResTurn, InputSize: c.cfg.Input.Size, Tics: set.Tics[:0]}
	for i := range 64 {
		if sv.wanted&(1<<i) == 0 {
			continue
		}
		t := sv.want + uint32(i)
		st, ok := ss.held(t)
		if !ok || len(set.Tics) > 0 && set.Start+uint32(len(set.Tics)) != t || len(set.Tics) == 32 {
			flush()
		}
		if !ok {
			continue
		}
		if len(set.Tics) == 0 {
			set.Start = t
		}
		set.Tics = append(set.Tics, st)
		sv.wanted &^= 1 << i
	}
	flush()
}

// held returns tic t as a set carries it, if this copy holds it: a
// confirmed tic, its commands diffed against the tic before's, or one
// received and not confirmed yet (a tic before it is missing), as the
// server sent it (a watcher that checks its tics may hold a forgery
// there: the watcher it sends it to checks it too, and asks the server
// for the tics whose chain broke).
func (ss *sourceSide) held(t uint32) (wire.SetTic, bool) {
	c := ss.c
	tl := &c.loop.tl
	if ct := tl.Tic(t); ct != nil {
		prev := tl.Tic(t - 1)
		if prev == nil {
			return wire.SetTic{}, false
		}
		return setTic(prev, ct), true
	}
	rs := &c.recv
	if t-rs.start >= BackupTics || !rs.win.Has(t) {
		return wire.SetTic{}, false
	}
	r := &rs.tics[t%BackupTics]
	if r.own {
		return wire.SetTic{}, false
	}
	return wire.SetTic{ServerTic: r.tic, Substituted: r.substituted}, true
}
