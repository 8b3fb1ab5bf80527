package netcore

import (
	"cmp"
	"crypto/sha256"
	"strconv"

	"github.com/ticnet/ticnet/netcore/wire"
)

// Host migration, under the extension protocol: the game outlives its
// server. While it runs, the server tells every client the roster (the
// game's id, its own player, a hash of each player's rejoin token) and,
// when it goes, where it stopped (wire.Leaving). The copy that takes over
// builds a server from its own client's timeline (NewResumedServer); the
// others reattach to it with their player, token and first tic they do not
// hold (wire.Reattach). The new server fetches the tics it lacks from
// whoever holds them (wire.TicFetch), resumes at the newest tic any of
// them holds, and sends each the tics it lacks, all from the old server's
// stream: tics that reached only some copies are sent the others exactly,
// those no copy holds are decided afresh. The clients keep their game and
// their timeline; gametic carries on.
//
// A player that has not reattached when the game resumes stays in the
// game, its commands substituted, until the server's timeout (a copy
// coming back a little late takes its place as if nothing happened);
// the old server's own player leaves at the resume tic. A copy that holds
// tics the new server decided afresh, or that comes back after its place
// is gone, is refused (ReasonReattachRefused): it joins again with its
// token, as a copy back from a reload does.

// TokenHash is what the roster shows of a rejoin token.
func TokenHash(token [wire.RejoinTokenLen]byte) [wire.TokenHashLen]byte {
	sum := sha256.Sum256(token[:])
	return [wire.TokenHashLen]byte(sum[:wire.TokenHashLen])
}

// Resume is what a server taking a game over resumes it from.
type Resume struct {
	Settings wire.Settings
	Connect  wire.ConnectData // the game's mode and mission (the host's)
	// Timeline is the host's client's: the confirmed tics, the newest
	// BackupTics of which the server can send again.
	Timeline *Timeline
	// Roster is the last the old server sent: the game's id, the players
	// and their token hashes.
	Roster wire.Roster
	// Leaving is the old server's last word, if it came: the server needs
	// no tic from Leaving.Tic on, and Leaving.Player leaves the game.
	Leaving *wire.Leaving
	// Setup is the game's setup (the host's client's), which the server
	// goes on with and gives copies that join.
	Setup wire.GameSetup
	// WaitMS is how long the server waits for the players' copies to
	// reattach before it resumes without those missing; default
	// DefaultResumeWaitMS.
	WaitMS int64
}

// DefaultResumeWaitMS is how long a new server waits for the copies to
// reattach, at most: a copy that missed it reattaches later and its player
// plays on; only one that holds tics the server decided without it must
// join again.
const DefaultResumeWaitMS = 1500

// FetchEveryMS is how often a new server asks again for tics it lacks.
const FetchEveryMS = 50

// resumeState is a new server's state until it resumes the game.
type resumeState struct {
	untilMS int64  // resume by then, with the copies that came
	upTo    uint32 // no copy holds a tic from it on (the old server's word)
	known   bool   // upTo is known
	fetchMS int64  // when tics were last fetched
	in      wire.TicSet
}

// discard is the transport of a player that has not reattached: what the
// server sends it goes nowhere.
type discard struct{}

func (discard) Send(Addr, []byte)          {}
func (discard) Recv() (Addr, []byte, bool) { return 0, nil, false }

// NewResumedServer returns a server that takes over the game r describes,
// in progress, at now: it waits for the players' copies to reattach, then
// resumes the game.
func NewResumedServer(cfg ServerConfig, tr Transport, r Resume, now int64) *Server {
	cfg.Game = r.Roster.Game
	s := NewServer(cfg, tr)
	s.state = ServerInGame
	s.relay = &s.ext
	s.modeSet, s.mode, s.mission = true, r.Connect.GameMode, r.Connect.GameMission
	s.settings = r.Settings
	s.settings.ConsolePlayer = 0
	s.setup = r.Setup
	s.inGD.LowResTurn = s.settings.LowResTurn
	s.out.LowResTurn = s.settings.LowResTurn
	s.inGD.InputSize = s.cfg.Input.Size
	rs := &resumeState{untilMS: now + cmp.Or(max(r.WaitMS, 0), DefaultResumeWaitMS)}
	gone := int(wire.NoPlayer)
	if r.Leaving != nil {
		rs.upTo, rs.known, gone = r.Leaving.Tic, true, int(r.Leaving.Player)
	} else {
		gone = int(r.Roster.ServerPlayer)
	}
	s.resume = rs
	in := s.loadHistory(r.Timeline)
	if r.Timeline.Confirmed() == r.Timeline.First() {
		in = r.Roster.Present &^ r.Roster.Held // no tic yet: who the roster says plays
	}
	for p := range MaxPlayers {
		hash := r.Roster.Hashes[p]
		hashed := r.Roster.Present&(1<<p) != 0
		switch {
		case in&(1<<p) != 0 && p != gone:
			ph := &serverClient{player: p, inGame: true, placeholder: true, hash: hash, hashed: hashed,
				name: "player " + strconv.Itoa(p+1), live: true, lastGameDataMS: now}
			ph.conn = newConn(0, discard{}, s.cfg.Timeouts, now, connConnected, &Counters{})
			s.awaiting[p] = ph
		case hashed && (r.Roster.Held&(1<<p) != 0 || p == gone):
			// Held for a copy that left, the old server's included: it
			// gets its player back if it returns with its token.
			s.departed = append(s.departed, departed{hash: hash, player: p, untilMS: now + s.cfg.RejoinGraceMS})
		}
	}
	return s
}

// loadHistory fills the history with the newest tics of tl that the
// server can send again (each diffed against the tic before it, which tl
// must hold), sets the stream to go on after them, and returns who was in
// the game at the last of them.
func (s *Server) loadHistory(tl *Timeline) uint8 {
	x := &s.ext
	end := tl.Confirmed()
	x.sendSeq, s.recvStart = end, end
	if end == tl.First() {
		return 0
	}
	first := max(tl.First()+1, end-min(end, BackupTics-1))
	base := tl.Tic(first - 1)
	for p := range MaxPlayers {
		if base.Playing(p) {
			x.auth[p] = base.Cmds[p]
		}
	}
	for t := first; t != end; t++ {
		s.appendHistory(t, tl.Tic(t))
	}
	return tl.Tic(end - 1).InGame
}

// appendHistory puts confirmed tic t, the next, in the history, diffed
// against the commands of the tic before.
func (s *Server) appendHistory(t uint32, ct *ConfirmedTic) {
	x := &s.ext
	var st wire.SetTic
	st.InGame, st.Substituted = ct.InGame, ct.Substituted
	for p := range MaxPlayers {
		if !ct.Playing(p) {
			x.auth[p] = TicCmd{}
			continue
		}
		st.Cmds[p] = wire.Diff(&x.auth[p], &ct.Cmds[p])
		x.auth[p] = ct.Cmds[p]
	}
	x.history[t%BackupTics] = histTic{seq: t, valid: true, tic: st}
	x.sendSeq, s.recvStart = t+1, t+1
}

// Resuming reports whether the server waits for copies to reattach before
// it resumes the game.
func (s *Server) Resuming() bool { return s.resume != nil }

// ResumedAt is the tic this server resumed the game at (0 for a server
// that started it).
func (s *Server) ResumedAt() uint32 { return s.ext.resumedAt }

// resumeStep fetches what the server lacks and resumes the game once it
// may: when it holds every tic the old server sent, or every player's copy
// has reattached and it holds what they hold, or its wait is over.
func (s *Server) resumeStep(now int64) {
	r := s.resume
	x := &s.ext
	// The newest tic a reattached copy holds, and one that holds it.
	target := x.sendSeq
	var from *serverClient
	for _, sc := range s.slots {
		if sc.connected() && sc.inGame && int32(sc.acked-target) > 0 {
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
			from.conn.sendMessage(now, &wire.TicFetch{Start: x.sendSeq, Count: uint8(min(target-x.sendSeq, 32))})
		}
		return
	}
	// The host's own copy reattaches through the loopback in a pass or
	// two: the game resumes with it.
	local := s.slotOf(LocalClientAddr)
	host := local == nil || local.inGame
	if (r.known && x.sendSeq == r.upTo && host) || !s.awaitingAny() || waited {
		s.startResumed(now)
	}
}

// onPendingHello admits as a joiner a copy that connected while players'
// copies were awaited (held back for its Reattach) and said Hello instead:
// one that was refused, or a new one. Without a copy to take the state
// from, it is sent away, and comes back.
func (s *Server) onPendingHello(now int64, sc *serverClient) {
	if s.state != ServerInGame || sc.join != nil || sc.inGame || sc.player >= 0 {
		return // not held back: a lobby's client, or a joiner already
	}
	source := s.snapshotSource()
	if !s.ext.started || source == nil {
		sc.conn.disconnect(now, ReasonResuming)
		return
	}
	sc.join = &joiner{}
	sc.lastGameDataMS = now
	s.requestSnapshot(now, sc, source)
}

// onFetchedTics takes tics a client sent back on a TicFetch.
func (s *Server) onFetchedTics(sc *serverClient, body []byte) error {
	r := s.resume
	if r == nil || !sc.inGame {
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
		ct := ConfirmedTic{InGame: st.InGame, Substituted: st.Substituted}
		for p := range MaxPlayers {
			if st.Has(p) {
				ct.Cmds[p] = wire.Patch(&x.auth[p], &st.Cmds[p])
			}
		}
		s.appendHistory(t, &ct)
	}
	return nil
}

// startResumed resumes the game at the next tic: it is due now, and the
// players that reattached are sent the tics they lack.
func (s *Server) startResumed(now int64) {
	x := &s.ext
	s.resume = nil
	x.started = true
	x.resumedAt = x.sendSeq
	x.anchorMS = now - int64(x.sendSeq)*1000*int64(s.settings.TicDup)/s.ticRate()
	for p := range MaxPlayers {
		x.lagging[p] = s.awaiting[p] != nil
		x.measuredTic[p] = x.sendSeq
	}
	for _, sc := range s.slots {
		if !sc.connected() || !sc.inGame {
			continue
		}
		if int32(sc.acked-x.sendSeq) > 0 {
			// It holds tics no other copy gave the server in time: they
			// are decided afresh, and it must join again.
			sc.conn.disconnect(now, ReasonReattachRefused)
			continue
		}
		s.resumeClient(now, sc)
	}
	s.recordStart(x.resumedAt)
	s.emit(Event{Kind: EventResumed, Player: -1, Tic: x.sendSeq})
}

// resumeClient tells a reattached client where the game resumes and sends
// it the tics it lacks.
func (s *Server) resumeClient(now int64, sc *serverClient) {
	x := &s.ext
	sc.sendSeq = x.sendSeq
	sc.pushFromMS = now
	sc.lastGameDataMS = now
	// The Resume is reliable, and queued behind the server's reply to
	// the client's SYN; an unreliable copy goes at once, and again until
	// the reliable one is through, so that neither waits for the other.
	sc.resumeSeq = sc.conn.sendSeq
	sc.conn.sendReliable(&wire.Resume{Tic: x.resumedAt})
	sc.conn.sendReliableHead(now)
	sc.resumeCopyMS = now
	sc.conn.sendMessage(now, &wire.Resume{Tic: x.resumedAt})
	if sc.acked < x.sendSeq {
		s.resendTics(now, sc, sc.acked, x.sendSeq-1)
	}
}

// resendResumeCopy sends a resumed client's Resume again, unreliably,
// every ReattachResendMS while the reliable one waits in its queue.
func (s *Server) resendResumeCopy(now int64, sc *serverClient) {
	switch {
	case !sc.conn.queued(sc.resumeSeq):
		sc.resumeCopyMS = 0 // the reliable one is through
	case now-sc.resumeCopyMS >= ReattachResendMS:
		sc.resumeCopyMS = now
		sc.conn.sendMessage(now, &wire.Resume{Tic: s.ext.resumedAt})
	}
}

// reattachFirst connects a copy whose Reattach came before its SYN (they
// go together, and may cross on the way): the Reattach is the copy's
// request to connect as much as its SYN is. Nil unless it is a Reattach
// into this game, for a player whose copy is awaited.
func (s *Server) reattachFirst(now int64, from Addr, h wire.Header, body []byte) *serverClient {
	if h.Type != wire.TypeTicnet || !h.Reliable || !s.awaitingAny() {
		return nil
	}
	var m wire.Reattach
	if kind, err := wire.TicnetKind(body); err != nil || kind != wire.TicnetKindReattach || m.DecodeBody(body) != nil ||
		m.Game != s.cfg.Game || m.Player < 0 || s.awaiting[m.Player] == nil {
		return nil
	}
	syn := wire.SYN{Version: s.cfg.Version, Connect: wire.ConnectData{GameMode: s.mode, GameMission: s.mission}}
	return s.newSlot(now, from, &syn, wire.ProtocolTicnet)
}

// onReattach takes a client of the old server back, in its player's place.
func (s *Server) onReattach(now int64, sc *serverClient, body []byte) error {
	var m wire.Reattach
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	x := &s.ext
	if sc.inGame || sc.hello || m.Game != s.cfg.Game || m.Player < 0 {
		return errUnexpected{}
	}
	p := int(m.Player)
	ph := s.awaiting[p]
	fits := ph != nil && (!ph.hashed || ph.hash == TokenHash(m.Token))
	if r := s.resume; r != nil {
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
		sc.conn.disconnect(now, ReasonReattachRefused)
		return nil
	}
	s.awaiting[p] = nil
	if sc.join != nil {
		// Admitted as a joiner before it said it reattaches: it needs no
		// snapshot.
		s.cancelSnapshot(now, sc)
		sc.join = nil
	}
	sc.player, sc.inGame, sc.hello = p, true, true
	sc.data.Drone = false
	sc.setToken(m.Token)
	sc.acked = m.Confirmed
	sc.lastGameDataMS = now
	s.forgetCommands(p)
	if s.resume != nil {
		return nil // told where the game resumes when it does
	}
	x.lagging[p] = true // not waited for until its commands come
	x.measuredTic[p] = x.sendSeq
	s.resumeClient(now, sc)
	return nil
}

// SpeaksTicnet reports whether the client at a speaks the extension
// protocol.
func (s *Server) SpeaksTicnet(a Addr) bool {
	sc := s.slotOf(a)
	return sc != nil && sc.protocol == wire.ProtocolTicnet
}

// awaitingAny reports whether a player's copy has not reattached yet.
func (s *Server) awaitingAny() bool {
	for _, ph := range s.awaiting {
		if ph != nil {
			return true
		}
	}
	return false
}

// runAwaiting ends the places of players whose copies did not reattach
// within the server's timeout (ServerConfig.Timeouts).
func (s *Server) runAwaiting(now int64) {
	for p, ph := range s.awaiting {
		if ph == nil {
			continue
		}
		ph.conn.run(now)
		if !ph.connected() {
			s.dropPlaceholder(now, p, ReasonTimeout)
		}
	}
}

// dropPlaceholder ends the place of player p, whose copy did not reattach:
// its player leaves the game, and is held for its token.
func (s *Server) dropPlaceholder(now int64, p int, reason string) {
	ph := s.awaiting[p]
	s.awaiting[p] = nil
	s.hold(now, ph)
	s.emit(Event{Kind: EventPlayerLeft, Player: p, Name: ph.name, Reason: reason})
}

// sendRosters sends every client in the game the roster, when it changed.
func (s *Server) sendRosters(now int64) {
	if s.state != ServerInGame || !s.ext.started {
		return
	}
	r := &s.rosterOut // a field: a local would escape to the heap every pass
	*r = wire.Roster{Game: s.cfg.Game, ServerPlayer: wire.NoPlayer}
	for _, sc := range s.slots {
		if !sc.connected() || !sc.inGame || sc.player < 0 {
			continue
		}
		if sc.addr == LocalClientAddr {
			r.ServerPlayer = int8(sc.player)
		}
		if sc.hashed {
			r.Present |= 1 << sc.player
			r.Hashes[sc.player] = sc.hash
		}
	}
	for p, ph := range s.awaiting {
		if ph != nil && ph.hashed {
			r.Present |= 1 << p
			r.Hashes[p] = ph.hash
		}
	}
	s.held(now)
	for _, d := range s.departed {
		if r.Present&(1<<d.player) == 0 {
			r.Present |= 1 << d.player
			r.Held |= 1 << d.player
			r.Hashes[d.player] = d.hash
		}
	}
	for _, sc := range s.slots {
		if sc.connected() && sc.inGame && sc.protocol == wire.ProtocolTicnet && (!sc.rostered || sc.roster != *r) {
			sc.roster, sc.rostered = *r, true
			sc.conn.sendReliable(r)
		}
	}
}
