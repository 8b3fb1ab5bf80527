package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The second example (web/examples/cycles), a game of opaque input at 20
// tics a second, launched with options: three tabs play it in step, and a
// fourth opened during the game joins it, enters at one tic on every tab,
// and agrees with the others. Every tab's "start" brought the rate, the
// controller's options and one seed.
func TestCyclesPlaysInThreeTabsAndALateOneJoins(t *testing.T) {
	url := serveDemo(t, buildDemo(t)) + "/examples/cycles/"
	const q = "ticrate=20&speed=3"
	bctx := browser(t)
	var tabs []context.Context
	for i := range 3 {
		tabs = append(tabs, tab(t, bctx, fmt.Sprintf("%s?bot=%d&name=cyc%d&%s", url, 300+i, i, q)))
	}
	launch(t, tabs, waitFor(t, tabs, "one server and every tab in its lobby", 20*time.Second, oneServerOneLobby(3)))
	waitFor(t, tabs, "every tab past tic 100", 20*time.Second, func(sts []demoStatus) bool {
		for _, st := range sts {
			if !st.Started || st.Gametic < 100 {
				return false
			}
		}
		return true
	})
	before := statuses(t, tabs)
	for i, st := range before {
		if st.Protocol != "TICNET_1" {
			t.Fatalf("tab %d plays %q: opaque input is the extension's only", i, st.Protocol)
		}
	}
	compared := 0
	for range 2 {
		time.Sleep(2 * time.Second)
		compared += compareRuns(t, tabs)
	}

	late := tab(t, bctx, url+"?bot=399&name=late&"+q)
	st := waitFor(t, []context.Context{late}, "the late tab plays", 30*time.Second, func(sts []demoStatus) bool {
		return sts[0].Started && !sts[0].Joining
	})[0]
	if st.Start == nil || !st.Start.Joined || st.Start.Tic < before[0].Gametic {
		t.Fatalf("the late tab's start: %+v; the others were at tic %d when it opened", st.Start, before[0].Gametic)
	}
	all := append(append([]context.Context{}, tabs...), late)
	enteredOnce(t, all, st)
	for range 3 {
		time.Sleep(2 * time.Second)
		compared += compareRuns(t, all)
	}
	// 20 tics a second: the late tab may still be catching up, so it
	// need only keep up.
	for i, m := range advancing(t, all, 3*time.Second) {
		if m < 54 || i < len(tabs) && m > 66 {
			t.Fatalf("tab %d ran %d tics in 3 s, want 20 a second", i, m)
		}
	}
	var seed float64
	for i, s := range statuses(t, all) {
		st := s.Start
		if st == nil || st.TicRate != 20 || st.Options["speed"] != float64(3) || st.Seed == 0 || i > 0 && st.Seed != seed {
			t.Fatalf("tab %d started with %+v; want 20 tics a second, speed 3 and tab 0's seed %v", i, st, seed)
		}
		seed = st.Seed
	}
	if compared < 100 {
		t.Fatalf("only %d tic checksums compared", compared)
	}
	t.Logf("the late tab (player %d) joined from tic %d; %d tic checksums compared across the tabs, all equal",
		st.Player, st.Start.Tic, compared)
	for i, ctx := range all {
		screenshot(t, ctx, filepath.Join(outDir(t), fmt.Sprintf("cycles-tab%d.png", i)))
	}
}

// The example fits a phone: two phone-sized tabs play it, the page does
// not scroll, and its arena is a square at least nine tenths of the
// screen's width, wholly on screen.
func TestCyclesFitsAPhone(t *testing.T) {
	url := serveDemo(t, buildDemo(t)) + "/examples/cycles/"
	bctx := browser(t)
	phone := chromedp.EmulateViewport(phoneWidthPX, phoneHeightPX, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch)
	var tabs []context.Context
	for i := range 2 {
		tabs = append(tabs, sizedTab(t, bctx, fmt.Sprintf("%s?bot=%d&name=phone%d", url, 500+i, i), phone))
	}
	launch(t, tabs, waitFor(t, tabs, "one server and both tabs in its lobby", 20*time.Second, oneServerOneLobby(2)))
	waitFor(t, tabs, "both tabs past tic 70", 20*time.Second, func(sts []demoStatus) bool {
		return sts[0].Gametic >= 70 && sts[1].Gametic >= 70
	})
	for i, ctx := range tabs {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		text, err := chromedp.Run(c, chromedp.Evaluate[string](`(() => {
			const r = document.getElementById("arena").getBoundingClientRect();
			const d = document.documentElement;
			return JSON.stringify({ width: innerWidth, height: innerHeight, scrollW: d.scrollWidth, scrollH: d.scrollHeight,
				canvas: { left: r.left, top: r.top, right: r.right, bottom: r.bottom } });
		})()`))
		cancel()
		var l struct {
			Width, Height, ScrollW, ScrollH float64
			Canvas                          box
		}
		if err == nil {
			err = json.Unmarshal([]byte(text), &l)
		}
		if err != nil {
			t.Fatalf("tab %d: measuring the layout: %v", i, err)
		}
		screen := box{0, 0, l.Width, l.Height}
		w, h := l.Canvas.Right-l.Canvas.Left, l.Canvas.Bottom-l.Canvas.Top
		t.Logf("tab %d: %v×%v, arena %v, page %v×%v", i, l.Width, l.Height, l.Canvas, l.ScrollW, l.ScrollH)
		if l.Width != phoneWidthPX || l.ScrollW > l.Width || l.ScrollH > l.Height {
			t.Fatalf("tab %d scrolls: the page is %v×%v in a %v×%v screen", i, l.ScrollW, l.ScrollH, l.Width, l.Height)
		}
		if !l.Canvas.within(screen) || w < 0.9*l.Width || w-h > 1 || h-w > 1 {
			t.Fatalf("tab %d: the arena is %v on a %v×%v screen; want a square on screen, at least 90 %% as wide", i, l.Canvas, l.Width, l.Height)
		}
		screenshot(t, ctx, filepath.Join(outDir(t), fmt.Sprintf("cycles-phone%d.png", i)))
	}
	compareSums(t, statuses(t, tabs))
}

// compareRuns is compareSums for the cycles page: where the tabs part, it
// shows the commands each ran at the tics before.
func compareRuns(t *testing.T, tabs []context.Context) int {
	t.Helper()
	common, apart := sumsApart(statuses(t, tabs))
	if apart == nil {
		return common
	}
	for i, ctx := range tabs {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		text, err := chromedp.Run(c, chromedp.Evaluate[string](`globalThis.ticnetDemo.ran()`))
		cancel()
		type sum struct {
			Tic  uint32
			Sum  uint32
			Cmds string
		}
		var ran struct {
			Ran, Loaded []sum
			Start       any
		}
		if err == nil {
			err = json.Unmarshal([]byte(text), &ran)
		}
		if err != nil {
			t.Errorf("tab %d: reading what it ran: %v", i, err)
			continue
		}
		t.Logf("tab %d started %+v", i, ran.Start)
		near := func(tic uint32) bool { return tic+8 >= apart.tic && tic <= apart.tic+1 }
		for _, r := range ran.Ran {
			if near(r.Tic) {
				t.Logf("tab %d tic %d: %08x %s", i, r.Tic, r.Sum, r.Cmds)
			}
		}
		for _, r := range ran.Loaded {
			t.Logf("tab %d loaded after tic %d: %08x", i, r.Tic, r.Sum)
		}
	}
	t.Fatalf("tic %d: checksums differ: %x", apart.tic, apart.sums)
	return 0
}
