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
	seq   uint32
	valid bool
	late  uint8 // players whose late command has been seen
	tic   wire.SetTic
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
		slot := &s.recvWin[tic%BackupTics][p]
		if fresh && !(slot.seq == tic && slot.active) {
			s.measure(p, s.due(tic)-now)
		}
		*slot = recvCmd{seq: tic, active: true, latency: g.Tics[i].Latency, diff: g.Tics[i].Diff, from: sc}
		stored = true
	}
	if fresh {
		s.ext.measuredTic[p] = start + uint32(len(g.Tics))
	}
	if stored {
		sc.lastGameDataMS = now
	}
	s.takeAck(sc, g.Ack)
	s.pushMissing(now, sc)
	// Gap detection: request the run of missing tics just before start.
	if start-s.recvStart < BackupTics {
		t := start
		for t > s.recvStart {
			slot := &s.recvWin[(t-1)%BackupTics][p]
			if slot.seq == t-1 && (slot.active || slot.resendMS != 0) {
				break
			}
			t--
		}
		if t < start {
			s.requestResend(now, sc, t, start-t)
		}
	}
	return nil
}

// takeAck applies a client's acknowledgement. It is expanded near the
// client's previous one and can never pass what was sent.
func (s *Server) takeAck(sc *serverClient, b uint8) {
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
		sc.acked = ack
	}
}

func (s *Server) requestResend(now int64, sc *serverClient, start, count uint32) {
	p := sc.player
	count = min(count, 255)
	sc.conn.sendMessage(now, &wire.GameDataResend{Start: start, Count: uint8(count)})
	s.stats.ResendRequests++
	for t := start; t < start+count; t++ {
		if t-s.recvStart >= BackupTics {
			continue
		}
		slot := &s.recvWin[t%BackupTics][p]
		if slot.seq != t {
			*slot = recvCmd{seq: t}
		}
		slot.resendMS = now
	}
	if int32(start+count-s.resendEnd[p]) > 0 {
		s.resendEnd[p] = start + count
	}
}

// requestMissing re-requests commands still missing 300 ms after their
// request (spec §9.5).
func (s *Server) requestMissing(now int64) {
	for _, sc := range s.players() {
		if sc.placeholder {
			continue
		}
		var runStart, runLen uint32
		// Only tics below resendEnd wait for a resend.
		n := uint32(max(0, min(int32(s.resendEnd[sc.player]-s.recvStart), BackupTics)))
		for i := uint32(0); i <= n; i++ {
			t := s.recvStart + i
			if i < n {
				slot := &s.recvWin[t%BackupTics][sc.player]
				if slot.seq == t && !slot.active && slot.resendMS != 0 && now-slot.resendMS > ResendRetryMS {
					if runLen == 0 {
						runStart = t
					}
					runLen++
					continue
				}
			}
			if runLen > 0 {
				s.requestResend(now, sc, runStart, runLen)
				runLen = 0
			}
		}
	}
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
	for t-s.recvStart < BackupTics {
		slot := &s.recvWin[t%BackupTics][sc.player]
		if !(slot.seq == t && slot.active) {
			break
		}
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
// sends, a tic apart: an acknowledgement stuck for PushAfterMS while later
// tics have gone out means tics were lost on the way, and the server sends
// them again, every PushEveryMS while it stays stuck, without waiting for a
// resend request that may be lost too.
const (
	PushAfterMS = 150
	PushEveryMS = 100
)

func (s *Server) pushMissing(now int64, sc *serverClient) {
	if !s.extended || s.resume != nil {
		return
	}
	a := sc.acked
	if a >= s.ext.sendSeq || a != sc.stuckAck {
		sc.stuckAck, sc.stuckSinceMS = a, now
		return
	}
	if now-sc.stuckSinceMS < PushAfterMS || now-sc.lastPushMS < PushEveryMS {
		return
	}
	sc.lastPushMS = now
	s.resendTics(now, sc, a, min(a+31, s.ext.sendSeq-1))
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
			rc := &s.recvWin[seq%BackupTics][p.player]
			if !(rc.seq == seq && rc.active) {
				return
			}
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
		sc.queue[seq%BackupTics] = sentServerTic{seq: seq, valid: true, tic: t}
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
			if !(row[p.player].seq == s.recvStart && row[p.player].active) {
				return
			}
			in |= 1 << p.player
		}
		s.record(s.recvStart, in, in, s.rec.relayed(row, in))
		*row = [MaxPlayers]recvCmd{}
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
			if row[p.player].seq == seq && row[p.player].active {
				anyReal = true
			} else if !x.lagging[p.player] && now < due+s.cfg.SubstituteAfterMS {
				return
			}
		}
		if !anyReal {
			return // nobody is playing: wait rather than play for them
		}
		h := histTic{seq: seq, valid: true}
		t := &h.tic
		for _, p := range players {
			i := p.player
			var cmd TicCmd
			if rc := &row[i]; rc.seq == seq && rc.active {
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
		*row = [MaxPlayers]recvCmd{}
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
		first := seq - min(seq, uint32(s.settings.ExtraTics))
		if s.cfg.BroadcastTics && s.remoteRecipients() > 1 {
			s.sendSet(now, nil, first, seq)
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
