package e2e

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// saveLoadCheck plays the demo's game for 1000 tics of random commands in
// a tab, and saves and loads it every 97 tics: the loaded copy must have
// the same checksum, save the same bytes, and stay equal for the next 50
// tics. It returns the last state's size, or an error message.
const saveLoadCheck = `import("./game.js").then(({ Game }) => {
	let r = 7;
	const rnd = () => { r ^= r << 13; r >>>= 0; r ^= r >>> 17; r ^= r << 5; r >>>= 0; return r; };
	const cmds = () => {
		const c = [], in_ = [];
		for (let p = 0; p < 8; p++) {
			in_.push(p < 5);
			c.push(p < 5 ? { forward: rnd() % 101 - 50, side: rnd() % 41 - 20, turn: (rnd() & 0x7ff) - 1024, buttons: rnd() & 1, chat: 0 } : null);
		}
		return [c, in_];
	};
	const g = new Game();
	for (let tic = 1; tic <= 1000; tic++) {
		g.step(tic, ...cmds());
		if (tic % 97) continue;
		const state = g.save(), h = new Game();
		h.load(state);
		if (h.checksum() !== g.checksum()) return "tic " + tic + ": checksum differs after load";
		if (h.save().join() !== state.join()) return "tic " + tic + ": a loaded game saves other bytes";
		for (let k = 1; k <= 50; k++) {
			const [c, in_] = cmds();
			g.step(tic + k, c, in_); h.step(tic + k, c, in_);
			if (h.checksum() !== g.checksum()) return "tic " + (tic + k) + ": a loaded game runs differently";
		}
		tic += 50;
	}
	return "ok " + g.save().length;
})`

func TestTabOpenedDuringTheGameJoinsItAndPlaysInStep(t *testing.T) {
	bctx, tabs, url := playTogether(t, 4)
	c, cancel := context.WithTimeout(tabs[0], 10*time.Second)
	check, err := chromedp.Run(c, chromedp.Evaluate[string](saveLoadCheck, chromedp.EvalAwaitPromise))
	cancel()
	if err != nil || check[:3] != "ok " {
		t.Fatalf("the game's save and load: %q %v", check, err)
	}
	t.Logf("save/load self-check: %s bytes", check[3:])

	time.Sleep(10 * time.Second)
	before := statuses(t, tabs)
	opened := time.Now()
	// Its tics cost 4 ms, as a heavier game's: it catches up 10 at a time
	// (PassWorkNS, 40 ms), not 128.
	late := tab(t, bctx, url+"/?bot=2000&name=late&ticcost=4")
	dir := outDir(t)
	// A small state arrives in one chunk, and the late tab catches up in a
	// few tics: the page may be past "joining" by the time the first
	// screenshot is taken.
	shot := false
	st := waitFor(t, []context.Context{late}, "the late tab plays", 30*time.Second, func(sts []demoStatus) bool {
		if sts[0].Started && !shot {
			shot = true
			screenshot(t, late, filepath.Join(dir, "late-started.png"))
		}
		return sts[0].Started && !sts[0].Joining
	})[0]
	playing := time.Since(opened)
	screenshot(t, late, filepath.Join(dir, "late-playing.png"))

	// It joined the game the others play, from a tic of that game.
	lowest := before[0].Gametic
	for _, b := range before {
		lowest = min(lowest, b.Gametic)
	}
	if st.Start == nil || !st.Start.Joined || st.Start.Tic < lowest {
		t.Fatalf("the late tab's start: %+v; the others were at tic %d or later when it opened", st.Start, lowest)
	}
	t.Logf("the late tab (player %d) joined from tic %d (the others were at %d+ when it opened), playing %v after it opened",
		st.Player, st.Start.Tic, lowest, playing.Round(10*time.Millisecond))
	if st.Player != 4 {
		t.Fatalf("the late tab is player %d, want 4 (the first free)", st.Player)
	}

	// Every tab saw it enter, at one tic.
	all := append(append([]context.Context{}, tabs...), late)
	enteredOnce(t, all, st)

	// All five play on in step.
	compared := 0
	for range 5 {
		time.Sleep(2 * time.Second)
		compared += compareSums(t, statuses(t, all))
	}
	// The state came through the bulk stream (the stats lag by up to 100 ms),
	// and the late tab learnt to run at most 10 of its 4 ms tics a pass.
	ls := statuses(t, all)[len(tabs)].Stats
	if ls.TransferBytesIn == 0 || ls.TransferMS < 0 || ls.JoinMS <= 0 {
		t.Fatalf("the late tab's join stats: %+v", ls)
	}
	// (The page's clock ticks in 100 µs: a 4 ms tic measures 3.9 ms at least.)
	if ls.TicCostUS < 3900 || ls.TicsPerUpdate != int(max(min(40_000/ls.TicCostUS, 128), 1)) {
		t.Fatalf("the late tab learnt that a tic costs %d µs and runs up to %d tics a pass; want 4 ms or more, and 40 ms of tics",
			ls.TicCostUS, ls.TicsPerUpdate)
	}
	t.Logf("the late tab received %d bytes of game state in %d ms, played %d ms after the server said join, runs up to %d tics of %d µs a pass",
		ls.TransferBytesIn, ls.TransferMS, ls.JoinMS, ls.TicsPerUpdate, ls.TicCostUS)
	moved := advancing(t, all, 2*time.Second)
	for i, m := range moved {
		if m < 35 {
			t.Fatalf("tab %d ran %d tics in 2 s", i, m)
		}
	}
	if compared < 50 {
		t.Fatalf("only %d tics compared across the five tabs", compared)
	}
	t.Logf("%d tic checksums compared across the five tabs: all equal", compared)
}

// A client tab reloaded mid-game comes back in its own slot: the page that
// loads has the old one's rejoin token (sessionStorage), the server held
// its player since the old page said goodbye, and every tab sees the
// player leave and enter again.
func TestReloadedTabGetsItsPlayerBack(t *testing.T) {
	_, tabs, _ := playTogether(t, 4)
	time.Sleep(3 * time.Second)
	sts := statuses(t, tabs)
	k := -1
	for i, st := range sts {
		if st.Role == "client" {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatal("no client tab")
	}
	player := sts[k].Player
	reloaded := time.Now()
	if err := chromedp.Do(tabs[k], chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	st := waitFor(t, tabs[k:k+1], "the reloaded tab plays", 30*time.Second, func(sts []demoStatus) bool {
		return sts[0].Started && !sts[0].Joining && sts[0].Start != nil && sts[0].Start.Joined
	})[0]
	back := time.Since(reloaded)
	screenshot(t, tabs[k], filepath.Join(outDir(t), "reloaded.png"))
	if !st.Start.Rejoined || st.Player != player {
		t.Fatalf("the reloaded tab is player %d (rejoined %v), want its own player %d back", st.Player, st.Start.Rejoined, player)
	}
	t.Logf("tab %d (player %d) reloaded, back in its slot from tic %d, playing %v after the reload; state %d B in %d ms",
		k, player, st.Start.Tic, back.Round(10*time.Millisecond), st.Stats.TransferBytesIn, st.Stats.TransferMS)

	// The others saw it leave, and enter again at one tic.
	entered := map[float64]int{}
	for i, ctx := range tabs {
		left := false
		for _, e := range events(t, ctx) {
			switch {
			case e["kind"] == "desync" || e["kind"] == "disconnect":
				t.Fatalf("tab %d: %v", i, e)
			case i != k && e["kind"] == "leave" && e["player"] == float64(player):
				left = true
			case e["kind"] == "join" && e["player"] == float64(player):
				entered[e["tic"].(float64)]++
			}
		}
		if i != k && !left {
			t.Fatalf("tab %d did not see player %d leave", i, player)
		}
	}
	if len(entered) != 1 {
		t.Fatalf("the tabs saw player %d enter again at tics %v, want one tic for all", player, entered)
	}
	for tic, n := range entered {
		if n != len(tabs) {
			t.Fatalf("%d of %d tabs saw player %d enter again (at tic %v)", n, len(tabs), player, tic)
		}
	}
	compared := 0
	for range 4 {
		time.Sleep(2 * time.Second)
		compared += compareSums(t, statuses(t, tabs))
	}
	if compared < 40 {
		t.Fatalf("only %d tics compared across the four tabs", compared)
	}
	t.Logf("%d tic checksums compared across the four tabs after the reload: all equal", compared)
}

// enteredOnce fails unless every one of tabs (the late one last, whose
// status is st) saw the late player enter at one tic, at or after the tic
// it started from, and none saw a desync; nor did the late one disconnect.
func enteredOnce(t testing.TB, tabs []context.Context, st demoStatus) {
	t.Helper()
	entered := map[float64]int{}
	for i, ctx := range tabs {
		for _, e := range events(t, ctx) {
			switch {
			case e["kind"] == "join" && e["player"] == float64(st.Player):
				entered[e["tic"].(float64)]++
			case e["kind"] == "desync" || e["kind"] == "error" || i == len(tabs)-1 && e["kind"] == "disconnect":
				t.Fatalf("tab %d: %v", i, e)
			}
		}
	}
	if len(entered) != 1 {
		t.Fatalf("the tabs saw the late player enter at tics %v, want one tic for all %d", entered, len(tabs))
	}
	for tic, n := range entered {
		if n != len(tabs) || uint32(tic) < st.Start.Tic {
			t.Fatalf("%d of %d tabs saw the late player enter, at tic %v (it started from %d)", n, len(tabs), tic, st.Start.Tic)
		}
		t.Logf("every tab saw player %d enter at tic %v", st.Player, tic)
	}
}
