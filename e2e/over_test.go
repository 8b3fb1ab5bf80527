package e2e

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// overGame starts, in a page that runs no game of its own, a game that
// counts its tics and says it is over after tic 199 (its over), with
// prediction and random input (so that predicted tics roll back), and
// notes in window.__over its "end" events and every tic onConfirmed
// heard of, with the checksum. The controller's copy launches once both
// copies are in its lobby.
const overGame = `(() => { (async () => {
  const { start } = await import("./ticnet.js");
  let n = 0, h = 0;  // the state: tics run, and a hash of every input
  const o = window.__over = { ends: [], confirmed: [], sums: [], launched: false };
  let net = null;
  net = await start({
    name: "over", inputSize: 1, predict: true,
    input: () => new Uint8Array([Math.random() * 4 | 0]),
    onTic: (tic, inputs) => { n++; inputs.forEach((b) => { if (b) h = Math.imul(h ^ b[0], 16777619) >>> 0; }); },
    checksum: () => (h ^ n) >>> 0,
    save: () => new Uint8Array(new Uint32Array([n, h]).buffer),
    load: (s) => { const v = new Uint32Array(s.slice().buffer); n = v[0]; h = v[1]; },
    over: () => n >= 200,
    onConfirmed: (tic, sum) => { o.confirmed.push(tic); o.sums.push(sum); o.rollbacks = net.stats().rollbacks; },
    onEvent: (e) => {
      if (e.kind === "start") { n = 0; h = 0; }
      if (e.kind === "end") o.ends.push({ tic: e.tic, over: e.over });
      if (e.kind === "lobby" && e.lobby.controller && e.lobby.players.length === 2 && !o.launched) {
        o.launched = true;
        net.launch().catch(() => { o.launched = false; });
      }
    },
  });
})().catch((e) => { window.__overError = String(e); }); return ""; })()`

// overState is window.__over.
type overState struct {
	Ends []struct {
		Tic  int
		Over bool
	}
	Confirmed []int
	Sums      []uint32
	Rollbacks int    // stats().rollbacks at the last confirmed tic
	Error     string // start's, or a callback's
}

// A game whose over says it is over after tic 199 ends there in both
// tabs, by itself: each gets one "end" with tic 200 and over true, with
// no endGame and no page timer; onConfirmed heard of tics 0 to 199, each
// once and in order, with the same checksums in both tabs: never of a
// predicted tic, though both tabs rolled predicted tics back.
func TestAGameThatSaysItIsOverEndsInEveryTab(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	bctx := browser(t)
	tabs := []context.Context{tab(t, bctx, url+"/replay.html"), tab(t, bctx, url+"/replay.html")}
	for _, tb := range tabs {
		_, err := runEval(tb, overGame)
		require.NoError(t, err)
	}
	read := func(tb context.Context) overState {
		text, err := runEval(tb, `window.__overError ? JSON.stringify({ error: window.__overError }) : JSON.stringify(window.__over || {})`)
		require.NoError(t, err)
		var st overState
		require.NoError(t, json.Unmarshal([]byte(text), &st), text)
		require.Empty(t, st.Error, "the game's start")
		return st
	}
	var sts []overState
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(250 * time.Millisecond) {
		sts = []overState{read(tabs[0]), read(tabs[1])}
		if len(sts[0].Ends) > 0 && len(sts[1].Ends) > 0 {
			break
		}
		require.False(t, time.Now().After(deadline), "no end in both tabs within 60 s: ends %v and %v, %d and %d confirmed tics",
			sts[0].Ends, sts[1].Ends, len(sts[0].Confirmed), len(sts[1].Confirmed))
	}
	time.Sleep(time.Second) // a second end would come in it
	sts = []overState{read(tabs[0]), read(tabs[1])}
	for i, st := range sts {
		require.Len(t, st.Ends, 1, "tab %d: its ends", i)
		require.Equal(t, 200, st.Ends[0].Tic, "tab %d: the tic its game ended before", i)
		require.True(t, st.Ends[0].Over, "tab %d: its end's over", i)
		require.Len(t, st.Confirmed, 200, "tab %d: confirmed tics onConfirmed heard of", i)
		for k, tc := range st.Confirmed {
			require.Equal(t, k, tc, "tab %d: the %d-th confirmed tic", i, k)
		}
	}
	require.Equal(t, sts[0].Sums, sts[1].Sums, "the checksums onConfirmed heard of, tab 0's and tab 1's")
	require.Positive(t, sts[0].Rollbacks+sts[1].Rollbacks, "rollbacks in the tabs (the premise: predicted tics were undone)")
	t.Logf("both tabs ended before tic 200 by themselves; rollbacks: %d and %d", sts[0].Rollbacks, sts[1].Rollbacks)
}
