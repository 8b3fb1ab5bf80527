package e2e

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// replayBase64 is a demo tab's replay so far (net.replay()), in base64.
const replayBase64 = `(() => {
  const b = ticnetDemo.net.replay();
  let s = "";
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
})()`

// playSetUp plays a replay back (speed 0) with the demo's game made in
// the place the variant says: "setup" (playReplay's setup) or "after"
// (after the await, as the README said before setup existed), and
// returns the first callbacks called, setup's facts and the "done" event.
const playSetUp = `(async (b64, where) => {
  const { playReplay } = await import("./ticnet.js");
  const { Game } = await import("./game.js");
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const calls = [];
  let game = new Game(), facts = null;
  const options = { speed: 0,
    onTic(tic, cmds, ingame) { if (calls.length < 3) calls.push("onTic"); game.step(tic, cmds, ingame); },
    checksum: () => game.checksum(), save: () => game.save(),
    load(state) { if (calls.length < 3) calls.push("load"); game.load(state); } };
  if (where === "setup") options.setup = (f) => { calls.push("setup"); facts = { start: f.start, players: f.players, ticRate: f.ticRate }; game = new Game(); };
  const r = await playReplay(bytes, options);
  if (where === "after") game = new Game();
  const done = await new Promise((res) => r.on("done", res));
  r.close();
  return JSON.stringify({ calls, facts, start: r.start, done });
})`

// A late joiner's replay starts from the state it was given: played back
// with the game set up in playReplay's setup, setup runs before that
// state's load and every recorded checksum matches; set up after the
// await (the README's old advice), the game set up replaces the loaded
// state and the checksums differ. The late joiner's stats, read in its
// own "join" event, already hold its transferMS and joinMS.
func TestALateJoinersReplayPlaysBackWithTheGameSetUpBeforeItsLoad(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	bctx, _, _ := playTogetherAt(t, url, 2)
	late := tab(t, bctx, url+"/?bot=2000&name=late")
	st := waitFor(t, []context.Context{late}, "the late tab plays", 30*time.Second, func(sts []demoStatus) bool {
		return sts[0].Started && !sts[0].Joining && sts[0].Start != nil && sts[0].Start.Joined
	})[0]
	var joined struct{ TransferMS, JoinMS int64 }
	text, err := runEval(late, `JSON.stringify(JSON.parse(ticnetDemo.status()).joinedWith)`)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal([]byte(text), &joined), text)
	t.Logf("the late tab joined from tic %d; its join event saw transferMS %d, joinMS %d", st.Start.Tic, joined.TransferMS, joined.JoinMS)
	require.Positive(t, joined.TransferMS, "transferMS as the late tab's join event came")
	require.GreaterOrEqual(t, joined.JoinMS, joined.TransferMS, "joinMS as the late tab's join event came")

	from := st.Start.Tic
	waitFor(t, []context.Context{late}, "the late tab 200 tics past its start", 30*time.Second, func(sts []demoStatus) bool {
		return sts[0].Gametic >= from+200
	})
	b64, err := runEval(late, replayBase64)
	require.NoError(t, err)
	player := tab(t, bctx, url+"/replay.html")
	var runs = map[string]struct {
		Calls []string
		Facts *struct {
			Start   uint32
			Players []string
			TicRate int
		}
		Start uint32
		Done  struct{ Tics, Checked, Mismatches int }
	}{}
	for _, where := range []string{"setup", "after"} {
		c, cancel := context.WithTimeout(player, 30*time.Second)
		text, err := chromedp.Run(c, chromedp.Evaluate[string](playSetUp+`(`+jsString(b64)+`, "`+where+`")`, chromedp.EvalAwaitPromise))
		cancel()
		require.NoError(t, err, where)
		r := runs[where]
		require.NoError(t, json.Unmarshal([]byte(text), &r), text)
		runs[where] = r
		t.Logf("set up in %s: calls %v, %d tics from %d, %d of %d checksums differ", where, r.Calls, r.Done.Tics, r.Start, r.Done.Mismatches, r.Done.Checked)
	}
	s := runs["setup"]
	require.Equal(t, from, s.Start, "the replay starts where the late tab joined")
	require.Equal(t, []string{"setup", "load", "onTic"}, s.Calls, "setup runs first, then the snapshot's load, then the tics")
	require.NotNil(t, s.Facts)
	require.Equal(t, from, s.Facts.Start, "setup's facts")
	require.Equal(t, 35, s.Facts.TicRate, "setup's facts")
	require.GreaterOrEqual(t, s.Done.Checked, 100, "checksums compared")
	require.Zero(t, s.Done.Mismatches, "checksums that differ with the game set up in setup")
	a := runs["after"]
	require.Equal(t, s.Done.Checked, a.Done.Checked)
	require.Positive(t, a.Done.Mismatches, "set up after the await, the game loses the loaded state")
}

// jsString is s as a JS string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
