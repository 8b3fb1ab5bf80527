package netcore

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Host migration, under the extension protocol: the game outlives its
// server. While it runs, the server tells every client the roster (the
// game's id, its own player, each player's copy's public key) and,
// when it goes, where it stopped (wire.Leaving, which each client reports
// as EventServerLeaving when it comes, even after the server's
// DISCONNECT: the copy above moves the game on). The copy that takes over
// builds a server from its own client's timeline (NewResumedServer); the
// others reattach to it with their player and first tic they do not hold
// (wire.Reattach), on a connection made with the key the roster names. The new server fetches the tics it lacks from
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

// Resume is what a server taking a game over resumes it from.
type Resume struct {
	Settings wire.Settings
	Connect  wire.ConnectData // the game's mode and mission (the host's)
	// Timeline is the host's client's: the confirmed tics, the newest
	// BackupTics of which the server can send again.
	Timeline *tic.Timeline
	// Chain is the chain of the timeline's confirmed tics (tic.Chain):
	// the server goes on from it, and signs it for the watchers.
	Chain tic.Chain
	// Roster is the last the old server sent: the game's id, the players
	// and their copies' keys.
	Roster wire.Roster
	// Leaving is the old server's last word, if it came: the server needs
	// no tic from Leaving.Tic on, and Leaving.Player leaves the game.
	Leaving *wire.Leaving
	// Setup is the game's setup (the host's client's), which the server
	// goes on with and gives copies that join.
	Setup wire.GameSetup
	// Term is the old server's term (its clients'): the new server's is
	// the next.
	Term uint16
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

// migration is the server's part in host migration: a server that took
// the game over waits for the copies to reattach (resume), and holds the
// places of the players whose copies have not (awaiting); every server
// sends its clients the roster they would reattach with.
type migration struct {
	s         *Server
	resume    *resumeState
	awaiting  [tic.MaxPlayers]*serverClient
	rosterOut wire.Roster // scratch for sendRosters
	// rosterLast is the roster sendRosters built last, and rosterGen counts
	// its changes (from 1; never reset): a client checked at this
	// generation holds it, and is not compared again (serverClient.sendRoster).
	rosterLast wire.Roster
	rosterGen  uint32
	// silent is the old server's player when it went without a Leaving
	// (wire.NoPlayer otherwise): taken for gone, so that no one waits for
	// it, but its copy may be this one (see awaited).
	silent int
	// took: this server took its game over (NewResumedServer), whose
	// controller was controller (wire.NoPlayer: none, or its copy went
	// with the old server). See seniority.
	took       bool
	controller int
	// self is the player of this server's copy in the game it took over
	// (the one whose key is the server's in the roster; -1: none).
	self int
}

// ownPlayer is the player of this server's copy (-1: none): its own
// client's, or, until that client reattached, the one the roster of the
// game it took over gives its key. A copy that reattaches seals its first
// words for it, among every player's copy that may have taken its game
// over.
func (mg *migration) ownPlayer() int {
	if own := mg.s.slots.find(LocalClientAddr); own != nil && own.player >= 0 {
		return own.player
	}
	return mg.self
}

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

func (discard) Send(link.Addr, []byte)          {}
func (discard) Recv() (link.Addr, []byte, bool) { return 0, nil, false }

// NewResumedServer returns a server that takes over the game r describes,
// in progress, at now: it waits for the players' copies to reattach, then
// resumes the game.
func NewResumedServer(cfg ServerConfig, tr link.Transport, r Resume, now int64) *Server {
	cfg.Game, cfg.Term = r.Roster.Game, r.Term+1
	s := NewServer(cfg, tr)
	s.state = ServerInGame
	s.relay = &s.ext
	s.lobby.modeSet, s.lobby.mode, s.lobby.mission = true, r.Connect.GameMode, r.Connect.GameMission
	s.settings = r.Settings
	s.settings.ConsolePlayer = 0
	s.setup = r.Setup
	s.inGD.LowResTurn = s.settings.LowResTurn
	s.out.LowResTurn = s.settings.LowResTurn
	s.inGD.InputSize = s.cfg.Input.Size
	rs := &resumeState{untilMS: now + cmp.Or(max(r.WaitMS, 0), DefaultResumeWaitMS)}
	gone := int(wire.NoPlayer)
	s.mig.silent = int(wire.NoPlayer)
	if r.Leaving != nil {
		rs.upTo, rs.known, gone = r.Leaving.Tic, true, int(r.Leaving.Player)
	} else {
		gone = int(r.Roster.ServerPlayer)
		s.mig.silent = gone
	}
	s.mig.resume = rs
	in := s.ext.loadHistory(r.Timeline)
	s.ext.attest.chain, s.ext.attest.signed = r.Chain, s.ext.sendSeq
	if r.Timeline.Confirmed() == r.Timeline.First() {
		in = r.Roster.Present &^ r.Roster.Held // no tic yet: who the roster says plays
	}
	for p := range tic.MaxPlayers {
		var key *wire.PublicKey
		if r.Roster.Present&(1<<p) != 0 {
			key = &r.Roster.Keys[p]
		}
		rejoinable := r.Roster.Rejoinable&(1<<p) != 0
		switch {
		case in&(1<<p) != 0 && p != gone:
			s.mig.awaiting[p] = s.mig.placeholder(now, p, key, rejoinable)
			if r.Roster.Playing&(1<<p) != 0 {
				s.mig.awaiting[p].name = r.Roster.Names[p]
			}
		case rejoinable && (r.Roster.Held&(1<<p) != 0 || p == gone):
			// Held for a copy that left, the old server's included: it
			// gets its player back if it returns with its key.
			s.rj.departed = append(s.rj.departed, departed{key: *key, player: p, name: r.Roster.Names[p], untilMS: now + s.cfg.RejoinGraceMS})
		}
	}
	if s.mig.silent >= 0 && in&(1<<s.mig.silent) == 0 {
		s.mig.silent = int(wire.NoPlayer) // not in the game: no place to take back
	}
	s.mig.took, s.mig.controller = true, int(wire.NoPlayer)
	for p := range tic.MaxPlayers {
		if r.Roster.Present&(1<<p) != 0 && r.Roster.Keys[p] == s.pub {
			s.mig.self = p
		}
	}
	if c := int(r.Roster.Controller); c >= 0 && c != gone && in&(1<<c) != 0 {
		s.mig.controller = c
	}
	return s
}

// seniority sets how old the copy of player sc.player, which reattached
// to a server that took the game over, counts as for the choice of the
// controller (the oldest connection: slotTable.controller): older than
// any copy that joined this server, the old controller first, then by
// player number. So the controller stays who it was while its copy plays,
// and after a migration that took it away it is the lowest-numbered
// player that reattached; every copy learns which from the roster. A copy
// that comes back later with its key is the newest connection, as on a
// server that never migrated: it does not take the controller back.
func (mg *migration) seniority(sc *serverClient) {
	switch {
	case !mg.took || sc.player < 0:
	case sc.player == mg.controller:
		sc.connectMS = math.MinInt64
	default:
		sc.connectMS = math.MinInt64 + 1 + int64(sc.player)
	}
}

// placeholder returns the place of player p, in the game, until its copy
// reattaches with key.
func (mg *migration) placeholder(now int64, p int, key *wire.PublicKey, rejoinable bool) *serverClient {
	ph := &serverClient{player: p, phase: slotPlaceholder, key: key, rejoinable: rejoinable,
		name: "player " + strconv.Itoa(p+1), live: true, lastGameDataMS: now}
	ph.conn = reliable.NewConn(0, discard{}, mg.s.cfg.Timeouts.timers(), now, reliable.Connected, &reliable.Counters{})
	return ph
}

// awaited returns the place of player p that a Reattach on a connection
// made with key may take: the place of a copy awaited, or, until the game
// resumes, the old server's player whose copy went silent, held for its
// key. That copy may be this server's own: a copy that handed its game
// off and takes it back before its successor's roster came holds a
// roster that names it the server. Its place is made when its key comes,
// and the player is held no longer.
func (mg *migration) awaited(now int64, p int, key *wire.PublicKey) *serverClient {
	if ph := mg.awaiting[p]; ph != nil || !mg.silentHeld(p) {
		return ph
	}
	rj := &mg.s.rj
	for i, d := range rj.departed {
		if d.player == p && sameKey(&d.key, key) {
			rj.departed = append(rj.departed[:i], rj.departed[i+1:]...)
			mg.silent = int(wire.NoPlayer)
			mg.awaiting[p] = mg.placeholder(now, p, &d.key, true)
			return mg.awaiting[p]
		}
	}
	return nil
}

// mayReattach reports whether a Reattach for player p may find a place
// (awaited says whether it does).
func (mg *migration) mayReattach(p int) bool { return mg.awaiting[p] != nil || mg.silentHeld(p) }

// silentHeld reports whether p is the silent old server's player, held
// for its copy, and the game has not resumed.
func (mg *migration) silentHeld(p int) bool {
	return mg.resume != nil && p == mg.silent &&
		slices.ContainsFunc(mg.s.rj.departed, func(d departed) bool { return d.player == p })
}

// Resuming reports whether the server waits for copies to reattach before
// it resumes the game.
func (s *Server) Resuming() bool { return s.mig.resume != nil }

// ResumedAt is the tic this server resumed the game at (0 for a server
// that started it).
func (s *Server) ResumedAt() uint32 { return s.ext.resumedAt }

// SpeaksTicnet reports whether the client at a speaks the extension
// protocol.
func (s *Server) SpeaksTicnet(a link.Addr) bool {
	sc := s.slots.find(a)
	return sc != nil && sc.protocol == wire.ProtocolTicnet
}
