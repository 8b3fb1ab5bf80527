package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// maxPumpPerPass bounds the tics one pass sends to one client, so that a
// server catching up after a stall sends a few packets a pass, not a burst.
const maxPumpPerPass = 4

// onGameData stores a player's commands (spec §9.2).
func (s *Server) onGameData(now int64, sc *serverClient, body []byte) error {
	joiner := sc.phase == slotJoining && sc.join.started // not in the game yet
	if s.state != ServerInGame || sc.drone() || sc.player < 0 || !(sc.inGame() || joiner) {
		return errUnexpected{}
	}
	g := &s.inGD
	if err := s.relay.decode(g, body); err != nil {
		return err
	}
	if len(g.Report.Sums) > 0 && !joiner { // a joiner's: see onTicnet
		s.ext.check.take(&s.ext, sc, &g.Report) // only the extension's carries sums
	}
	if joiner {
		if s.joins.onJoinerGameData(now, sc); sc.phase == slotJoining {
			return nil // its commands count from the tic it enters at
		}
	}
	p := sc.player
	start := wire.ExpandTic(s.cmds.start, g.Start)
	fresh := s.relay.fresh(p, start, len(g.Tics))
	stored := false
	for i := range g.Tics {
		tic := start + uint32(i)
		if tic-s.cmds.start >= BackupTics {
			s.relay.late(now, p, tic, fresh)
			continue
		}
		if fresh && !s.cmds.win[p].Has(tic) {
			s.ext.arrived(now, p, tic) // fresh: the extension's
		}
		s.cmds.win[p].Arrive(tic)
		s.cmds.rows[tic%BackupTics][p] = recvCmd{latency: g.Tics[i].Latency, diff: g.Tics[i].Diff, from: sc}
		stored = true
	}
	if fresh {
		s.ext.measuredTo(p, start+uint32(len(g.Tics)))
	}
	if stored {
		sc.lastGameDataMS = now
	}
	if last := start + uint32(len(g.Tics)) - 1; len(g.Tics) > 0 {
		sc.loss.Add(last)
		if int32(last-sc.jitterTic) > 0 {
			sc.jitterTic = last
			sc.jit.Add(now - int64(last)*1000*int64(s.settings.TicDup)/s.relay.ticRate())
		}
	}
	s.takeAck(now, sc, g.Ack)
	s.relay.acked(now, sc)
	// Gap detection: the run of missing tics just before start is asked
	// for if it stays missing (requestMissing).
	if start-s.cmds.start < BackupTics {
		if t := s.cmds.win[p].GapBefore(s.cmds.start, start, nil); t < start {
			s.cmds.win[p].NoteGap(now, s.cmds.start, t, start-t)
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
	if sc.phase == slotJoining || sc.protocol == wire.ProtocolTicnet {
		// An acknowledgement may be up to a window past the previous one
		// (a joiner's first, the tics since its state sent at once; a
		// copy that waited long for a tic it missed and ran many at
		// once), beyond the reference's expansion, which reaches about 64
		// tics: it is the first tic at or after its previous one with
		// these low bits. Under the extension a client is never a window
		// behind (ReasonFellBehind), and one older than the previous
		// expands past what was sent, and is dropped.
		ack = sc.acked + uint32(b-uint8(sc.acked))
	}
	if ack > sc.acked && ack <= s.relay.sentEnd(sc) {
		if at, ok := s.relay.sentAt(sc, sc.acked); ok && s.cfg.AutoDelay.On {
			sc.confirmRTT.Add(now - at) // read by the automatic delay alone
		}
		if at, ok := s.sentAt(sc, sc.acked); ok {
			sc.rtt.Add(now - at)
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
	return s.relay.sentAt(sc, t)
}

// requestResend asks sc for its commands [start, start+count) again.
func (s *Server) requestResend(now int64, sc *serverClient, start, count uint32) {
	s.cmds.win[sc.player].Ask(now, s.cmds.start, start, count, func(first uint32, n uint8) {
		sc.conn.SendMessage(now, &wire.GameDataResend{Start: first, Count: n})
		s.stats.ResendRequests++
	})
}

// requestMissing asks each player for the commands that stayed missing for
// a reorder window, and again for those still missing a resend timeout
// after they were asked for (ResendRetryMS until a round trip is measured,
// spec §9.5).
func (s *Server) requestMissing(now int64) {
	for _, sc := range s.players() {
		if sc.phase == slotPlaceholder {
			continue
		}
		if s.cmds.win[sc.player].AskOverdue(now, s.cmds.start, sc.jit.ReorderMS(), sc.rtt.Timeout(ResendRetryMS), func(first uint32, n uint8) {
			sc.conn.SendMessage(now, &wire.GameDataResend{Start: first, Count: n})
			s.stats.ResendRequests++
		}) {
			sc.rtt.BackOff()
		}
	}
}

// breakDeadlock: a player silent for a second is asked for its first missing
// tics, and sent again what it has not acknowledged (spec §9.5).
func (s *Server) breakDeadlock(now int64, sc *serverClient) {
	if sc.drone() || now-sc.lastGameDataMS <= DeadlockMS || !sc.takesTics() {
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
	t := s.cmds.start
	for t-s.cmds.start < BackupTics && s.cmds.win[sc.player].Has(t) {
		t++
	}
	s.requestResend(now, sc, t, 6)
	if seq := s.relay.sentEnd(sc); sc.acked < seq {
		s.resendTics(now, sc, sc.acked, seq-1)
	}
	sc.lastGameDataMS = now
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
	last, ok := s.relay.clip(first, last)
	if !ok {
		return nil
	}
	for t := first; t <= last; t++ {
		if !s.relay.holds(sc, t) {
			return nil // the reference ignores a request it cannot serve whole
		}
	}
	s.resendTics(now, sc, first, last)
	return nil
}

// resendTics sends tics [first, last] to sc again, those it still holds.
func (s *Server) resendTics(now int64, sc *serverClient, first, last uint32) {
	for first <= last && !s.relay.holds(sc, first) {
		first++
	}
	if first > last {
		return
	}
	for last > first && !s.relay.holds(sc, last) {
		last--
	}
	s.stats.TicsResent += int64(last - first + 1)
	if int32(last+1-sc.resentEnd) > 0 {
		sc.resentEnd = last + 1
	}
	s.relay.send(now, sc, first, last)
}

// record notes, when asked to, which players' commands the server had for
// a tic it let go, and records the tic's commands, cmds, in the replay.
func (s *Server) record(tic uint32, players, received uint8, cmds *[tic.MaxPlayers]tic.Cmd) {
	if s.cfg.RecordTics {
		s.records = append(s.records, TicRecord{Tic: tic, Players: players, Received: received})
	}
	s.rec.Add(tic, players, players&^received, cmds)
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
			s.joins.onTransfer(now, ev)
			s.ext.repair.onTransfer(now, &s.ext, ev)
		}
		return nil
	case kind == wire.TicnetKindStatesRequest:
		return s.ext.repair.onStatesRequest(now, &s.ext, sc, body)
	case kind == wire.TicnetKindAttestFetch:
		return s.ext.attest.answer(now, sc, body)
	case kind == wire.TicnetKindRepairDone:
		return s.ext.repair.onDone(now, &s.ext, sc, body)
	case kind == wire.TicnetKindJoinReady:
		return s.joins.onJoinReady(now, sc, body)
	case kind == wire.TicnetKindStateFeed:
		return s.joins.onRefeed(now, sc, body)
	case kind == wire.TicnetKindHello:
		if s.mig.resume != nil {
			// A new copy while the game changes servers: it comes back
			// in a moment and joins.
			sc.conn.Disconnect(now, ReasonResuming)
			return nil
		}
		if err := s.rj.onHello(sc, body); err != nil {
			return err
		}
		s.mig.onPendingHello(now, sc)
		return nil
	case kind == wire.TicnetKindReattach:
		return s.mig.onReattach(now, sc, body)
	case kind == wire.TicnetKindEndRequest:
		return s.relay.onEndRequest(now, sc, body)
	case kind == wire.TicnetKindInputDelay:
		var m wire.InputDelay
		if err := m.DecodeBody(body); err != nil {
			return err
		}
		sc.inputDelay = m.Tics
		return nil
	case kind == wire.TicnetKindGameOver:
		if s.state != ServerInGame {
			return nil // a copy's word on the game that ended already
		}
		return s.relay.onGameOver(now, sc, body)
	case kind == wire.TicnetKindLaunchOptions:
		var m wire.LaunchOptions
		if err := m.DecodeBody(body); err != nil {
			return err
		}
		if s.state != ServerWaitingLaunch || sc != s.slots.controller() {
			return errUnexpected{}
		}
		s.lobby.launchOpts = m
		return nil
	case kind == wire.TicnetKindTicSet:
		return s.mig.onFetchedTics(sc, body)
	}
	m := &s.ext.in
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if sc.phase == slotJoining && sc.join.started {
		return nil // a joiner's checksums of tics it catches up on: its player is not in them
	}
	if s.state != ServerInGame || sc.player < 0 || !sc.inGame() {
		return errUnexpected{}
	}
	return s.relay.checksums(sc, m)
}
