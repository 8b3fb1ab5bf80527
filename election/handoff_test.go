package election

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore/link"

	"github.com/stretchr/testify/require"
)

// clientOf returns a copy started at startMS that is a client of srv,
// which serves game, and has heard the candidates others (their UIDs,
// identities, flags).
func clientOf(t *testing.T, startMS float64, srv Identity, game uint32, others ...candidateFrame) *Election {
	t.Helper()
	e := New(Config{Cadence: Local, StartMS: startMS, Send: func([]byte) {}, Rand: rand.New(rand.NewPCG(uint64(startMS), 4)).Uint32}, 0)
	e.Handle(0, appendCandidate(nil, 11, srv, game, 0))
	e.Handle(0, AppendAnswer(nil, srv))
	for _, o := range others {
		e.Handle(0, appendCandidate(nil, o.uid, o.id, game, o.flags))
	}
	e.Update(0)
	e.SetGame(game)
	require.Equal(t, Client, e.Role(), "not a client of %v: %v of %v", srv, e.Role(), e.Server())
	require.Equal(t, srv, e.Server(), "not a client of %v: %v of %v", srv, e.Role(), e.Server())
	return e
}

type candidateFrame struct {
	uid   uint32
	id    Identity
	flags byte
}

func kinds(evs []Event) []EventKind {
	var ks []EventKind
	for _, e := range evs {
		ks = append(ks, e.Kind)
	}
	return ks
}

// The client a hidden server names takes the game over at once, without
// waiting for any other copy; the old server's late beacons do not make
// it follow that one again.
func TestTheNamedSuccessorTakesOverAtOnce(t *testing.T) {
	srv := Identity{StartMS: 1000, Tie: 77}
	earlier := candidateFrame{uid: 20, id: Identity{StartMS: 1500, Tie: 5}}
	e := clientOf(t, 3000, srv, 9, earlier)
	var sent int
	e.cfg.Send = func([]byte) { sent++ }
	e.TakeOver(100)
	evs := e.Update(100)
	require.Equal(t, 1, len(evs), "events %v, role %v", kinds(evs), e.Role())
	require.Equal(t, RoleDecided, evs[0].Kind, "events %v, role %v", kinds(evs), e.Role())
	require.Equal(t, Server, e.Role(), "events %v, role %v", kinds(evs), e.Role())
	require.Equal(t, e.Self(), e.Server(), "events %v, role %v", kinds(evs), e.Role())
	require.Equal(t, 2, sent, "sent %d frames at once, want its game's announcement and its beacon", sent)
	e.Handle(150, AppendAnswer(nil, srv))
	evs = e.Update(150)
	require.Equal(t, 0, len(evs), "after the old server's late beacon: %v, %v", kinds(evs), e.Role())
	require.Equal(t, Server, e.Role(), "after the old server's late beacon: %v, %v", kinds(evs), e.Role())
}

// The other clients follow the named successor at once, even when they
// come before it; one that hears nothing of it serving elects as after
// any loss, once the server timeout has passed.
func TestTheOthersWaitForTheNamedSuccessor(t *testing.T) {
	srv := Identity{StartMS: 1000, Tie: 77}
	heir := candidateFrame{uid: 30, id: Identity{StartMS: 4000, Tie: 6}}
	for _, beacons := range []bool{true, false} {
		e := clientOf(t, 2000, srv, 9, heir)
		e.ServerHandedTo(100, heir.uid)
		require.Equal(t, Client, e.Role(), "%v of %v, want a client of the successor at once", e.Role(), e.Server())
		require.Equal(t, heir.id, e.Server(), "%v of %v, want a client of the successor at once", e.Role(), e.Server())
		for now := int64(100); now <= 100+Local.ServerTimeoutMS; now += 50 {
			e.Handle(now, appendCandidate(nil, heir.uid, heir.id, 9, 0)) // it stays, and announces
			if beacons && now == 400 {
				e.Handle(now, AppendAnswer(nil, heir.id))
			}
			e.Update(now)
			require.Equal(t, Client, e.Role(), "beacons %v: %v of %v at %d ms, before the successor's timeout", beacons, e.Role(), e.Server(), now)
			require.Equal(t, heir.id, e.Server(), "beacons %v: %v of %v at %d ms, before the successor's timeout", beacons, e.Role(), e.Server(), now)
		}
		if !beacons {
			e.Update(100 + Local.ServerTimeoutMS + 5)
			e.Update(100 + Local.ServerTimeoutMS + 10)
			require.Equal(t, Server, e.Role(), "no successor: %v after the timeout", e.Role())
		}
	}
}

// A hidden server hands over to a visible copy it knows, and becomes its
// client without an event, naming it in its announcements until it hears
// it serve; it knows no copy by an unknown UID.
func TestAServerHandsOverToAKnownVisibleCopy(t *testing.T) {
	e := New(Config{Cadence: Local, StartMS: 1000, Send: func([]byte) {}, Rand: rand.New(rand.NewPCG(1, 4)).Uint32}, 0)
	e.Update(Local.WaitMS)
	require.Equal(t, Server, e.Role(), "role %v", e.Role())
	vis := candidateFrame{uid: 40, id: Identity{StartMS: 2000, Tie: 8}}
	hid := candidateFrame{uid: 41, id: Identity{StartMS: 2100, Tie: 9}, flags: candidateHidden}
	for _, c := range []candidateFrame{vis, hid} {
		e.Handle(600, appendCandidate(nil, c.uid, c.id, 9, c.flags))
	}
	require.True(t, e.Visible(vis.uid), "visible: %v %v %v", e.Visible(vis.uid), e.Visible(hid.uid), e.Visible(99))
	require.False(t, e.Visible(hid.uid), "visible: %v %v %v", e.Visible(vis.uid), e.Visible(hid.uid), e.Visible(99))
	require.False(t, e.Visible(99), "visible: %v %v %v", e.Visible(vis.uid), e.Visible(hid.uid), e.Visible(99))
	_, ok := e.HandOver(700, 99)
	require.False(t, ok, "handed over to an unknown UID")
	require.Equal(t, Server, e.Role(), "handed over to an unknown UID")
	id, ok := e.HandOver(700, vis.uid)
	require.True(t, ok, "handed over to %v (%v): %v of %v", id, ok, e.Role(), e.Server())
	require.Equal(t, vis.id, id, "handed over to %v (%v): %v of %v", id, ok, e.Role(), e.Server())
	require.Equal(t, Client, e.Role(), "handed over to %v (%v): %v of %v", id, ok, e.Role(), e.Server())
	require.Equal(t, vis.id, e.Server(), "handed over to %v (%v): %v of %v", id, ok, e.Role(), e.Server())
	evs := e.Update(700)
	require.Equal(t, 0, len(evs), "events %v", kinds(evs))
	// It follows its heir, and names it, until it hears it serve.
	h := heirOf(t, e.candidate())
	require.Equal(t, vis.uid, h, "the copy that handed over names heir")
	e.Handle(750, AppendAnswer(nil, vis.id))
	h = heirOf(t, e.candidate())
	require.Equal(t, uint32(0), h, "after its heir served: names %d, server %v", h, e.Server())
	require.Equal(t, vis.id, e.Server(), "after its heir served: names %d, server %v", h, e.Server())
}

// A hidden copy does not serve while a visible one could: a visible copy
// comes before every hidden one, whatever their start times; and a hidden
// copy alone serves.
func TestAHiddenCopyServesOnlyWhenNoVisibleOneCan(t *testing.T) {
	for _, c := range []struct {
		hidden, otherHidden, otherEarlier bool
		serves                            bool
	}{
		{hidden: false, otherHidden: true, otherEarlier: true, serves: true},
		{hidden: true, otherHidden: false, otherEarlier: false, serves: false},
		{hidden: true, otherHidden: true, otherEarlier: false, serves: true},
		{hidden: true, otherHidden: true, otherEarlier: true, serves: false},
		{hidden: false, otherHidden: false, otherEarlier: true, serves: false},
	} {
		e := New(Config{Cadence: Local, StartMS: 2000, Send: func([]byte) {}, Rand: rand.New(rand.NewPCG(2, 4)).Uint32}, 0)
		e.SetHidden(c.hidden)
		other := Identity{StartMS: 3000, Tie: 8}
		if c.otherEarlier {
			other.StartMS = 1000
		}
		var flags byte
		if c.otherHidden {
			flags = candidateHidden
		}
		for now := int64(0); now <= Local.WaitMS; now += 100 {
			e.Handle(now, appendCandidate(nil, 40, other, 0, flags))
			e.Update(now)
		}
		got := e.Role() == Server
		require.Equal(t, c.serves, got, "%+v: serves %v", c, got)
		_, _, payload, _ := link.ParseFrame(e.candidate())
		_, _, flags, _, err := parseCandidate(payload)
		require.Equal(t, c.hidden, e.Hidden(), "%+v: hidden %v, flags %x, %v", c, e.Hidden(), flags, err)
		require.NoError(t, err, "%+v: hidden %v, flags %x", c, e.Hidden(), flags)
		require.Equal(t, c.hidden, (flags&candidateHidden != 0), "%+v: hidden %v, flags %x, %v", c, e.Hidden(), flags, err)
	}
}

// A copy whose page slept (frozen) for longer than the server timeout
// does not take its server for lost when it wakes: it heard nothing, and
// the others did not go. One that was awake and heard nothing does.
func TestACopyThatSleptDoesNotLoseItsServer(t *testing.T) {
	srv := Identity{StartMS: 1000, Tie: 77}
	for _, slept := range []bool{true, false} {
		e := clientOf(t, 2000, srv, 9)
		step := int64(100)
		if slept {
			step = Local.ServerTimeoutMS + 500
		}
		lost := false
		for now := step; now <= Local.ServerTimeoutMS+500; now += step {
			for _, ev := range e.Update(now) {
				lost = lost || ev.Kind == ServerLost
			}
		}
		require.NotEqual(t, slept, lost, "slept %v: lost the server %v", slept, lost)
	}
}

// heirOf returns the heir a copy's announcement names (0: none).
func heirOf(t *testing.T, frame []byte) uint32 {
	t.Helper()
	_, _, payload, _ := link.ParseFrame(frame)
	_, _, _, heir, err := parseCandidate(payload)
	require.NoError(t, err)
	return heir
}

// A copy that follows the successor its server named says so in its
// announcements until it hears that successor serve.
func TestAFollowerNamesTheSuccessorUntilItServes(t *testing.T) {
	srv := Identity{StartMS: 1000, Tie: 77}
	heir := candidateFrame{uid: 30, id: Identity{StartMS: 4000, Tie: 6}}
	e := clientOf(t, 2000, srv, 9, heir)
	h := heirOf(t, e.candidate())
	require.Equal(t, uint32(0), h, "a client of its server names heir %d", h)
	e.ServerHandedTo(100, heir.uid)
	h = heirOf(t, e.candidate())
	require.Equal(t, heir.uid, h, "a follower names heir")
	e.Handle(200, AppendAnswer(nil, heir.id))
	e.Update(200)
	h = heirOf(t, e.candidate())
	require.Equal(t, uint32(0), h, "after the successor served: names heir %d, server %v", h, e.Server())
	require.Equal(t, heir.id, e.Server(), "after the successor served: names heir %d, server %v", h, e.Server())
}

// A successor that missed every Leaving naming it takes the game over
// when a copy of its game says it follows it; not for another game's
// copy, nor just after it handed its own game over.
func TestASuccessorThatMissedTheLeavingTakesOverWhenNamed(t *testing.T) {
	srv := Identity{StartMS: 1000, Tie: 77}
	other := Identity{StartMS: 1500, Tie: 5} // comes first in an election
	named := func(e *Election, game uint32) []byte {
		return appendHeir(appendCandidate(nil, 20, other, game, candidateMigrating|candidateHeir), e.UID())
	}
	e := clientOf(t, 3000, srv, 9)
	e.Handle(600, named(e, 8))
	evs := e.Update(600)
	require.Equal(t, 0, len(evs), "named by another game's copy: %v, %v", kinds(evs), e.Role())
	require.Equal(t, Client, e.Role(), "named by another game's copy: %v, %v", kinds(evs), e.Role())
	e.HeardServer(600)
	e.Handle(1050, named(e, 9))
	evs = e.Update(1050)
	require.Equal(t, 0, len(evs), "named 450 ms after its server was heard (its Leaving may come yet): %v, %v", kinds(evs), e.Role())
	require.Equal(t, Client, e.Role(), "named 450 ms after its server was heard (its Leaving may come yet): %v, %v", kinds(evs), e.Role())
	e.Handle(1100, named(e, 9))
	evs = e.Update(1100)
	require.True(t, slices.Equal(kinds(evs), []EventKind{ServerLost, RoleDecided}), "named by its game's copy: %v, %v; want it lost its server and serves", kinds(evs), e.Role())
	require.Equal(t, Server, e.Role(), "named by its game's copy: %v, %v; want it lost its server and serves", kinds(evs), e.Role())
	// Serving, it hands over to a copy, and a late claim comes.
	e.Handle(1200, appendCandidate(nil, 40, Identity{StartMS: 5000, Tie: 8}, 9, 0))
	_, ok := e.HandOver(1300, 40)
	require.True(t, ok, "no hand-over")
	e.Handle(2000, named(e, 9))
	evs = e.Update(2000)
	require.Equal(t, 0, len(evs), "a late claim after it handed over: %v, %v", kinds(evs), e.Role())
	require.Equal(t, Client, e.Role(), "a late claim after it handed over: %v, %v", kinds(evs), e.Role())
	// Its server lost (a DISCONNECT came, and no Leaving), it follows the
	// copy that comes first, which waits for it; named, it serves.
	u := clientOf(t, 3000, srv, 9, candidateFrame{uid: 20, id: other})
	u.ServerGone(100)
	u.Update(100)
	require.Equal(t, Client, u.Role(), "after its server was lost: %v of %v, want a client of the copy that comes first", u.Role(), u.Server())
	require.Equal(t, other, u.Server(), "after its server was lost: %v of %v, want a client of the copy that comes first", u.Role(), u.Server())
	u.Handle(150, named(u, 9))
	evs = u.Update(150)
	require.True(t, slices.Equal(kinds(evs), []EventKind{RoleDecided}), "named while it follows the copy elected: %v, %v", kinds(evs), u.Role())
	require.Equal(t, Server, u.Role(), "named while it follows the copy elected: %v, %v", kinds(evs), u.Role())
	// Following the successor its own server named, it keeps to it.
	f := clientOf(t, 3000, srv, 9, candidateFrame{uid: 20, id: other}, candidateFrame{uid: 30, id: Identity{StartMS: 4000, Tie: 6}})
	f.ServerHandedTo(100, 30)
	f.Update(100)
	f.Handle(150, named(f, 9))
	evs = f.Update(150)
	require.Equal(t, 0, len(evs), "named while it follows the successor named to it: %v, %v", kinds(evs), f.Role())
	require.Equal(t, Client, f.Role(), "named while it follows the successor named to it: %v, %v", kinds(evs), f.Role())
}

// A client sent away without the Leaving that names it plays no game
// while it waits for that Leaving (its session says so): named by a copy
// of the game it played, within the server timeout, it takes it over.
func TestASuccessorSentAwayWithoutItsLeavingTakesOverWhenNamed(t *testing.T) {
	srv := Identity{StartMS: 1000, Tie: 77}
	for _, after := range []int64{100, Local.ServerTimeoutMS + 100} {
		e := clientOf(t, 3000, srv, 9)
		e.Update(600)
		e.SetGame(0)
		claim := appendHeir(appendCandidate(nil, 20, Identity{StartMS: 1500, Tie: 5}, 9, candidateMigrating|candidateHeir), e.UID())
		e.Handle(600+after, claim)
		evs := e.Update(600 + after)
		serves := e.Role() == Server
		require.Equal(t, (after < Local.ServerTimeoutMS), serves, "named %d ms after it played no game: %v, %v", after, kinds(evs), e.Role())
	}
}
