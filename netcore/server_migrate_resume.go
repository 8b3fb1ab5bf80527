package netcore

import (
	"slices"

	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// resumeStep fetches what the server lacks and resumes the game once it
// may: when it holds every tic the old server sent, or every player's copy
// has reattached and it holds what they hold, or its wait is over.
func (mg *migration) resumeStep(now int64) {
	s := mg.s
	r := mg.resume
	x := &s.ext
	// The newest tic a reattached copy holds, and one that holds it.
	target := x.sendSeq
	var from *serverClient
	for _, sc := range s.slots {
		if sc.connected() && sc.inGame() && int32(sc.acked-target) > 0 {
			target, from = sc.acked, sc
		}
	}
	if r.known && int32(target-r.upTo) > 0 {
		target = r.upTo
	}
	waited := now >= r.untilMS
	if int32(target-x.sendSeq) > 0 && now < r.untilMS+2*FetchEveryMS {
		if now-r.fetchMS >= FetchEveryMS {
			r.fetchMS = now
			from.conn.SendMessage(now, &wire.TicFetch{Start: x.sendSeq, Count: uint8(min(target-x.sendSeq, 32))})
		}
		return
	}
	// The host's own copy reattaches through the loopback in a pass or
	// two: the game resumes with it.
	local := s.slots.find(LocalClientAddr)
	host := local == nil || local.inGame()
	if (r.known && x.sendSeq == r.upTo && host) || !mg.awaitingAny() || waited {
		mg.startResumed(now)
	}
}

// onPendingHello admits as a joiner a copy that connected while players'
// copies were awaited (held back for its Reattach) and said Hello instead:
// one that was refused, or a new one. Without a copy to take the state
// from, it is sent away, and comes back.
func (mg *migration) onPendingHello(now int64, sc *serverClient) {
	s := mg.s
	if s.state != ServerInGame || sc.phase != slotWaiting || sc.player >= 0 {
		return // not held back: a lobby's client, or a joiner already
	}
	source := s.joins.snapshotSource()
	if !s.ext.started || source == nil {
		sc.conn.Disconnect(now, ReasonResuming)
		return
	}
	sc.to(slotJoining)
	sc.lastGameDataMS = now
	s.joins.requestSnapshot(now, sc, source)
}

// onFetchedTics takes tics a client sent back on a TicFetch.
func (mg *migration) onFetchedTics(sc *serverClient, body []byte) error {
	s := mg.s
	r := mg.resume
	if r == nil || !sc.inGame() {
		return errUnexpected{}
	}
	r.in.LowResTurn, r.in.InputSize, r.in.Near = s.settings.LowResTurn, s.cfg.Input.Size, s.ext.sendSeq
	if err := r.in.DecodeBody(body); err != nil {
		return err
	}
	x := &s.ext
	for i := range r.in.Tics {
		t := r.in.Start + uint32(i)
		if t != x.sendSeq || (r.known && t >= r.upTo) {
			continue
		}
		st := &r.in.Tics[i]
		ct := tic.ConfirmedTic{InGame: st.InGame, Substituted: st.Substituted}
		for p := range tic.MaxPlayers {
			if st.Has(p) {
				ct.Cmds[p] = wire.Patch(&x.auth[p], &st.Cmds[p])
			}
		}
		s.ext.appendHistory(t, &ct)
	}
	return nil
}

// startResumed resumes the game at the next tic: it is due now, and the
// players that reattached are sent the tics they lack.
func (mg *migration) startResumed(now int64) {
	s := mg.s
	x := &s.ext
	mg.resume = nil
	var awaited uint8
	for p, ph := range mg.awaiting {
		if ph != nil {
			awaited |= 1 << p
		}
	}
	x.resume(now, awaited)
	for _, sc := range s.slots {
		if !sc.connected() || !sc.inGame() {
			continue
		}
		if int32(sc.acked-x.sendSeq) > 0 {
			// It holds tics no other copy gave the server in time: they
			// are decided afresh, and it must join again.
			sc.conn.Disconnect(now, ReasonReattachRefused)
			continue
		}
		mg.resumeClient(now, sc)
	}
	s.rec.Start(x.resumedAt, nil)
	s.emit(Event{Kind: EventResumed, Player: -1, Tic: x.sendSeq})
}

// resumeClient tells a reattached client where the game resumes and sends
// it the tics it lacks.
func (mg *migration) resumeClient(now int64, sc *serverClient) {
	s := mg.s
	x := &s.ext
	sc.restream(now, x.sendSeq)
	sc.sendResume(now, x.resumedAt)
	if sc.acked < x.sendSeq {
		s.resendTics(now, sc, sc.acked, x.sendSeq-1)
	}
}

// reattachFirst connects a copy whose Reattach came before its SYN (they
// go together, and may cross on the way): the Reattach is the copy's
// request to connect as much as its SYN is, and names the connection,
// whose tag it carries. It is sealed for every player's copy that may
// have taken the game over (reliable.Conn.SealFor): this server checks
// its own tag in it, under the keys of the connection with the key the
// roster gives the player it claims. Nil unless it is a Reattach into
// this game, for a player whose copy is awaited (forged: it did not
// check); else the slot, and the frame with its tag and seal off.
func (mg *migration) reattachFirst(now int64, from link.Addr, frame []byte) (sc *serverClient, pkt []byte, forged bool) {
	s := mg.s
	self := mg.ownPlayer()
	if !mg.awaitingAny() || self < 0 {
		return nil, nil, false
	}
	bare, err := auth.StripBroadcast(frame) // unchecked: to read what it claims
	if err != nil {
		return nil, nil, false
	}
	bare = slices.Clone(bare)
	wire.SetTag(bare, 0)
	h, body, err := wire.ParseHeader(bare)
	var m wire.Reattach
	if err != nil || h.Type != wire.TypeTicnet || !h.Reliable {
		return nil, nil, false
	}
	if kind, err := wire.TicnetKind(body); err != nil || kind != wire.TicnetKindReattach || m.DecodeBody(body) != nil ||
		m.Game != s.cfg.Game || m.Player < 0 || int(m.Player) >= tic.MaxPlayers || !mg.mayReattach(int(m.Player)) ||
		m.Conn == 0 || wire.TagOf(frame) != wire.ConnTag(m.Conn) {
		return nil, nil, false
	}
	key := mg.awaitedKey(int(m.Player))
	if key == nil {
		return nil, nil, false
	}
	keys, err := auth.Agree(s.cfg.Key, *key, m.Conn, false)
	if err != nil {
		return nil, nil, true
	}
	a := auth.NewConn(keys, false, now)
	if _, err := a.OpenBroadcast(now, frame, self); err != nil {
		return nil, nil, true
	}
	syn := wire.SYN{Version: s.cfg.Version, Connect: wire.ConnectData{GameMode: s.lobby.mode, GameMission: s.lobby.mission}}
	if sc = s.lobby.newSlot(now, from, &syn, wire.ProtocolTicnet, m.Conn, key); sc == nil {
		return nil, nil, false
	}
	sc.conn.Secure(a) // the keys newSlot agreed, with the frame taken
	return sc, bare, false
}

// awaitedKey is the key of player p's copy, awaited (awaited): nil if
// none is.
func (mg *migration) awaitedKey(p int) *wire.PublicKey {
	if ph := mg.awaiting[p]; ph != nil {
		return ph.key
	}
	if !mg.silentHeld(p) {
		return nil
	}
	for i := range mg.s.rj.departed {
		if d := &mg.s.rj.departed[i]; d.player == p {
			return &d.key
		}
	}
	return nil
}

// onReattach takes a client of the old server back, in its player's place.
func (mg *migration) onReattach(now int64, sc *serverClient, body []byte) error {
	s := mg.s
	var m wire.Reattach
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	x := &s.ext
	if sc.inGame() || sc.hello || m.Game != s.cfg.Game || m.Player < 0 {
		return errUnexpected{}
	}
	p := int(m.Player)
	ph := mg.awaited(now, p, sc.key)
	fits := ph != nil && sameKey(ph.key, sc.key) // its copy's, not another's
	if r := mg.resume; r != nil {
		// It may hold more than this server, never more than the old
		// server sent.
		fits = fits && !(r.known && int32(m.Confirmed-r.upTo) > 0)
	} else {
		// It must hold no tic this server decided.
		fits = fits && int32(m.Confirmed-x.resumedAt) <= 0
	}
	// The server must hold every tic it lacks, to send it.
	if fits && int32(x.sendSeq-m.Confirmed) > 0 && !s.relay.holds(sc, m.Confirmed) {
		fits = false
	}
	if !fits {
		s.stats.RejoinRefused++
		sc.conn.Disconnect(now, ReasonReattachRefused)
		return nil
	}
	mg.awaiting[p] = nil
	if sc.phase == slotJoining {
		// Admitted as a joiner before it said it reattaches: it needs no
		// snapshot.
		s.joins.cancelSnapshot(now, sc)
	}
	sc.reattach(now, p, ph.rejoinable, m.Confirmed)
	if sc.name == "" {
		sc.name = ph.name // its Reattach came first: the slot has no SYN's name
	}
	mg.seniority(sc)
	s.cmds.forgetPlayer(p)
	if mg.resume != nil {
		return nil // told where the game resumes when it does
	}
	x.reattached(p)
	mg.resumeClient(now, sc)
	return nil
}

// awaitingAny reports whether a player's copy has not reattached yet.
func (mg *migration) awaitingAny() bool {
	for _, ph := range mg.awaiting {
		if ph != nil {
			return true
		}
	}
	return false
}

// runAwaiting ends the places of players whose copies did not reattach
// within the server's timeout (ServerConfig.Timeouts).
func (mg *migration) runAwaiting(now int64) {
	for p, ph := range mg.awaiting {
		if ph == nil {
			continue
		}
		ph.conn.Run(now)
		if !ph.connected() {
			mg.dropPlaceholder(now, p, ReasonTimeout)
		}
	}
}

// dropPlaceholder ends the place of player p, whose copy did not reattach:
// its player leaves the game, and is held for its token.
func (mg *migration) dropPlaceholder(now int64, p int, reason string) {
	s := mg.s
	ph := mg.awaiting[p]
	mg.awaiting[p] = nil
	s.rj.hold(now, ph)
	s.emit(Event{Kind: EventPlayerLeft, Player: p, Name: ph.name, Reason: reason})
}

// sendRosters sends every client in the game the roster, when it changed.
func (mg *migration) sendRosters(now int64) {
	s := mg.s
	if s.state != ServerInGame || !s.ext.started {
		return
	}
	r := &mg.rosterOut // a field: a local would escape to the heap every pass
	*r = wire.Roster{Game: s.cfg.Game, ServerPlayer: wire.NoPlayer, Controller: wire.NoPlayer}
	if ctrl := s.slots.controller(); ctrl != nil && ctrl.inGame() && ctrl.player >= 0 {
		r.Controller = int8(ctrl.player)
	}
	if c := mg.controller; c >= 0 && mg.awaiting[c] != nil {
		r.Controller = int8(c) // its copy has yet to reattach
	}
	for _, sc := range s.slots {
		if !sc.connected() || !sc.inGame() || sc.player < 0 {
			continue
		}
		if sc.addr == LocalClientAddr {
			r.ServerPlayer = int8(sc.player)
		}
		r.Playing |= 1 << sc.player
		r.Names[sc.player] = sc.name
		r.AddKey(sc.player, sc.key, sc.rejoinable)
	}
	for p, ph := range mg.awaiting {
		if ph != nil {
			r.Playing |= 1 << p
			r.Names[p] = ph.name
			r.AddKey(p, ph.key, ph.rejoinable)
		}
	}
	s.rj.held(now)
	for _, d := range s.rj.departed {
		if (r.Present|r.Playing)&(1<<d.player) == 0 {
			r.AddKey(d.player, &d.key, true)
			r.Held |= 1 << d.player
			r.Names[d.player] = d.name
		}
	}
	if mg.rosterGen == 0 || *r != mg.rosterLast {
		mg.rosterLast = *r
		mg.rosterGen++
	}
	for _, sc := range s.slots {
		if sc.connected() && sc.inGame() && sc.protocol == wire.ProtocolTicnet {
			sc.sendRoster(now, r, mg.rosterGen)
		}
	}
}
