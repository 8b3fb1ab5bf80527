package e2e

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// Three tabs play and six watch (the demo's ?watch=1), two of the watchers
// opened before any player: no watcher serves or plays, every tab counts
// six watchers, names them in one order, and runs the same game; when
// the server's tab closes a
// player's tab takes the game over, never a watcher's, and the watchers
// follow the new server and run the game on with the players.
func TestSixTabsWatchThreePlayAndFollowTheServersTab(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	bctx := browser(t)
	var tabs []context.Context
	watching := map[int]bool{}
	open := func(watch bool) {
		i := len(tabs)
		q := fmt.Sprintf("%s/?bot=%d&name=tab%d&draw=0", url, 1000+i, i)
		if watch {
			q += "&watch=1"
			watching[i] = true
		}
		tabs = append(tabs, hookedTab(t, bctx, q, ""))
	}
	open(true)
	open(true)
	time.Sleep(time.Second) // the watchers first: they would serve, were they not watchers
	for range 3 {
		open(false)
	}
	for range 4 {
		open(true)
	}
	lobby := waitFor(t, tabs, "one server, three players in its lobby, on every tab", 20*time.Second, func(sts []demoStatus) bool {
		servers := 0
		for _, st := range sts {
			if st.Role == "server" {
				servers++
			}
			if st.Lobby == nil || len(st.Lobby.Players) != 3 {
				return false
			}
		}
		return servers == 1
	})
	launch(t, tabs, lobby)
	sts := waitFor(t, tabs, "every tab told of six watchers, and their names, in one order", 10*time.Second, func(sts []demoStatus) bool {
		for _, st := range sts {
			if st.Stats.Watchers != 6 || len(st.Stats.WatcherNames) != 6 || !slices.Equal(st.Stats.WatcherNames, sts[0].Stats.WatcherNames) {
				return false
			}
		}
		return true
	})
	t.Logf("every tab names the watchers %q", sts[0].Stats.WatcherNames)
	for i, st := range sts {
		if watching[i] != (st.Player < 0) || watching[i] && st.Role == "server" {
			t.Fatalf("tab %d (watching: %v): player %d, role %s", i, watching[i], st.Player, st.Role)
		}
	}
	playOnInStep(t, tabs, 2*time.Second, 50, "with six watchers")
	server := -1
	for i, st := range statuses(t, tabs) {
		if st.Role == "server" {
			server = i
		}
	}
	var survivors []context.Context
	var survivorWatches []bool
	for i, ctx := range tabs {
		if i != server {
			survivors, survivorWatches = append(survivors, ctx), append(survivorWatches, watching[i])
		}
	}
	closeTab(t, tabs[server])
	closed := time.Now()
	after := waitFor(t, survivors, "a player's tab serves, and every tab plays on", 30*time.Second, func(sts []demoStatus) bool {
		servers := 0
		for i, st := range sts {
			if st.Role == "server" {
				if survivorWatches[i] {
					t.Fatalf("a watcher's tab serves: %+v", st)
				}
				servers++
			}
			if !st.Started || st.Joining || st.Migrating {
				return false
			}
		}
		return servers == 1
	})
	t.Logf("%d tabs played on %v after the server's tab closed", len(after), time.Since(closed).Round(10*time.Millisecond))
	// The watchers follow the new server as copies opened late do: a
	// second start, joined.
	waitFor(t, survivors, "every watcher's tab started again under the new server", 20*time.Second, func([]demoStatus) bool {
		for i, ctx := range survivors {
			starts := 0
			for _, e := range events(t, ctx) {
				if e["kind"] == "start" {
					starts++
				}
			}
			if survivorWatches[i] && starts < 2 {
				return false
			}
		}
		return true
	})
	t.Logf("every watcher followed the new server %v after the server's tab closed", time.Since(closed).Round(10*time.Millisecond))
	playOnInStep(t, survivors, 2*time.Second, 50, "after the server's tab closed")
	for i, st := range statuses(t, survivors) {
		if survivorWatches[i] != (st.Player < 0) {
			t.Fatalf("survivor %d (watching: %v) plays player %d", i, survivorWatches[i], st.Player)
		}
	}
}
