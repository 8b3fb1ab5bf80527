package election

// Succession: how a game outlives its server. A client whose server is
// gone drops it (lose) and elects the next among the copies of its game,
// following the one that comes first at once (follow); a server hands its
// game to a named copy (HandOver), which its clients follow
// (ServerHandedTo) and which takes the game over (TakeOver), or does so
// itself when it hears itself named (onHeirClaim).

// heir is the next server a client follows before it has heard it serve.
type heir struct {
	unheard bool  // followed, not heard as a server yet
	waitMS  int64 // given up if not heard for this long
	// uid: the UID of the copy this copy follows because its server handed
	// the game to it (ServerHandedTo, HandOver), until it is heard; its
	// announcements name it. 0: an heir elected, not named.
	uid uint32
}

// named is the UID this copy's announcements name as its heir (0: none).
func (h heir) named() uint32 {
	if h.unheard {
		return h.uid
	}
	return 0
}

// maxGone bounds the lost servers an election remembers.
const maxGone = 8

// goneServers are the servers this copy lost, newest last: for forMS
// after, their frames still on their way are not followed. (One heard
// after that lives: a partition healed.)
type goneServers struct {
	list  []goneServer
	forMS int64
}

// goneServer is a server this copy lost, and when.
type goneServer struct {
	id   Identity
	atMS int64
}

func (g *goneServers) add(now int64, id Identity) {
	if len(g.list) == maxGone {
		g.list = append(g.list[:0], g.list[1:]...)
	}
	g.list = append(g.list, goneServer{id: id, atMS: now})
}

// lost reports whether id is a server this copy lost lately.
func (g goneServers) lost(now int64, id Identity) bool {
	for _, s := range g.list {
		if s.id == id && now-s.atMS <= g.forMS {
			return true
		}
	}
	return false
}

// shift moves every loss gapMS later: the time this copy slept.
func (g goneServers) shift(gapMS int64) {
	for i := range g.list {
		g.list[i].atMS += gapMS
	}
}

// ServerGone tells the election that the engine lost the server (its
// connection timed out or the server said it was leaving).
func (e *Election) ServerGone(now int64) {
	if e.role == Client {
		e.lose(now)
	}
}

// lose drops this copy's server, which is gone, and elects the next.
func (e *Election) lose(now int64) {
	e.drop(now, true)
	e.emit(ServerLost)
}

// drop forgets this copy's server, remembered as gone if it is, and makes
// this copy undecided.
func (e *Election) drop(now int64, gone bool) {
	if gone {
		e.cands.forget(e.server)
		e.gone.add(now, e.server)
	}
	e.become(now, Undecided, Identity{}, 0)
	e.inGame = false
	e.waitFromMS, e.waitMS = now, e.cfg.Cadence.ReelectWaitMS
	e.lastRequestMS = now - e.cfg.Cadence.RequestPeriodMS
	if e.migrating() {
		// Say at once that it looks for its game's next server: the
		// copies of its game that have not noticed find out from it.
		e.lastAnnounceMS = now - e.cfg.Cadence.AnnouncePeriodMS
	}
}

// follow makes this copy, which looks for its game's next server, a
// client of the copy that comes first, at once: that copy serves as soon
// as it finds the server gone too (the others' announcements say so), and
// this copy's client reattaches meanwhile. Until that server is heard,
// this copy still says that it looks for one, and gives it up after
// waitMS.
func (e *Election) follow(now int64, id Identity, waitMS int64) {
	e.become(now, Client, id, RoleDecided)
	e.heir.unheard, e.heir.waitMS = true, waitMS
}

// onGameServer handles a server that says it serves this copy's game: the
// copies of the game elected it when theirs left. A copy looking for that
// server follows it. A client whose server has been silent for two beacon
// periods takes it that its server left (its goodbye was lost) and follows
// it too. So does, at once, one that follows a next server it has not
// heard yet (follow), and one whose server comes after this one in an
// election (comesBefore): of two servers of one game, that one yields
// when they hear each other. Neither of those servers is lost: each may
// be heard serving next.
func (e *Election) onGameServer(now int64, id Identity) {
	if e.gone.lost(now, id) {
		return
	}
	switch {
	case e.migrating():
	case e.role != Client || id == e.server:
		return
	case now-e.serverHeardMS >= 2*e.cfg.Cadence.BeaconPeriodMS:
		e.lose(now)
	case e.heir.unheard || e.cands.before(id, e.server):
		e.drop(now, false)
		e.emit(ServerLost)
	default:
		return
	}
	e.become(now, Client, id, RoleDecided)
}

// HandOver makes this server a client of the copy with UID uid, to which
// it handed its game (netcore.Server.HandOff). It returns that copy's
// identity, and false when it knows no copy with that UID or does not
// serve. It emits no event: the caller reattaches its client itself.
func (e *Election) HandOver(now int64, uid uint32) (Identity, bool) {
	if e.role != Server {
		return Identity{}, false
	}
	h := e.cands.byUID(uid)
	if h == nil {
		return Identity{}, false
	}
	e.become(now, Client, h.id, 0)
	e.handedOverMS = now
	// It follows its heir, and names it, until it hears it serve.
	e.heir = heir{unheard: true, waitMS: e.cfg.Cadence.ServerTimeoutMS, uid: uid}
	e.inGame = false
	return h.id, true
}

// TakeOver makes this client the server of its game at once: its server
// handed the game over to it (the server's Leaving named it).
func (e *Election) TakeOver(now int64) {
	if e.role != Client {
		return
	}
	e.drop(now, true)
	e.serve(now)
}

// ServerHandedTo tells the election that this client's server left and
// handed its game over to the copy with UID uid: this copy follows that
// copy at once (follow), and gives it up only if it has not heard it
// serve within ServerTimeoutMS, rather than elect another.
func (e *Election) ServerHandedTo(now int64, uid uint32) {
	if e.role != Client {
		return
	}
	e.lose(now)
	if h := e.cands.byUID(uid); h != nil {
		e.follow(now, h.id, e.cfg.Cadence.ServerTimeoutMS)
		e.heir.uid = uid
	}
}

// onHeirClaim handles a copy of this copy's game that follows this copy
// because their server handed the game to it: every Leaving that said so
// was lost on its way here. This copy takes the game over, as it would
// have: at once, rather than after the others give it up (their server's
// timeout) and elect another. Not a copy that handed the game over itself
// lately: the claim was on its way while it served.
func (e *Election) onHeirClaim(now int64) {
	if e.handedOverMS != 0 && now-e.handedOverMS <= e.cfg.Cadence.ServerTimeoutMS {
		return
	}
	switch {
	case e.role == Client && !e.heir.unheard: // still its old server's client
		if now-e.serverHeardMS < 2*e.cfg.Cadence.BeaconPeriodMS {
			return // the Leaving may be on its way still: it says where the stream stopped
		}
		e.lose(now)
		e.serve(now)
	case e.role == Client && e.heir.uid == 0, e.role == Undecided: // electing, or following the one elected
		e.serve(now)
	}
}
