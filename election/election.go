package election

import (
	"crypto/rand"
	"encoding/binary"
	"math"
	"strconv"

	"github.com/ticnet/ticnet/internal/text"
	"github.com/ticnet/ticnet/netcore/link"
)

// EventKind says what happened.
type EventKind uint8

const (
	// RoleDecided: this copy became Role; Server is the server's identity.
	RoleDecided EventKind = iota + 1
	// NewServer: this copy's server changed (a split resolved in the lobby,
	// or a new server after one left): its engine must join it.
	NewServer
	// SplitDetected: another server runs a game beside this copy's.
	SplitDetected
	// ServerLost: this copy's server is gone; a new election runs.
	ServerLost
	// UIDChanged: another copy had this copy's UID; it drew a new one.
	UIDChanged
	// Yielded: this copy served its game beside an earlier server of the
	// same game (a partition healed, or the copies of a game elected two
	// servers when theirs left): it is now that server's client, and its
	// game, which went its own way, must join that one afresh. Its own
	// clients follow the earlier server when this one falls silent.
	Yielded
)

var eventNames = [...]string{RoleDecided: "role decided", NewServer: "new server", SplitDetected: "split detected",
	ServerLost: "server lost", UIDChanged: "uid changed", Yielded: "yielded"}

func (k EventKind) String() string { return eventNames[k] }

// Event is something that happened, returned by Update and Handle.
type Event struct {
	Kind   EventKind
	Role   Role
	Server Identity // the server concerned
}

func (e Event) String() string {
	return e.Kind.String() + ": " + e.Role.String() + " (server " + strconv.FormatFloat(e.Server.StartMS, 'f', 0, 64) + "/" + text.Hex(uint64(e.Server.Tie), 8) + ")"
}

// Config configures an election.
type Config struct {
	Cadence Cadence
	// StartMS is this copy's start time: Date.now() at page load.
	StartMS float64
	// Send puts a frame on the channel. It must not retain it.
	Send func(frame []byte)
	// Rand draws UIDs and the tie-break; nil means crypto/rand (in the
	// browser, crypto.getRandomValues): a peer that could predict another's
	// draws could take its UID or win its elections. Tests pass a seeded
	// generator, to replay a run.
	Rand func() uint32
	// Watch makes this copy one that watches its game and never serves:
	// its announcements say so, no copy waits for it or follows it, and
	// it waits for a server as long as it takes.
	Watch bool
}

// A new server beacons every burstPeriodMS for burstMS: the copies waiting
// for it hear it at once even if a beacon or two is lost.
const (
	burstMS       = 600
	burstPeriodMS = 100
)

// Counters are what an election counted.
type Counters struct {
	Requests, Answers, Candidates int64 // election messages handled
	Malformed                     int64 // dropped: answers or announcements that do not parse
	RoleChanges                   int64 // decisions after the first
}

// Election is one copy's part in electing the server.
type Election struct {
	cfg     Config
	self    Identity
	uid     uint32
	role    Role // changed by become only
	decided bool // it has had a role: a change of role after that is counted

	server        Identity
	serverHeardMS int64
	inGame        bool
	hidden        bool       // this copy's page is hidden (SetHidden)
	game          uint32     // the game this copy plays (0: none)
	cands         candidates // the other copies heard lately
	splits        []Identity // servers reported as splits, to report each once

	waitFromMS     int64
	waitMS         int64
	lastRequestMS  int64
	lastAnnounceMS int64
	lastBeaconMS   int64
	burstUntilMS   int64      // a new server beacons faster until then
	sleep          sleepWatch // when Update ran, and when this copy slept

	// Succession (succession.go).
	gone goneServers // servers this copy lost: their late frames are not followed
	heir heir        // the next server this client follows, not heard yet
	// handedOverMS: when this copy last handed its game over (HandOver):
	// announcements naming it that were on their way then are not
	// followed.
	handedOverMS int64
	// played: the game this copy played until playedMS (SetGame(0)): a
	// client whose server sent it away without the Leaving that named it
	// plays none while it waits for that Leaving, and may yet be named.
	played   uint32
	playedMS int64
	// enteredMS: when this copy entered a game in progress (EnteredGame).
	// The copies of a game hear each other's announcements every
	// AnnouncePeriodMS: until two periods have passed, it may not know
	// them all, and does not serve the game when its server goes, where
	// one it does not know may come before it; it follows whichever copy
	// serves.
	enteredMS int64

	events []Event // since the last Update
	ret    []Event // what Update returned last
	buf    []byte
	stats  Counters
}

// New starts an election at now. It sends its first request on the first
// Update.
func New(cfg Config, now int64) *Election {
	if cfg.Rand == nil {
		cfg.Rand = cryptoUint32
	}
	e := &Election{cfg: cfg, waitFromMS: now, waitMS: cfg.Cadence.WaitMS, sleep: sleepWatch{lastUpdateMS: now}, enteredMS: math.MinInt64 / 2,
		gone: goneServers{forMS: cfg.Cadence.ServerTimeoutMS}}
	e.self = Identity{StartMS: cfg.StartMS, Tie: e.draw()}
	e.uid = e.draw()
	e.lastRequestMS = now - cfg.Cadence.RequestPeriodMS
	e.lastAnnounceMS = now - cfg.Cadence.AnnouncePeriodMS
	return e
}

// cryptoUint32 is a uint32 from crypto/rand, whose Read never fails (a
// system without randomness crashes the program instead).
func cryptoUint32() uint32 {
	var b [4]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint32(b[:])
}

// draw returns a random value that is a valid UID (and so a valid tie-break).
func (e *Election) draw() uint32 {
	for {
		if u := e.cfg.Rand(); ValidUID(u) {
			return u
		}
	}
}

// Role is this copy's role.
func (e *Election) Role() Role { return e.role }

// Self is this copy's identity.
func (e *Election) Self() Identity { return e.self }

// Server is the identity of this copy's server (itself when it serves).
func (e *Election) Server() Identity { return e.server }

// UID is this copy's UID as a client; a server's game frames use ServerUID.
func (e *Election) UID() uint32 { return e.uid }

// Counters returns what the election counted.
func (e *Election) Counters() Counters { return e.stats }

// SetInGame tells the election whether this copy's game has started: a
// server then no longer steps down for an earlier one, and a client no
// longer switches.
func (e *Election) SetInGame(on bool) { e.inGame = on }

// SetGame tells the election which game this copy plays (0: none). Its
// announcements carry it, a server's too; and a copy whose server left
// elects the next among the copies of the same game only, and follows
// only a server of that game: the game goes on under it.
func (e *Election) SetGame(game uint32) {
	if game == 0 && e.game != 0 {
		e.played, e.playedMS = e.game, e.sleep.lastUpdateMS
	}
	e.game = game
}

// EnteredGame tells the election that this copy entered a game in
// progress at now (it joined late, or came back): see enteredMS.
func (e *Election) EnteredGame(now int64) { e.enteredMS = now }

// Game is the game this copy plays, as SetGame said.
func (e *Election) Game() uint32 { return e.game }

func (e *Election) emit(k EventKind) {
	e.events = append(e.events, Event{Kind: k, Role: e.role, Server: e.server})
}

func (e *Election) send(f []byte) { e.cfg.Send(f); e.buf = f[:0] }

// Handle takes a frame from the channel and reports whether it was an
// election message (consumed) rather than a game frame. Events it causes
// are returned by the next Update.
func (e *Election) Handle(now int64, f []byte) bool {
	switch {
	case IsRequest(f):
		e.stats.Requests++
		if e.role == Server {
			e.send(AppendAnswer(e.buf[:0], e.self))
			e.lastBeaconMS = now
		}
		return true
	case IsAnswer(f):
		id, err := ParseAnswer(f)
		if err != nil {
			e.stats.Malformed++
			return true
		}
		e.stats.Answers++
		e.onServer(now, id)
		return true
	}
	to, from, payload, ok := link.ParseFrame(f)
	if !ok || to != link.Addr(CandidateAddr) {
		return false
	}
	id, game, flags, heir, err := parseCandidate(payload)
	if err != nil {
		e.stats.Malformed++
		return true
	}
	e.stats.Candidates++
	e.onCandidate(now, uint32(from), id, game, flags, heir)
	return true
}

// onServer handles a server's answer or beacon.
func (e *Election) onServer(now int64, id Identity) {
	if id == e.self || e.gone.lost(now, id) {
		return // our own beacon, echoed; or a late one of a server gone
	}
	// A server is a live candidate too: a client that hears the survivors'
	// new server before its own has timed out must wait for it, not serve.
	c := e.cands.remember(now, id)
	c.server, c.heardMS = true, now
	switch e.role {
	case Undecided:
		if e.migrating() && (c.game != e.game || e.gone.lost(now, id)) {
			return // not (yet known as) the next server of this copy's game
		}
		e.become(now, Client, id, RoleDecided)
	case Client:
		switch {
		case id == e.server:
			e.serverHeardMS = now
			e.heir.unheard = false
		case e.game != 0 && c.game == e.game:
			e.onGameServer(now, id)
		case id.Before(e.server) && !e.inGame:
			e.become(now, Client, id, NewServer)
		case id.Before(e.server):
			e.split(id)
		}
	case Server:
		switch {
		case id.Before(e.self) && !e.inGame:
			e.become(now, Client, id, RoleDecided) // step down: our clients hear it too, and follow
		case e.game != 0 && c.game == e.game && comesBefore(c.hidden, id, e.hidden, e.self):
			// Two servers of one game: the one that comes first in an
			// election keeps it, a visible one before a hidden one (a
			// hidden copy that took its game back when its successor
			// was slow to take it over must not win it from that one).
			e.become(now, Client, id, Yielded)
			e.inGame = false
		case e.game != 0 && c.game == e.game:
			// The other yields once it hears us.
			e.send(AppendAnswer(e.buf[:0], e.self))
			e.lastBeaconMS = now
		case id.Before(e.self):
			e.split(id)
		default:
			// A later server: make sure it hears us, so that it steps down.
			e.send(AppendAnswer(e.buf[:0], e.self))
			e.lastBeaconMS = now
		}
	}
}

func (e *Election) split(id Identity) {
	for _, s := range e.splits {
		if s == id {
			return
		}
	}
	if len(e.splits) < maxCandidates {
		e.splits = append(e.splits, id)
	}
	e.events = append(e.events, Event{Kind: SplitDetected, Role: e.role, Server: id})
}

// onCandidate records another copy's announcement.
func (e *Election) onCandidate(now int64, uid uint32, id Identity, game uint32, flags byte, heir uint32) {
	if uid == e.uid && id != e.self {
		e.uid = e.draw() // two copies drew the same UID: ours goes
		e.emit(UIDChanged)
	}
	if id == e.self {
		return
	}
	if flags&candidateLeaving != 0 {
		e.cands.forget(id)
		return
	}
	c := e.cands.remember(now, id)
	c.game, c.uid, c.hidden, c.watches = game, uid, flags&candidateHidden != 0, flags&candidateWatching != 0
	// A server announces its game just before its beacon; if the beacon
	// overtook the announcement, this is the server it was. (A copy heard
	// as a server long ago may be a client now.)
	if c.server && now-c.heardMS <= e.cfg.Cadence.BeaconPeriodMS && game != 0 && game == e.game {
		e.onGameServer(now, id)
	}
	// Another copy of this game lost the server: if this copy's server
	// has been silent too (its tics count), the goodbye was lost here.
	if flags&candidateMigrating != 0 && game != 0 && game == e.game && e.role == Client && !e.heir.unheard &&
		now-e.serverHeardMS >= 2*e.cfg.Cadence.BeaconPeriodMS {
		e.lose(now)
	}
	if heir == e.uid && game != 0 && (game == e.game || e.game == 0 && game == e.played &&
		now-e.playedMS <= e.cfg.Cadence.ServerTimeoutMS) {
		e.onHeirClaim(now)
	}
}

// HeardServer tells the election that this copy's client heard from its
// server (a game frame): a server that sends tics is there even if its
// beacons are lost.
func (e *Election) HeardServer(now int64) {
	if e.role == Client {
		e.serverHeardMS = max(e.serverHeardMS, now)
		e.heir.unheard = false
	}
}

// ServerHeardMS is when this client last heard its server.
func (e *Election) ServerHeardMS() int64 { return e.serverHeardMS }

// SetHidden tells the election whether this copy's page is hidden: its
// announcements say so, and while a visible copy can serve, a hidden one
// does not (its timers are throttled; every player would wait for it).
// A hidden server hands its game over (HandOver) rather than serve on.
func (e *Election) SetHidden(on bool) { e.hidden = on }

// Hidden reports what SetHidden said last.
func (e *Election) Hidden() bool { return e.hidden }

// Visible reports whether this copy knows a live copy with UID uid whose
// page is not hidden: one that may take a hidden server's game over.
func (e *Election) Visible(uid uint32) bool {
	c := e.cands.byUID(uid)
	return c != nil && !c.hidden && !c.watches
}

// Update does what is due at now and returns what happened since the last
// Update. The slice is valid until the next Update.
func (e *Election) Update(now int64) []Event {
	p := &e.cfg.Cadence
	if gap := e.sleep.update(now); gap > 0 {
		e.slept(gap)
	}
	e.cands.expire(now, p.CandidateTTLMS)
	switch e.role {
	case Undecided:
		if now-e.lastRequestMS >= p.RequestPeriodMS {
			e.send(AppendRequest(e.buf[:0]))
			e.lastRequestMS = now
		}
		e.announce(now)
		if now-e.waitFromMS >= e.waitMS {
			switch c, server := e.ahead(now); {
			case c == nil && e.cfg.Watch:
				// It never serves: it waits for a copy that does.
			case c == nil && e.migrating() && now-e.enteredMS < 2*p.AnnouncePeriodMS:
				// It may not know every copy of its game yet.
			case c == nil:
				e.serve(now)
			case !server && e.migrating():
				e.follow(now, c.id, e.cfg.Cadence.CandidateTTLMS)
			}
		}
	case Server:
		period := p.BeaconPeriodMS
		if now < e.burstUntilMS {
			period = min(period, burstPeriodMS)
		}
		if now-e.lastBeaconMS >= period {
			if e.game != 0 {
				// The copies of its game must know it as theirs: the
				// announcement goes first.
				e.send(e.candidate())
			}
			e.send(AppendAnswer(e.buf[:0], e.self))
			e.lastBeaconMS = now
		}
	case Client:
		e.announce(now)
		if now-e.serverHeardMS > p.ServerTimeoutMS || e.heir.unheard && now-e.serverHeardMS > e.heir.waitMS {
			e.lose(now)
		}
	}
	e.ret = append(e.ret[:0], e.events...)
	e.events = e.events[:0]
	return e.ret
}

// Leave says that this copy goes (its page closes): the copies that hear
// it forget it at once. It sends one announcement, and nothing after.
func (e *Election) Leave() {
	e.send(appendCandidate(e.buf[:0], e.uid, e.self, e.game, candidateLeaving))
}

// serve makes this copy the server, and says so at once.
func (e *Election) serve(now int64) {
	e.become(now, Server, e.self, RoleDecided)
	if e.game != 0 {
		e.send(e.candidate())
	}
	e.send(AppendAnswer(e.buf[:0], e.self))
	e.lastBeaconMS = now
	e.burstUntilMS = now + burstMS
}

// candidate is this copy's candidate announcement.
func (e *Election) candidate() []byte {
	var f byte
	if e.migrating() || e.heir.unheard {
		f |= candidateMigrating
	}
	if e.hidden {
		f |= candidateHidden
	}
	if e.cfg.Watch {
		f |= candidateWatching
	}
	heir := e.heir.named()
	if heir != 0 {
		f |= candidateHeir
	}
	e.buf = appendCandidate(e.buf[:0], e.uid, e.self, e.game, f)
	if heir != 0 {
		e.buf = appendHeir(e.buf, heir)
	}
	return e.buf
}

func (e *Election) announce(now int64) {
	if now-e.lastAnnounceMS >= e.cfg.Cadence.AnnouncePeriodMS {
		e.send(e.candidate())
		e.lastAnnounceMS = now
	}
}
