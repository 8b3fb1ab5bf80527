package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// The players of a game whose server went while one copy was away: the
// new server awaits that copy's player (a placeholder, its commands
// substituted) until the server's timeout. These tests drive that window
// on one simulated channel, with the server resumed on the heir's node at
// the server's address, as a session runs it.

// awayPlayer is the player whose copy the new server awaits in these
// tests: the last of four.
const awayPlayer = 3

// startAwayGame plays a 4-player game with tokens to tic 100.
func startAwayGame(t *testing.T, seed uint64) *Scenario {
	t.Helper()
	s := start(t, Options{Players: 4, Seed: seed, Tokens: true, Link: simnet.Link{LatencyMS: 5}})
	require.NoError(t, s.RunTics(100, 60000))
	require.Equal(t, awayPlayer, s.Peers[awayPlayer].Client.Player(), "peer %d's player", awayPlayer)
	return s
}

// takeOver makes heir's copy the game's server once the host is gone: a
// server resumed from heir's timeline (waiting waitMS for the copies),
// on heir's node at the server's address, to which heir's client
// reattaches through the loopback; the host's own client stays stopped,
// checked to the tics heir holds.
// It returns the server and where its events start in s.ServerEvents.
func takeOver(t *testing.T, s *Scenario, heir *Peer, waitMS int64) (*netcore.Server, int) {
	t.Helper()
	now := s.Now()
	roster, ok := heir.Client.Roster()
	require.True(t, ok, "the heir has no roster")
	r := heir.Client.Handover(nil)
	tl := heir.Client.Timeline()
	require.Equal(t, netcore.Resume{Settings: heir.Client.Settings(), Connect: heir.Client.Connect(), Timeline: tl,
		Chain: tl.Tic(tl.Confirmed() - 1).Chain, Roster: roster, Setup: heir.Client.Setup(), Term: r.Term}, r, "the heir's handover")
	require.NotZero(t, r.Term, "the heir's handover: its server's term")
	r.WaitMS = waitMS
	cfg := s.opts.Server
	cfg.Game, cfg.Key = roster.Game, heir.Key
	srvEnd, cliEnd := netcore.NewLoopback(ServerUID)
	srv := netcore.NewResumedServer(cfg, &netcore.HostTransport{Channel: simnet.NewFrameTransport(heir.Node, ServerUID), Local: srvEnd}, r, now)
	require.True(t, heir.Client.Reattach(cliEnd, now), "the heir cannot reattach")
	// The host's client may have run tics no survivor holds, which the
	// new server decides afresh.
	s.Peers[0].Paused, s.Peers[0].Until = true, heir.Client.Timeline().Confirmed()
	s.Server, s.serverDown = srv, false
	return srv, len(s.ServerEvents)
}

// reattach makes a surviving copy a client of the new server, on its own
// node.
func reattach(t *testing.T, s *Scenario, p *Peer) {
	t.Helper()
	require.True(t, p.Client.Reattach(p.Frame, s.Now()), "peer %d cannot reattach", p.Index)
}

// resumeWithoutTheAwayCopy stops the host of a game started by
// startAwayGame with the away copy stopped too (its tab frozen), makes
// peer 1 the server and peer 2 reattach, and runs until the game resumed
// without the away copy. It returns the server, where its events start,
// and the tic it resumed at.
func resumeWithoutTheAwayCopy(t *testing.T, s *Scenario) (*netcore.Server, int, uint32) {
	t.Helper()
	s.Peers[awayPlayer].Paused = true
	s.StopHost()
	srv, mark := takeOver(t, s, s.Peers[1], 100)
	reattach(t, s, s.Peers[2])
	require.True(t, s.RunUntil(func() bool { return !srv.Resuming() }, 2000), "the new server did not resume")
	return srv, mark, srv.ResumedAt()
}

// playersIn returns the players of the peers that are not stopped, and
// fails if two play one player.
func playersIn(t *testing.T, s *Scenario) map[int]int {
	t.Helper()
	by := map[int]int{}
	for _, p := range s.Peers {
		pl := p.Client.Player()
		if p.Paused || pl < 0 || p.Client.State() != netcore.ClientInGame {
			continue
		}
		q, ok := by[pl]
		require.False(t, ok, "peers %d and %d both play player %d", q, p.Index, pl)
		by[pl] = p.Index
	}
	return by
}

// serverEnteredSince reports whether the server, since mark, put p's copy in
// the game.
func serverEnteredSince(s *Scenario, mark int, p *Peer) bool {
	for _, e := range s.ServerEvents[mark:] {
		if e.Kind == netcore.EventPlayerEntered && e.Addr == p.UID {
			return true
		}
	}
	return false
}

// serverEventsOf returns the server's events about player since mark, as
// "kind/reason".
func serverEventsOf(s *Scenario, mark, player int) []string {
	var out []string
	for _, e := range s.ServerEvents[mark:] {
		if e.Player == player && (e.Kind == netcore.EventPlayerJoined || e.Kind == netcore.EventPlayerLeft || e.Kind == netcore.EventPlayerEntered) {
			out = append(out, e.Kind.String()+"/"+e.Reason)
		}
	}
	return out
}

// A resumed server that awaits a player's copy keeps that player's
// number for it: a new copy without a token that joins meanwhile gets the
// next free number (4 here: 0 is held for the old server's copy, 1 and 2
// play, 3 is awaited), and the awaited copy, reattaching after it, plays
// its own player beside it. (A new copy used to take number 3, and the
// awaited copy then reattached in its place: two copies played one
// player.)
func TestAResumedServerKeepsAnAwaitedPlayersNumber(t *testing.T) {
	t.Parallel()
	s := startAwayGame(t, 31)
	srv, mark, resumedAt := resumeWithoutTheAwayCopy(t, s)
	newcomer := s.Join()
	require.True(t, s.RunUntil(func() bool { return serverEnteredSince(s, mark, newcomer) }, 3000),
		"the new copy did not enter the game: %v, events %v", newcomer.Client.State(), newcomer.Events)
	require.Equal(t, 4, newcomer.Client.Player(), "the player a new copy without a token got while player %d's copy was awaited", awayPlayer)

	// The awaited copy comes back, before its place times out, holding
	// every tic before the resume and none the new server decided (the
	// most a late reattach may hold; one more is refused:
	// TestALateReattachHoldingTheResumeTicIsRefused): it plays its player
	// again.
	away := s.Peers[awayPlayer]
	require.Equal(t, resumedAt, away.Client.Timeline().Confirmed(), "the tics the away copy holds: to the resume")
	away.Paused = false
	reattach(t, s, away)
	refused := srv.Counters().RejoinRefused
	require.NoError(t, s.RunTics(s.Peers[1].Client.GameTic()+200, 60000))
	require.Zero(t, srv.Counters().RejoinRefused-refused, "reattaches the server refused")
	by := playersIn(t, s)
	require.Equal(t, awayPlayer, by[awayPlayer], "the peer of player %d: its own copy", awayPlayer)
	require.Equal(t, newcomer.Index, by[4], "the peer of player 4: the new copy")
	require.Len(t, by, 4, "players by peer")
	require.Empty(t, serverEventsOf(s, mark, awayPlayer), "the server's events about player %d (its copy came back in its place)", awayPlayer)
	check(t, s, 300)
}

// A copy whose player the new server awaits, that comes back as a new
// copy with its token instead of reattaching (its tab reloaded: it lost
// its game), ends its own placeholder and gets its player back: its player
// leaves the game when its join starts and enters again with it, one copy
// per player, and the placeholder's timeout ends nothing later.
func TestATokenJoinerEndsItsAwaitedPlaceholderAndGetsItsPlayerBack(t *testing.T) {
	t.Parallel()
	s := startAwayGame(t, 32)
	srv, mark, resumedAt := resumeWithoutTheAwayCopy(t, s)
	away := s.Peers[awayPlayer]
	back := s.JoinWith(away.Token)
	require.True(t, s.RunUntil(func() bool { return serverEnteredSince(s, mark, back) }, 3000),
		"the copy back with its token did not enter the game: %v, events %v", back.Client.State(), back.Events)
	require.Equal(t, awayPlayer, back.Client.Player(), "the player the copy back with player %d's token got", awayPlayer)
	// Past the placeholder's timeout (the server's, from the resume).
	require.NoError(t, s.RunTics(s.Peers[1].Client.GameTic()+200, 60000))
	want := []string{"player left/" + netcore.ReasonLeft, "player joined/" + netcore.ReasonRejoined, "player entered/"}
	require.Equal(t, want, serverEventsOf(s, mark, awayPlayer), "the server's events about player %d", awayPlayer)
	// Every copy sees it leave, then enter at the tic the server put it
	// in at.
	var at uint32
	for _, e := range s.ServerEvents[mark:] {
		if e.Kind == netcore.EventPlayerEntered && e.Player == awayPlayer {
			at = e.Tic
		}
	}
	for _, p := range s.Peers[1:3] {
		var seen []netcore.Event
		for _, e := range p.Events {
			if e.Player == awayPlayer && (e.Kind == netcore.EventPlayerLeft || e.Kind == netcore.EventPlayerEntered) {
				seen = append(seen, e)
			}
		}
		require.Len(t, seen, 2, "peer %d: what it saw of player %d: %+v", p.Index, awayPlayer, seen)
		require.Equal(t, netcore.EventPlayerLeft, seen[0].Kind, "peer %d: what it saw of player %d first", p.Index, awayPlayer)
		require.Equal(t, netcore.ReasonLeft, seen[0].Reason, "peer %d: why it saw player %d leave", p.Index, awayPlayer)
		require.Equal(t, netcore.EventPlayerEntered, seen[1].Kind, "peer %d: what it saw of player %d next", p.Index, awayPlayer)
		require.Equal(t, at, seen[1].Tic, "peer %d: the tic it saw player %d enter at (the server's)", p.Index, awayPlayer)
		require.Less(t, seen[0].Tic, at, "peer %d: the tic it saw player %d leave at, before it entered", p.Index, awayPlayer)
	}
	require.True(t, playing(back), "the copy back with its token does not see itself enter: %v", back.Events)
	by := playersIn(t, s)
	require.Equal(t, back.Index, by[awayPlayer], "the peer of player %d: the copy back", awayPlayer)
	require.Len(t, by, 3, "players by peer")
	require.Zero(t, srv.Counters().RejoinRefused, "rejoins the server refused")
	// The away copy's tics from the resume on, if any, were decided
	// afresh.
	away.Until = resumedAt
	check(t, s, 300)
}

// A copy that reattaches after the game resumed, holding the tic the new
// server resumed at (the old server sent it to that copy alone, and the
// new server, which never had it, decided it afresh), is refused: it
// would run a tic the others did not. It is told why
// (ReasonReattachRefused), and comes back as a new copy with its token,
// which gets its player back.
func TestALateReattachHoldingTheResumeTicIsRefused(t *testing.T) {
	t.Parallel()
	s := startAwayGame(t, 33)
	heir, other, away := s.Peers[1], s.Peers[2], s.Peers[awayPlayer]
	confirmed := func(p *Peer) uint32 { return p.Client.Timeline().Confirmed() }
	require.True(t, s.RunUntil(func() bool { return confirmed(heir) == confirmed(away) && confirmed(other) == confirmed(away) }, 1000),
		"the remote copies never held the same tics")
	// The old server's next tic reaches the away copy only.
	for _, p := range []*Peer{heir, other} {
		s.Net.SetLink(s.HostNode, p.Node, simnet.Link{Down: true})
	}
	held := confirmed(heir)
	require.True(t, s.RunUntil(func() bool { return confirmed(away) != held }, 1000), "the away copy holds no more tics than the others")
	require.Equal(t, held+1, confirmed(away), "the tics the away copy holds: one more than the others")
	s.Peers[awayPlayer].Paused = true
	s.StopHost()
	srv, mark := takeOver(t, s, heir, 100)
	reattach(t, s, other)
	require.True(t, s.RunUntil(func() bool { return !srv.Resuming() }, 2000), "the new server did not resume")
	resumedAt := srv.ResumedAt()
	require.Equal(t, held, resumedAt, "the tic the new server resumed at: what the reattached copies hold")

	// The away copy comes back holding tic resumedAt: Confirmed is
	// resumedAt+1.
	away.Paused = false
	reattach(t, s, away)
	require.True(t, s.RunUntil(func() bool { return away.Client.State() == netcore.ClientDisconnected }, 1000),
		"the copy holding tic %d was not refused: %v, player %d, events %v", resumedAt, away.Client.State(), away.Client.Player(), away.Events)
	var reasons []string
	var causes []netcore.Cause
	for _, e := range away.Events {
		if e.Kind == netcore.EventDisconnected {
			reasons, causes = append(reasons, e.Reason), append(causes, e.Cause)
		}
	}
	require.Equal(t, []string{netcore.ReasonReattachRefused}, reasons, "the away copy's ends")
	require.Equal(t, []netcore.Cause{netcore.CauseReattachRefused}, causes, "the away copy's ends")
	require.Equal(t, int64(1), srv.Counters().RejoinRefused, "rejoins the server refused")
	require.Equal(t, int(resumedAt)+1, away.Game.Ran().Len(), "tics the refused copy ran: to the one it held")

	// It comes back with its token, as a session's copy does.
	back := s.JoinWith(away.Token)
	require.True(t, s.RunUntil(func() bool { return serverEnteredSince(s, mark, back) }, 3000),
		"the copy back with its token did not enter the game: %v, events %v", back.Client.State(), back.Events)
	require.Equal(t, awayPlayer, back.Client.Player(), "the player the copy back with player %d's token got", awayPlayer)
	require.NoError(t, s.RunTics(heir.Client.GameTic()+200, 60000))
	want := []string{"player left/" + netcore.ReasonLeft, "player joined/" + netcore.ReasonRejoined, "player entered/"}
	require.Equal(t, want, serverEventsOf(s, mark, awayPlayer), "the server's events about player %d", awayPlayer)
	by := playersIn(t, s)
	require.Equal(t, back.Index, by[awayPlayer], "the peer of player %d: the copy back", awayPlayer)
	require.Len(t, by, 3, "players by peer")
	// The refused copy's tic resumedAt is the old server's: not checked.
	away.Until = resumedAt
	check(t, s, 300)
}
