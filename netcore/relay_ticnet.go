package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// ticnetRelay is the extension protocol's relay: one stream of complete
// tics for every client, paced by the server's own clock, each tic decided
// once (a late command substituted), and sent again unasked to a client
// whose acknowledgement lags (pushMissing).
type ticnetRelay struct {
	s           *Server
	started     bool  // every client has its GAMESTART
	anchorMS    int64 // when tic 0 was due
	sendSeq     uint32
	history     [BackupTics]histTic
	auth        [tic.MaxPlayers]tic.Cmd // each player's command as everyone ran it, the tic before
	lagging     [tic.MaxPlayers]bool    // its last command was substituted: do not wait for it
	margin      [tic.MaxPlayers]int16   // worst arrival margin since the last timing report
	measured    uint8                   // players with a margin since the last report
	measuredTic [tic.MaxPlayers]uint32  // the tic after the last one measured
	check       desyncCheck
	resumedAt   uint32 // the tic a server that took the game over resumed it at
	end         endState
	delays      inputDelays
	sources     tickSources
	watchList   watcherList
	attest      attestor
	repair      repairs
	out         wire.TicSet
	in          wire.ChecksumReport
}

// reset forgets the game: the next starts from tic 0.
func (x *ticnetRelay) reset() {
	*x = ticnetRelay{s: x.s, delays: inputDelays{s: x.s}, sources: tickSources{s: x.s}, watchList: watcherList{s: x.s},
		attest: attestor{s: x.s, signer: x.attest.signer}}
}

func (x *ticnetRelay) protocol() string { return wire.ProtocolTicnet }

// ticRate is the setup's.
func (x *ticnetRelay) ticRate() int64 {
	if r := x.s.setup.TicRate; r != 0 {
		return int64(r)
	}
	return TicRate
}

func (x *ticnetRelay) next() uint32                 { return x.sendSeq }
func (x *ticnetRelay) sentEnd(*serverClient) uint32 { return x.sendSeq }

func (x *ticnetRelay) sentAt(_ *serverClient, t uint32) (int64, bool) {
	h := &x.history[t%BackupTics]
	return h.sentMS, h.valid && h.seq == t
}

func (x *ticnetRelay) holds(sc *serverClient, t uint32) bool {
	_, ok := x.sentAt(sc, t)
	return ok
}

func (x *ticnetRelay) clip(first, last uint32) (uint32, bool) {
	last = min(last, x.sendSeq-1)
	return last, x.sendSeq != 0 && first <= last
}

// send sends the tics again in sets of at most 32.
func (x *ticnetRelay) send(now int64, sc *serverClient, first, last uint32) {
	for a := first; a <= last; a += 32 {
		x.sendSet(now, sc, a, min(last, a+31))
	}
}

// pumpClient: the stream is one for everyone (pass).
func (x *ticnetRelay) pumpClient(int64, *serverClient) {}

func (x *ticnetRelay) pass(now int64) {
	x.repair.pass(now, x)
	x.check.tell(x.s)
	x.extPump(now)
	x.s.mig.sendRosters(now)
	x.sources.pass(now)
	x.watchList.pass(now)
	x.attest.pass(now, x.sendSeq)
	x.endIfDone(now)
}

func (x *ticnetRelay) acked(now int64, sc *serverClient) { x.pushMissing(now, sc) }

func (x *ticnetRelay) decode(g *wire.ClientGameData, body []byte) error {
	g.Ext, g.Near = true, x.sendSeq
	return g.DecodeBody(body)
}

// fresh: a packet that brings a tic never seen before was sent as that
// tic was built: the first arrival of each of its tics measures the
// player's clock (the older ones as copies sent one tic later, which is
// what arrives when the first copy was lost). Resends measure nothing.
func (x *ticnetRelay) fresh(p int, start uint32, n int) bool {
	return x.started && n > 0 && start+uint32(n)-1 >= x.measuredTic[p]
}

// late takes a command for a tic already sent: normally the redundant
// copy extratics makes, but if its substitute went out instead, it came
// too late and is dropped for good.
func (x *ticnetRelay) late(now int64, p int, tic uint32, fresh bool) {
	if h := &x.history[tic%BackupTics]; h.valid && h.seq == tic && h.tic.Substituted&(1<<p) != 0 {
		x.s.stats.LateDropped++
		if fresh && !x.lateSeen(p, tic) {
			x.measure(p, x.due(tic)-now)
		}
	}
}

func (x *ticnetRelay) checksums(sc *serverClient, m *wire.ChecksumReport) error {
	x.check.take(x, sc, m)
	return nil
}

func (x *ticnetRelay) hold(now int64, sc *serverClient) { x.s.rj.hold(now, sc) }

// arrived measures how early a player's command for tic arrived: the
// first arrival of a tic never seen before (fresh).
func (x *ticnetRelay) arrived(now int64, p int, tic uint32) { x.measure(p, x.due(tic)-now) }

// measuredTo notes that player p's tics before end were measured.
func (x *ticnetRelay) measuredTo(p int, end uint32) { x.measuredTic[p] = end }

// enter puts player p, new to the game, in the stream from the next tic:
// its commands start from none, and it is not waited for until they come.
func (x *ticnetRelay) enter(p int) {
	x.auth[p] = tic.Cmd{}
	x.reattached(p)
	x.check.clear(p)
}

// reattached takes player p's copy back into the stream at the next tic:
// it is not waited for until its commands come.
func (x *ticnetRelay) reattached(p int) {
	x.lagging[p] = true
	x.measuredTic[p] = x.sendSeq
}

// resume starts the stream of a server that took the game over at the
// next tic, due now; the awaited players (a bit each) are not waited for.
func (x *ticnetRelay) resume(now int64, awaited uint8) {
	x.started = true
	x.resumedAt = x.sendSeq
	x.anchorMS = now - int64(x.sendSeq)*1000*int64(x.s.settings.TicDup)/x.ticRate()
	for p := range tic.MaxPlayers {
		x.lagging[p] = awaited&(1<<p) != 0
		x.measuredTic[p] = x.sendSeq
	}
}

// TimingReportTics is how often the server tells players how early their
// commands arrive.
const TimingReportTics = 8

// due is when tic seq is due to be sent.
func (x *ticnetRelay) due(seq uint32) int64 {
	s := x.s
	return x.anchorMS + int64(seq)*1000*int64(s.settings.TicDup)/s.relay.ticRate()
}

type histTic struct {
	seq    uint32
	valid  bool
	late   uint8 // players whose late command has been seen
	sentMS int64 // when it was first sent
	tic    wire.SetTic
	chain  tic.Chain // of the confirmed tics through this one (attestor)
	// from is the connection each player's command came from: nil for a
	// substitute, or a tic this server did not decide itself.
	from [tic.MaxPlayers]*serverClient
}

// FallingBehindTics is how far behind the game a client's
// acknowledgement may be before the server sends it what it lacks every
// PushAfterMS, whatever its round trip: half a window (BackupTics), at
// which it is dropped as fallen behind. A watcher on a lossy link gets
// there after a run of lost requests and answers.
const FallingBehindTics = BackupTics / 2

// Under the extension protocol a client acknowledges with every command it
// sends, a tic apart: a tic not acknowledged a resend timeout (the
// client's round trip and four deviations; PushAfterMS until one is
// measured) after it was sent, while later tics have gone out, was lost on
// the way, and the server sends it and those after it again, every timeout
// while it stays missing, without waiting for a resend request that may be
// lost too.
const PushAfterMS = 150

func (x *ticnetRelay) pushMissing(now int64, sc *serverClient) {
	s := x.s
	if s.mig.resume != nil {
		return
	}
	a := sc.acked
	if a >= x.sendSeq {
		return
	}
	since := sc.pushFromMS
	if h := &x.history[a%BackupTics]; h.valid && h.seq == a {
		since = max(since, h.sentMS)
	}
	rto, wait := sc.rtt.Timeout(PushAfterMS), int64(0)
	sourced := x.sources.hasSource(now, sc)
	switch {
	case x.sendSeq-a >= FallingBehindTics:
		// Half a window behind: a run of losses, and the server drops
		// it at a window (ReasonFellBehind). Every PushAfterMS.
		rto, sourced = PushAfterMS, false
	case sourced:
		wait = SourcedPushAfterMS // its source sends it first
	}
	if now-since < max(rto, wait) || now-sc.lastPushMS < rto {
		return
	}
	sc.lastPushMS = now
	sc.rtt.BackOff()
	last := min(a+31, x.sendSeq-1)
	if sourced {
		last = min(a+PushSourcedTics-1, x.sendSeq-1)
	}
	s.resendTics(now, sc, a, last)
	if x.broadcasting() && !sc.watcher() {
		sc.repairing, sc.repairTic = true, a // a watcher's tics go to it alone
	}
}

// MaxRepairTics is how far back the sets to everyone reach for a client
// that misses a tic (repairFrom); one that misses an older one is sent
// its tics apart.
const MaxRepairTics = 32

// repairFrom returns where the set to everyone that ends at tic seq
// starts: at first, or earlier, at the oldest tic a client pushed tics
// (pushMissing) has not acknowledged since. While a tic it lacks holds
// its game up, each tic's set carries it, rather than one packet a
// resend timeout; once it acknowledges, the sets are as before.
func (x *ticnetRelay) repairFrom(seq, first uint32) uint32 {
	s := x.s
	from := first
	for _, sc := range s.slots {
		if sc == nil || !sc.repairing {
			continue
		}
		if !sc.connected() || sc.acked != sc.repairTic || seq+1-sc.acked > MaxRepairTics {
			sc.repairing = false
			continue
		}
		from = min(from, sc.acked)
		sc.resentEnd = seq + 1 // their acknowledgements time no round trip
	}
	s.stats.TicsResent += int64(first - from)
	return from
}

// broadcasting reports whether tic sets go to everyone at once: more than
// one client takes them over the channel.
func (x *ticnetRelay) broadcasting() bool {
	s := x.s
	return s.cfg.BroadcastTics && x.remoteRecipients() > 1
}

// measure records how early a player's command arrived.
func (x *ticnetRelay) measure(p int, margin int64) {
	m := int16(max(min(margin, 30000), -30000))
	if x.measured&(1<<p) == 0 || m < x.margin[p] {
		x.margin[p] = m
	}
	x.measured |= 1 << p
}

// lateSeen reports whether a late command for tic has been seen before, and
// notes that it has now.
func (x *ticnetRelay) lateSeen(p int, tic uint32) bool {
	h := &x.history[tic%BackupTics]
	seen := h.late&(1<<p) != 0
	h.late |= 1 << p
	return seen
}

// extPump sends complete tics under the extension protocol. Tic n is due
// n/35 s after the stream started, and goes out when it is due and every
// player's command is in, or before, as soon as they are, when every
// player builds its commands ahead (ahead); a command that is late by more than the deadline
// is substituted, and so is, at once, the next one of a player whose last
// was. The server's choice is what every peer runs.
func (x *ticnetRelay) extPump(now int64) {
	s := x.s
	if !x.started {
		// Wait until every client has acknowledged its GAMESTART: one that
		// starts later than 128 tics into the stream could never catch up.
		// A client that never does times out and stops being waited for.
		for _, sc := range s.slots {
			if sc.connected() && sc.inGame() && !sc.conn.Acked() {
				return
			}
		}
		x.started = true
		x.anchorMS = now
	}
	for _, sc := range s.slots {
		if sc.connected() && sc.inGame() && x.sendSeq-sc.acked >= BackupTics {
			s.stats.Unexpected++
			sc.conn.Disconnect(now, ReasonFellBehind)
		}
	}
	players := s.players()
	if len(players) == 0 {
		return
	}
	ahead := x.delays.ahead(players)
	for range maxPumpPerPass {
		seq := x.sendSeq
		if x.end.active && seq >= x.end.tic {
			return // the game ended: no tic from end.tic on
		}
		due := x.due(seq)
		row := &s.cmds.rows[seq%BackupTics]
		anyReal, complete := false, true
		for _, p := range players {
			if s.cmds.win[p.player].Has(seq) {
				anyReal = true
				continue
			}
			complete = false
			if now >= due && !x.lagging[p.player] && now < due+s.cfg.SubstituteAfterMS {
				return
			}
		}
		if now < due && !(complete && ahead) {
			return // not due, and not complete, or no one builds ahead
		}
		if !anyReal {
			return // nobody is playing: wait rather than play for them
		}
		h := histTic{seq: seq, valid: true, sentMS: now}
		t := &h.tic
		for _, p := range players {
			i := p.player
			var cmd tic.Cmd
			if rc := &row[i]; s.cmds.win[i].Has(seq) {
				cmd = wire.Patch(&tic.Cmd{}, &rc.diff)
				h.from[i] = rc.from
				x.lagging[i] = false
			} else {
				cmd = s.cfg.Input.ClearEvents(x.auth[i])
				t.Substituted |= 1 << i
				s.stats.Substituted++
				x.lagging[i] = true
			}
			t.InGame |= 1 << i
			t.Cmds[i] = wire.Diff(&x.auth[i], &cmd)
			x.auth[i] = cmd
		}
		for i := range x.auth {
			if t.InGame&(1<<i) == 0 {
				x.auth[i] = tic.Cmd{} // as every client: see Client.advanceWindow
			}
		}
		if late := now - due - s.cfg.SubstituteAfterMS; late > 0 {
			// The stream stalled (everyone was late): restart its clock
			// from here rather than rush to catch up.
			x.anchorMS += late
		}
		h.chain = x.attest.sent(now, seq, t, &x.auth)
		x.history[seq%BackupTics] = h
		s.record(seq, t.InGame, t.InGame&^t.Substituted, &x.auth)
		s.cmds.forgetTic(seq)
		x.sendSeq++
		s.cmds.start = x.sendSeq
		x.delays.onTic(seq)
		x.out.Timing = x.out.Timing[:0]
		if seq%TimingReportTics == 0 {
			for p := range tic.MaxPlayers {
				if x.measured&(1<<p) != 0 {
					x.out.Timing = append(x.out.Timing, wire.PlayerTiming{Player: uint8(p), MarginMS: x.margin[p]})
				}
			}
			x.measured = 0
		}
		x.out.Figures = x.out.Figures[:0]
		if seq%FiguresReportTics == 0 {
			dueNow := (now - x.anchorMS) * x.ticRate() / (1000 * int64(s.settings.TicDup))
			x.out.Figures = appendFigures(x.out.Figures, players, &x.measuredTic, uint32(max(0, dueNow)))
			_, watchers := s.slots.headcount()
			x.out.Watchers = uint16(watchers)
		}
		first := seq - min(seq, x.redundantTics())
		if x.broadcasting() {
			x.sendSet(now, nil, x.repairFrom(seq, first), seq)
		} else {
			for _, sc := range s.slots {
				if sc.connected() && sc.takesTics() {
					x.sendSet(now, sc, first, seq)
				}
			}
		}
		x.out.Timing, x.out.Figures, x.out.Watchers = x.out.Timing[:0], x.out.Figures[:0], 0
		for _, sc := range s.slots {
			if sc != nil {
				sc.sendSeq = x.sendSeq
			}
		}
	}
}

// redundantTics is how many tics before the newest each tic set carries:
// as many as the client whose channel loses most needs (copiesFor), at
// least the game's ExtraTics. (The loss is measured on commands: a
// watcher's, which sends none, is not, and the sets every player takes do
// not grow with the watchers.)
func (x *ticnetRelay) redundantTics() uint32 {
	s := x.s
	var worst float64
	for _, sc := range s.slots {
		if sc.connected() && sc.inGame() {
			worst = max(worst, sc.loss.Rate())
		}
	}
	return copiesFor(worst, uint32(s.settings.ExtraTics))
}

// remoteRecipients counts the clients that take tic sets over the channel:
// while there is only one, it gets sets of its own, which leave out its
// commands.
func (x *ticnetRelay) remoteRecipients() int {
	s := x.s
	n := 0
	for _, sc := range s.slots {
		if sc.connected() && sc.takesTics() && sc.addr != LocalClientAddr {
			n++
		}
	}
	return n
}

// sendSet sends history tics [first, last] to sc, or to everyone if sc is
// nil. A set for sc alone leaves out sc's own commands when every one of
// them in the set came from sc itself (so sc holds them) or is a
// substitute.
func (x *ticnetRelay) sendSet(now int64, sc *serverClient, first, last uint32) {
	s := x.s
	o := &x.out
	o.LowResTurn, o.InputSize = s.settings.LowResTurn, s.cfg.Input.Size
	o.Start = first
	o.Tics = o.Tics[:0]
	o.LeavesOutRecipient, o.Recipient = sc != nil && sc.player >= 0, 0
	for t := first; t <= last; t++ {
		h := &x.history[t%BackupTics]
		o.Tics = append(o.Tics, h.tic)
		if o.LeavesOutRecipient {
			p := sc.player
			o.LeavesOutRecipient = !h.tic.Has(p) || h.tic.Substituted&(1<<p) != 0 || h.from[p] == sc
		}
	}
	if o.LeavesOutRecipient {
		o.Recipient = uint8(sc.player)
	}
	if sc != nil {
		sc.conn.SendMessage(now, o)
		return
	}
	s.broadcast(o)
	for _, c := range s.slots {
		if c.connected() {
			c.conn.NoteSent(now) // it counts as traffic for the keepalive
		}
	}
}
