package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// joinTap is a peer's transport, watched: it notes when the peer first
// sends a JoinReady (its time and tic), and drops the SnapshotRequests the
// peer would receive while *drop is above zero (one fewer each).
type joinTap struct {
	link.Transport
	s        *Scenario
	readyAt  int64 // -1: no JoinReady sent yet
	readyTic uint32
	drop     *int
	dropped  int
}

func newJoinTap(s *Scenario, tr link.Transport, drop *int) *joinTap {
	return &joinTap{Transport: tr, s: s, readyAt: -1, drop: drop}
}

// ticnetKind is the TICNET_1 kind of pkt, or false.
func ticnetKind(pkt []byte) (uint8, []byte, bool) {
	h, body, err := wire.ParseHeader(untagged(pkt))
	if err != nil || h.Type != wire.TypeTicnet {
		return 0, nil, false
	}
	kind, err := wire.TicnetKind(body)
	return kind, body, err == nil
}

func (t *joinTap) Send(to link.Addr, pkt []byte) {
	if kind, body, ok := ticnetKind(pkt); ok && kind == wire.TicnetKindJoinReady && t.readyAt < 0 {
		var m wire.JoinReady
		if m.DecodeBody(body) == nil {
			t.readyAt, t.readyTic = t.s.Now(), m.Tic
		}
	}
	t.Transport.Send(to, pkt)
}

func (t *joinTap) Recv() (link.Addr, []byte, bool) {
	for {
		from, pkt, ok := t.Transport.Recv()
		if !ok {
			return from, pkt, ok
		}
		if kind, _, ok := ticnetKind(pkt); ok && kind == wire.TicnetKindSnapshotRequest && t.drop != nil && *t.drop > 0 {
			*t.drop--
			t.dropped++
			continue
		}
		return from, pkt, true
	}
}

// joinTapped opens a copy while the game runs, as Join does, its
// transport watched.
func (s *Scenario) joinTapped() (*Peer, *joinTap) {
	i := len(s.Peers)
	nd := s.Net.AddNode()
	uid := link.Addr(0x1000 + i)
	ft := simnet.NewFrameTransport(nd, uid)
	tap := newJoinTap(s, ft, nil)
	p := s.newPeerWith(i, tap, false, transfer.Config{}, [wire.RejoinTokenLen]byte{})
	p.Node, p.UID, p.Frame = nd, uid, ft
	s.Peers = append(s.Peers, p)
	return p, tap
}

// tapRemotes gives every remote peer of a scenario not started yet a
// watched transport, the SnapshotRequests they receive dropped while
// *drop is above zero.
func (s *Scenario) tapRemotes(drop *int) []*joinTap {
	var taps []*joinTap
	for i, p := range s.Peers {
		if p.Frame == nil {
			continue
		}
		tap := newJoinTap(s, p.Frame, drop)
		np := s.newPeerWith(i, tap, false, transfer.Config{}, p.Token)
		np.Node, np.UID, np.Frame = p.Node, p.UID, p.Frame
		s.Peers[i] = np
		taps = append(taps, tap)
	}
	return taps
}

// serverEntered is when the server put player in the game, and at which
// tic.
func serverEntered(t *testing.T, s *Scenario, player int) Logged {
	t.Helper()
	for _, l := range s.Log {
		if l.Peer == -1 && l.Kind == netcore.EventPlayerEntered && l.Player == player {
			return l
		}
	}
	require.Failf(t, "no EventPlayerEntered", "the server never put player %d in the game", player)
	return Logged{}
}

// A joiner enters the game only after it said it caught up: the server
// puts it in the game (EventPlayerEntered) no sooner than its JoinReady
// can have arrived (a one-way trip, at least 20 ms, after it was sent),
// at a tic no earlier than the one the JoinReady says the joiner runs
// next. 10 seeds, a 64 KB state.
func TestAJoinerEntersOnlyAfterItSaysItCaughtUp(t *testing.T) {
	t.Parallel()
	link := simnet.Link{LatencyMS: 20, JitterMS: 10}
	for seed := uint64(60); seed < 70; seed++ {
		s := start(t, Options{Players: 3, Seed: seed, Link: link, StateBytes: 64 << 10})
		require.NoError(t, s.RunTics(300, 60000))
		j, tap := s.joinTapped()
		require.True(t, s.RunUntil(func() bool { return playing(j) }, 30000), "seed %d: the joiner did not enter: %v", seed, j.Events)
		in := serverEntered(t, s, j.Client.Player())
		require.GreaterOrEqual(t, tap.readyAt, int64(0),
			"seed %d: the server put the joiner in the game at tic %d (%d ms), and it never said it was ready", seed, in.Tic, in.At)
		require.GreaterOrEqual(t, in.At, tap.readyAt+link.LatencyMS, "seed %d: when the server put the joiner in the game, ms (its JoinReady left at %d ms)", seed, tap.readyAt)
		require.GreaterOrEqual(t, in.Tic, tap.readyTic, "seed %d: the tic the server put the joiner in the game at (its JoinReady's)", seed)
		at := entered(s, j.Client.Player())
		require.Equal(t, int64(in.Tic), at[j.Index], "seed %d: the tic the joiner saw itself enter at (the server's; the peers' %v)", seed, at)
		t.Logf("seed %d: JoinReady sent at %d ms (tic %d), entered at %d ms (tic %d)", seed, tap.readyAt, tap.readyTic, in.At, in.Tic)
		require.NoError(t, s.RunTics(in.Tic+300, 60000))
		check(t, s, int(in.Tic)+300)
		noDesync(t, s)
	}
}

// The copy that gives a joiner the state may give a later tic's than its
// JoinStart names: the server's SnapshotRequest reaches it late (the
// first is lost here, under a dedicated server, and its resend comes a
// reliable resend later), when it has run past that tic; it saves the
// state before the next tic it runs, and says which. The joiner loads
// that state as of that tic, runs the tics after it, and agrees with
// everyone at every tic.
func TestAJoinerLoadsTheStateAsOfTheTicItsSourceWrote(t *testing.T) {
	t.Parallel()
	for seed := uint64(70); seed < 75; seed++ {
		drop := 0
		s := build(t, Options{Players: 3, Seed: seed, Dedicated: true, Link: simnet.Link{LatencyMS: 20, JitterMS: 10},
			StateBytes: 64 << 10})
		taps := s.tapRemotes(&drop)
		require.NoError(t, s.Start())
		require.NoError(t, s.RunTics(300, 60000))
		drop = 1
		j := s.Join()
		require.True(t, s.RunUntil(func() bool { return playing(j) }, 30000), "seed %d: the joiner did not enter: %v", seed, j.Events)
		require.NoError(t, s.RunTics(1500, 60000))
		check(t, s, 1500)
		noDesync(t, s)
		dropped := 0
		for _, tap := range taps {
			dropped += tap.dropped
		}
		startTic, ran := uint32(0), uint32(0)
		for _, e := range j.Events {
			if e.Kind == netcore.EventGameStarted {
				startTic = e.Tic
			}
		}
		for tic, r := range j.Game.Ran().All() {
			if r.OK {
				ran = uint32(tic)
				break
			}
		}
		// The state is of a later tic than JoinStart's: the joiner's
		// first tic run is after it.
		require.Equal(t, 1, dropped, "seed %d: requests dropped", seed)
		require.Greater(t, ran, startTic, "seed %d: the joiner's first tic run, after the tic JoinStart named", seed)
		t.Logf("seed %d: JoinStart named tic %d; the state came of tic %d", seed, startTic, ran)
	}
}
