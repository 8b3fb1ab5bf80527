package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ticnet/ticnet/netcore/synctest"
	"github.com/ticnet/ticnet/netcore/wire"
)

// runSyncTestPage opens the demo's determinism check at query and returns
// its result.
func runSyncTestPage(t *testing.T, bctx context.Context, url, query string) synctest.Result {
	t.Helper()
	ctx := tab(t, bctx, url+"/synctest.html"+query)
	var r synctest.Result
	pageResult(t, ctx, "synctest.html"+query, `globalThis.ticnetSyncTest ? JSON.stringify(globalThis.ticnetSyncTest) : ""`, &r)
	return r
}

// pageResult evaluates expr in the tab until it gives a string other than
// "", within 30 s, and decodes that string, JSON, into v.
func pageResult(t *testing.T, ctx context.Context, what, expr string, v any) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		text, err := chromedp.Run(c, chromedp.Evaluate[string](expr))
		cancel()
		if err == nil && text != "" {
			if err := json.Unmarshal([]byte(text), v); err != nil {
				t.Fatalf("%s: %v: %s", what, err, text)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s gave no result within 30 s (%v)", what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The JS API's syncTest, in a browser tab: the demo game is deterministic
// over 1 000 tics at 4 players, each tic run again 8 times; the same game
// reading Math.random from tic 300 on is reported at tic 300, with both
// checksums and the byte of its saved state that differs.
func TestSyncTestInATabFindsAPlantedNonDeterminism(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	bctx := browser(t)
	if r := runSyncTestPage(t, bctx, url, ""); !r.OK || r.Tics != 1000 {
		t.Fatalf("the demo game: %+v", r)
	}
	r := runSyncTestPage(t, bctx, url, "?plant=300")
	t.Logf("planted at tic 300: %s", r.Message)
	if r.OK || r.Tic != 300 || r.At < 300 || r.At > 307 || r.Checksum == r.Rerun || r.StateOffset < 0 {
		t.Fatalf("planted at tic 300: %+v", r)
	}
}

// noShimPage imports ticnet.js and nothing else: it checks a game that
// sums every player's forward move with syncTest, then plays
// noshim.ticnet back into the same game at full speed, and keeps both
// results and whether the shim was loaded.
const noShimPage = `<!doctype html><script type="module">
import { syncTest, playReplay } from "./ticnet.js";
let sum = 0;
const game = {
  input: (tic) => ({ forward: tic % 50 - 25 }),
  onTic: (tic, cmds) => { for (const c of cmds) if (c) sum = (sum + c.forward) >>> 0; },
  checksum: () => sum,
  save: () => new Uint8Array(new Uint32Array([sum]).buffer),
  load: (s) => { sum = new Uint32Array(s.slice().buffer)[0]; },
};
try {
  const synced = await syncTest({ ...game, tics: 200 });
  sum = 0;
  const { input, ...played } = game;
  const r = await playReplay(await (await fetch("noshim.ticnet")).arrayBuffer(), { ...played, speed: 0 });
  const done = await new Promise((resolve) => r.on("done", resolve));
  globalThis.result = { synced, done, shim: globalThis.__ticnetShim !== undefined };
} catch (e) {
  globalThis.result = { error: String(e) };
}
</script>`

// A page that only checks its game (syncTest) and plays a replay back
// (playReplay) loads no shim and joins no channel: with ticnet.js alone
// both run, and the replay's 300 recorded checksums (written here, by
// the same sum) all agree.
func TestSyncTestAndPlayReplayRunWithoutTheShim(t *testing.T) {
	const tics = 300
	dir := buildDemo(t)
	h := wire.ReplayHeader{Protocol: "TICNET_1", Settings: wire.Settings{TicDup: 1, LoadGame: -1, Episode: 1, Map: 1},
		Setup: wire.GameSetup{TicRate: 35}, Names: []string{"ann", "bob"}, SumEvery: 1}
	w := wire.NewReplayWriter(&h)
	var sum uint32
	for tic := range uint32(tics) {
		rt := wire.ReplayTic{Tic: tic, InGame: 0b11, HasSum: true}
		for p := range 2 {
			rt.Cmds[p].ForwardMove = int8(tic%7) - int8(3*p)
			sum += uint32(int32(rt.Cmds[p].ForwardMove))
		}
		rt.Sum = sum
		if err := w.Tic(&rt); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string][]byte{"noshim.html": []byte(noShimPage), "noshim.ticnet": w.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := tab(t, browser(t), serveDemo(t, dir)+"/noshim.html")
	var r struct {
		Synced synctest.Result
		Done   struct{ Tics, Checked, Mismatches int }
		Shim   bool
		Error  string
	}
	pageResult(t, ctx, "noshim.html", `globalThis.result ? JSON.stringify(globalThis.result) : ""`, &r)
	if r.Error != "" {
		t.Fatalf("noshim.html: %s", r.Error)
	}
	if !r.Synced.OK || r.Synced.Tics != 200 {
		t.Errorf("syncTest without the shim: %+v", r.Synced)
	}
	if r.Done.Tics != tics || r.Done.Checked != tics || r.Done.Mismatches != 0 {
		t.Errorf("playReplay without the shim: %+v; want %d tics, all checked and equal", r.Done, tics)
	}
	if r.Shim {
		t.Error("the page loaded the shim: syncTest and playReplay need no channel")
	}
	t.Logf("without the shim: syncTest %+v; playReplay %+v", r.Synced, r.Done)
}
