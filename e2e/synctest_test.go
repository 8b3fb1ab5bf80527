package e2e

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ticnet/ticnet/netcore/synctest"
)

// runSyncTestPage opens the demo's determinism check at query and returns
// its result.
func runSyncTestPage(t *testing.T, bctx context.Context, url, query string) synctest.Result {
	t.Helper()
	ctx := tab(t, bctx, url+"/synctest.html"+query)
	var r synctest.Result
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		text, err := chromedp.Run(c, chromedp.Evaluate[string](`globalThis.ticnetSyncTest ? JSON.stringify(globalThis.ticnetSyncTest) : ""`))
		cancel()
		if err == nil && text != "" {
			if err := json.Unmarshal([]byte(text), &r); err != nil {
				t.Fatal(err)
			}
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("synctest.html%s gave no result within 30 s (%v)", query, err)
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
