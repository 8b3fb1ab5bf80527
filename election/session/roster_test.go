package session

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
)

// lastLobby is copy p's last "lobby" event's players (nil: none came).
func lastLobby(p *copyOf) *LobbyReport {
	l := eventsOf(p, "lobby")
	if len(l) == 0 {
		return nil
	}
	return l[len(l)-1].Lobby
}

// gamePlayers is a game's players as a "lobby" event in a game lists
// them: by number, with the name each copy gave (copyN), no address.
func gamePlayers(numbered map[int]string) []LobbyPlayer {
	var ps []LobbyPlayer
	for p := range 8 {
		if n, ok := numbered[p]; ok {
			ps = append(ps, LobbyPlayer{Name: n, Player: p})
		}
	}
	return ps
}

// checkRoster requires every open copy to list the players want, by
// number and name, in its last "lobby" event and its stats, and exactly
// the copy of player ctrl to be told it is the controller.
func checkRoster(t *testing.T, c *channelSim, what string, want map[int]string, ctrl int) {
	t.Helper()
	names := make([]string, 0, 8)
	for p := range 8 {
		if n, ok := want[p]; ok {
			for len(names) < p {
				names = append(names, "")
			}
			names = append(names, n)
		}
	}
	for i, p := range c.open() {
		me := p.s.Client().Player()
		l := lastLobby(p)
		require.NotNil(t, l, "%s: copy %d had no lobby event", what, i)
		require.Equal(t, gamePlayers(want), l.Players, "%s: copy %d (player %d): its last lobby's players", what, i, me)
		require.Equal(t, me, l.Player, "%s: copy %d: its last lobby's player", what, i)
		require.Equal(t, me == ctrl, l.Controller, "%s: copy %d (player %d): its last lobby says it is the controller", what, i, me)
		require.Equal(t, names, p.s.Stats().Players, "%s: copy %d (player %d): stats().players", what, i, me)
	}
}

// waitRoster runs until every open copy lists the players want and the
// controller ctrl, then checks them.
func waitRoster(t *testing.T, c *channelSim, what string, want map[int]string, ctrl int) {
	t.Helper()
	c.runUntil(t, what, 20000, func() bool {
		for _, p := range c.open() {
			l := lastLobby(p)
			if l == nil || len(l.Players) != len(want) || l.Controller != (p.s.Client().Player() == ctrl) {
				return false
			}
			for _, lp := range l.Players {
				if want[lp.Player] != lp.Name {
					return false
				}
			}
		}
		return true
	})
	checkRoster(t, c, what, want, ctrl)
}

// Every copy, late, returning or after a migration, knows every player's
// number and name and who the controller is: "start" carries the lobby's
// players, a "lobby" event follows each change in the game, "join",
// "leave" and "rejoined" name the player, and stats().players agrees.
func TestEveryCopyKnowsThePlayersNamesAndTheController(t *testing.T) {
	c := launchGame(t, 11, 3, simnet.Link{LatencyMS: 2, JitterMS: 2})
	c.runUntil(t, "100 tics everywhere", 30000, func() bool { return c.allAt(100) })
	srv := c.serverOf()
	ctrlPlayer := srv.s.Client().Player()
	byCopy := map[*copyOf]string{}
	want := map[int]string{}
	for _, p := range c.open() {
		byCopy[p] = p.s.cfg.Name
		want[p.s.Client().Player()] = p.s.cfg.Name
	}
	for i, p := range c.open() {
		starts := eventsOf(p, "start")
		require.Len(t, starts, 1, "copy %d: starts", i)
		require.NotNil(t, starts[0].Lobby, "copy %d: its start carries no players", i)
		require.Len(t, starts[0].Lobby.Players, 3, "copy %d: its start's players", i)
		for _, lp := range starts[0].Lobby.Players {
			require.Equal(t, want[lp.Player], lp.Name, "copy %d: its start's player %d", i, lp.Player)
		}
		require.Equal(t, p == srv, starts[0].Lobby.Controller, "copy %d: its start says it is the controller", i)
	}
	require.Len(t, want, 3, "players")
	waitRoster(t, c, "three players in the game", want, ctrlPlayer)

	// A late joiner: every copy names it in its "join", and lists it.
	late := c.addWith(5000, ElectionLocal, tokenOf(4))
	c.runUntil(t, "the late copy plays", 30000, func() bool {
		for _, p := range c.open() {
			if len(eventsOf(p, "join")) == 0 {
				return false
			}
		}
		return !late.s.Client().Joining()
	})
	lp := late.s.Client().Player()
	require.Equal(t, 3, lp, "the late copy's player")
	require.Nil(t, eventsOf(late, "start")[0].Lobby, "the late copy's start: it knows no players yet")
	for i, p := range c.open() {
		j := eventsOf(p, "join")
		require.Len(t, j, 1, "copy %d: joins", i)
		require.Equal(t, "copy3", j[0].Name, "copy %d: the join's name", i)
	}
	want[lp] = "copy3"
	waitRoster(t, c, "the late copy in the game", want, ctrlPlayer)

	// A client leaves, and comes back with its token under another name:
	// it is the player it was, by the name it gives now.
	var leaver *copyOf
	for _, p := range c.open() {
		if p != srv && p != late {
			leaver = p
			break
		}
	}
	lpl := leaver.s.Client().Player()
	c.closeWithGoodbye(leaver)
	c.runUntil(t, "the leave seen", 10000, func() bool {
		for _, p := range c.open() {
			if len(eventsOf(p, "leave")) == 0 {
				return false
			}
		}
		return true
	})
	for i, p := range c.open() {
		l := eventsOf(p, "leave")
		require.Equal(t, lpl, *l[0].Player, "copy %d: the leave's player", i)
		require.Equal(t, byCopy[leaver], l[0].Name, "copy %d: the leave's name", i)
	}
	delete(want, lpl)
	waitRoster(t, c, "a player left", want, ctrlPlayer)
	var tok int
	for i, p := range c.peers {
		if p == leaver {
			tok = i + 1
		}
	}
	back := c.addWith(9000, ElectionLocal, tokenOf(tok))
	c.runUntil(t, "the copy back plays", 30000, func() bool {
		return len(eventsOf(back, "rejoined")) > 0 && !back.s.Client().Joining() && len(eventsOf(back, "join")) > 0
	})
	rj := eventsOf(back, "rejoined")
	require.Equal(t, lpl, *rj[0].Player, "the copy back: its player")
	require.Equal(t, back.s.cfg.Name, rj[0].Name, "the copy back: its name")
	for i, p := range c.open() {
		if p != back {
			j := eventsOf(p, "join")
			require.Equal(t, back.s.cfg.Name, j[len(j)-1].Name, "copy %d: the join of the copy back: its name", i)
		}
	}
	want[lpl] = back.s.cfg.Name
	waitRoster(t, c, "the copy back in the game", want, ctrlPlayer)

	// The controller's copy, the server, closes: after the migration the
	// lowest-numbered player still in the game is the controller, on
	// every copy.
	c.closeWithGoodbye(srv)
	at := late.s.Client().GameTic()
	c.runUntil(t, "the game resumed", 30000, func() bool { return c.serverOf() != nil && c.allAt(at+100) })
	delete(want, ctrlPlayer)
	next := 8
	for p := range want {
		next = min(next, p)
	}
	waitRoster(t, c, "the game under its new server", want, next)

	// The old server's copy comes back with its token, as player 0, the
	// lowest number: the controller stays who it is, as on a server that
	// never migrated (a copy back is the newest connection).
	var srvTok int
	for i, p := range c.peers {
		if p == srv {
			srvTok = i + 1
		}
	}
	require.Less(t, ctrlPlayer, next, "the old controller's number is below the new one's")
	home := c.addWith(13000, ElectionLocal, tokenOf(srvTok))
	c.runUntil(t, "the old server's copy back", 30000, func() bool {
		return len(eventsOf(home, "rejoined")) > 0 && !home.s.Client().Joining()
	})
	want[ctrlPlayer] = home.s.cfg.Name
	waitRoster(t, c, "the old server's copy back in the game", want, next)

	// The new server's copy, the controller's, is hidden: it hands the
	// game off and plays on as a client, and it stays the controller,
	// though a lower number plays.
	srv2 := c.serverOf()
	require.Equal(t, next, srv2.s.Client().Player(), "the second server is the controller's copy")
	srv2.hidden = true
	srv2.s.SetHidden(true)
	at = late.s.Client().GameTic()
	c.runUntil(t, "the game handed off", 30000, func() bool {
		return c.serverOf() != nil && c.serverOf() != srv2 && c.allAt(at+100)
	})
	waitRoster(t, c, "the game handed off", want, next)

	// The new controller ends the game: every copy, the late one
	// included, is back in the lobby at once.
	var ctrl *copyOf
	for _, p := range c.open() {
		if p.s.Client().Player() == next {
			ctrl = p
		}
	}
	ctrl.s.RequestEnd()
	endOf := func(p *copyOf) int {
		for k, e := range p.events {
			if e.Kind == "end" {
				return k
			}
		}
		return len(p.events)
	}
	c.runUntil(t, "every copy back in its lobby", 20000, func() bool {
		for _, p := range c.open() {
			if _, ok := eventTime(p, endOf(p), "lobby"); !ok {
				return false
			}
		}
		return true
	})
	for i, p := range c.open() {
		endAt := endOf(p)
		at, ok := eventTime(p, endAt, "lobby")
		require.True(t, ok, "copy %d: no lobby after its end", i)
		require.LessOrEqual(t, at-p.times[endAt], int64(50), "copy %d: ms from its end to its lobby", i)
		l := lastLobby(p)
		require.Equal(t, p == ctrl, l.Controller, "copy %d: controller in the lobby", i)
		require.Len(t, l.Players, len(want), "copy %d: players in the lobby", i)
	}
}

// A copy that joined late (it saw no lobby) and runs the last tics of
// the game after its server went back to the lobby (a busy or hidden
// page) keeps the lobby the server sent meanwhile: its "lobby" comes
// with its "end", not a WaitingData period later.
func TestALateCopyThatEndsLateGetsItsLobbyWithItsEnd(t *testing.T) {
	c := launchGame(t, 12, 2, simnet.Link{LatencyMS: 2, JitterMS: 2})
	c.runUntil(t, "100 tics everywhere", 30000, func() bool { return c.allAt(100) })
	late := c.addWith(5000, ElectionLocal, tokenOf(3))
	c.runUntil(t, "the late copy plays", 30000, func() bool {
		return len(eventsOf(late, "join")) > 0 && !late.s.Client().Joining()
	})
	require.Empty(t, eventsOf(late, "lobby")[0].Lobby.Players[0].Addr, "the late copy's first lobby is its game's")
	late.busyUntil = c.net.Now() + netcore.EndWaitMS + 700
	for range 40 { // it misses 200 ms of tics before the end
		c.step()
	}
	c.serverOf().s.RequestEnd()
	c.runUntil(t, "the busy copy's end", 20000, func() bool { return len(eventsOf(late, "end")) > 0 })
	from := len(late.events) - 1
	for late.events[from].Kind != "end" {
		from--
	}
	c.runUntil(t, "the busy copy's lobby", 20000, func() bool {
		_, ok := eventTime(late, from, "lobby")
		return ok
	})
	at, _ := eventTime(late, from, "lobby")
	require.GreaterOrEqual(t, late.times[from], late.busyUntil, "the copy ended before it woke")
	require.Equal(t, late.times[from], at, "ms from the busy copy's end to its lobby")
}
