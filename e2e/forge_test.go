package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// evalNumber evaluates js in a tab and returns its number.
func evalNumber(t testing.TB, ctx context.Context, js string) int64 {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	n, err := chromedp.Run(c, chromedp.Evaluate[float64](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return int64(n)
}

// A tab that forges another player's frames through the channel moves
// nobody: it overhears the victim's frames to the server (the election's
// go elsewhere) on a channel of its own (every member of a chat reads
// every frame), and sends them
// again under the victim's UID, each with a byte of its commands
// changed. The server's tab drops every one, and counts it (its stats'
// forged), and the game goes on, every tab agreeing.
func TestAForgingTabMovesNobody(t *testing.T) {
	_, tabs, _ := playTogether(t, 3)
	sts := statuses(t, tabs)
	server, victim, forger := -1, -1, -1
	for i, st := range sts {
		switch {
		case st.Role == "server":
			server = i
		case victim < 0:
			victim = i
		default:
			forger = i
		}
	}
	if server < 0 || victim < 0 || forger < 0 {
		t.Fatalf("no server, victim and forger among the tabs: %+v", sts)
	}
	uid, srv := sts[victim].UID, sts[server].UID
	eval(t, tabs[forger], fmt.Sprintf(`(() => {
		globalThis.overheard = [];
		const ch = new BroadcastChannel("ticnet:" + location.pathname);
		ch.onmessage = (e) => {
			const f = new Uint8Array(e.data);
			if (f.length < 8 + 12) return;
			const to = (f[0] | f[1] << 8 | f[2] << 16 | f[3] << 24) >>> 0;
			const from = (f[4] | f[5] << 8 | f[6] << 16 | f[7] << 24) >>> 0;
			if (from === %d && to === %d && globalThis.overheard.length < 400) globalThis.overheard.push(f);
		};
	})()`, uid, srv))
	time.Sleep(3 * time.Second)
	before := statuses(t, tabs)[server].Stats.Forged
	sent := evalNumber(t, tabs[forger], `(() => {
		for (const f of globalThis.overheard) {
			const g = f.slice();
			g[8 + 4] ^= 0x40; // a command's byte: the tag at its end no longer fits
			__ticnetShim.send(g);
		}
		return globalThis.overheard.length;
	})()`)
	if sent < 50 {
		t.Fatalf("the forging tab overheard %d of the victim's frames in 3 s", sent)
	}
	for i, m := range advancing(t, tabs, 2*time.Second) {
		if m < 50 {
			t.Fatalf("tab %d ran %d tics in 2 s after the forgeries", i, m)
		}
	}
	after := statuses(t, tabs)
	got := after[server].Stats.Forged - before
	t.Logf("the forging tab sent %d of the victim's frames, changed; the server's tab dropped %d as forged", sent, got)
	if got != sent {
		t.Fatalf("the server's tab counted %d forged frames, want the %d sent", got, sent)
	}
	if n := compareSums(t, after); n == 0 {
		t.Fatal("no common tics to compare")
	}
}
