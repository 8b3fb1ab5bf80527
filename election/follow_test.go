package election

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/link"

	"github.com/stretchr/testify/require"
)

// migratingFlags returns the flags of the candidate announcements among
// frames.
func migratingFlags(frames [][]byte) []bool {
	var flags []bool
	for _, f := range frames {
		if to, _, payload, ok := link.ParseFrame(f); ok && to == link.Addr(CandidateAddr) {
			_, _, fl, _, err := parseCandidate(payload)
			flags = append(flags, err == nil && fl&candidateMigrating != 0)
		}
	}
	return flags
}

// A client that lost its game's server follows the copy of its game that
// comes first at once, before that copy serves: its client reattaches
// while that copy finds the server gone too. Until it hears that copy
// serve, it says that it looks for the next server (the others learn
// from it); once it hears it, it no longer does.
func TestACopyThatLostItsServerFollowsTheNextOneAtOnce(t *testing.T) {
	srv := Identity{StartMS: 1000, Tie: 77}
	heir := candidateFrame{uid: 20, id: Identity{StartMS: 1500, Tie: 5}}
	e := clientOf(t, 3000, srv, 9, heir)
	var sent [][]byte
	e.cfg.Send = func(f []byte) { sent = append(sent, append([]byte(nil), f...)) }
	e.ServerGone(100)
	evs := e.Update(100)
	require.Equal(t, 2, len(evs), "events %v: %v of %v, want a client of %v at once", kinds(evs), e.Role(), e.Server(), heir.id)
	require.Equal(t, ServerLost, evs[0].Kind, "events %v: %v of %v, want a client of %v at once", kinds(evs), e.Role(), e.Server(), heir.id)
	require.Equal(t, RoleDecided, evs[1].Kind, "events %v: %v of %v, want a client of %v at once", kinds(evs), e.Role(), e.Server(), heir.id)
	require.Equal(t, Client, e.Role(), "events %v: %v of %v, want a client of %v at once", kinds(evs), e.Role(), e.Server(), heir.id)
	require.Equal(t, heir.id, e.Server(), "events %v: %v of %v, want a client of %v at once", kinds(evs), e.Role(), e.Server(), heir.id)
	f := migratingFlags(sent)
	require.Equal(t, 1, len(f), "announcements at the loss: migrating %v, want one that says so", f)
	require.True(t, f[0], "announcements at the loss: migrating %v, want one that says so", f)
	sent = nil
	e.Update(100 + Local.AnnouncePeriodMS)
	f = migratingFlags(sent)
	require.Equal(t, 1, len(f), "announcements while the next server is unheard: migrating %v", f)
	require.True(t, f[0], "announcements while the next server is unheard: migrating %v", f)
	e.Handle(500, AppendAnswer(nil, heir.id))
	sent = nil
	e.Update(100 + 2*Local.AnnouncePeriodMS)
	f = migratingFlags(sent)
	require.Equal(t, 1, len(f), "after its beacon: migrating %v; %v of %v", f, e.Role(), e.Server())
	require.False(t, f[0], "after its beacon: migrating %v; %v of %v", f, e.Role(), e.Server())
	require.Equal(t, Client, e.Role(), "after its beacon: migrating %v; %v of %v", f, e.Role(), e.Server())
	require.Equal(t, heir.id, e.Server(), "after its beacon: migrating %v; %v of %v", f, e.Role(), e.Server())
	// Heard, it is the server: it gets the full timeout.
	evs = e.Update(500 + Local.CandidateTTLMS + 1)
	require.Equal(t, 0, len(evs), "%d ms after its beacon: %v, %v", Local.CandidateTTLMS+1, kinds(evs), e.Role())
	require.Equal(t, Client, e.Role(), "%d ms after its beacon: %v, %v", Local.CandidateTTLMS+1, kinds(evs), e.Role())
}

// A copy that follows the next server but never hears it serve gives it
// up after CandidateTTLMS, though it still hears it as a candidate: it
// elects again, without it.
func TestANextServerThatNeverServesIsGivenUp(t *testing.T) {
	srv := Identity{StartMS: 1000, Tie: 77}
	heir := candidateFrame{uid: 20, id: Identity{StartMS: 1500, Tie: 5}}
	e := clientOf(t, 3000, srv, 9, heir)
	e.ServerGone(100)
	e.Update(100)
	for now := int64(200); now <= 100+Local.CandidateTTLMS; now += 100 {
		e.Handle(now, appendCandidate(nil, heir.uid, heir.id, 9, 0))
		evs := e.Update(now)
		require.Equal(t, 0, len(evs), "at %d ms: %v, following %v", now, kinds(evs), e.Server())
		require.Equal(t, heir.id, e.Server(), "at %d ms: %v, following %v", now, kinds(evs), e.Server())
	}
	evs := e.Update(100 + Local.CandidateTTLMS + 5)
	require.Equal(t, 1, len(evs), "events %v; want the next server given up", kinds(evs))
	require.Equal(t, ServerLost, evs[0].Kind, "events %v; want the next server given up", kinds(evs))
	evs = e.Update(100 + Local.CandidateTTLMS + 10)
	require.Equal(t, 1, len(evs), "events %v, role %v; want this copy serving", kinds(evs), e.Role())
	require.Equal(t, RoleDecided, evs[0].Kind, "events %v, role %v; want this copy serving", kinds(evs), e.Role())
	require.Equal(t, Server, e.Role(), "events %v, role %v; want this copy serving", kinds(evs), e.Role())
}

// A copy that follows the next server but hears another server of its
// game first (the copies elected another) follows that one at once.
func TestACopyFollowsTheServerItsGameHasInstead(t *testing.T) {
	e, _, other, evs := followingAnother(t)
	require.Equal(t, 2, len(evs), "events %v: following %v, want %v", kinds(evs), e.Server(), other)
	require.Equal(t, ServerLost, evs[0].Kind, "events %v: following %v, want %v", kinds(evs), e.Server(), other)
	require.Equal(t, RoleDecided, evs[1].Kind, "events %v: following %v, want %v", kinds(evs), e.Server(), other)
	require.Equal(t, other, e.Server(), "events %v: following", kinds(evs))
}

// followingAnother returns a copy of game 9 that lost its server at 100
// ms and followed the next one (heir), then heard another server of its
// game (other), which comes after heir, at 150 ms, and the events of that.
func followingAnother(t *testing.T) (e *Election, heir candidateFrame, other Identity, evs []Event) {
	srv := Identity{StartMS: 1000, Tie: 77}
	heir = candidateFrame{uid: 20, id: Identity{StartMS: 1500, Tie: 5}}
	other = Identity{StartMS: 2000, Tie: 6}
	e = clientOf(t, 3000, srv, 9, heir)
	e.ServerGone(100)
	e.Update(100)
	e.Handle(150, appendCandidate(nil, 21, other, 9, 0))
	e.Handle(150, AppendAnswer(nil, other))
	return e, heir, other, e.Update(150)
}

// The server a copy just lost is no candidate, though its announcements
// still come (they were on their way): the copy that comes next serves at
// once rather than follow it.
func TestTheLostServerIsNoCandidate(t *testing.T) {
	srv := Identity{StartMS: 1000, Tie: 77}
	later := candidateFrame{uid: 20, id: Identity{StartMS: 4500, Tie: 5}}
	e := clientOf(t, 3000, srv, 9, later)
	e.ServerGone(100)
	e.Handle(100, appendCandidate(nil, 11, srv, 9, 0))
	evs := e.Update(100)
	require.Equal(t, 2, len(evs), "events %v: %v of %v, want this copy serving", kinds(evs), e.Role(), e.Server())
	require.Equal(t, ServerLost, evs[0].Kind, "events %v: %v of %v, want this copy serving", kinds(evs), e.Role(), e.Server())
	require.Equal(t, RoleDecided, evs[1].Kind, "events %v: %v of %v, want this copy serving", kinds(evs), e.Role(), e.Server())
	require.Equal(t, Server, e.Role(), "events %v: %v of %v, want this copy serving", kinds(evs), e.Role(), e.Server())
}

// The next server it followed was not lost, only unheard: when it serves
// after all, and comes before the one the copy turned to (which yields
// the game to it when they hear each other), the copy follows it at
// once, not once the other falls silent or its "lost" servers are
// forgotten. A server that comes after the one it follows, heard too,
// does not take it away.
func TestACopyFollowsTheNextServerWhenItServesAfterAll(t *testing.T) {
	e, heir, other, _ := followingAnother(t)
	e.Handle(200, appendCandidate(nil, heir.uid, heir.id, 9, 0))
	e.Handle(200, AppendAnswer(nil, heir.id))
	evs := e.Update(200)
	require.Equal(t, 2, len(evs), "events %v: following %v, want %v at once", kinds(evs), e.Server(), heir.id)
	require.Equal(t, ServerLost, evs[0].Kind, "events %v: following %v, want %v at once", kinds(evs), e.Server(), heir.id)
	require.Equal(t, RoleDecided, evs[1].Kind, "events %v: following %v, want %v at once", kinds(evs), e.Server(), heir.id)
	require.Equal(t, heir.id, e.Server(), "events %v: following %v, want %v at once", kinds(evs), e.Server(), heir.id)
	e.Handle(250, appendCandidate(nil, 21, other, 9, 0))
	e.Handle(250, AppendAnswer(nil, other))
	evs = e.Update(250)
	require.Equal(t, 0, len(evs), "events %v: following %v, want %v still", kinds(evs), e.Server(), heir.id)
	require.Equal(t, heir.id, e.Server(), "events %v: following %v, want %v still", kinds(evs), e.Server(), heir.id)
}
