package scenario

import (
	"fmt"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
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
	if err := s.RunTics(100, 60000); err != nil {
		t.Fatal(err)
	}
	if p := s.Peers[awayPlayer].Client.Player(); p != awayPlayer {
		t.Fatalf("peer %d plays player %d, want %d", awayPlayer, p, awayPlayer)
	}
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
	if !ok {
		t.Fatal("the heir has no roster")
	}
	r := netcore.Resume{Settings: heir.Client.Settings(), Connect: heir.Client.Connect(), Timeline: heir.Client.Timeline(),
		Roster: roster, Setup: heir.Client.Setup(), WaitMS: waitMS}
	cfg := s.opts.Server
	cfg.Game = roster.Game
	srvEnd, cliEnd := netcore.NewLoopback(ServerUID)
	srv := netcore.NewResumedServer(cfg, &netcore.HostTransport{Channel: simnet.NewFrameTransport(heir.Node, ServerUID), Local: srvEnd}, r, now)
	if !heir.Client.Reattach(cliEnd, now) {
		t.Fatal("the heir cannot reattach")
	}
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
	if !p.Client.Reattach(p.Frame, s.Now()) {
		t.Fatalf("peer %d cannot reattach", p.Index)
	}
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
	if !s.RunUntil(func() bool { return !srv.Resuming() }, 2000) {
		t.Fatal("the new server did not resume")
	}
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
		if q, ok := by[pl]; ok {
			t.Fatalf("peers %d and %d both play player %d", q, p.Index, pl)
		}
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
	s := startAwayGame(t, 31)
	srv, mark, resumedAt := resumeWithoutTheAwayCopy(t, s)
	newcomer := s.Join()
	if !s.RunUntil(func() bool { return serverEnteredSince(s, mark, newcomer) }, 3000) {
		t.Fatalf("the new copy did not enter the game: %v, events %v", newcomer.Client.State(), newcomer.Events)
	}
	if got := newcomer.Client.Player(); got != 4 {
		t.Fatalf("a new copy without a token got player %d while player %d's copy was awaited; want player 4", got, awayPlayer)
	}

	// The awaited copy comes back, before its place times out, holding
	// every tic before the resume and none the new server decided (the
	// most a late reattach may hold; one more is refused:
	// TestALateReattachHoldingTheResumeTicIsRefused): it plays its player
	// again.
	away := s.Peers[awayPlayer]
	if held := away.Client.Timeline().Confirmed(); held != resumedAt {
		t.Fatalf("the away copy holds tics to %d, want to the resume at %d", held, resumedAt)
	}
	away.Paused = false
	reattach(t, s, away)
	refused := srv.Counters().RejoinRefused
	if err := s.RunTics(s.Peers[1].Client.GameTic()+200, 60000); err != nil {
		t.Fatal(err)
	}
	if n := srv.Counters().RejoinRefused - refused; n != 0 {
		t.Fatalf("the server refused %d reattaches, want 0", n)
	}
	by := playersIn(t, s)
	if by[awayPlayer] != awayPlayer || by[4] != newcomer.Index || len(by) != 4 {
		t.Fatalf("players by peer: %v; want 1, 2, %d by their copies and 4 by the new copy", by, awayPlayer)
	}
	if ev := serverEventsOf(s, mark, awayPlayer); len(ev) != 0 {
		t.Fatalf("the server's events about player %d: %v; want none (its copy came back in its place)", awayPlayer, ev)
	}
	check(t, s, 300)
}

// A copy whose player the new server awaits, that comes back as a new
// copy with its token instead of reattaching (its tab reloaded: it lost
// its game), ends its own placeholder and gets its player back: its player
// leaves the game when its join starts and enters again with it, one copy
// per player, and the placeholder's timeout ends nothing later.
func TestATokenJoinerEndsItsAwaitedPlaceholderAndGetsItsPlayerBack(t *testing.T) {
	s := startAwayGame(t, 32)
	srv, mark, resumedAt := resumeWithoutTheAwayCopy(t, s)
	away := s.Peers[awayPlayer]
	back := s.JoinWith(away.Token)
	if !s.RunUntil(func() bool { return serverEnteredSince(s, mark, back) }, 3000) {
		t.Fatalf("the copy back with its token did not enter the game: %v, events %v", back.Client.State(), back.Events)
	}
	if got := back.Client.Player(); got != awayPlayer {
		t.Fatalf("the copy back with player %d's token got player %d", awayPlayer, got)
	}
	// Past the placeholder's timeout (the server's, from the resume).
	if err := s.RunTics(s.Peers[1].Client.GameTic()+200, 60000); err != nil {
		t.Fatal(err)
	}
	want := []string{"player left/" + netcore.ReasonLeft, "player joined/" + netcore.ReasonRejoined, "player entered/"}
	if ev := serverEventsOf(s, mark, awayPlayer); fmt.Sprint(ev) != fmt.Sprint(want) {
		t.Fatalf("the server's events about player %d: %q; want %q", awayPlayer, ev, want)
	}
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
		if len(seen) != 2 || seen[0].Kind != netcore.EventPlayerLeft || seen[0].Reason != netcore.ReasonLeft ||
			seen[1].Kind != netcore.EventPlayerEntered || seen[1].Tic != at || seen[0].Tic >= at {
			t.Fatalf("peer %d saw player %d: %+v; want it leave, then enter at tic %d", p.Index, awayPlayer, seen, at)
		}
	}
	if !playing(back) {
		t.Fatalf("the copy back with its token does not see itself enter: %v", back.Events)
	}
	by := playersIn(t, s)
	if by[awayPlayer] != back.Index || len(by) != 3 {
		t.Fatalf("players by peer: %v; want 1 and 2 by their copies, %d by the copy back", by, awayPlayer)
	}
	if n := srv.Counters().RejoinRefused; n != 0 {
		t.Fatalf("the server refused %d rejoins, want 0", n)
	}
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
	s := startAwayGame(t, 33)
	heir, other, away := s.Peers[1], s.Peers[2], s.Peers[awayPlayer]
	confirmed := func(p *Peer) uint32 { return p.Client.Timeline().Confirmed() }
	if !s.RunUntil(func() bool { return confirmed(heir) == confirmed(away) && confirmed(other) == confirmed(away) }, 1000) {
		t.Fatal("the remote copies never held the same tics")
	}
	// The old server's next tic reaches the away copy only.
	for _, p := range []*Peer{heir, other} {
		s.Net.SetLink(s.HostNode, p.Node, simnet.Link{Down: true})
	}
	held := confirmed(heir)
	if !s.RunUntil(func() bool { return confirmed(away) != held }, 1000) || confirmed(away) != held+1 {
		t.Fatalf("the away copy holds tics to %d, the others to %d: want one more", confirmed(away), held)
	}
	s.Peers[awayPlayer].Paused = true
	s.StopHost()
	srv, mark := takeOver(t, s, heir, 100)
	reattach(t, s, other)
	if !s.RunUntil(func() bool { return !srv.Resuming() }, 2000) {
		t.Fatal("the new server did not resume")
	}
	resumedAt := srv.ResumedAt()
	if resumedAt != held {
		t.Fatalf("the new server resumed at tic %d, want %d (what the reattached copies hold)", resumedAt, held)
	}

	// The away copy comes back holding tic resumedAt: Confirmed is
	// resumedAt+1.
	away.Paused = false
	reattach(t, s, away)
	if !s.RunUntil(func() bool { return away.Client.State() == netcore.ClientDisconnected }, 1000) {
		t.Fatalf("the copy holding tic %d was not refused: %v, player %d, events %v", resumedAt, away.Client.State(), away.Client.Player(), away.Events)
	}
	var reasons []string
	for _, e := range away.Events {
		if e.Kind == netcore.EventDisconnected {
			reasons = append(reasons, e.Reason)
		}
	}
	if len(reasons) != 1 || reasons[0] != netcore.ReasonReattachRefused {
		t.Fatalf("the away copy's ends: %q; want one, %q", reasons, netcore.ReasonReattachRefused)
	}
	if n := srv.Counters().RejoinRefused; n != 1 {
		t.Fatalf("the server refused %d rejoins, want 1", n)
	}
	if ran := away.Game.Ran(); len(ran) != int(resumedAt)+1 {
		t.Fatalf("the refused copy ran %d tics, want %d (to the one it held)", len(ran), resumedAt+1)
	}

	// It comes back with its token, as a session's copy does.
	back := s.JoinWith(away.Token)
	if !s.RunUntil(func() bool { return serverEnteredSince(s, mark, back) }, 3000) {
		t.Fatalf("the copy back with its token did not enter the game: %v, events %v", back.Client.State(), back.Events)
	}
	if got := back.Client.Player(); got != awayPlayer {
		t.Fatalf("the copy back with player %d's token got player %d", awayPlayer, got)
	}
	if err := s.RunTics(heir.Client.GameTic()+200, 60000); err != nil {
		t.Fatal(err)
	}
	want := []string{"player left/" + netcore.ReasonLeft, "player joined/" + netcore.ReasonRejoined, "player entered/"}
	if ev := serverEventsOf(s, mark, awayPlayer); fmt.Sprint(ev) != fmt.Sprint(want) {
		t.Fatalf("the server's events about player %d: %q; want %q", awayPlayer, ev, want)
	}
	by := playersIn(t, s)
	if by[awayPlayer] != back.Index || len(by) != 3 {
		t.Fatalf("players by peer: %v; want 1 and 2 by their copies, %d by the copy back", by, awayPlayer)
	}
	// The refused copy's tic resumedAt is the old server's: not checked.
	away.Until = resumedAt
	check(t, s, 300)
}
