package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inputDelayPage is a game alone in its lobby that launches itself with
// options.inputDelay ?d=N, after a start with inputDelay 16, which must
// reject. From tic 50 on, each input(tic) notes how far tic is ahead of
// the last tic onTic ran (no save and load: no prediction, so onTic runs
// confirmed tics only).
const inputDelayPage = `<!doctype html><script type="module">
import { start } from "./ticnet.js";
const d = Number(new URLSearchParams(location.search).get("d"));
let rejected = "";
try { await start({ inputDelay: 16, input: () => ({}), onTic() {}, checksum: () => 0 }); } catch (e) { rejected = e.message; }
let last = -1;
const leads = [];
const net = await start({ name: "solo", inputDelay: d, checksum: () => 0,
  input: (tic) => { if (last >= 50) leads.push(tic - last); return {}; },
  onTic: (tic) => { last = tic; },
  onEvent: (e) => { if (e.kind === "lobby" && e.lobby.controller) net.launch().catch(() => {}); } });
globalThis.result = () => {
  if (leads.length < 100) return "";
  const s = leads.slice().sort((a, b) => a - b);
  return JSON.stringify({ rejected, median: s[s.length >> 1], n: leads.length });
};
</script>`

// inputDelayLead opens the page with inputDelay d and returns the median
// lead of input's tic over the last tic run, and why inputDelay 16 was
// rejected.
func inputDelayLead(t *testing.T, bctx context.Context, url string, d int) (median int, rejected string) {
	t.Helper()
	// A page of its own per delay: the tabs must not meet on one channel.
	ctx := tab(t, bctx, fmt.Sprintf("%s/inputdelay%d.html?d=%d", url, d, d))
	var r struct {
		Rejected  string
		Median, N int
	}
	pageResult(t, ctx, fmt.Sprintf("inputdelay%d.html", d), `globalThis.result ? globalThis.result() : ""`, &r)
	return r.Median, r.Rejected
}

// options.inputDelay reaches the engine: with 6, input is asked for a
// tic 6 tics further ahead of the game than with 0 (the median of at
// least 100 inputs, within a tic); and 16, more than netcore.MaxInputDelay,
// is refused by name.
func TestInputDelayInJSTakesInputThatManyTicsAhead(t *testing.T) {
	dir := buildDemo(t)
	for _, d := range []int{0, 6} {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("inputdelay%d.html", d)), []byte(inputDelayPage), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url, bctx := serveDemo(t, dir), browser(t)
	none, rejected := inputDelayLead(t, bctx, url, 0)
	six, _ := inputDelayLead(t, bctx, url, 6)
	t.Logf("input's tic ahead of the last tic run: %d with inputDelay 0, %d with 6; inputDelay 16: %q", none, six, rejected)
	if six-none < 5 || six-none > 7 {
		t.Errorf("inputDelay 6 moved input %d tics ahead (%d to %d), want 6 within a tic", six-none, none, six)
	}
	if !strings.Contains(rejected, "options.inputDelay must be an integer from 0 to 15") {
		t.Errorf("inputDelay 16: %q", rejected)
	}
}
