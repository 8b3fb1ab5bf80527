package tic

import (
	"strconv"

	"github.com/ticnet/ticnet/netcore/wire"
)

// ConfirmedTic is one tic of the confirmed history: what every copy runs.
type ConfirmedTic struct {
	Cmds        [MaxPlayers]Cmd
	InGame      uint8 // bit p: player p is in the game
	Substituted uint8 // bit p: Cmds[p] is the server's substitute for a late command
	// Sum is this copy's checksum after it ran the tic; valid once Ran.
	Sum uint32
	Ran bool
	// Chain is the digest of the confirmed history through this tic (see
	// Chain.Next): the same on every copy.
	Chain Chain
}

// Playing reports whether player p is in the game at this tic.
func (t *ConfirmedTic) Playing(p int) bool { return t.InGame&(1<<p) != 0 }

// Snapshot is a game state saved at a confirmed tic: the state before that
// tic ran.
type Snapshot struct {
	Tic   uint32
	State []byte
}

// RequestKind says what the engine asks of the game.
type RequestKind uint8

const (
	// RequestAdvance: run tic Tic with the commands of Confirmed.
	RequestAdvance RequestKind = iota + 1
	// RequestSave: save the state before tic Tic (after the tic before it).
	RequestSave
	// RequestLoad: load State, the state before tic Tic.
	RequestLoad
)

var requestNames = [...]string{RequestAdvance: "advance", RequestSave: "save", RequestLoad: "load"}

func (k RequestKind) String() string {
	if int(k) < len(requestNames) && requestNames[k] != "" {
		return requestNames[k]
	}
	return "request(" + strconv.Itoa(int(k)) + ")"
}

// Request is one thing the engine asks of the game, in the order returned.
type Request struct {
	Kind      RequestKind
	Tic       uint32
	Confirmed *ConfirmedTic // RequestAdvance: valid until the timeline changes
	State     []byte        // RequestLoad
}

// DefaultKeepTics is how many tics a timeline keeps behind the game: as
// many as a tic window holds, so that anything the protocol can still ask
// about (a resend, a checksum report, a consistency byte) is there.
const DefaultKeepTics = wire.BackupTics

// Timeline is the confirmed history of one game as this copy holds it:
// the tics confirmed in order, from First to Confirmed (exclusive), of
// which those before GameTic have run; and, for a copy that joins, the
// snapshot it loads before the first of them.
// It belongs to the game, not to a connection: a connection feeds it, and
// the game is run from it, one request at a time, in tic order.
//
// It keeps KeepTics tics behind GameTic and every tic not yet run, up to
// MaxTics in all; older ones are dropped as the game advances.
type Timeline struct {
	KeepTics int // default DefaultKeepTics
	MaxTics  int // confirmed tics held at most; default 2*wire.BackupTics

	first     uint32 // the oldest tic held
	confirmed uint32 // the first tic not confirmed yet
	gametic   uint32 // the first tic not run yet
	ring      []ConfirmedTic
	reqs      []Request
	waitLoad  bool      // nothing runs before a snapshot is loaded
	load      *Snapshot // the snapshot to load, once given
	saves     []uint32  // tics before which the game's state is wanted
}

// Reset starts the timeline over at tic start: the game is at start (its
// state is the state before start), and the next tic to confirm is start.
func (tl *Timeline) Reset(start uint32) {
	tl.first, tl.confirmed, tl.gametic = start, start, start
	tl.waitLoad, tl.load, tl.saves = false, nil, tl.saves[:0]
	clear(tl.ring)
}

// ResetToLoad starts the timeline over at tic start for a copy whose game
// must first load the state before start: nothing runs until Load gives it.
func (tl *Timeline) ResetToLoad(start uint32) {
	tl.Reset(start)
	tl.waitLoad = true
}

// Loading reports whether the timeline waits for a snapshot to load.
func (tl *Timeline) Loading() bool { return tl.waitLoad }

// Load gives the snapshot a ResetToLoad timeline waits for: once the
// tics up to it are confirmed, the next requests load it, then run the
// tics after it (the ones before it are in the state). It reports false
// for a snapshot of a tic before the timeline's start, or when none is
// awaited.
func (tl *Timeline) Load(s Snapshot) bool {
	if !tl.waitLoad || int32(s.Tic-tl.gametic) < 0 || s.State == nil {
		return false
	}
	tl.load = &s
	return true
}

// Rewind has the game load s, the state before s.Tic, in place of the
// state it reached: a copy whose state diverged takes the majority's. The
// next requests load it, then run the tics from s.Tic on, those the game
// ran already again. It reports false for a snapshot of a tic no longer
// held (before First) or not run yet (after GameTic), without a state, or
// while another load waits.
func (tl *Timeline) Rewind(s Snapshot) bool {
	tl.trim()
	if s.State == nil || tl.waitLoad || int32(s.Tic-tl.first) < 0 || int32(s.Tic-tl.gametic) > 0 {
		return false
	}
	tl.waitLoad, tl.load = true, &s
	return true
}

// Forward moves the game to tic to without running the tics before it:
// the game refused a Rewind's state (RequestLoad), and its state is still
// the state before to, where it was. It reports false, changing nothing,
// for a tic before GameTic or past the tics held.
func (tl *Timeline) Forward(to uint32) bool {
	if int32(to-tl.gametic) < 0 || int32(to-tl.confirmed) > 0 {
		return false
	}
	tl.gametic = to
	return true
}

// SaveBefore asks for the game's state before tic: a RequestSave comes
// when the game gets there. It reports false when the game is past it.
func (tl *Timeline) SaveBefore(tic uint32) bool {
	if int32(tic-tl.gametic) < 0 {
		return false
	}
	tl.saves = append(tl.saves, tic)
	return true
}

// SavesPending reports whether a save asked with SaveBefore has not come
// yet.
func (tl *Timeline) SavesPending() bool { return len(tl.saves) > 0 }

// SaveDue takes a pending save of the state before tic, if any.
func (tl *Timeline) SaveDue(tic uint32) bool {
	for i, t := range tl.saves {
		if t == tic {
			tl.saves = append(tl.saves[:i], tl.saves[i+1:]...)
			return true
		}
	}
	return false
}

func (tl *Timeline) keep() int {
	if tl.KeepTics <= 0 {
		return DefaultKeepTics
	}
	return tl.KeepTics
}

// Capacity is how many confirmed tics the timeline holds at most:
// MaxTics, or its default.
func (tl *Timeline) Capacity() int {
	if tl.MaxTics <= 0 {
		return 2 * wire.BackupTics
	}
	return tl.MaxTics
}

// First is the oldest tic held.
func (tl *Timeline) First() uint32 { return tl.first }

// Confirmed is the first tic not confirmed yet: tics before it are.
func (tl *Timeline) Confirmed() uint32 { return tl.confirmed }

// GameTic is the first tic the game has not run yet.
func (tl *Timeline) GameTic() uint32 { return tl.gametic }

// Room reports how many more tics Confirm can take now.
func (tl *Timeline) Room() int {
	tl.trim()
	return tl.Capacity() - int(tl.confirmed-tl.first)
}

// slot returns tic's place in the ring, growing the ring to hold it.
func (tl *Timeline) slot(tic uint32) *ConfirmedTic {
	need := int(tl.confirmed-tl.first) + 1
	if need > len(tl.ring) {
		n := max(16, len(tl.ring))
		for n < need {
			n *= 2
		}
		ring := make([]ConfirmedTic, n)
		for t := tl.first; t != tl.confirmed; t++ {
			ring[int(t)%n] = tl.ring[int(t)%len(tl.ring)]
		}
		tl.ring = ring
	}
	return &tl.ring[int(tic)%len(tl.ring)]
}

// Tic returns a held tic, or nil.
func (tl *Timeline) Tic(tic uint32) *ConfirmedTic {
	if tic-tl.first >= tl.confirmed-tl.first {
		return nil
	}
	return &tl.ring[int(tic)%len(tl.ring)]
}

// Confirm appends the next tic. It reports false, and keeps nothing, when
// the timeline is full: the caller keeps the tic and offers it again.
func (tl *Timeline) Confirm(t ConfirmedTic) bool {
	tl.trim()
	if tl.Room() <= 0 {
		return false
	}
	t.Sum, t.Ran = 0, false
	*tl.slot(tl.confirmed) = t
	tl.confirmed++
	return true
}

// trim drops the tics more than KeepTics behind the game.
func (tl *Timeline) trim() {
	if k := uint32(tl.keep()); tl.gametic-tl.first > k {
		tl.first = tl.gametic - k
	}
}

// Requests returns the requests that run every confirmed tic not yet run
// before tic limit, at most n of them; nil when there is none. The
// requests are valid until the next call. The caller runs each, in order,
// then tells the timeline with Ran.
//
// A copy waiting for a snapshot gets a RequestLoad first, once Load gave
// one; a save asked with SaveBefore comes as a RequestSave once the game
// has run every tic before it.
func (tl *Timeline) Requests(limit uint32, n int) []Request {
	tl.reqs = tl.reqs[:0]
	if tl.waitLoad {
		if tl.load == nil || int32(tl.confirmed-tl.load.Tic) < 0 {
			return nil
		}
		tl.reqs = append(tl.reqs, Request{Kind: RequestLoad, Tic: tl.load.Tic, State: tl.load.State})
		tl.gametic = tl.load.Tic
		tl.waitLoad, tl.load = false, nil
	}
	if int32(limit-tl.confirmed) > 0 {
		limit = tl.confirmed
	}
	t := tl.gametic
	for ; len(tl.reqs) < n; t++ {
		if tl.SaveDue(t) {
			tl.reqs = append(tl.reqs, Request{Kind: RequestSave, Tic: t})
		}
		if int32(limit-t) <= 0 {
			break
		}
		tl.reqs = append(tl.reqs, Request{Kind: RequestAdvance, Tic: t, Confirmed: tl.Tic(t)})
	}
	if len(tl.reqs) == 0 {
		return nil
	}
	return tl.reqs
}

// Ran records that the game ran tic, the next one, and had checksum sum
// after it.
func (tl *Timeline) Ran(tic uint32, sum uint32) {
	if tic != tl.gametic || tic-tl.first >= tl.confirmed-tl.first {
		panic("timeline: ran tic " + strconv.FormatUint(uint64(tic), 10) + ", the next to run is " + strconv.FormatUint(uint64(tl.gametic), 10) + " of [" + strconv.FormatUint(uint64(tl.first), 10) + ", " + strconv.FormatUint(uint64(tl.confirmed), 10) + ")")
	}
	t := tl.Tic(tic)
	t.Sum, t.Ran = sum, true
	tl.gametic++
}
