package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/ticnet/ticnet/netcore/wire"
)

// replayStatus is what the replay page's globalThis.ticnetReplay.status()
// returns.
type replayStatus struct {
	State      string   `json:"state"`
	File       string   `json:"file"`
	Start      uint32   `json:"start"`
	End        uint32   `json:"end"`
	Players    []string `json:"players"`
	TicRate    int      `json:"ticRate"`
	Tic        uint32   `json:"tic"`
	Progressed int      `json:"progressed"`
	Mismatch   *struct {
		Tic     uint32 `json:"tic"`
		Players []int  `json:"players"`
		Want    uint32 `json:"want"`
		Got     uint32 `json:"got"`
	} `json:"mismatch"`
	Result *struct {
		Tics       int `json:"tics"`
		Checked    int `json:"checked"`
		Mismatches int `json:"mismatches"`
	} `json:"result"`
	Error string `json:"error"`
	Bytes int    `json:"bytes"`
	MS    int    `json:"ms"`
}

// downloadReplay clicks a demo tab's "Download replay" and returns the
// file the browser saved, in a folder of its own (two files of one second
// have one name).
func downloadReplay(t *testing.T, bctx, ctx context.Context) string {
	t.Helper()
	dir := t.TempDir()
	// The test's own browser context (browser): the default one's setting
	// would not reach its tabs.
	if _, err := chromedp.CallBrowser(bctx, cdpbrowser.SetDownloadBehavior,
		cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir,
			BrowserContextID: chromedp.FromContext(bctx).BrowserContextID}); err != nil {
		t.Fatal(err)
	}
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Click(chromedp.ID("download-replay"))); err != nil {
		t.Fatalf("clicking Download replay: %v", err)
	}
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if files, _ := filepath.Glob(filepath.Join(dir, "*.ticnet")); len(files) == 1 {
			return files[0]
		}
	}
	c, cancel = context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	button, _ := chromedp.Run(c, chromedp.Evaluate[string](
		`JSON.stringify({ hidden: document.getElementById("download-replay").hidden, replayBytes: ticnetDemo.net.stats().replayBytes })`))
	t.Fatalf("no replay was downloaded within 10 s of the click (the button: %s)", button)
	return ""
}

// playBack gives the replay page in ctx the file at path and waits until
// it has played it back to its end (or failed).
func playBack(t *testing.T, ctx context.Context, path string) replayStatus {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	err := chromedp.Do(c, chromedp.SetUploadFiles(chromedp.ID("file"), []string{path}))
	cancel()
	if err != nil {
		t.Fatalf("giving the replay page %s: %v", path, err)
	}
	var st replayStatus
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		text, err := chromedp.Run(c, chromedp.Evaluate[string](`globalThis.ticnetReplay ? ticnetReplay.status() : ""`))
		cancel()
		if err != nil || text == "" {
			continue
		}
		st = replayStatus{}
		if err := json.Unmarshal([]byte(text), &st); err != nil {
			t.Fatal(err)
		}
		if st.File == filepath.Base(path) && (st.State == "done" || st.State == "error") {
			return st
		}
	}
	t.Fatalf("%s did not play back within 60 s: %+v", path, st)
	return st
}

// changeCommand returns replay data with one command changed: player's
// turn at tic, by 256 (a byte of it flipped); every other record reads as
// before. It first checks that data written again unchanged is data.
func changeCommand(t *testing.T, data []byte, tic uint32, player int) []byte {
	t.Helper()
	rewrite := func(change bool) []byte {
		r, err := wire.NewReplayReader(data)
		if err != nil {
			t.Fatal(err)
		}
		w := wire.NewReplayWriter(&r.Header)
		changed := false
		for {
			var rec wire.ReplayRecord
			err := r.Next(&rec)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if rec.IsSnapshot() {
				err = w.Snapshot(rec.Tic.Tic, rec.State)
			} else {
				if change && rec.Tic.Tic == tic && rec.Tic.InGame&(1<<player) != 0 {
					rec.Tic.Cmds[player].AngleTurn ^= 0x100
					changed = true
				}
				err = w.Tic(&rec.Tic)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if change && !changed {
			t.Fatalf("the replay has no command of player %d at tic %d", player, tic)
		}
		return w.Bytes()
	}
	if same := rewrite(false); string(same) != string(data) {
		t.Fatalf("the replay written again is %d bytes, not the %d it was", len(same), len(data))
	}
	return rewrite(true)
}

// Three tabs play the demo; one downloads its replay in the game, and,
// once the controller has ended the game, another downloads its replay in
// the lobby. A fresh tab plays each back with the demo's game, as fast as
// it can: every tic the recording tab ran, a checksum compared after each
// (the demo records one every tic), all equal. Seek, pause and speed
// work; bad files, bad options and a callback that throws are errors
// that say so; the same replay with one command changed is reported at
// that command's tic, naming its player.
func TestADownloadedReplayPlaysBackInAFreshTab(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	bctx, tabs, _ := playTogetherAt(t, url, 3)
	waitFor(t, tabs, "every tab past tic 300", 30*time.Second, func(sts []demoStatus) bool {
		for _, st := range sts {
			if st.Gametic < 300 {
				return false
			}
		}
		return true
	})

	// In the game: the replay holds the tics confirmed when it was
	// clicked, between what the tab said before and after (its stats
	// are published every 100 ms).
	before := statuses(t, tabs[1:2])[0].Gametic
	inGame := downloadReplay(t, bctx, tabs[1])
	time.Sleep(300 * time.Millisecond)
	after := statuses(t, tabs[1:2])[0].Gametic

	// In the lobby, after the game: the whole game.
	ctrl := -1
	for i, st := range statuses(t, tabs) {
		if st.Player == 0 { // the lobby's controller
			ctrl = i
		}
	}
	if ctrl < 0 {
		t.Fatal("no tab plays player 0, the controller")
	}
	eval(t, tabs[ctrl], "ticnetDemo.net.endGame()")
	waitFor(t, tabs, "every tab's game ended", 10*time.Second, func(sts []demoStatus) bool {
		for _, st := range sts {
			if st.Started {
				return false
			}
		}
		return true
	})
	var ended float64
	for _, e := range events(t, tabs[2]) {
		if e["kind"] == "end" {
			ended = e["tic"].(float64)
		}
	}
	if ended < 300 {
		t.Fatalf("tab 2's game ended at tic %v", ended)
	}
	afterGame := downloadReplay(t, bctx, tabs[2])

	player := tab(t, bctx, url+"/replay.html?speed=0")
	names := []string{"tab0", "tab1", "tab2"}
	var last replayStatus // the playback of the file played last
	for _, c := range []struct {
		path        string
		least, most uint32
	}{{afterGame, uint32(ended), uint32(ended)}, {inGame, before, after}} {
		st := playBack(t, player, c.path)
		last = st
		r := st.Result
		if st.State != "done" || r == nil || st.Start != 0 || st.End < c.least || st.End > c.most {
			t.Fatalf("%s: %+v; want tics 0 to %d-%d", filepath.Base(c.path), st, c.least, c.most)
		}
		if r.Tics != int(st.End) || r.Checked != r.Tics || r.Mismatches != 0 || st.Mismatch != nil || st.Progressed != r.Tics {
			t.Fatalf("%s: %d tics played back (%d progress events), %d checksums compared, %d differ (%+v); want %d, all equal",
				filepath.Base(c.path), r.Tics, st.Progressed, r.Checked, r.Mismatches, st.Mismatch, st.End)
		}
		if got := slices.Sorted(slices.Values(st.Players)); !slices.Equal(got, names) || st.TicRate != 35 {
			t.Fatalf("%s: players %v at %d tics a second", filepath.Base(c.path), st.Players, st.TicRate)
		}
		t.Logf("%s: %d tics of 3 players, %d bytes (%.1f per tic per player, snapshots included), played back in %d ms, %d checksums equal",
			strings.TrimPrefix(filepath.Base(c.path), "ticnet-arena-"), r.Tics, st.Bytes, float64(st.Bytes)/float64(r.Tics)/3, st.MS, r.Checked)
	}

	// The controls, on the replay played last, which stands at its end:
	// seek back (from the snapshot at tic 0), pause, speed 0, resume. The
	// tics run again check as before, and the end comes again.
	c, cancel := context.WithTimeout(player, 20*time.Second)
	text, err := chromedp.Run(c, chromedp.Evaluate[string](`(async () => {
		const r = ticnetReplay.replay();
		r.setSpeed(1);
		r.seek(100);
		const at = r.tic();
		r.pause();
		await new Promise((res) => setTimeout(res, 300));
		const paused = r.tic();
		const done = new Promise((res) => r.on("done", res));
		r.setSpeed(0);
		r.resume();
		return JSON.stringify({ at, paused, done: await done });
	})()`, chromedp.EvalAwaitPromise))
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	var controls struct {
		At, Paused uint32
		Done       struct{ Tics, Checked, Mismatches int }
	}
	if err := json.Unmarshal([]byte(text), &controls); err != nil {
		t.Fatal(err)
	}
	if n := 2 * int(last.End); controls.At != 100 || controls.Paused != 100 ||
		controls.Done.Tics != n || controls.Done.Checked != n || controls.Done.Mismatches != 0 {
		t.Fatalf("seek to 100, pause, play to the end: %+v; want tic 100 twice, then %d tics run and checked in all, none differ", controls, n)
	}

	// The API's own errors, in the replay page: a game of another kind of
	// input, or an unknown option, is refused; a callback that throws
	// stops the playback with an "error" event that names it, and no
	// mismatch is made of the tic it broke.
	data, err := os.ReadFile(afterGame)
	if err != nil {
		t.Fatal(err)
	}
	c, cancel = context.WithTimeout(player, 20*time.Second)
	text, err = chromedp.Run(c, chromedp.Evaluate[string](`(async () => {
		const { playReplay } = await import("./ticnet.js");
		const { Game } = await import("./game.js");
		const bytes = Uint8Array.from(atob("`+base64.StdEncoding.EncodeToString(data)+`"), (c) => c.charCodeAt(0));
		const g = new Game(), out = { events: [] };
		const game = { onTic: (tic, cmds, ingame) => g.step(tic, cmds, ingame), checksum: () => g.checksum(),
			save: () => g.save(), load: (s) => g.load(s), speed: 0 };
		for (const [what, extra] of [["inputSize", { inputSize: 4 }], ["unknown", { speeed: 0 }]]) {
			try { await playReplay(bytes, { ...game, ...extra }); out[what] = "resolved"; } catch (e) { out[what] = e.message; }
		}
		await new Promise((res) => playReplay(bytes, { ...game,
			onTic(tic, cmds, ingame) { if (tic === 10) throw new Error("the test throws at tic 10"); g.step(tic, cmds, ingame); },
			onEvent(e) { if (e.kind !== "progress") out.events.push(e); if (e.kind === "error") res(); } }));
		return JSON.stringify(out);
	})()`, chromedp.EvalAwaitPromise))
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	var apiErrors struct {
		InputSize, Unknown string
		Events             []map[string]any
	}
	if err := json.Unmarshal([]byte(text), &apiErrors); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(apiErrors.InputSize, "the replay's input is Doom's ticcmd, the game's (options.inputSize) 4 bytes") ||
		apiErrors.Unknown != "ticnet: playReplay: unknown option speeed" {
		t.Fatalf("a game of 4-byte input: %q; an unknown option: %q", apiErrors.InputSize, apiErrors.Unknown)
	}
	if evs := apiErrors.Events; len(evs) != 1 || evs[0]["kind"] != "error" || evs[0]["callback"] != "onTic" || evs[0]["tic"] != 10.0 ||
		!strings.Contains(evs[0]["message"].(string), "the test throws at tic 10") {
		t.Fatalf("a game that throws at tic 10: events %v; want one error event, of onTic at tic 10", evs)
	}

	// A file that is no replay, and a replay cut short: each is an error
	// that says so, and the page plays the next file (the wasm lives on).
	for _, bad := range []struct {
		name string
		data []byte
		says string
	}{{"not.ticnet", []byte("<!doctype html> not a replay"), "not a ticnet replay file"},
		{"cut.ticnet", data[:len(data)-3], fmt.Sprintf("replay: the file is cut short in its tic %d: ", uint32(ended)-1)}} { // the last tic, cut
		path := filepath.Join(t.TempDir(), bad.name)
		if err := os.WriteFile(path, bad.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if st := playBack(t, player, path); st.State != "error" || !strings.Contains(st.Error, bad.says) {
			t.Fatalf("%s: %+v; want an error that says %q", bad.name, st, bad.says)
		} else {
			t.Logf("%s: %s", bad.name, st.Error)
		}
	}

	// One command changed, in the middle of the game: reported at its tic,
	// with its player. A dead player's command changes nothing, so the
	// players are tried in turn until one's is reported.
	tic := uint32(ended) / 2
	for p := range 3 {
		path := filepath.Join(t.TempDir(), "changed.ticnet")
		if err := os.WriteFile(path, changeCommand(t, data, tic, p), 0o644); err != nil {
			t.Fatal(err)
		}
		st := playBack(t, player, path)
		if st.State != "done" || st.Result == nil || st.Result.Checked != int(ended) {
			t.Fatalf("player %d's command changed at tic %d: %+v", p, tic, st)
		}
		m := st.Mismatch
		if m == nil {
			t.Logf("player %d's command changed at tic %d: no checksum differs (the player was dead)", p, tic)
			continue
		}
		if m.Tic != tic || !slices.Equal(m.Players, []int{p}) || st.Result.Mismatches == 0 || m.Want == m.Got {
			t.Fatalf("player %d's command changed at tic %d: reported %+v, %d checksums differ", p, tic, *m, st.Result.Mismatches)
		}
		t.Logf("player %d's command changed at tic %d: reported at tic %d, players %v; %d of %d checksums differ",
			p, tic, m.Tic, m.Players, st.Result.Mismatches, st.Result.Checked)
		return
	}
	t.Fatalf("no player's changed command at tic %d was reported", tic)
}
