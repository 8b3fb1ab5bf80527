package netcore

import (
	"github.com/ticnet/ticnet/netcore/wire"
)

// maxPumpPerPass bounds the tics one pass sends to one client, so that a
// server catching up after a stall sends a few packets a pass, not a burst.
const maxPumpPerPass = 4

// extServer is the server's state under the extension protocol: one stream
// of complete tics for every client, paced by the server's own clock.
type extServer struct {
	started     bool  // every client has its GAMESTART
	anchorMS    int64 // when tic 0 was due
	sendSeq     uint32
	history     [BackupTics]histTic
	auth        [MaxPlayers]TicCmd // each player's command as everyone ran it, the tic before
	lagging     [MaxPlayers]bool   // its last command was substituted: do not wait for it
	margin      [MaxPlayers]int16  // worst arrival margin since the last timing report
	measured    uint8              // players with a margin since the last report
	measuredTic [MaxPlayers]uint32 // the tic after the last one measured
	sums        [BackupTics]sumSlot
	desynced    [MaxPlayers]bool
	resumedAt   uint32 // the tic a server that took the game over resumed it at
	end         endState
	out         wire.TicSet
	in          wire.ChecksumReport
}

// TimingReportTics is how often the server tells players how early their
// commands arrive.
const TimingReportTics = 8

// due is when tic seq is due to be sent.
func (s *Server) due(seq uint32) int64 {
	return s.ext.anchorMS + int64(seq)*1000*int64(s.settings.TicDup)/s.ticRate()
}

type histTic struct {
	seq    uint32
	valid  bool
	late   uint8 // players whose late command has been seen
	sentMS int64 // when it was first sent
	tic    wire.SetTic
	// from is the connection each player's command came from: nil for a
	// substitute, or a tic this server did not decide itself.
	from [MaxPlayers]*serverClient
}

type sumSlot struct {
	seq  uint32
	have uint8
	sums [MaxPlayers]uint16
}

// onGameData stores a player's commands (spec §9.2).
func (s *Server) onGameData(now int64, sc *serverClient, body []byte) error {
	joiner := sc.join != nil && sc.join.started // not in the game yet
	if s.state != ServerInGame || sc.drone() || sc.player < 0 || !(sc.inGame || joiner) {
		return errUnexpected{}
	}
	g := &s.inGD
	g.Near = s.ext.sendSeq
	if err := g.DecodeBody(body); err != nil {
		return err
	}
	if len(g.Report.Sums) > 0 && !joiner { // a joiner's: see onTicnet
		s.takeSums(sc, &g.Report)
	}
	if joiner {
		if s.onJoinerGameData(now, sc); sc.join != nil {
			return nil // its commands count from the tic it enters at
		}
	}
	p := sc.player
	start := wire.ExpandTic(s.recvStart, g.Start)
	// A packet that brings a tic never seen before was sent as that tic was
	// built: the first arrival of each of its tics measures the player's
	// clock (the older ones as copies sent one tic later, which is what
	// arrives when the first copy was lost). Resends measure nothing.
	fresh := s.extended && s.ext.started && len(g.Tics) > 0 &&
		start+uint32(len(g.Tics))-1 >= s.ext.measuredTic[p]
	stored := false
	for i := range g.Tics {
		tic := start + uint32(i)
		if tic-s.recvStart >= BackupTics {
			if s.extended {
				// A command for a tic already sent: normally the redundant
				// copy extratics makes, but if its substitute went out
				// instead, it came too late and is dropped for good.
				if h := &s.ext.history[tic%BackupTics]; h.valid && h.seq == tic && h.tic.Substituted&(1<<p) != 0 {
					s.stats.LateDropped++
					if fresh && !s.ext.lateSeen(p, tic) {
						s.measure(p, s.due(tic)-now)
					}
				}
			}
			continue
		}
		if fresh && !s.cmdWin[p].has(tic) {
			s.measure(p, s.due(tic)-now)
		}
		s.cmdWin[p].arrive(tic)
		s.recvWin[tic%BackupTics][p] = recvCmd{latency: g.Tics[i].Latency, diff: g.Tics[i].Diff, from: sc}
		stored = true
	}
	if fresh {
		s.ext.measuredTic[p] = start + uint32(len(g.Tics))
	}
	if stored {
		sc.lastGameDataMS = now
	}
	if last := start + uint32(len(g.Tics)) - 1; len(g.Tics) > 0 {
		sc.loss.add(last)
		if int32(last-sc.jitterTic) > 0 {
			sc.jitterTic = last
			sc.jit.add(now - int64(last)*1000*int64(s.settings.TicDup)/s.ticRate())
		}
	}
	s.takeAck(now, sc, g.Ack)
	s.pushMissing(now, sc)
	// Gap detection: the run of missing tics just before start is asked
	// for if it stays missing (requestMissing).
	if start-s.recvStart < BackupTics {
		if t := s.cmdWin[p].gapBefore(s.recvStart, start, nil); t < start {
			s.cmdWin[p].noteGap(now, s.recvStart, t, start-t)
		}
	}
	return nil
}

// takeAck applies a client's acknowledgement. It is expanded near the
// client's previous one and can never pass what was sent. The time since
// the oldest tic it newly acknowledges was sent, if that went once, is a
// round trip: the time a tic can take to be acknowledged, which is what
// pushMissing waits for.
func (s *Server) takeAck(now int64, sc *serverClient, b uint8) {
	ack := wire.ExpandTic(sc.acked, b)
	if sc.join != nil {
		// A joiner's first acknowledgement may be up to a window past the
		// tic it starts from (the tics since were sent it at once), beyond
		// the reference's expansion, which reaches about 64 tics: it is
		// the first tic at or after its previous one with these low bits.
		ack = sc.acked + uint32(b-uint8(sc.acked))
	}
	limit := sc.sendSeq
	if s.extended {
		limit = s.ext.sendSeq
	}
	if ack > sc.acked && ack <= limit {
		if at, ok := s.sentAt(sc, sc.acked); ok {
			sc.rtt.add(now - at)
		}
		sc.acked = ack
	}
}

// sentAt returns when tic t was first sent to sc, unless it was sent
// to sc again since.
func (s *Server) sentAt(sc *serverClient, t uint32) (int64, bool) {
	if int32(sc.resentEnd-t) > 0 {
		return 0, false
	}
	if s.extended {
		h := &s.ext.history[t%BackupTics]
		return h.sentMS, h.valid && h.seq == t
	}
	q := &sc.queue[t%BackupTics]
	return q.sentMS, q.valid && q.seq == t
}

// requestResend asks sc for its commands [start, start+count) again.
func (s *Server) requestResend(now int64, sc *serverClient, start, count uint32) {
	s.cmdWin[sc.player].ask(now, s.recvStart, start, count, func(first uint32, n uint8) {
		sc.conn.sendMessage(now, &wire.GameDataResend{Start: first, Count: n})
		s.stats.ResendRequests++
	})
}

// requestMissing asks each player for the commands that stayed missing for
// a reorder window, and again for those still missing a resend timeout
// after they were asked for (ResendRetryMS until a round trip is measured,
// spec §9.5).
func (s *Server) requestMissing(now int64) {
	for _, sc := range s.players() {
		if sc.placeholder {
			continue
		}
		if s.cmdWin[sc.player].askOverdue(now, s.recvStart, sc.jit.reorderMS(), sc.rtt.Timeout(ResendRetryMS), func(first uint32, n uint8) {
			sc.conn.sendMessage(now, &wire.GameDataResend{Start: first, Count: n})
			s.stats.ResendRequests++
		}) {
			sc.rtt.backOff()
		}
	}
}

// forgetCommands forgets every command of player p the server holds.
func (s *Server) forgetCommands(p int) {
	s.cmdWin[p] = ticWindow{}
	for t := range s.recvWin {
		s.recvWin[t][p] = recvCmd{}
	}
}

// forgetTic frees tic t's place in every player's window.
func (s *Server) forgetTic(t uint32) {
	for p := range s.cmdWin {
		s.cmdWin[p].forget(t)
	}
	s.recvWin[t%BackupTics] = [MaxPlayers]recvCmd{}
}

// breakDeadlock: a player silent for a second is asked for its first missing
// tics, and sent again what it has not acknowledged (spec §9.5).
func (s *Server) breakDeadlock(now int64, sc *serverClient) {
	if sc.drone() || now-sc.lastGameDataMS <= DeadlockMS || (!sc.inGame && sc.join == nil) {
		return
	}
	if j := sc.join; j != nil {
		// A joiner sends no commands yet: it is only sent what it has
		// not acknowledged.
		if j.started && sc.acked < s.ext.sendSeq {
			s.resendTics(now, sc, sc.acked, s.ext.sendSeq-1)
		}
		sc.lastGameDataMS = now
		return
	}
	t := s.recvStart
	for t-s.recvStart < BackupTics && s.cmdWin[sc.player].has(t) {
		t++
	}
	s.requestResend(now, sc, t, 6)
	seq := sc.sendSeq
	if s.extended {
		seq = s.ext.sendSeq
	}
	if sc.acked < seq {
		s.resendTics(now, sc, sc.acked, seq-1)
	}
	sc.lastGameDataMS = now
}

// Under the extension protocol a client acknowledges with every command it
// sends, a tic apart: a tic not acknowledged a resend timeout (the
// client's round trip and four deviations; PushAfterMS until one is
// measured) after it was sent, while later tics have gone out, was lost on
// the way, and the server sends it and those after it again, every timeout
// while it stays missing, without waiting for a resend request that may be
// lost too.
const PushAfterMS = 150

func (s *Server) pushMissing(now int64, sc *serverClient) {
	if !s.extended || s.resume != nil {
		return
	}
	a := sc.acked
	if a >= s.ext.sendSeq {
		return
	}
	since := sc.pushFromMS
	if h := &s.ext.history[a%BackupTics]; h.valid && h.seq == a {
		since = max(since, h.sentMS)
	}
	if rto := sc.rtt.Timeout(PushAfterMS); now-since < rto || now-sc.lastPushMS < rto {
		return
	}
	sc.lastPushMS = now
	sc.rtt.backOff()
	s.resendTics(now, sc, a, min(a+31, s.ext.sendSeq-1))
	if s.broadcasting() {
		sc.repairing, sc.repairTic = true, a
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
func (s *Server) repairFrom(seq, first uint32) uint32 {
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
func (s *Server) broadcasting() bool {
	return s.cfg.BroadcastTics && s.remoteRecipients() > 1
}

// onResendRequest answers a client that missed tics.
func (s *Server) onResendRequest(now int64, sc *serverClient, body []byte) error {
	var m wire.GameDataResend
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if s.state != ServerInGame || m.Count == 0 {
		return errUnexpected{}
	}
	first, last := m.Start, m.Start+uint32(m.Count)-1
	if s.extended {
		last = min(last, s.ext.sendSeq-1)
		if s.ext.sendSeq == 0 || first > last {
			return nil
		}
	}
	for t := first; t <= last; t++ {
		if !s.holds(sc, t) {
			return nil // the reference ignores a request it cannot serve whole
		}
	}
	s.resendTics(now, sc, first, last)
	return nil
}

// holds reports whether tic t can be sent to sc again.
func (s *Server) holds(sc *serverClient, t uint32) bool {
	if s.extended {
		h := &s.ext.history[t%BackupTics]
		return h.valid && h.seq == t
	}
	q := &sc.queue[t%BackupTics]
	return q.valid && q.seq == t
}

// resendTics sends tics [first, last] to sc again, those it still holds.
func (s *Server) resendTics(now int64, sc *serverClient, first, last uint32) {
	for first <= last && !s.holds(sc, first) {
		first++
	}
	if first > last {
		return
	}
	for last > first && !s.holds(sc, last) {
		last--
	}
	s.stats.TicsResent += int64(last - first + 1)
	if int32(last+1-sc.resentEnd) > 0 {
		sc.resentEnd = last + 1
	}
	if s.extended {
		for a := first; a <= last; a += 32 {
			s.sendSet(now, sc, a, min(last, a+31))
		}
		return
	}
	s.sendTics(now, sc, first, last)
}

// sendTics sends sc its queued tics [first, last] as reference GAMEDATA,
// in as many packets as it takes for each to fit a reference peer's receive
// buffer.
func (s *Server) sendTics(now int64, sc *serverClient, first, last uint32) {
	o := &s.out
	o.Start = uint8(first)
	o.Tics = o.Tics[:0]
	for t := first; t <= last; t++ {
		o.Tics = append(o.Tics, sc.queue[t%BackupTics].tic)
	}
	s.pkt = wire.Encode(s.pkt[:0], o, false, 0)
	if len(s.pkt) > MaxDatagram && first < last {
		mid := first + (last-first)/2
		s.sendTics(now, sc, first, mid)
		s.sendTics(now, sc, mid+1, last)
		return
	}
	sc.conn.send(now, s.pkt)
}

// minAck is the lowest acknowledgement among connected clients.
func (s *Server) minAck() uint32 {
	var lo uint32
	first := true
	for _, sc := range s.slots {
		if sc.connected() && sc.inGame && (first || sc.acked < lo) {
			lo, first = sc.acked, false
		}
	}
	return lo
}

// pump sends sc the tics it can have: each once every other player's
// command for it is in (spec §10.4). This blocking is the lockstep.
func (s *Server) pump(now int64, sc *serverClient) {
	s.noteDepartures()
	players := s.players()
	for range maxPumpPerPass {
		seq := sc.sendSeq
		if int64(seq)-int64(s.minAck()) > MaxServerLeadTics || seq-s.recvStart >= BackupTics {
			return
		}
		if len(players) == 1 && players[0] == sc && seq > s.recvStart+SoloLeadTics {
			return
		}
		var t wire.ServerTic
		for _, p := range players {
			if p == sc {
				continue
			}
			if !s.cmdWin[p.player].has(seq) {
				return
			}
			rc := &s.recvWin[seq%BackupTics][p.player]
			t.InGame |= 1 << p.player
			t.Cmds[p.player] = rc.diff
			t.Latency = max(t.Latency, rc.latency)
		}
		for p := range MaxPlayers {
			if s.departedIn(seq)&(1<<p) != 0 && p != sc.player {
				rc := &s.recvWin[seq%BackupTics][p] // in: see departures
				t.InGame |= 1 << p
				t.Cmds[p] = rc.diff
				t.Latency = max(t.Latency, rc.latency)
			}
		}
		sc.queue[seq%BackupTics] = sentServerTic{seq: seq, valid: true, sentMS: now, tic: t}
		sc.sendSeq++
		s.sendTics(now, sc, seq-min(seq, uint32(s.settings.ExtraTics)), seq)
	}
}

// advanceWindow drops tics every player has sent and every client has
// acknowledged (spec §10.5).
func (s *Server) advanceWindow() {
	s.noteDepartures()
	players := s.players()
	if len(players) == 0 {
		return
	}
	for s.recvStart < s.minAck() {
		row := &s.recvWin[s.recvStart%BackupTics]
		in := s.departedIn(s.recvStart)
		for _, p := range players {
			if !s.cmdWin[p.player].has(s.recvStart) {
				return
			}
			in |= 1 << p.player
		}
		s.record(s.recvStart, in, in, s.rec.relayed(row, in))
		s.forgetTic(s.recvStart)
		s.recvStart++
		s.forgetDepartures()
	}
}

// record notes, when asked to, which players' commands the server had for
// a tic it let go, and records the tic's commands, cmds, in the replay.
func (s *Server) record(tic uint32, players, received uint8, cmds *[MaxPlayers]TicCmd) {
	if s.cfg.RecordTics {
		s.records = append(s.records, TicRecord{Tic: tic, Players: players, Received: received})
	}
	s.recordTic(tic, players, players&^received, cmds)
}

// measure records how early a player's command arrived.
func (s *Server) measure(p int, margin int64) {
	x := &s.ext
	m := int16(max(min(margin, 30000), -30000))
	if x.measured&(1<<p) == 0 || m < x.margin[p] {
		x.margin[p] = m
	}
	x.measured |= 1 << p
}

// lateSeen reports whether a late command for tic has been seen before, and
// notes that it has now.
func (x *extServer) lateSeen(p int, tic uint32) bool {
	h := &x.history[tic%BackupTics]
	seen := h.late&(1<<p) != 0
	h.late |= 1 << p
	return seen
}

// extPump sends complete tics under the extension protocol. Tic n is due
// n/35 s after the stream started, and goes out when it is due and every
// player's command is in; a command that is late by more than the deadline
// is substituted, and so is, at once, the next one of a player whose last
// was. The server's choice is what every peer runs.
func (s *Server) extPump(now int64) {
	x := &s.ext
	if !x.started {
		// Wait until every client has acknowledged its GAMESTART: one that
		// starts later than 128 tics into the stream could never catch up.
		// A client that never does times out and stops being waited for.
		for _, sc := range s.slots {
			if sc.connected() && sc.inGame && len(sc.conn.reliable) > 0 {
				return
			}
		}
		x.started = true
		x.anchorMS = now
	}
	for _, sc := range s.slots {
		if sc.connected() && sc.inGame && x.sendSeq-sc.acked >= BackupTics {
			s.stats.Unexpected++
			sc.conn.disconnect(now, ReasonFellBehind)
		}
	}
	players := s.players()
	if len(players) == 0 {
		return
	}
	for range maxPumpPerPass {
		seq := x.sendSeq
		if x.end.active && seq >= x.end.tic {
			return // the game ended: no tic from end.tic on
		}
		due := s.due(seq)
		if now < due {
			return
		}
		row := &s.recvWin[seq%BackupTics]
		anyReal := false
		for _, p := range players {
			if s.cmdWin[p.player].has(seq) {
				anyReal = true
			} else if !x.lagging[p.player] && now < due+s.cfg.SubstituteAfterMS {
				return
			}
		}
		if !anyReal {
			return // nobody is playing: wait rather than play for them
		}
		h := histTic{seq: seq, valid: true, sentMS: now}
		t := &h.tic
		for _, p := range players {
			i := p.player
			var cmd TicCmd
			if rc := &row[i]; s.cmdWin[i].has(seq) {
				cmd = wire.Patch(&TicCmd{}, &rc.diff)
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
				x.auth[i] = TicCmd{} // as every client: see Client.advanceWindow
			}
		}
		if late := now - due - s.cfg.SubstituteAfterMS; late > 0 {
			// The stream stalled (everyone was late): restart its clock
			// from here rather than rush to catch up.
			x.anchorMS += late
		}
		x.history[seq%BackupTics] = h
		s.record(seq, t.InGame, t.InGame&^t.Substituted, &x.auth)
		s.forgetTic(seq)
		x.sendSeq++
		s.recvStart = x.sendSeq
		x.out.Timing = x.out.Timing[:0]
		if seq%TimingReportTics == 0 {
			for p := range MaxPlayers {
				if x.measured&(1<<p) != 0 {
					x.out.Timing = append(x.out.Timing, wire.PlayerTiming{Player: uint8(p), MarginMS: x.margin[p]})
				}
			}
			x.measured = 0
		}
		first := seq - min(seq, s.redundantTics())
		if s.broadcasting() {
			s.sendSet(now, nil, s.repairFrom(seq, first), seq)
		} else {
			for _, sc := range s.slots {
				if sc.connected() && (sc.inGame || sc.join != nil) {
					s.sendSet(now, sc, first, seq)
				}
			}
		}
		x.out.Timing = x.out.Timing[:0]
		for _, sc := range s.slots {
			if sc != nil {
				sc.sendSeq = x.sendSeq
			}
		}
	}
}

// redundantTics is how many tics before the newest each tic set carries:
// as many as the client whose channel loses most needs (copiesFor), at
// least the game's ExtraTics.
func (s *Server) redundantTics() uint32 {
	var worst float64
	for _, sc := range s.slots {
		if sc.connected() && sc.inGame {
			worst = max(worst, sc.loss.rate)
		}
	}
	return copiesFor(worst, uint32(s.settings.ExtraTics))
}

// remoteRecipients counts the clients that take tic sets over the channel:
// while there is only one, it gets sets of its own, which leave out its
// commands.
func (s *Server) remoteRecipients() int {
	n := 0
	for _, sc := range s.slots {
		if sc.connected() && (sc.inGame || sc.join != nil) && sc.addr != LocalClientAddr {
			n++
		}
	}
	return n
}

// sendSet sends history tics [first, last] to sc, or to everyone if sc is
// nil. A set for sc alone leaves out sc's own commands when every one of
// them in the set came from sc itself (so sc holds them) or is a
// substitute.
func (s *Server) sendSet(now int64, sc *serverClient, first, last uint32) {
	o := &s.ext.out
	o.LowResTurn, o.InputSize = s.settings.LowResTurn, s.cfg.Input.Size
	o.Start = first
	o.Tics = o.Tics[:0]
	o.LeavesOutRecipient, o.Recipient = sc != nil && sc.player >= 0, 0
	for t := first; t <= last; t++ {
		h := &s.ext.history[t%BackupTics]
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
		sc.conn.sendMessage(now, o)
		return
	}
	s.pkt = wire.Encode(s.pkt[:0], o, false, 0)
	s.tr.Send(Broadcast, s.pkt)
	s.stats.PacketsSent++
	s.stats.BytesSent += int64(len(s.pkt))
	for _, c := range s.slots {
		if c.connected() {
			c.conn.lastSendMS = now // it counts as traffic for the keepalive
		}
	}
}

// onTicnet takes an extension message from a client: checksum reports,
// bulk streams, a joiner's readiness.
func (s *Server) onTicnet(now int64, sc *serverClient, body []byte) error {
	kind, err := wire.TicnetKind(body)
	if err != nil {
		return err
	}
	switch {
	case wire.IsTransferKind(kind):
		if ev, ok := s.xfer.Handle(now, sc.addr, body); ok {
			s.onTransfer(now, ev)
		}
		return nil
	case kind == wire.TicnetKindJoinReady:
		return s.onJoinReady(now, sc, body)
	case kind == wire.TicnetKindHello:
		if s.resume != nil {
			// A new copy while the game changes servers: it comes back
			// in a moment and joins.
			sc.conn.disconnect(now, ReasonResuming)
			return nil
		}
		if err := s.onHello(sc, body); err != nil {
			return err
		}
		s.onPendingHello(now, sc)
		return nil
	case kind == wire.TicnetKindReattach:
		return s.onReattach(now, sc, body)
	case kind == wire.TicnetKindEndRequest:
		return s.onEndRequest(now, sc, body)
	case kind == wire.TicnetKindLaunchOptions:
		var m wire.LaunchOptions
		if err := m.DecodeBody(body); err != nil {
			return err
		}
		if s.state != ServerWaitingLaunch || sc != s.controller() {
			return errUnexpected{}
		}
		s.launchOpts = m
		return nil
	case kind == wire.TicnetKindTicSet:
		return s.onFetchedTics(sc, body)
	}
	m := &s.ext.in
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if sc.join != nil && sc.join.started {
		return nil // a joiner's checksums of tics it catches up on: its player is not in them
	}
	if s.state != ServerInGame || !s.extended || sc.player < 0 || !sc.inGame {
		return errUnexpected{}
	}
	s.takeSums(sc, m)
	return nil
}

// takeSums takes a player's checksum report, alone or on its GAMEDATA.
func (s *Server) takeSums(sc *serverClient, m *wire.ChecksumReport) {
	x := &s.ext
	for i, sum := range m.Sums {
		tic := m.Start + uint32(i)
		if x.sendSeq-tic-1 >= BackupTics { // not in [sendSeq-128, sendSeq)
			s.stats.Unexpected++
			continue
		}
		slot := &x.sums[tic%BackupTics]
		if slot.seq != tic {
			*slot = sumSlot{seq: tic}
		}
		slot.have |= 1 << sc.player
		slot.sums[sc.player] = sum
		s.compareSums(tic, slot)
	}
}

// compareSums names the players whose checksum for tic differs from the
// most common one, once every player in the game has reported it.
func (s *Server) compareSums(tic uint32, slot *sumSlot) {
	h := &s.ext.history[tic%BackupTics]
	if !h.valid || h.seq != tic || slot.have&h.tic.InGame != h.tic.InGame {
		return
	}
	var best uint16
	bestCount := 0
	for p := range MaxPlayers {
		if h.tic.InGame&(1<<p) == 0 {
			continue
		}
		n := 0
		for q := range MaxPlayers {
			if h.tic.InGame&(1<<q) != 0 && slot.sums[q] == slot.sums[p] {
				n++
			}
		}
		if n > bestCount {
			best, bestCount = slot.sums[p], n
		}
	}
	n := bitCount(h.tic.InGame)
	var differ []int
	for p := range MaxPlayers {
		if h.tic.InGame&(1<<p) != 0 && slot.sums[p] != best {
			differ = append(differ, p)
		}
	}
	if len(differ) > 0 && 2*bestCount <= n {
		// No majority (two players, say): every player is suspect.
		differ = differ[:0]
		for p := range MaxPlayers {
			if h.tic.InGame&(1<<p) != 0 {
				differ = append(differ, p)
			}
		}
	}
	var fresh []int
	var names string
	for _, p := range differ {
		if s.ext.desynced[p] {
			continue
		}
		s.ext.desynced[p] = true
		fresh = append(fresh, p)
		if names != "" {
			names += ", "
		}
		names += s.nameOf(p)
	}
	differ = fresh
	slot.have = 0 // compared: later duplicates start over and find nothing new
	if len(differ) > 0 {
		s.emit(Event{Kind: EventDesyncSuspected, Player: differ[0], Tic: tic, Players: differ, Name: names,
			Reason: "game state checksums differ"})
	}
}

func bitCount(b uint8) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

func (s *Server) nameOf(player int) string {
	for _, sc := range s.slots {
		if sc != nil && sc.player == player && sc.inGame {
			return sc.name
		}
	}
	return ""
}

var missionNames = [...]string{"doom", "doom2", "tnt", "plutonia", "chex", "hacx", "heretic", "hexen", "strife"}
var modeNames = [...]string{"shareware", "registered", "commercial", "retail", "unknown"}

func missionName(m uint8) string {
	if int(m) < len(missionNames) {
		return missionNames[m]
	}
	return "none"
}

func modeName(m uint8) string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "unknown"
}
