package session

import (
	"github.com/ticnet/ticnet/election"
	"github.com/ticnet/ticnet/netcore"
)

// Session is one copy of a game on the channel.
type Session struct {
	cfg    Config
	game   netcore.Game
	el     *election.Election
	router election.Router
	eng    *engine
	lobby  *LobbyReport
	events []Event
	stats  Stats
	kept   keptReplay // the replay of a client dropped (replay.go)

	out     []byte // outgoing frames, batched
	scratch []byte
	now     int64
	left    bool
	// retryMS: a client the server refused (or that could not join)
	// connects again at this time; 0: none due.
	retryMS int64
	// budget bounds the tics of a pass; ran is how many the last Update
	// ran.
	budget ticBudget
	ran    int
	// The join of a game in progress, for the stats: when the server said
	// this copy joins, when the state had arrived, when it entered.
	joinMS, stateMS, enteredMS int64
	// mig is the migration of this copy's game to a new server, while one
	// runs.
	mig *migration
	// sentAwayMS: when the server sent this copy's client a DISCONNECT
	// without a Leaving (sentAway); 0: none pending. sentAwayWoke: the
	// copy had just woken then.
	sentAwayMS   int64
	sentAwayWoke bool
}

// RetryMS is how long a copy whose server refused it, or whose join
// failed, waits before it connects again: it joins the running game, or
// the next lobby, as soon as it can, instead of waiting for ever.
const RetryMS = 1000

// New starts a session at now: its election sends its first request on
// the first Update.
func New(cfg Config, game netcore.Game, now int64) *Session {
	if cfg.Timeouts.TimeoutMS == 0 {
		cfg.Timeouts = netcore.BrowserTimeouts
	}
	s := &Session{cfg: cfg, game: game, now: now}
	cadence := election.Local
	if cfg.Election == ElectionGossip {
		cadence = election.Gossip
	}
	s.el = election.New(election.Config{Cadence: cadence, StartMS: cfg.StartTimeMS, Rand: cfg.Rand, Send: s.outFrame}, now)
	s.router.Election = s.el
	return s
}

// Role is this copy's role.
func (s *Session) Role() Role {
	switch s.el.Role() {
	case election.Server:
		return RoleServer
	case election.Client:
		return RoleClient
	}
	return RoleUndecided
}

// UIDs are the addresses of the frames this copy wants besides those to
// everyone: its own UID (ServerUID when it serves) and the election's
// candidate address. A shim that filters frames keeps these.
func (s *Session) UIDs() []uint32 {
	return []uint32{uint32(s.gameUID()), election.CandidateAddr}
}

// Election exposes the election, for tests and stats.
func (s *Session) Election() *election.Election { return s.el }

// Server is the engine's server, when this copy serves.
func (s *Session) Server() *netcore.Server {
	if s.eng == nil {
		return nil
	}
	return s.eng.server
}

// Client is the engine's client, once the election has decided.
func (s *Session) Client() *netcore.Client {
	if s.eng == nil {
		return nil
	}
	return s.eng.client
}

// gameUID is the UID this copy's game frames go out from.
func (s *Session) gameUID() netcore.Addr { return netcore.Addr(s.router.GameUID()) }

// Deliver takes one frame from the channel. It keeps no reference to it.
func (s *Session) Deliver(f []byte) {
	s.stats.FramesIn++
	s.stats.BytesIn += int64(len(f))
	from, payload, game := s.router.Route(s.now, f)
	if !game {
		return
	}
	if s.eng == nil || !s.eng.ch.push(netcore.Addr(from), payload) {
		s.stats.Dropped++
	}
}

// Launch asks the server to start the game (only the controller may).
func (s *Session) Launch() { s.LaunchWith(0, nil) }

// RequestEnd asks to end the game: the controller's ends it (every copy
// gets "end" and is back in its lobby), another copy's asks the controller
// ("endAsked" there). Only under the extension protocol.
func (s *Session) RequestEnd() {
	if s.eng != nil {
		s.eng.client.RequestEnd()
	}
}

// LaunchWith is Launch with a seed and options that every copy gets in
// its "start" event (netcore.Client.LaunchWith).
func (s *Session) LaunchWith(seed uint32, options []byte) {
	if s.eng != nil {
		s.eng.client.LaunchWith(seed, options)
	}
}

// Leave leaves the game cleanly and stays out of the election.
func (s *Session) Leave(now int64) {
	s.left = true
	if s.eng != nil {
		if s.eng.server != nil {
			s.eng.server.Shutdown(now)
		}
		s.eng.client.Leave(now)
	}
}

func (s *Session) emit(e Event) { s.events = append(s.events, e) }

// Update runs the election and the engine at now and returns what
// happened. The slice is valid until the next Update.
func (s *Session) Update(now int64) []Event {
	s.now = now
	s.events = s.events[:0]
	if !s.left {
		for _, ev := range s.el.Update(now) {
			s.onElection(now, ev)
		}
	}
	var before int64
	if s.eng != nil {
		before = s.eng.client.Counters().TicsRun
	}
	s.handOffIfHidden(now)
	s.updateEngine(now)
	s.forgetKeptReplay()
	s.ran = 0
	if s.eng != nil {
		s.ran = int(s.eng.client.Counters().TicsRun - before)
	}
	s.retry(now)
	s.sentAway(now)
	s.checkMigration(now)
	if s.eng != nil && s.eng.client.State() == netcore.ClientInGame {
		s.el.SetInGame(true)
	}
	return s.events
}

func (s *Session) onElection(now int64, ev election.Event) {
	switch ev.Kind {
	case election.RoleDecided:
		role := RoleClient
		if ev.Role == election.Server {
			role = RoleServer
		}
		switch {
		case s.mig != nil && role == RoleServer:
			s.resumeAsServer(now)
		case s.mig != nil:
			s.reattach(now)
		default:
			s.startEngine(now, role)
		}
		s.emit(Event{Kind: "role", Role: role, UID: uint32(s.gameUID()), ServerUID: ev.Server.Tie})
	case election.NewServer:
		if s.mig != nil {
			s.reattach(now)
		} else {
			s.startEngine(now, RoleClient)
		}
		s.emit(Event{Kind: "newServer", Role: RoleClient, ServerUID: ev.Server.Tie})
	case election.Yielded:
		s.yield(now)
		s.emit(Event{Kind: "yielded", ServerUID: ev.Server.Tie})
	case election.SplitDetected:
		s.emit(Event{Kind: "split", ServerUID: ev.Server.Tie})
	case election.ServerLost:
		if !s.migrate(now, netcore.ReasonTimeout) {
			s.dropEngine()
		}
		s.lobby = nil
		s.emit(Event{Kind: "serverLost"})
	}
}

// engineEnded handles the engine's end: a client whose server vanished
// tells the election, which elects a new one.
func (s *Session) engineEnded(now int64, reason string) {
	if s.left || s.el.Role() != election.Client {
		return
	}
	switch reason {
	case netcore.ReasonTimeout, netcore.ReasonServerLeft, netcore.ReasonGameEnded:
		if _, said := s.eng.client.ServerLeaving(); reason == netcore.ReasonServerLeft && !said && s.canMigrate() {
			// A DISCONNECT without a Leaving: an extension server that
			// leaves says Leaving first, but those may be lost, or
			// overtaken on the way (sentAway).
			s.sentAwayMS, s.sentAwayWoke = now, s.el.JustWoke(now)
			return
		}
		s.serverLeft(now, reason)
	case netcore.ReasonReattachRefused:
		// The new server cannot take it back as it is: it joins again,
		// once what that server sent its reattaching connection (a SYN
		// reply resent, say) has died out: a new connection under the
		// same UID would take it for its own.
		s.mig = nil
		s.el.SetGame(0)
		s.retryMS = now + RetryMS
	default:
		// Refused, sent away while the server takes a game over
		// (ReasonResuming), or a join that did not complete: the server
		// is there; try again.
		s.retryMS = now + RetryMS
	}
}

// serverLeft moves this copy's game on from a server that left, for
// reason: to the copy the server named, or to the one elected.
func (s *Session) serverLeft(now int64, reason string) {
	s.migrate(now, reason)
	if !s.serverHandedOff(now) {
		s.el.ServerGone(now)
	}
}

// LeavingWaitMS is how long a copy whose server sent a DISCONNECT without
// a Leaving waits for the Leaving, which may have been overtaken on the
// way: it names the copy the game was handed to, and where the stream
// stopped.
const LeavingWaitMS = 200

// sentAway settles a DISCONNECT that came without a Leaving. If the
// Leaving comes after all, the game migrates as it says. A copy that had
// just woken may have fallen behind and been sent away by a server that
// serves on: if the server is heard after the DISCONNECT, the copy joins
// its game again with its token. Otherwise, after LeavingWaitMS (two
// beacon periods for a copy that woke), the server left and its Leavings
// were lost: the game migrates.
func (s *Session) sentAway(now int64) {
	if s.sentAwayMS == 0 {
		return
	}
	wait := int64(LeavingWaitMS)
	if s.sentAwayWoke {
		wait = 2 * s.el.Cadence().BeaconPeriodMS
	}
	_, said := s.eng.client.ServerLeaving()
	switch {
	case s.left || s.el.Role() != election.Client:
		s.sentAwayMS = 0
	case said:
		s.sentAwayMS = 0
		s.serverLeft(now, netcore.ReasonServerLeft)
	case s.sentAwayWoke && s.el.ServerHeardMS() > s.sentAwayMS:
		s.sentAwayMS = 0
		s.mig = nil
		s.el.SetGame(0)
		s.retryMS = now
	case now-s.sentAwayMS > wait:
		s.sentAwayMS = 0
		s.serverLeft(now, netcore.ReasonServerLeft)
	}
}

// retry connects again to the server, when a retry is due.
func (s *Session) retry(now int64) {
	if s.retryMS == 0 || now < s.retryMS {
		return
	}
	s.retryMS = 0
	if s.left || s.el.Role() != election.Client || s.eng == nil || s.eng.client.State() != netcore.ClientDisconnected {
		return
	}
	s.emit(Event{Kind: "retry"})
	s.startEngine(now, RoleClient)
}

// GameTime reports how long the game's callbacks took during the last
// Update, in nanoseconds: the session learns what a tic costs and bounds
// the tics of the next passes to PassWorkNS's worth (Stats.TicsPerUpdate).
func (s *Session) GameTime(spentNS int64) {
	s.budget.observe(s.ran, spentNS)
	if s.eng != nil {
		s.eng.client.SetTicsPerUpdate(s.budget.tics())
	}
}

// Ran is how many tics the last Update ran.
func (s *Session) Ran() int { return s.ran }

// Stats returns the session's live numbers (rates are the caller's).
func (s *Session) Stats() Stats {
	st := s.stats
	st.Role = s.Role()
	st.UID = uint32(s.gameUID())
	st.Dropped += s.router.Counters().Malformed + s.router.Counters().Foreign + s.el.Counters().Malformed
	st.ReplayBytes, st.ReplayStopped = len(s.Replay()), s.replayStopped()
	if s.eng != nil {
		c := s.eng.client
		st.Gametic, st.Recvtic, st.Maketic = c.GameTic(), c.RecvTic(), c.MakeTic()
		st.PredictedTic = c.PredictedTic()
		pc := c.PredictCounters()
		st.Predicted, st.Rollbacks, st.RolledBack = pc.Predicted, pc.Rollbacks, pc.RolledBack
		st.RTTMS = c.LatencyMS()
		st.Protocol = c.Protocol()
		cc := c.Counters()
		st.Dropped += cc.Malformed + cc.Unexpected
		st.Resends = cc.ResendRequests + cc.TicsResent
		st.TransferBytesIn = c.Transfers().Counters().ChunkBytesReceived
		st.TicsPerUpdate = c.TicsPerUpdate()
		st.TicCostUS = s.budget.perTicNS / 1000
		if s.stateMS != 0 {
			st.TransferMS = s.stateMS - s.joinMS
		}
		if s.enteredMS != 0 {
			st.JoinMS = s.enteredMS - s.joinMS
		}
		for _, p := range c.Lobby().Players {
			st.Players = append(st.Players, p.Name)
		}
		if srv := s.eng.server; srv != nil {
			sc := srv.Counters()
			st.Substituted = sc.Substituted
			st.Dropped += sc.Malformed + sc.Unexpected
			st.Resends += sc.ResendRequests + sc.TicsResent
			st.Players = srv.Players()
		}
	}
	return st
}
