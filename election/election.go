package election

import (
	"crypto/rand"
	"encoding/binary"
	"strconv"

	"github.com/ticnet/ticnet/internal/text"
	"github.com/ticnet/ticnet/netcore"
)

// Cadence is the election's timing: how often a copy speaks, and how long
// it waits to hear the others.
type Cadence struct {
	Name string
	// RequestPeriodMS: how often an undecided copy asks for the server.
	RequestPeriodMS int64
	// WaitMS: how long a copy that hears no server waits before serving.
	WaitMS int64
	// BeaconPeriodMS: how often a server announces itself.
	BeaconPeriodMS int64
	// AnnouncePeriodMS: how often undecided copies and clients announce
	// their start time.
	AnnouncePeriodMS int64
	// CandidateTTLMS: a copy not heard from for this long is forgotten.
	CandidateTTLMS int64
	// ServerTimeoutMS: a server not heard from for this long is gone.
	ServerTimeoutMS int64
	// ReelectWaitMS: after the server is gone, how long the first of the
	// survivors waits before serving (the others already know it).
	ReelectWaitMS int64
}

var (
	// Local is for BroadcastChannel tabs: delivery takes milliseconds, so
	// a copy alone need wait only a few request periods (see
	// TestElectionRuns for the measured times and the absence of splits
	// with 20 % loss).
	Local = Cadence{Name: "local", RequestPeriodMS: 100, WaitMS: 500, BeaconPeriodMS: 250,
		AnnouncePeriodMS: 250, CandidateTTLMS: 1500, ServerTimeoutMS: 3000, ReelectWaitMS: 0}
	// Gossip is for the WebXDC realtime channel, where a peer may be heard
	// only seconds after it joined (delays up to 2 s each way are
	// simulated): a copy alone waits long enough for a round trip and a
	// lost beacon or two.
	Gossip = Cadence{Name: "gossip", RequestPeriodMS: 500, WaitMS: 4500, BeaconPeriodMS: 500,
		AnnouncePeriodMS: 1000, CandidateTTLMS: 5000, ServerTimeoutMS: 6000, ReelectWaitMS: 0}
)

// Role is what a copy is.
type Role uint8

const (
	Undecided Role = iota
	Server
	Client
)

func (r Role) String() string {
	switch r {
	case Server:
		return "server"
	case Client:
		return "client"
	}
	return "undecided"
}

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
}

// A new server beacons every burstPeriodMS for burstMS: the copies waiting
// for it hear it at once even if a beacon or two is lost.
const (
	burstMS       = 600
	burstPeriodMS = 100
)

// maxCandidates bounds the copies an election remembers.
const maxCandidates = 64

type candidate struct {
	id      Identity
	seenMS  int64
	game    uint32 // the game it plays, as it last said (0: none)
	server  bool   // heard as a server
	heardMS int64  // when it was last heard as a server
	uid     uint32 // its UID, from its announcement
	hidden  bool   // its page is hidden, as it last said
}

// Counters are what an election counted.
type Counters struct {
	Requests, Answers, Candidates int64 // election messages handled
	Malformed                     int64 // dropped: answers or announcements that do not parse
	RoleChanges                   int64 // decisions after the first
}

// Election is one copy's part in electing the server.
type Election struct {
	cfg  Config
	self Identity
	uid  uint32
	role Role

	server        Identity
	serverHeardMS int64
	inGame        bool
	hidden        bool         // this copy's page is hidden (SetHidden)
	game          uint32       // the game this copy plays (0: none)
	gone          []goneServer // servers this copy lost, newest last: their late frames are not followed
	splits        []Identity   // servers reported as splits, to report each once

	waitFromMS     int64
	waitMS         int64
	lastRequestMS  int64
	lastAnnounceMS int64
	lastBeaconMS   int64
	burstUntilMS   int64 // a new server beacons faster until then
	lastUpdateMS   int64 // when Update last ran
	wokeMS         int64 // the last Update after this copy slept (0: never)
	// heirUnheard: this copy follows its game's next server (follow),
	// not heard as a server yet; it gives it up after heirWaitMS.
	heirUnheard bool
	heirWaitMS  int64
	// heirUID: the UID of the copy this copy follows because its server
	// handed the game to it (ServerHandedTo), until it is heard; its
	// announcements name it. handedOverMS: when this copy last handed its
	// game over (HandOver): announcements naming it that were on their way
	// then are not followed.
	heirUID      uint32
	handedOverMS int64
	// played: the game this copy played until playedMS (SetGame(0)): a
	// client whose server sent it away without the Leaving that named it
	// plays none while it waits for that Leaving, and may yet be named.
	played   uint32
	playedMS int64
	cands    []candidate
	decided  bool

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
	e := &Election{cfg: cfg, waitFromMS: now, waitMS: cfg.Cadence.WaitMS, lastUpdateMS: now}
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
		e.played, e.playedMS = e.game, e.lastUpdateMS
	}
	e.game = game
}

// Game is the game this copy plays, as SetGame said.
func (e *Election) Game() uint32 { return e.game }

// migrating reports whether this copy looks for the next server of its
// game.
func (e *Election) migrating() bool { return e.role == Undecided && e.game != 0 }

func (e *Election) emit(k EventKind) {
	e.events = append(e.events, Event{Kind: k, Role: e.role, Server: e.server})
}

func (e *Election) send(f []byte) { e.cfg.Send(f); e.buf = f[:0] }

// decide makes this copy role with server srv.
func (e *Election) decide(role Role, srv Identity) {
	if e.decided {
		e.stats.RoleChanges++
	}
	e.decided = true
	e.role, e.server = role, srv
	e.heirUnheard, e.heirUID = false, 0
	e.emit(RoleDecided)
}

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
	to, from, payload, ok := netcore.ParseFrame(f)
	if !ok || to != netcore.Addr(CandidateAddr) {
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
	if id == e.self || e.lost(now, id) {
		return // our own beacon, echoed; or a late one of a server gone
	}
	// A server is a live candidate too: a client that hears the survivors'
	// new server before its own has timed out must wait for it, not serve.
	c := e.remember(now, id)
	c.server, c.heardMS = true, now
	switch e.role {
	case Undecided:
		if e.migrating() && (c.game != e.game || e.lost(now, id)) {
			return // not (yet known as) the next server of this copy's game
		}
		e.decide(Client, id)
		e.serverHeardMS = now
	case Client:
		switch {
		case id == e.server:
			e.serverHeardMS = now
			e.heirUnheard = false
		case e.game != 0 && c.game == e.game:
			e.onGameServer(now, id)
		case id.Before(e.server) && !e.inGame:
			e.server, e.serverHeardMS = id, now
			e.stats.RoleChanges++
			e.emit(NewServer)
		case id.Before(e.server):
			e.split(id)
		}
	case Server:
		switch {
		case id.Before(e.self) && !e.inGame:
			e.decide(Client, id) // step down: our clients hear it too, and follow
			e.serverHeardMS = now
		case e.game != 0 && c.game == e.game && comesBefore(c.hidden, id, e.hidden, e.self):
			// Two servers of one game: the one that comes first in an
			// election keeps it, a visible one before a hidden one (a
			// hidden copy that took its game back when its successor
			// was slow to take it over must not win it from that one).
			e.role, e.server, e.serverHeardMS = Client, id, now
			e.inGame = false
			e.stats.RoleChanges++
			e.emit(Yielded)
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
	c := e.remember(now, id)
	c.game, c.uid, c.hidden = game, uid, flags&candidateHidden != 0
	// A server announces its game just before its beacon; if the beacon
	// overtook the announcement, this is the server it was. (A copy heard
	// as a server long ago may be a client now.)
	if c.server && now-c.heardMS <= e.cfg.Cadence.BeaconPeriodMS && game != 0 && game == e.game {
		e.onGameServer(now, id)
	}
	// Another copy of this game lost the server: if this copy's server
	// has been silent too (its tics count), the goodbye was lost here.
	if flags&candidateMigrating != 0 && game != 0 && game == e.game && e.role == Client && !e.heirUnheard &&
		now-e.serverHeardMS >= 2*e.cfg.Cadence.BeaconPeriodMS {
		e.lose(now)
	}
	if heir == e.uid && game != 0 && (game == e.game || e.game == 0 && game == e.played &&
		now-e.playedMS <= e.cfg.Cadence.ServerTimeoutMS) {
		e.onHeirClaim(now)
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
	case e.role == Client && !e.heirUnheard: // still its old server's client
		if now-e.serverHeardMS < 2*e.cfg.Cadence.BeaconPeriodMS {
			return // the Leaving may be on its way still: it says where the stream stopped
		}
		e.lose(now)
		e.serve(now)
	case e.role == Client && e.heirUID == 0, e.role == Undecided: // electing, or following the one elected
		e.serve(now)
	}
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
	if e.lost(now, id) {
		return
	}
	switch {
	case e.migrating():
	case e.role != Client || id == e.server:
		return
	case now-e.serverHeardMS >= 2*e.cfg.Cadence.BeaconPeriodMS:
		e.lose(now)
	case e.heirUnheard || e.before(id, e.server):
		e.drop(now, false)
		e.emit(ServerLost)
	default:
		return
	}
	e.decide(Client, id)
	e.serverHeardMS = now
}

// before reports whether copy a comes before copy b in an election, as
// their announcements show them (hidden or not).
func (e *Election) before(a, b Identity) bool {
	return comesBefore(e.hiddenOf(a), a, e.hiddenOf(b), b)
}

// hiddenOf reports whether the copy with identity id said last that its
// page is hidden.
func (e *Election) hiddenOf(id Identity) bool {
	for i := range e.cands {
		if e.cands[i].id == id {
			return e.cands[i].hidden
		}
	}
	return false
}

// remember records that id, a candidate or a server, was heard at now.
func (e *Election) remember(now int64, id Identity) *candidate {
	for i := range e.cands {
		if e.cands[i].id == id {
			e.cands[i].seenMS = now
			return &e.cands[i]
		}
	}
	c := candidate{id: id, seenMS: now}
	if len(e.cands) < maxCandidates {
		e.cands = append(e.cands, c)
		return &e.cands[len(e.cands)-1]
	}
	oldest := 0
	for i := range e.cands {
		if e.cands[i].seenMS < e.cands[oldest].seenMS {
			oldest = i
		}
	}
	e.cands[oldest] = c
	return &e.cands[oldest]
}

// forget drops a candidate: the server this copy lost.
func (e *Election) forget(id Identity) {
	for i := range e.cands {
		if e.cands[i].id == id {
			e.cands = append(e.cands[:i], e.cands[i+1:]...)
			return
		}
	}
}

// HeardServer tells the election that this copy's client heard from its
// server (a game frame): a server that sends tics is there even if its
// beacons are lost.
func (e *Election) HeardServer(now int64) {
	if e.role == Client {
		e.serverHeardMS = max(e.serverHeardMS, now)
		e.heirUnheard = false
	}
}

// Cadence is the election's timing.
func (e *Election) Cadence() Cadence { return e.cfg.Cadence }

// ServerHeardMS is when this client last heard its server.
func (e *Election) ServerHeardMS() int64 { return e.serverHeardMS }

// ServerGone tells the election that the engine lost the server (its
// connection timed out or the server said it was leaving).
func (e *Election) ServerGone(now int64) {
	if e.role == Client {
		e.lose(now)
	}
}

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
	c := e.byUID(uid)
	return c != nil && !c.hidden
}

// byUID is the candidate with UID uid heard last, or nil.
func (e *Election) byUID(uid uint32) *candidate {
	var found *candidate
	for i := range e.cands {
		if c := &e.cands[i]; c.uid == uid && (found == nil || c.seenMS > found.seenMS) {
			found = c
		}
	}
	return found
}

// HandOver makes this server a client of the copy with UID uid, to which
// it handed its game (netcore.Server.HandOff). It returns that copy's
// identity, and false when it knows no copy with that UID or does not
// serve. It emits no event: the caller reattaches its client itself.
func (e *Election) HandOver(now int64, uid uint32) (Identity, bool) {
	if e.role != Server {
		return Identity{}, false
	}
	heir := e.byUID(uid)
	if heir == nil {
		return Identity{}, false
	}
	e.role, e.server, e.serverHeardMS = Client, heir.id, now
	e.handedOverMS = now
	// It follows its heir, and names it, until it hears it serve.
	e.heirUnheard, e.heirWaitMS, e.heirUID = true, e.cfg.Cadence.ServerTimeoutMS, uid
	e.inGame = false
	e.stats.RoleChanges++
	return heir.id, true
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
	if heir := e.byUID(uid); heir != nil {
		e.follow(now, heir.id, e.cfg.Cadence.ServerTimeoutMS)
		e.heirUID = uid
	}
}

// maxGone bounds the lost servers an election remembers.
const maxGone = 8

// lost reports whether id is a server this copy lost.
// goneServer is a server this copy lost, and when.
type goneServer struct {
	id   Identity
	atMS int64
}

// lost reports whether id is a server this copy lost in the last
// ServerTimeoutMS: its frames still on their way are not followed. (One
// heard after that lives: a partition healed.)
func (e *Election) lost(now int64, id Identity) bool {
	for _, g := range e.gone {
		if g.id == id && now-g.atMS <= e.cfg.Cadence.ServerTimeoutMS {
			return true
		}
	}
	return false
}

// lose drops this copy's server, which is gone, and elects the next.
func (e *Election) lose(now int64) {
	e.drop(now, true)
	e.emit(ServerLost)
}

// drop forgets this copy's server, remembered as gone if it is, and makes
// this copy undecided.
func (e *Election) drop(now int64, gone bool) {
	lost := e.server
	if gone {
		e.forget(lost)
		if len(e.gone) == maxGone {
			e.gone = append(e.gone[:0], e.gone[1:]...)
		}
		e.gone = append(e.gone, goneServer{id: lost, atMS: now})
	}
	e.role = Undecided
	e.inGame = false
	e.heirUnheard, e.heirUID = false, 0
	e.server = Identity{}
	e.waitFromMS, e.waitMS = now, e.cfg.Cadence.ReelectWaitMS
	e.lastRequestMS = now - e.cfg.Cadence.RequestPeriodMS
	if e.migrating() {
		// Say at once that it looks for its game's next server: the
		// copies of its game that have not noticed find out from it.
		e.lastAnnounceMS = now - e.cfg.Cadence.AnnouncePeriodMS
	}
}

// Update does what is due at now and returns what happened since the last
// Update. The slice is valid until the next Update.
func (e *Election) Update(now int64) []Event {
	p := &e.cfg.Cadence
	if gap := now - e.lastUpdateMS; gap > SleepMS {
		e.slept(gap)
		e.wokeMS = now
	}
	e.lastUpdateMS = now
	live := e.cands[:0]
	for _, c := range e.cands {
		if now-c.seenMS <= p.CandidateTTLMS {
			live = append(live, c)
		}
	}
	e.cands = live
	switch e.role {
	case Undecided:
		if now-e.lastRequestMS >= p.RequestPeriodMS {
			e.send(AppendRequest(e.buf[:0]))
			e.lastRequestMS = now
		}
		e.announce(now)
		if now-e.waitFromMS >= e.waitMS {
			switch c, server := e.ahead(now); {
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
		if now-e.serverHeardMS > p.ServerTimeoutMS || e.heirUnheard && now-e.serverHeardMS > e.heirWaitMS {
			e.lose(now)
		}
	}
	e.ret = append(e.ret[:0], e.events...)
	e.events = e.events[:0]
	return e.ret
}

// serve makes this copy the server, and says so at once.
func (e *Election) serve(now int64) {
	e.decide(Server, e.self)
	if e.game != 0 {
		e.send(e.candidate())
	}
	e.send(AppendAnswer(e.buf[:0], e.self))
	e.lastBeaconMS = now
	e.burstUntilMS = now + burstMS
}

// SleepMS: an Update this long after the last means that this copy's page
// slept (it was frozen, or its timers throttled harder than a hidden
// page's once a second), and heard nothing meanwhile.
const SleepMS = 2000

// JustWoke reports whether this copy slept (SleepMS) until less than a
// second before now: what it receives now was sent while it slept.
func (e *Election) JustWoke(now int64) bool { return e.wokeMS != 0 && now-e.wokeMS < 1000 }

// slept makes the time this copy slept not count: it heard nothing from
// the others, which does not mean that they are gone (a copy that woke
// from a freeze and took its server for lost would serve the game beside
// it, with a timeline left seconds behind).
func (e *Election) slept(gap int64) {
	for _, t := range []*int64{&e.serverHeardMS, &e.waitFromMS, &e.lastRequestMS, &e.lastAnnounceMS,
		&e.lastBeaconMS, &e.burstUntilMS} {
		*t += gap
	}
	for i := range e.cands {
		e.cands[i].seenMS += gap
		e.cands[i].heardMS += gap
	}
	for i := range e.gone {
		e.gone[i].atMS += gap
	}
}

// candidate is this copy's candidate announcement.
func (e *Election) candidate() []byte {
	var f byte
	if e.migrating() || e.heirUnheard {
		f |= candidateMigrating
	}
	if e.hidden {
		f |= candidateHidden
	}
	heir := e.heirUID != 0 && e.heirUnheard
	if heir {
		f |= candidateHeir
	}
	e.buf = appendCandidate(e.buf[:0], e.uid, e.self, e.game, f)
	if heir {
		e.buf = appendHeir(e.buf, e.heirUID)
	}
	return e.buf
}

func (e *Election) announce(now int64) {
	if now-e.lastAnnounceMS >= e.cfg.Cadence.AnnouncePeriodMS {
		e.send(e.candidate())
		e.lastAnnounceMS = now
	}
}

// first reports whether no live candidate comes before this copy.
func (e *Election) first(now int64) bool {
	c, _ := e.ahead(now)
	return c == nil
}

// ahead returns the live candidate that comes before this copy, of those
// of its game when it looks for its game's next server, and whether it
// is a server; nil when none does. A server heard of late comes first:
// it serves on, and this copy joins it (late, if its game runs) rather
// than open a lobby beside it. Then a visible copy comes before every
// hidden one, and the earlier identity first.
func (e *Election) ahead(now int64) (*candidate, bool) {
	var best *candidate
	for i := range e.cands {
		c := &e.cands[i]
		if e.migrating() && c.game != e.game || e.lost(now, c.id) {
			continue // another game's; or the server just lost, announcing late
		}
		if c.server && now-c.heardMS <= e.cfg.Cadence.CandidateTTLMS {
			return c, true
		}
		if comesBefore(c.hidden, c.id, e.hidden, e.self) && (best == nil || comesBefore(c.hidden, c.id, best.hidden, best.id)) {
			best = c
		}
	}
	return best, false
}

// comesBefore reports whether a copy (hidden or not, with identity a)
// comes before another in an election.
func comesBefore(aHidden bool, a Identity, bHidden bool, b Identity) bool {
	if aHidden != bHidden {
		return !aHidden
	}
	return a.Before(b)
}

// follow makes this copy, which looks for its game's next server, a
// client of the copy that comes first, at once: that copy serves as soon
// as it finds the server gone too (the others' announcements say so), and
// this copy's client reattaches meanwhile. Until that server is heard,
// this copy still says that it looks for one, and gives it up after
// waitMS.
func (e *Election) follow(now int64, id Identity, waitMS int64) {
	e.decide(Client, id)
	e.serverHeardMS = now
	e.heirUnheard, e.heirWaitMS = true, waitMS
}
