package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// sentTic is a command this client built, kept for resends and clock sync.
type sentTic struct {
	seq    uint32
	valid  bool
	timeMS int64
	cmd    tic.Cmd
	diff   wire.TicDiff
}

// sendSide is the client's outgoing half: tic generation and the send queue.
type sendSide struct {
	c         *Client
	maketic   uint32
	lastClock int64 // last adjusted clock tic seen
	firstMS   int64 // the first tic is built at this time
	queue     [BackupTics]sentTic
	last      tic.Cmd // the command built before, the reference's diff base
	// carry holds the events of this client's commands that the server
	// substituted (they came too late, or never): they go into the next
	// commands it builds, so that no one-off input is lost. An event that
	// a command has already waits for a later one, so each entry after
	// the first holds what the one before it could not.
	carry []tic.Cmd
	// delay is how many tics before its tic the client builds each
	// command (ClientConfig.InputDelay, under the extension), and want the
	// delay the server chose for it (AutoDelay), from its next command on.
	delay, want int
	ackPending  bool // received tics not yet acknowledged
	ackSinceMS  int64
}

// clockTic is the adjusted clock in network tics.
func (ss *sendSide) clockTic(now int64) int64 {
	c := ss.c
	t := now + c.clock.offsetMS(c)
	return t * int64(c.TicRate()) / 1000 / int64(c.settings.TicDup)
}

// JoinAckDelayMS is how long a joining copy waits before it acknowledges
// the tics it received: it sends no commands for the acknowledgement to
// ride on, and the server sends lost tics again when an acknowledgement
// stays stuck, so it acknowledges often while it catches up.
const JoinAckDelayMS = 50

func (ss *sendSide) ackDelayMS() int64 {
	c := ss.c
	if c.phase.joining() {
		return JoinAckDelayMS
	}
	return GameDataAckDelayMS
}

// buildTics builds one command per elapsed tic of the adjusted clock, up to
// MaxClientLeadTics ahead of the game (spec §11.2).
func (ss *sendSide) buildTics(now int64) {
	c := ss.c
	if ss.want != ss.delay && now >= ss.firstMS && c.player >= 0 && !c.phase.joining() {
		ss.changeDelay(now)
	}
	clock := ss.clockTic(now)
	if now < ss.firstMS {
		ss.lastClock = clock - 1
		return
	}
	if !c.clock.paced(c, clock) {
		return
	}
	n := clock - ss.lastClock
	ss.lastClock = clock
	if c.player < 0 || c.phase.joining() {
		return // a drone, a spectator, or not in the game yet
	}
	c.clock.skipComplete(c)
	lead := c.clock.lead()
	for ; n > 0; n-- {
		if ss.maketic-c.loop.tl.GameTic() > lead || c.end.active && ss.maketic >= c.end.tic {
			break
		}
		ss.buildTic(now)
	}
}

// changeDelay moves the client to the delay the server chose (want), at
// once: its clock moves by the difference, so that its commands reach the
// server as early as the new delay says. A longer delay builds the tics
// it adds now, each the command before with its events cleared (the rule
// by which the server substitutes a command: no one-off input runs
// twice), with the events of substituted commands carried into it as
// into any command; a shorter one builds none until the clock has come back, and
// the game's input waits for its next command (none is lost). Either way
// the tic the game runs to with prediction (maketic less the delay) does
// not move. The server is told (wire.InputDelay) and the game
// (EventInputDelay).
func (ss *sendSide) changeDelay(now int64) {
	c := ss.c
	k := ss.want - ss.delay
	c.sync.extOffsetMS += int64(k) * 1000 * int64(c.settings.TicDup) / int64(c.TicRate())
	ss.delay = ss.want
	if k > 0 {
		ss.lastClock += int64(k) // the tics added are built here
	}
	for ; k > 0; k-- {
		cmd := c.cfg.Input.ClearEvents(ss.last)
		ss.mergeCarried(&cmd) // the events of substituted commands wait for no one
		ss.buildCmd(now, cmd)
	}
	c.clock.tellDelay(c, false)
	c.emit(Event{Kind: EventInputDelay, Player: c.player, Tic: ss.maketic, Delay: ss.delay})
}

func (ss *sendSide) buildTic(now int64) {
	c := ss.c
	cmd := ownCommand(&c.cfg.Input, c.game.BuildTiccmd(ss.maketic))
	ss.mergeCarried(&cmd)
	ss.buildCmd(now, cmd)
}

// buildCmd makes cmd the command of tic maketic, and sends it.
func (ss *sendSide) buildCmd(now int64, cmd tic.Cmd) {
	c := ss.c
	m := ss.maketic
	if !c.cfg.Input.Opaque() {
		cmd.Consistency = c.loop.consistency[c.player][m%BackupTics]
	}
	base := c.clock.diffBase(&ss.last)
	d := wire.Diff(&base, &cmd)
	ss.queue[m%BackupTics] = sentTic{seq: m, valid: true, timeMS: now, cmd: cmd, diff: d}
	ss.last = cmd
	ss.maketic++
	if c.phase.reattaching() && !c.conn.Connected() {
		return // sent once the new server has its connection
	}
	extra := c.clock.copies(c)
	ss.sendTics(now, m-min(m, extra), m)
}

// sendTics sends the commands for tics [first, last] with the current ack,
// in as many packets as it takes for each to fit a reference peer's receive
// buffer.
func (ss *sendSide) sendTics(now int64, first, last uint32) {
	c := ss.c
	g := &c.outGD
	g.Ack = uint8(c.recv.ackTic())
	g.Start = uint8(first)
	g.Tics = g.Tics[:0]
	for t := first; t <= last; t++ {
		s := &ss.queue[t%BackupTics]
		g.Tics = append(g.Tics, wire.ClientTic{Latency: int16(c.sync.lastLatency), Diff: s.diff})
	}
	g.Report.Sums = g.Report.Sums[:0]
	if r := &c.report; len(r.Sums) >= ChecksumReportTics && !c.phase.reattaching() {
		g.Report.Start, g.Report.Sums = r.Start, append(g.Report.Sums, r.Sums...)
	}
	c.pkt = wire.Encode(c.pkt[:0], g, false, 0)
	if len(c.pkt) > MaxDatagram && first < last {
		mid := first + (last-first)/2
		ss.sendTics(now, first, mid)
		ss.sendTics(now, mid+1, last)
		return
	}
	c.conn.Send(now, c.pkt)
	ss.ackPending = false
	if len(g.Report.Sums) > 0 {
		c.report.Sums = c.report.Sums[:0] // it went with the commands
	}
}

func (ss *sendSide) sendAck(now int64) {
	c := ss.c
	c.pkt = wire.Encode(c.pkt[:0], &wire.GameDataAck{Ack: uint8(c.recv.ackTic())}, false, 0)
	c.conn.Send(now, c.pkt)
	ss.ackPending = false
}

// onResendRequest answers the server's request with the commands we hold.
func (ss *sendSide) onResendRequest(now int64, body []byte) error {
	c := ss.c
	if c.phase.state() != ClientInGame || c.cfg.Drone {
		return errUnexpected{}
	}
	var m wire.GameDataResend
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	first, last := m.Start, m.Start+uint32(m.Count) // [first, last)
	held := func(t uint32) bool {
		q := &ss.queue[t%BackupTics]
		return t < ss.maketic && q.valid && q.seq == t
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
	ss.sendTics(now, first, last-1)
	return nil
}

// ChecksumReportTics is how many tics' checksums a client reports at once
// under the extension protocol: they ride on the GAMEDATA it sends next,
// 19 bytes every 8 tics. A report goes in a frame of its own only when
// twice as many wait (the client builds no commands: it ran out of lead,
// or the game is ending).
const ChecksumReportTics = 8

// reportChecksum collects the checksum after tic g for the next report.
func (ss *sendSide) reportChecksum(g uint32, sum uint32) {
	c := ss.c
	r := &c.report
	if len(r.Sums) == 0 {
		r.Start = g
	}
	r.Sums = append(r.Sums, wire.Sum16(sum))
	if c.phase.reattaching() {
		// Kept for the new server, as many as a report holds.
		if len(r.Sums) == wire.MaxChecksums {
			r.Sums = r.Sums[:0]
		}
		return
	}
	if len(r.Sums) >= 2*ChecksumReportTics {
		c.pkt = wire.Encode(c.pkt[:0], r, false, 0)
		c.conn.Send(c.nowMS, c.pkt)
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
func (ss *sendSide) carryEvents(t uint32, substituted uint8) {
	c := ss.c
	p := c.player
	if p < 0 || substituted&(1<<p) == 0 {
		return
	}
	q := &ss.queue[t%BackupTics]
	if !q.valid || q.seq != t {
		return // not built here (this copy joined, or took the player back)
	}
	ev := c.cfg.Input.EventsOf(&q.cmd)
	if ev == (tic.Cmd{}) {
		return
	}
	c.stats.EventsCarried++
	for i := range ss.carry {
		if ev = c.cfg.Input.MergeEvents(&ss.carry[i], ev); ev == (tic.Cmd{}) {
			return
		}
	}
	if len(ss.carry) == MaxCarried {
		c.stats.EventsDropped++ // the same event pressed in MaxCarried substituted commands
		return
	}
	ss.carry = append(ss.carry, ev)
}

// MaxCarried bounds the commands' worth of events a client carries.
const MaxCarried = BackupTics

// mergeCarried adds to cmd the carried events it has room for.
func (ss *sendSide) mergeCarried(cmd *tic.Cmd) {
	c := ss.c
	if len(ss.carry) == 0 {
		return
	}
	rest := ss.carry[:0]
	for _, ev := range ss.carry {
		if ev = c.cfg.Input.MergeEvents(cmd, ev); ev != (tic.Cmd{}) {
			rest = append(rest, ev)
		}
	}
	ss.carry = rest
}
