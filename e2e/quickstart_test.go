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
// both dots in the same cells; a third tab opened during the game joins
// it, every tab lists the three players' names, and the joiner's dot
// moves in every tab. Its page has no test hooks, so the test reads what
// it shows: the canvas's filled 10-pixel cells, and the names' line.
func TestTheREADMEsQuickStartPlaysAndNamesALateJoiner(t *testing.T) {
	quickStartPlays(t, serveDemo(t, buildDemo(t))+"/quickstart.html")
}

// quickStartPlays opens the quick start's page at url in two tabs, named
// Ann and Bob, starts it, moves each tab's dot and checks that both tabs
// draw both dots, moved, in the same cells; then opens a third, Cy, which
// joins the game, and checks that every tab names the three and draws
// Cy's dot where Cy moved it.
func quickStartPlays(t *testing.T, url string) {
	t.Helper()
	bctx := browser(t)
	// launch rejects on the copy that is not the controller, and the page
	// alerts the reason: keep it rather than block the page.
	const hook = `window.alert = (m) => (window.__alerts = window.__alerts || []).push(String(m));`
	tabs := []context.Context{hookedTab(t, bctx, url+"?name=Ann", hook), hookedTab(t, bctx, url+"?name=Bob", hook)}
	const cells = `(() => {
	  const d = document.querySelector("canvas").getContext("2d").getImageData(0, 0, 320, 320).data, on = new Set();
	  for (let i = 3; i < d.length; i += 4) if (d[i]) on.add(Math.floor((i >> 2) % 320 / 10) + "," + Math.floor((i >> 2) / 3200));
	  return [...on].sort().join(" ");
	})()`
	read := func(what, js string) []string {
		var out []string
		for i, tb := range tabs {
			c, cancel := context.WithTimeout(tb, 5*time.Second)
			s, err := runEval(c, js)
			cancel()
			if err != nil {
				t.Fatalf("tab %d: reading its %s: %v", i, what, err)
			}
			out = append(out, s)
		}
		return out
	}
	drawn := func() []string { return read("canvas", cells) }
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
	last := ""
	for {
		got := drawn()
		// Two dots apart: one moved right along the top row, one down the
		// left column; the same in two reads in a row, 200 ms apart: a
		// tab predicts, and a dot it drew may go back a cell when the
		// server substituted a command (it did, at 0,22 then 0,21).
		if dots := strings.Fields(got[0]); got[0] == got[1] && len(dots) == 2 && !slices.Contains(dots, "0,0") && got[0] == last {
			t.Logf("both tabs draw the dots at %s", got[0])
			break
		}
		last = got[0]
		if time.Now().After(deadline) {
			t.Fatalf("the tabs draw %q and %q: want the same two moved dots", got[0], got[1])
		}
		time.Sleep(200 * time.Millisecond)
	}
	moved := drawn()[0]

	// Cy opens the page during the game: it joins, and every tab, Cy's
	// too, lists the three by name (in player order: Cy takes the third
	// number).
	tabs = append(tabs, hookedTab(t, bctx, url+"?name=Cy", hook))
	deadline = time.Now().Add(30 * time.Second)
	for {
		names := read("names", `document.querySelector("p").textContent`)
		if slices.Equal(names, []string{"Ann, Bob, Cy", "Ann, Bob, Cy", "Ann, Bob, Cy"}) {
			t.Logf("every tab names the players: %s", names[0])
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tabs name %q: want Ann, Bob, Cy in each", names)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// Cy's dot starts in the corner the others left along its two edges:
	// it moves up and then left (the grid wraps), off both edges, and every
	// tab draws it beside the two.
	key(tabs[2], "keydown", "ArrowUp")
	time.Sleep(150 * time.Millisecond)
	key(tabs[2], "keydown", "ArrowLeft")
	time.Sleep(150 * time.Millisecond)
	key(tabs[2], "keyup", "ArrowLeft")
	before := strings.Fields(moved)
	deadline = time.Now().Add(10 * time.Second)
	for {
		got := drawn()
		dots := strings.Fields(got[0])
		cy := slices.DeleteFunc(slices.Clone(dots), func(d string) bool { return slices.Contains(before, d) })
		if got[0] == got[1] && got[1] == got[2] && len(dots) == 3 && len(cy) == 1 && !strings.HasPrefix(cy[0], "0,") && !strings.HasSuffix(cy[0], ",0") {
			t.Logf("all three tabs draw the dots at %s (Cy's at %s)", got[0], cy[0])
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tabs draw %q: want the same three dots: %q, and Cy's moved off the edges", got, moved)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
