package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// The README's JavaScript quick start (web/quickstart.html and .js, which
// internal/docs holds to the README's text) plays in two tabs: Start
// launches it, each tab's arrow key moves its own dot, and both tabs draw
// both dots in the same cells. Its page has no test hooks, so the test
// reads what it draws: the canvas's filled 10-pixel cells.
func TestTheREADMEsQuickStartPlaysInTwoTabs(t *testing.T) {
	quickStartPlays(t, serveDemo(t, buildDemo(t))+"/quickstart.html")
}

// quickStartPlays opens the quick start's page at url in two tabs,
// starts it, moves each tab's dot and checks that both tabs draw both
// dots, moved, in the same cells.
func quickStartPlays(t *testing.T, url string) {
	t.Helper()
	bctx := browser(t)
	// launch rejects on the copy that is not the controller, and the page
	// alerts the reason: keep it rather than block the page.
	const hook = `window.alert = (m) => (window.__alerts = window.__alerts || []).push(String(m));`
	tabs := []context.Context{hookedTab(t, bctx, url, hook), hookedTab(t, bctx, url, hook)}
	const cells = `(() => {
	  const d = document.querySelector("canvas").getContext("2d").getImageData(0, 0, 320, 320).data, on = new Set();
	  for (let i = 3; i < d.length; i += 4) if (d[i]) on.add(Math.floor((i >> 2) % 320 / 10) + "," + Math.floor((i >> 2) / 3200));
	  return [...on].sort().join(" ");
	})()`
	drawn := func() []string {
		var out []string
		for i, tb := range tabs {
			c, cancel := context.WithTimeout(tb, 5*time.Second)
			s, err := runEval(c, cells)
			cancel()
			if err != nil {
				t.Fatalf("tab %d: reading its canvas: %v", i, err)
			}
			out = append(out, s)
		}
		return out
	}
	// Start in every tab until both draw the game: the controller's launches
	// it once both are in its lobby.
	deadline := time.Now().Add(30 * time.Second)
	for got := drawn(); got[0] == "" || got[1] == ""; got = drawn() {
		if time.Now().After(deadline) {
			t.Fatalf("no game drawn in 30 s: %q", got)
		}
		for _, tb := range tabs {
			eval(t, tb, `document.querySelector("button").click(), 0`)
		}
		time.Sleep(500 * time.Millisecond)
	}
	key := func(tb context.Context, kind, name string) {
		eval(t, tb, fmt.Sprintf(`dispatchEvent(new KeyboardEvent(%q, { key: %q })), 0`, kind, name))
	}
	key(tabs[0], "keydown", "ArrowRight")
	key(tabs[1], "keydown", "ArrowDown")
	time.Sleep(600 * time.Millisecond) // about 20 tics
	key(tabs[0], "keyup", "ArrowRight")
	key(tabs[1], "keyup", "ArrowDown")
	deadline = time.Now().Add(10 * time.Second)
	for {
		got := drawn()
		// Two dots apart: one moved right along the top row, one down the left column.
		if dots := strings.Fields(got[0]); got[0] == got[1] && len(dots) == 2 && !slices.Contains(dots, "0,0") {
			t.Logf("both tabs draw the dots at %s", got[0])
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tabs draw %q and %q: want the same two moved dots", got[0], got[1])
		}
		time.Sleep(200 * time.Millisecond)
	}
}
