package session

import (
	"cmp"

	"github.com/ticnet/ticnet/election"
	"github.com/ticnet/ticnet/netcore"
)

// Host migration: when the server goes in the middle of a game, this
// copy keeps its client (its game, its timeline, its commands), and its
// election looks for the next server among the copies of the same game
// (election.SetGame). If it is that server, it builds one from its
// client's timeline (netcore.NewResumedServer) and its client reattaches
// to it through the loopback; if another copy is, its client reattaches to
// that one over the channel. Either way the game goes on from where it
// was: no lobby, no new game.

// MigrateGiveUpMS is how long a copy looks for its game's next server
// before it gives the game up and joins whatever game the channel has.
const MigrateGiveUpMS = 10000

// migration is this copy's part in moving its game to a new server.
type migration struct {
	fromMS int64 // when its server was lost
}

// migratesOn reports whether this copy's client, disconnected for cause,
// goes on with its game under a new server (engineEnded then migrates).
func (s *Session) migratesOn(cause netcore.Cause) bool {
	switch cause {
	case netcore.CauseTimeout, netcore.CauseServerLeft:
		return !s.left && s.el.Role() == election.Client && s.canMigrate()
	}
	return false
}

// canMigrate reports whether this copy can go on with its game under a new
// server: it plays one, and its client can reattach (or it already does).
func (s *Session) canMigrate() bool {
	return s.mig != nil || !s.left && s.eng != nil && s.eng.view.reattachable
}

// migrate starts a migration, if this copy can go on with its game under
// a new server; it reports whether it did (or one runs).
func (s *Session) migrate(now int64, reason string) bool {
	if s.mig != nil {
		return true
	}
	if !s.canMigrate() {
		return false
	}
	c := s.eng.client
	s.mig = &migration{fromMS: now}
	s.eng.server = nil
	s.emit(Event{Kind: "migrating", Tic: c.GameTic(), Reason: reason})
	return true
}

// resumeAsServer makes this copy the game's server: a server resumed from
// its client's timeline, to which its client reattaches.
func (s *Session) resumeAsServer(now int64) {
	c := s.eng.client
	r := c.Handover(s.eng.leaving)
	ch := &channel{s: s}
	srvEnd, cliEnd := netcore.NewLoopback(ServerUID)
	srv := netcore.NewResumedServer(s.cfg.serverConfig(r.Roster.Game, s.el), &netcore.HostTransport{Channel: ch, Local: srvEnd}, r, now)
	if !c.Reattach(cliEnd, now) {
		s.giveUpMigration(now)
		return
	}
	s.conns++ // the client's next connection
	s.eng = &engine{server: srv, client: c, ch: ch, view: s.eng.view.reattached(), resuming: true}
}

// reattach makes this copy's client a client of the game's new server.
func (s *Session) reattach(now int64) {
	ch := &channel{s: s}
	if !s.eng.client.Reattach(ch, now) {
		s.giveUpMigration(now)
		return
	}
	s.conns++ // the client's next connection
	s.eng = &engine{client: s.eng.client, ch: ch, view: s.eng.view.reattached()}
}

// yield drops this copy's server, and its clients, hearing it no more,
// follow the other server of the same game. A server that has not yet
// resumed the game decided no tic: its client reattaches to the other,
// as any survivor does. One that has drops its game, which the other
// keeps: its client joins that one with its token (late join).
func (s *Session) yield(now int64) {
	if s.mig != nil && s.eng != nil && s.eng.server != nil && s.eng.resuming {
		s.reattach(now)
		return
	}
	s.mig = nil
	s.el.SetGame(0)
	s.startEngine(now, RoleClient)
}

// resumed ends a migration: the game went on from tic.
func (s *Session) resumed(now int64, tic uint32) {
	if s.mig == nil {
		return
	}
	// The game stood still from the last tic it ran: before its server
	// was lost (found only a timeout later when it fell silent), or
	// after, the tics it held; from the loss if it never ran one.
	gap := now - cmp.Or(s.ranMS, s.mig.fromMS)
	s.mig = nil
	s.stats.Migrations++
	s.emit(Event{Kind: "resumed", ServerUID: s.el.Server().Tie, Tic: tic, GapMS: gap})
}

// giveUpMigration drops the game: this copy joins the channel's game
// afresh, with its token.
func (s *Session) giveUpMigration(now int64) {
	s.mig = nil
	s.el.SetGame(0)
	s.emit(Event{Kind: "migrateFailed"})
	if s.el.Role() == election.Client {
		s.startEngine(now, RoleClient)
		return
	}
	s.dropEngine()
}

// checkMigration gives a migration up when it takes too long, and keeps
// the election told which game this copy plays.
func (s *Session) checkMigration(now int64) {
	if s.mig != nil && now-s.mig.fromMS > MigrateGiveUpMS {
		s.giveUpMigration(now)
	}
	if s.mig != nil || s.eng == nil {
		return
	}
	v := &s.eng.view
	if r, ok := v.rostered(); ok && v.state == netcore.ClientInGame {
		s.el.SetGame(r.Game)
	} else if v.state != netcore.ClientInGame {
		s.el.SetGame(0)
	}
}
