package netcore

import "github.com/ticnet/ticnet/netcore/wire"

// sentTic is a command this client built, kept for resends and clock sync.
type sentTic struct {
	seq    uint32
	valid  bool
	timeMS int64
	cmd    TicCmd
	diff   wire.TicDiff
}

// sendSide is the client's outgoing half: tic generation and the send queue.
type sendSide struct {
	maketic   uint32
	lastClock int64 // last adjusted clock tic seen
	firstMS   int64 // the first tic is built at this time
	queue     [BackupTics]sentTic
	last      TicCmd // the command built before, the reference's diff base
	// carry holds the events of this client's commands that the server
	// substituted (they came too late, or never): they go into the next
	// commands it builds, so that no one-off input is lost. An event that
	// a command has already waits for a later one, so each entry after
	// the first holds what the one before it could not.
	carry      []TicCmd
	ackPending bool // received tics not yet acknowledged
	ackSinceMS int64
}

// recvTic is a tic received, in the receive window.
type recvTic struct {
	tic         wire.ServerTic
	substituted uint8
	own         bool // the set left out this client's own command: see storeSet
}

// recvSide is the client's incoming half: the receive window.
type recvSide struct {
	start          uint32 // first tic not yet received in order
	recvtic        uint32 // complete tics received (== start)
	win            ticWindow
	tics           [BackupTics]recvTic // the tics win says have arrived
	base           [MaxPlayers]TicCmd  // each player's command of the tic before
	lastGameDataMS int64
	highest        uint32 // the latest tic received
	// The round trip of this client's commands (from one built to its tic
	// back: see afterTics), and the jitter of the server's tics' arrival
	// (from the newest of each packet, jitterTic): when to ask again, and
	// how long a gap may be reordering.
	rtt       rttEstimate
	jit       jitter
	jitterTic uint32
	// loss is the share of the server's packets lost on the way: under the
	// extension this client sends each command in as many packets as that
	// takes (copiesFor), the server's own rule for its sets.
	loss lossEstimate
}

func (c *Client) startGame(now int64) {
	c.send = sendSide{}
	c.mig = migrateSide{played: true}
	c.report.Sums = c.report.Sums[:0]
	c.recv = recvSide{lastGameDataMS: now}
	c.loop.reset()
	c.pred = predictSide{}
	c.rec = recorder{}
	c.send.firstMS = now + c.clock.startDelayMS()
	c.send.lastClock = c.clockTic(now) - 1 // build tic 0 on the first pass
}

// clockTic is the adjusted clock in network tics.
func (c *Client) clockTic(now int64) int64 {
	t := now + c.clock.offsetMS(c)
	return t * int64(c.TicRate()) / 1000 / int64(c.settings.TicDup)
}

func (c *Client) runGame(now int64) {
	if c.starting {
		return // the game is called from the next Update on (Client.starting)
	}
	c.buildTics(now)
	if c.mig.resuming {
		// No acknowledgement, no resend request: the server that took
		// the game over sends what this copy lacks once it resumes.
		c.runTics()
		return
	}
	c.requestMissing(now)
	c.advanceWindow()
	if c.send.ackPending && now-c.send.ackSinceMS > c.ackDelayMS() {
		c.sendAck(now)
	}
	c.runTics()
	c.endIfDone(now)
}

// JoinAckDelayMS is how long a joining copy waits before it acknowledges
// the tics it received: it sends no commands for the acknowledgement to
// ride on, and the server sends lost tics again when an acknowledgement
// stays stuck, so it acknowledges often while it catches up.
const JoinAckDelayMS = 50

func (c *Client) ackDelayMS() int64 {
	if c.join.active {
		return JoinAckDelayMS
	}
	return GameDataAckDelayMS
}

// buildTics builds one command per elapsed tic of the adjusted clock, up to
// MaxClientLeadTics ahead of the game (spec §11.2).
func (c *Client) buildTics(now int64) {
	clock := c.clockTic(now)
	if now < c.send.firstMS {
		c.send.lastClock = clock - 1
		return
	}
	if !c.clock.paced(c, clock) {
		return
	}
	n := clock - c.send.lastClock
	c.send.lastClock = clock
	if c.player < 0 || c.join.active {
		return // a drone, a spectator, or not in the game yet
	}
	c.clock.skipComplete(c)
	lead := c.clock.lead()
	for ; n > 0; n-- {
		if c.send.maketic-c.loop.tl.GameTic() > lead || c.end.active && c.send.maketic >= c.end.tic {
			break
		}
		c.buildTic(now)
	}
}

func (c *Client) buildTic(now int64) {
	m := c.send.maketic
	cmd := ownCommand(&c.cfg.Input, c.game.BuildTiccmd(m))
	c.mergeCarried(&cmd)
	if !c.cfg.Input.Opaque() {
		cmd.Consistency = c.loop.consistency[c.player][m%BackupTics]
	}
	d := wire.Diff(c.clock.diffBase(&c.send.last), &cmd)
	c.send.queue[m%BackupTics] = sentTic{seq: m, valid: true, timeMS: now, cmd: cmd, diff: d}
	c.send.last = cmd
	c.send.maketic++
	if c.mig.resuming && c.conn.state != connConnected {
		return // sent once the new server has its connection
	}
	extra := c.clock.copies(c)
	c.sendTics(now, m-min(m, extra), m)
}

// sendTics sends the commands for tics [first, last] with the current ack,
// in as many packets as it takes for each to fit a reference peer's receive
// buffer.
func (c *Client) sendTics(now int64, first, last uint32) {
	g := &c.outGD
	g.Ack = uint8(c.recv.start)
	g.Start = uint8(first)
	g.Tics = g.Tics[:0]
	for t := first; t <= last; t++ {
		s := &c.send.queue[t%BackupTics]
		g.Tics = append(g.Tics, wire.ClientTic{Latency: int16(c.sync.lastLatency), Diff: s.diff})
	}
	g.Report.Sums = g.Report.Sums[:0]
	if r := &c.report; len(r.Sums) >= ChecksumReportTics && !c.mig.resuming {
		g.Report.Start, g.Report.Sums = r.Start, append(g.Report.Sums, r.Sums...)
	}
	c.pkt = wire.Encode(c.pkt[:0], g, false, 0)
	if len(c.pkt) > MaxDatagram && first < last {
		mid := first + (last-first)/2
		c.sendTics(now, first, mid)
		c.sendTics(now, mid+1, last)
		return
	}
	c.conn.send(now, c.pkt)
	c.send.ackPending = false
	if len(g.Report.Sums) > 0 {
		c.report.Sums = c.report.Sums[:0] // it went with the commands
	}
}

func (c *Client) sendAck(now int64) {
	c.pkt = wire.Encode(c.pkt[:0], &wire.GameDataAck{Ack: uint8(c.recv.start)}, false, 0)
	c.conn.send(now, c.pkt)
	c.send.ackPending = false
}

// decodeSet decodes a tic set from the server into c.inSet.
func (c *Client) decodeSet(body []byte) error {
	s := &c.inSet
	s.Near = c.recv.start
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
func (c *Client) storeSet(now int64, s *wire.TicSet) {
	for i := range s.Tics {
		t, tic := &s.Tics[i], s.Start+uint32(i)
		own := s.LeavesOutRecipient && t.Has(c.player) && t.Substituted&(1<<c.player) == 0
		if own {
			if q := &c.send.queue[tic%BackupTics]; !q.valid || q.seq != tic {
				c.stats.Unexpected++
				continue
			}
		}
		c.storeTic(now, tic, &t.ServerTic, t.Substituted, own)
	}
}

// inWindow reports whether tic fits the receive window: not received yet,
// and not so far ahead that the loop could not hold it.
func (c *Client) inWindow(tic uint32) bool {
	if tic-c.recv.start >= BackupTics {
		return false
	}
	if c.join.active {
		// A joiner holds what arrives while its snapshot does, as far as
		// its timeline reaches.
		return int(tic-c.loop.tl.First()) < c.loop.tl.max()
	}
	return tic-c.loop.tl.GameTic() < BackupTics
}

// cmdFormat is how this game's commands travel.
func (c *Client) cmdFormat() wire.CmdFormat {
	return wire.CmdFormat{LowResTurn: c.settings.LowResTurn, InputSize: c.cfg.Input.Size}
}

// storeTic stores a tic received; own says that it leaves out this client's
// own command, which the client has.
func (c *Client) storeTic(now int64, tic uint32, t *wire.ServerTic, substituted uint8, own bool) {
	if !c.inWindow(tic) {
		if c.recv.start-tic <= BackupTics {
			c.stats.Duplicates++ // a copy of a tic we have: extratics at work
		} else {
			c.stats.Unexpected++ // beyond the window: dropped
		}
		return
	}
	if int32(tic-c.recv.highest) > 0 {
		c.recv.highest = tic
	}
	c.recv.win.arrive(tic)
	c.recv.tics[tic%BackupTics] = recvTic{tic: *t, substituted: substituted, own: own}
	c.recv.lastGameDataMS = now
}

// afterTics runs after a packet of n tics from start: clock sync on its last
// tic, gap detection, ack timer, window advance.
func (c *Client) afterTics(now int64, start uint32, n int) {
	if n == 0 {
		return
	}
	last := start + uint32(n) - 1
	c.updateClockSync(now, last, int64(c.lastLatencyOf(last)))
	c.recv.loss.add(last)
	if int32(last-c.recv.jitterTic) > 0 {
		// The newest tic yet: its arrival times the stream, and, if this
		// client built its command, a round trip (less the input delay
		// the command was built ahead by; with the few ms it waited at
		// the server: a little long).
		c.recv.jitterTic = last
		c.recv.jit.add(now - c.scheduleMS(last))
		if q := &c.send.queue[last%BackupTics]; q.valid && q.seq == last {
			c.recv.rtt.add(max(0, now-q.timeMS-int64(c.cfg.InputDelay)*1000/int64(c.TicRate())))
		}
	}
	// Gap detection: the run of missing tics just before start is asked
	// for if it stays missing (requestMissing).
	if start-c.recv.start < BackupTics && start > c.recv.start {
		if t := c.recv.win.gapBefore(c.recv.start, start, c.inWindow); t < start {
			c.recv.win.noteGap(now, c.recv.start, t, start-t)
		}
	}
	if !c.send.ackPending {
		c.send.ackPending = true
		c.send.ackSinceMS = now
	}
	c.advanceWindow()
}

func (c *Client) lastLatencyOf(tic uint32) int16 {
	if c.recv.win.has(tic) {
		return c.recv.tics[tic%BackupTics].tic.Latency
	}
	return 0
}

// updateClockSync is the reference's PID filter (KP 0.1, KI 0.01, KD 0.02).
func (c *Client) updateClockSync(now int64, seq uint32, remoteLatency int64) {
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
func (c *Client) requestResend(now int64, start, count uint32) {
	c.recv.win.ask(now, c.recv.start, start, count, c.sendResendRequest)
}

func (c *Client) sendResendRequest(start uint32, count uint8) {
	c.pkt = wire.Encode(c.pkt[:0], &wire.GameDataResend{Start: start, Count: count}, false, 0)
	c.conn.send(c.nowMS, c.pkt)
	c.stats.ResendRequests++
}

// scheduleMS is when tic t is due on the game's clock, from tic 0.
func (c *Client) scheduleMS(t uint32) int64 {
	return int64(t) * 1000 * int64(c.settings.TicDup) / int64(c.TicRate())
}

// requestMissing asks for the tics that stayed missing for a reorder
// window, again for those still missing a resend timeout after they were
// asked for (ResendRetryMS until a round trip is measured), and breaks the
// start-of-game deadlock (spec §9.5).
func (c *Client) requestMissing(now int64) {
	if c.recv.win.askOverdue(now, c.recv.start, c.recv.jit.reorderMS(), c.recv.rtt.Timeout(ResendRetryMS), c.sendResendRequest) {
		c.recv.rtt.backOff()
	}
	if !c.recv.win.expected(c.recv.start) && now-c.recv.lastGameDataMS > DeadlockMS {
		c.requestResend(now, c.recv.start, 1)
		c.recv.lastGameDataMS = now
	}
}

// advanceWindow confirms every tic received in order: it moves them to the
// timeline.
func (c *Client) advanceWindow() {
	for c.loop.tl.Room() > 0 {
		t := c.recv.start
		if !c.recv.win.has(t) {
			return
		}
		s := &c.recv.tics[t%BackupTics]
		ct := ConfirmedTic{Substituted: s.substituted}
		for p := range MaxPlayers {
			if !s.tic.Has(p) {
				c.clock.absent(&c.recv.base[p])
				continue
			}
			ct.InGame |= 1 << p
			if s.own && p == c.player {
				ct.Cmds[p] = c.cmdFormat().AsSent(c.send.queue[t%BackupTics].cmd)
			} else {
				ct.Cmds[p] = wire.Patch(&c.recv.base[p], &s.tic.Cmds[p])
			}
			c.recv.base[p] = ct.Cmds[p]
		}
		c.clock.substituted(c, t, &ct)
		c.loop.tl.Confirm(ct)
		c.recv.win.forget(t)
		c.recv.start++
		c.recv.recvtic = c.recv.start
	}
}

// onResendRequest answers the server's request with the commands we hold.
func (c *Client) onResendRequest(now int64, body []byte) error {
	if c.state != ClientInGame || c.cfg.Drone {
		return errUnexpected{}
	}
	var m wire.GameDataResend
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	first, last := m.Start, m.Start+uint32(m.Count) // [first, last)
	held := func(t uint32) bool {
		q := &c.send.queue[t%BackupTics]
		return t < c.send.maketic && q.valid && q.seq == t
	}
	for first < last && !held(first) {
		first++
	}
	for last > first && !held(last-1) {
		last--
	}
	if first == last {
		return nil
	}
	for t := first; t < last; t++ {
		if !held(t) {
			return nil // a hole: the reference would send garbage; send nothing
		}
	}
	c.stats.TicsResent += int64(last - first)
	c.sendTics(now, first, last-1)
	return nil
}

// ChecksumReportTics is how many tics' checksums a client reports at once
// under the extension protocol: they ride on the GAMEDATA it sends next,
// 19 bytes every 8 tics. A report goes in a frame of its own only when
// twice as many wait (the client builds no commands: it ran out of lead,
// or the game is ending).
const ChecksumReportTics = 8

// reportChecksum collects the checksum after tic g for the next report.
func (c *Client) reportChecksum(g uint32, sum uint32) {
	r := &c.report
	if len(r.Sums) == 0 {
		r.Start = g
	}
	r.Sums = append(r.Sums, wire.Sum16(sum))
	if c.mig.resuming {
		// Kept for the new server, as many as a report holds.
		if len(r.Sums) == wire.MaxChecksums {
			r.Sums = r.Sums[:0]
		}
		return
	}
	if len(r.Sums) >= 2*ChecksumReportTics {
		c.pkt = wire.Encode(c.pkt[:0], r, false, 0)
		c.conn.send(c.nowMS, c.pkt)
		r.Sums = r.Sums[:0]
	}
}

// carryEvents takes the events of this client's command for tic t when the
// server substituted it, into the next command the client builds: the
// server ran the tic without them, and every copy runs them in that next
// command instead. The client decides, not the server, because only the
// client knows a command that never reached the server (lost, or sent
// while the link was silent); every copy agrees, because the events travel
// in an ordinary command.
func (c *Client) carryEvents(t uint32, ct *ConfirmedTic) {
	p := c.player
	if p < 0 || ct.Substituted&(1<<p) == 0 {
		return
	}
	q := &c.send.queue[t%BackupTics]
	if !q.valid || q.seq != t {
		return // not built here (this copy joined, or took the player back)
	}
	ev := c.cfg.Input.EventsOf(&q.cmd)
	if ev == (TicCmd{}) {
		return
	}
	c.stats.EventsCarried++
	for i := range c.send.carry {
		if ev = c.cfg.Input.MergeEvents(&c.send.carry[i], ev); ev == (TicCmd{}) {
			return
		}
	}
	if len(c.send.carry) == MaxCarried {
		c.stats.EventsDropped++ // the same event pressed in MaxCarried substituted commands
		return
	}
	c.send.carry = append(c.send.carry, ev)
}

// MaxCarried bounds the commands' worth of events a client carries.
const MaxCarried = BackupTics

// mergeCarried adds to cmd the carried events it has room for.
func (c *Client) mergeCarried(cmd *TicCmd) {
	if len(c.send.carry) == 0 {
		return
	}
	rest := c.send.carry[:0]
	for _, ev := range c.send.carry {
		if ev = c.cfg.Input.MergeEvents(cmd, ev); ev != (TicCmd{}) {
			rest = append(rest, ev)
		}
	}
	c.send.carry = rest
}
