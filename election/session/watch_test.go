package session

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// Copies that watch, one opened before every player, one in the lobby and
// one during the game: none is ever a player or the server, each runs the
// game the players play, and when the server's tab closes a player
// takes the game over.
func TestCopiesThatWatchNeverPlayNorServe(t *testing.T) {
	c := newSim(5, simnet.Link{LatencyMS: 2, JitterMS: 2})
	watchers := []*copyOf{c.addWatcher(900)}
	for range 40 {
		c.step()
	}
	var players []*copyOf
	for i := range 3 {
		players = append(players, c.add(1000+float64(i*37), ElectionLocal))
		for range 10 {
			c.step()
		}
	}
	watchers = append(watchers, c.addWatcher(1100))
	c.runUntil(t, "three players in one lobby, the watchers beside them", 5000, func() bool {
		for _, p := range c.open() {
			cl := p.s.Client()
			if cl == nil || cl.State() != netcore.ClientWaitingLaunch || len(cl.Lobby().Players) != 3 {
				return false
			}
		}
		return true
	})
	c.controller().s.Launch()
	c.runUntil(t, "300 tics everywhere", 30000, func() bool { return c.allAt(300) })
	watchers = append(watchers, c.addWatcher(5000))
	c.runUntil(t, "the late watcher at tic 500, with every copy", 30000, func() bool { return c.allAt(500) })
	for i, w := range watchers {
		require.Equal(t, RoleClient, w.s.Role(), "watcher %d's role", i)
		require.Equal(t, -1, w.s.Client().Player(), "watcher %d's player", i)
		require.Empty(t, eventsOf(w, "disconnect"), "watcher %d left: %+v", i, w.events)
	}
	for i, p := range players {
		require.Len(t, eventsOf(p, "join"), 0, "player copy %d: players who joined the game", i)
	}
	sameSums(t, append(players, watchers[:2]...), 500)
	for i, p := range c.open() {
		require.Equal(t, 3, p.s.Stats().Watchers, "copy %d: the watchers its stats count", i)
	}
	compareRan(t, watchers[2], players)

	var server *copyOf
	for _, p := range players {
		if p.s.Role() == RoleServer {
			server = p
		}
	}
	require.NotNil(t, server, "a player serves")
	server.closed = true
	server.node.SetSilent(true)
	closedAt := c.net.Now()
	target := players[0].s.Client().GameTic() + 300
	c.runUntil(t, "300 tics more on every copy", 30000, func() bool { return c.allAt(target) })
	t.Logf("every copy at tic %d %d ms after the server's tab closed", target, c.net.Now()-closedAt)
	serving := 0
	for _, p := range players {
		if p != server && p.s.Role() == RoleServer {
			serving++
		}
	}
	require.Equal(t, 1, serving, "players that serve after the server left")
	for i, w := range watchers {
		require.Equal(t, RoleClient, w.s.Role(), "watcher %d's role after the server left", i)
		require.Equal(t, -1, w.s.Client().Player(), "watcher %d's player after the server left", i)
		// It follows the new server as a copy opened late: a new start.
		require.Len(t, eventsOf(w, "start"), 2, "watcher %d's starts", i)
		compareRan(t, w, []*copyOf{players[0], players[1], players[2]})
	}
}

// A player steps back to watch (its page leaves and starts again with
// Watch, with its token): it watches, and its token does not give it its
// player back; then a watcher asks to play (it leaves and starts again
// without Watch): it takes the next free place. The game goes on
// throughout, every copy in step.
func TestAPlayerStepsBackToWatchAndAWatcherComesToPlay(t *testing.T) {
	c := launchGame(t, 7, 3, simnet.Link{LatencyMS: 2, JitterMS: 2})
	c.runUntil(t, "200 tics everywhere", 30000, func() bool { return c.allAt(200) })
	var client *copyOf
	token := tokenOf(0)
	for i, p := range c.open() {
		if p.s.Role() != RoleServer {
			client, token = p, tokenOf(i+1) // openAndLaunch's
		}
	}
	player := client.s.Client().Player()
	c.closeWithGoodbye(client)
	back := c.addConfigured(5000, ElectionLocal, token, func(cfg *Config) { cfg.Watch = true })
	c.runUntil(t, "the player back as a watcher", 20000, func() bool {
		cl := back.s.Client()
		return cl != nil && cl.GameTic() > 0 && !cl.Joining()
	})
	require.Equal(t, -1, back.s.Client().Player(), "the player back as a watcher plays")
	watched := back.s.Client().GameTic() + 150
	c.runUntil(t, "150 tics watched", 30000, func() bool { return c.allAt(watched) })

	c.closeWithGoodbye(back)
	again := c.addConfigured(6000, ElectionLocal, tokenOf(9), func(*Config) {})
	c.runUntil(t, "the watcher in the game as a player", 20000, func() bool {
		cl := again.s.Client()
		return cl != nil && !cl.Joining() && len(eventsOf(again, "join")) > 0
	})
	require.Equal(t, 3, again.s.Client().Player(), "the next free place (player %d's is held for its token)", player)
	target := again.s.Client().GameTic() + 200
	c.runUntil(t, "200 tics more everywhere", 30000, func() bool { return c.allAt(target) })
	compareRan(t, again, c.open()[:2])
	compareRan(t, back, c.open()[:2])
}
