package session

import (
	"github.com/ticnet/ticnet/election"
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/tic"
	"slices"
)

// Session is one copy of a game on the channel: the election, the router
// and the engine, and the components that each keep one part of the
// session's state: what goes out (outbox.go), the lobby last reported
// (lobby.go), the join's times (join.go), the replay of a client dropped
// (replay.go), a wait for a Leaving (departure.go) and the tic budget
// (budget.go).
type Session struct {
	cfg    Config
	game   tic.Game
	el     *election.Election
	router election.Router
	eng    *engine
	conns  int // the connections its clients made: the next one's number (netcore.ClientConfig.ConnSeq)
	events []Event
	stats  Stats
	now    int64
	left   bool

	outbox
	lobby lobbyView
	join  joinTimes
	kept  keptReplay
	// awaitLeaving: the server sent this copy's client a DISCONNECT
	// without a Leaving.
	awaitLeaving leavingWait
	// budget bounds the tics of a pass; ran is how many the last Update
	// ran, ranMS when an Update last ran any.
	budget ticBudget
	ran    int
	ranMS  int64
	// retryMS: a client the server refused (or that could not join)
	// connects again at this time; 0: none due.
	retryMS int64
	// mig is the migration of this copy's game to a new server, while one
	// runs (migrate.go).
	mig *migration
}

// RetryMS is how long a copy whose server refused it, or whose join
// failed, waits before it connects again: it joins the running game, or
// the next lobby, as soon as it can, instead of waiting for ever.
const RetryMS = 1000

// New starts a session at now: its election sends its first request on
// the first Update.
func New(cfg Config, game tic.Game, now int64) *Session {
	if cfg.Timeouts.TimeoutMS == 0 {
		cfg.Timeouts = netcore.BrowserTimeouts
	}
	key, err := cfg.copyKey()
	if err != nil {
		panic(err) // crypto/rand does not fail (Go 1.24 and later)
	}
	cfg.Key = key
	s := &Session{cfg: cfg, game: game, now: now}
	s.el = election.New(election.Config{Cadence: cfg.cadence(), StartMS: cfg.StartTimeMS, Rand: cfg.Rand, Send: s.outbox.frame, Watch: cfg.Watch}, now)
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
func (s *Session) gameUID() link.Addr { return link.Addr(s.router.GameUID()) }

// Deliver takes one frame from the channel. It keeps no reference to it.
func (s *Session) Deliver(f []byte) {
	s.stats.FramesIn++
	s.stats.BytesIn += int64(len(f))
	from, payload, game := s.router.Route(s.now, f)
	if !game {
		return
	}
	if s.eng == nil || !s.eng.ch.push(link.Addr(from), payload) {
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
	if !s.left {
		s.el.Leave()
	}
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
	s.kept.forget(s.Client())
	s.ran = 0
	if s.eng != nil {
		s.ran = int(s.eng.client.Counters().TicsRun - before)
	}
	if s.ran > 0 {
		s.ranMS = now
	}
	s.retry(now)
	s.sentAway(now)
	s.checkMigration(now)
	if s.eng != nil && s.eng.view.state == netcore.ClientInGame {
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
		s.lobby.reset()
		s.emit(Event{Kind: "serverLost"})
	}
}

// retry connects again to the server, when a retry is due.
func (s *Session) retry(now int64) {
	if s.retryMS == 0 || now < s.retryMS {
		return
	}
	s.retryMS = 0
	if s.left || s.el.Role() != election.Client || s.eng == nil || s.eng.view.state != netcore.ClientDisconnected {
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
	st.FramesOut, st.BytesOut = s.outbox.frames, s.outbox.bytes
	st.Dropped += s.outbox.dropped
	st.Role = s.Role()
	st.UID = uint32(s.gameUID())
	st.Dropped += s.router.Counters().Malformed + s.router.Counters().Foreign + s.el.Counters().Malformed
	st.ReplayBytes, st.ReplayStopped = len(s.Replay()), s.kept.fileStopped(s.Client())
	st.Peers = nil
	if s.eng != nil {
		c := s.eng.client
		st.Gametic, st.Recvtic, st.Maketic = c.GameTic(), c.RecvTic(), c.MakeTic()
		st.PredictedTic = c.PredictedTic()
		pc := c.PredictCounters()
		st.Predicted, st.Rollbacks, st.RolledBack = pc.Predicted, pc.Rollbacks, pc.RolledBack
		st.RTTMS = c.LatencyMS()
		st.InputDelay = c.InputDelay()
		st.Protocol = c.Protocol()
		cc := c.Counters()
		st.Forged = cc.Forged + cc.Replayed
		st.Dropped += cc.Malformed + cc.Unexpected + cc.Stale + st.Forged
		st.Resends = cc.ResendRequests + cc.TicsResent
		st.TransferBytesIn = c.Transfers().Counters().ChunkBytesReceived
		st.TicsPerUpdate = c.TicsPerUpdate()
		st.TicCostUS = s.budget.perTicNS / 1000
		s.join.report(&st)
		if r := s.eng.view.players(s.cfg.MaxPlayers); r != nil {
			st.Players = r.names()
		}
		if srv := s.eng.server; srv != nil {
			sc := srv.Counters()
			st.Substituted = sc.Substituted
			st.Forged += sc.Forged + sc.Replayed
			st.Dropped += sc.Malformed + sc.Unexpected + sc.Stale + sc.Forged + sc.Replayed
			st.Resends += sc.ResendRequests + sc.TicsResent
			if st.Players == nil {
				st.Players = srv.Players() // a reference game's: no roster
			}
		}
		if len(s.stats.Peers) > 0 {
			st.Peers = slices.Clone(s.stats.Peers)
		}
		for i, p := range st.Peers {
			if p.Player < len(st.Players) {
				st.Peers[i].Name = st.Players[p.Player]
			}
		}
	}
	return st
}
