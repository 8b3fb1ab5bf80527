package netcore

import (
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// recvTic is a tic received, in the receive window.
type recvTic struct {
	tic         wire.ServerTic
	substituted uint8
	own         bool // the set left out this client's own command: see storeSet
	// sure: it came from the server over this copy's authenticated
	// connection, not in a broadcast a watcher cannot check (ticCheck).
	sure bool
}

// recvSide is the client's incoming half: the receive window.
type recvSide struct {
	c              *Client
	start          uint32 // first tic not yet received in order
	recvtic        uint32 // complete tics received (== start)
	win            reliable.Window
	tics           [BackupTics]recvTic     // the tics win says have arrived
	base           [tic.MaxPlayers]tic.Cmd // each player's command of the tic before
	lastGameDataMS int64
	highest        uint32    // the latest tic received
	chain          tic.Chain // of the confirmed tics, through the one before start
	// sure: the frame in hand came from the server over the client's
	// authenticated connection (handshake.admit)
	sure bool
	// The round trip of this client's commands (from one built to its tic
	// back: see afterTics), and the jitter of the server's tics' arrival
	// (from the newest of each packet, jitterTic): when to ask again, and
	// how long a gap may be reordering.
	rtt       reliable.RTT
	jit       reliable.Jitter
	jitterTic uint32
	// loss is the share of the server's packets lost on the way: under the
	// extension this client sends each command in as many packets as that
	// takes (copiesFor), the server's own rule for its sets.
	loss reliable.Loss
}

// decodeSet decodes a tic set from the server into c.inSet.
func (rs *recvSide) decodeSet(body []byte) error {
	c := rs.c
	s := &c.inSet
	s.Near = rs.start
	if err := s.DecodeBody(body); err != nil {
		return err
	}
	if s.LeavesOutRecipient && int(s.Recipient) != c.player {
		return errUnexpected{} // another client's
	}
	return nil
}

// storeSet stores the tics of set s. Where s leaves out this client's own
// commands, a tic whose command this client no longer holds cannot be
// completed: it is dropped, as if lost (the server leaves them out only
// from the client that sent them, which holds them until it has run them).
func (rs *recvSide) storeSet(now int64, s *wire.TicSet, sure bool) {
	c := rs.c
	for i := range s.Tics {
		t, tic := &s.Tics[i], s.Start+uint32(i)
		own := s.LeavesOutRecipient && t.Has(c.player) && t.Substituted&(1<<c.player) == 0
		if own {
			if q := &c.send.queue[tic%BackupTics]; !q.valid || q.seq != tic {
				c.stats.Unexpected++
				continue
			}
		}
		rs.storeTic(now, tic, &t.ServerTic, t.Substituted, own, sure)
	}
}

// inWindow reports whether tic fits the receive window: not received yet,
// and not so far ahead that the loop could not hold it.
func (rs *recvSide) inWindow(tic uint32) bool {
	c := rs.c
	if tic-rs.start >= BackupTics {
		return false
	}
	if c.phase.joining() {
		// A joiner holds what arrives while its snapshot does, as far as
		// its timeline reaches.
		return int(tic-c.loop.tl.First()) < c.loop.tl.Capacity()
	}
	return tic-c.loop.tl.GameTic() < BackupTics
}

// cmdFormat is how this game's commands travel.
func (rs *recvSide) cmdFormat() wire.CmdFormat {
	c := rs.c
	return wire.CmdFormat{LowResTurn: c.settings.LowResTurn, InputSize: c.cfg.Input.Size}
}

// storeTic stores a tic received; own says that it leaves out this client's
// own command, which the client has; sure that it came from the server
// over the client's authenticated connection.
func (rs *recvSide) storeTic(now int64, tic uint32, t *wire.ServerTic, substituted uint8, own, sure bool) {
	c := rs.c
	if !rs.inWindow(tic) {
		if rs.start-tic <= BackupTics {
			c.stats.Duplicates++ // a copy of a tic we have: extratics at work
		} else {
			c.stats.Unexpected++ // beyond the window: dropped
		}
		return
	}
	if int32(tic-rs.highest) > 0 {
		rs.highest = tic
	}
	if rs.win.Has(tic) && rs.tics[tic%BackupTics].sure && !sure {
		c.stats.Duplicates++ // it has the server's own
		return
	}
	rs.win.Arrive(tic)
	rs.tics[tic%BackupTics] = recvTic{tic: *t, substituted: substituted, own: own, sure: sure}
	rs.lastGameDataMS = now
}

// afterTics runs after a packet of n tics from start: clock sync on its last
// tic, gap detection, ack timer, window advance.
func (rs *recvSide) afterTics(now int64, start uint32, n int) {
	c := rs.c
	if n == 0 {
		return
	}
	last := start + uint32(n) - 1
	rs.updateClockSync(now, last, int64(rs.lastLatencyOf(last)))
	rs.loss.Add(last)
	if int32(last-rs.jitterTic) > 0 {
		// The newest tic yet: its arrival times the stream, and, if this
		// client built its command, a round trip (the server sends a tic
		// once its commands are in: with the wait for the others', when
		// its own was not the last, a little long).
		rs.jitterTic = last
		rs.jit.Add(now - rs.scheduleMS(last))
		if q := &c.send.queue[last%BackupTics]; q.valid && q.seq == last {
			rs.rtt.Add(max(0, now-q.timeMS))
		}
	}
	// Gap detection: the run of missing tics just before start is asked
	// for if it stays missing (requestMissing).
	if start-rs.start < BackupTics && start > rs.start {
		if t := rs.win.GapBefore(rs.start, start, rs.inWindow); t < start {
			rs.win.NoteGap(now, rs.start, t, start-t)
		}
	}
	if !c.send.ackPending {
		c.send.ackPending = true
		c.send.ackSinceMS = now
	}
	rs.advanceWindow()
}

// restart takes the server's stream up under a new server: the tics the
// old one sent, and the commands this client built before the new one
// took them, would time the migration, not the channel. The stream's
// jitter and the round trip are measured again from the tics after them,
// and the resend timeouts the old server let pass no longer count.
func (rs *recvSide) restart() {
	rs.jit.Restart()
	rs.rtt.Restart()
	if last := rs.c.send.maketic - 1; int32(last-rs.jitterTic) > 0 {
		rs.jitterTic = last
	}
}

func (rs *recvSide) lastLatencyOf(tic uint32) int16 {
	if rs.win.Has(tic) {
		return rs.tics[tic%BackupTics].tic.Latency
	}
	return 0
}

// updateClockSync is the reference's PID filter (KP 0.1, KI 0.01, KD 0.02).
func (rs *recvSide) updateClockSync(now int64, seq uint32, remoteLatency int64) {
	c := rs.c
	q := &c.send.queue[seq%BackupTics]
	var latency int64
	switch {
	case q.valid && q.seq == seq:
		latency = now - q.timeMS
	case !q.valid || seq > q.seq:
		latency = 0 // the tic came back before we built ours
	default:
		return
	}
	c.sync.update(latency, remoteLatency)
}

// requestResend asks the server for tics [start, start+count) again.
func (rs *recvSide) requestResend(now int64, start, count uint32) {
	rs.win.Ask(now, rs.start, start, count, rs.sendResendRequest)
}

func (rs *recvSide) sendResendRequest(start uint32, count uint8) {
	c := rs.c
	if !c.check.broken(c.nowMS) && c.src.ask(start, count) {
		return // a watcher's tic source's to send (client_source.go)
	}
	rs.askServer(start, count)
}

// askServer asks the server itself for count tics from start.
func (rs *recvSide) askServer(start uint32, count uint8) {
	c := rs.c
	c.pkt = wire.Encode(c.pkt[:0], &wire.GameDataResend{Start: start, Count: count}, false, 0)
	c.conn.Send(c.nowMS, c.pkt)
	c.stats.ResendRequests++
}

// scheduleMS is when tic t is due on the game's clock, from tic 0.
func (rs *recvSide) scheduleMS(t uint32) int64 {
	c := rs.c
	return int64(t) * 1000 * int64(c.settings.TicDup) / int64(c.TicRate())
}

// requestMissing asks for the tics that stayed missing for a reorder
// window (a watcher that has a source: at once, client_source.go), again
// for those still missing a resend timeout after they were
// asked for (ResendRetryMS until a round trip is measured), and breaks the
// start-of-game deadlock (spec §9.5).
func (rs *recvSide) requestMissing(now int64) {
	reorder := rs.jit.ReorderMS()
	if rs.c.src.src != 0 {
		// A watcher asks its source at once: a request and an answer
		// that a reordered tic makes moot cost the server nothing.
		reorder = 0
	}
	if rs.win.AskOverdue(now, rs.start, reorder, rs.rtt.Timeout(ResendRetryMS), rs.sendResendRequest) {
		rs.rtt.BackOff()
	}
	if !rs.win.Expected(rs.start) && now-rs.lastGameDataMS > DeadlockMS {
		rs.requestResend(now, rs.start, 1)
		rs.lastGameDataMS = now
	}
}

// advanceWindow confirms every tic received in order: it moves them to the
// timeline.
func (rs *recvSide) advanceWindow() {
	c := rs.c
	end, checked := c.check.end(c.nowMS)
	for c.loop.tl.Room() > 0 {
		t := rs.start
		if !rs.win.Has(t) || checked && t == end {
			return
		}
		ct := rs.build(t, &rs.base)
		ct.Chain = rs.chain.Next(t, &ct, c.cfg.Input.Size)
		rs.chain = ct.Chain
		c.clock.substituted(c, t, ct.Substituted)
		c.loop.tl.Confirm(ct)
		rs.win.Forget(t)
		rs.start++
		rs.recvtic = rs.start
	}
}

// build returns tic t of the window as the copy confirms it, its commands
// patched onto base, each player's command of the tic before, which it
// updates.
func (rs *recvSide) build(t uint32, base *[tic.MaxPlayers]tic.Cmd) tic.ConfirmedTic {
	c := rs.c
	s := &rs.tics[t%BackupTics]
	ct := tic.ConfirmedTic{Substituted: s.substituted}
	for p := range tic.MaxPlayers {
		if !s.tic.Has(p) {
			c.clock.absent(&base[p])
			continue
		}
		ct.InGame |= 1 << p
		if s.own && p == c.player {
			ct.Cmds[p] = rs.cmdFormat().AsSent(c.send.queue[t%BackupTics].cmd)
		} else {
			ct.Cmds[p] = wire.Patch(&base[p], &s.tic.Cmds[p])
		}
		base[p] = ct.Cmds[p]
	}
	return ct
}
