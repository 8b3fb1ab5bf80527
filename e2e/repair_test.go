package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// corruptAt is the tic at which the demo's hook (?corruptAt) gives the
// last tab's player 1000 points: 11.4 s into the game.
const corruptAt = 400

// desyncStatesOf is a tab's "desyncStates" event, as the demo keeps it.
type desyncStatesOf struct {
	Tic      uint32 `json:"tic"`
	Diverged bool   `json:"diverged"`
	Fetched  bool   `json:"fetched"`
	Before   []int  `json:"before"`
	After    []int  `json:"after"`
}

// Four tabs of the demo; the last one's state is corrupted at tic 400
// (its player's score jumps by 1000). Every tab hears that that player's
// copy was set right ("repaired", with a state after tic 400, diverged on
// that tab only), and every tab's checksums agree afterwards. Every tab
// kept its states around tic 400 ("desyncStates"): the states before it
// are the same everywhere; the corrupted tab also fetched a copy of the
// majority's (the same as the server's tab's), and the diff page, given
// the corrupted tab's two states after it, names the one field that
// differs (the player's score, 1000 apart). Screenshots of the tabs and
// the page.
func TestACorruptedTabIsRepairedAndTheDiffNamesTheField(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	bctx := browser(t)
	var tabs []context.Context
	for i := range 4 {
		q := ""
		if i == 3 {
			q = fmt.Sprintf("&corruptAt=%d", corruptAt)
		}
		tabs = append(tabs, tab(t, bctx, fmt.Sprintf("%s/?bot=%d&name=tab%d%s", url, 1000+i, i, q)))
	}
	launch(t, tabs, waitFor(t, tabs, "one server and every tab in its lobby", 20*time.Second, oneServerOneLobby(4)))
	victim := statuses(t, tabs)[3].Player

	repaired := make([]map[string]any, len(tabs))
	deadline := time.Now().Add(40 * time.Second)
	for i, ctx := range tabs {
		for repaired[i] == nil {
			require.True(t, time.Now().Before(deadline), "tab %d heard of no repair in 40 s", i)
			for _, e := range events(t, ctx) {
				if e["kind"] == "repaired" {
					repaired[i] = e
				}
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	for i, e := range repaired {
		t.Logf("tab %d: repaired %v", i, e)
		require.Equal(t, float64(victim), e["player"], "tab %d: the repaired player", i)
		require.Equal(t, i == 3, e["diverged"], "tab %d: its own state was replaced", i)
		require.Greater(t, e["tic"], float64(corruptAt), "tab %d: the state's tic", i)
		require.Positive(t, e["bytes"], "tab %d: the state's bytes", i)
	}

	// Three seconds on, the last 64 confirmed tics of every tab are
	// after the repair: the tabs agree on every one they share.
	time.Sleep(3 * time.Second)
	sts := statuses(t, tabs)
	for i, st := range sts {
		require.Greater(t, st.Checksums[0].Tic, uint32(repaired[i]["tic"].(float64)), "tab %d: its sums start after the repair", i)
	}
	compared := compareSums(t, sts)
	require.GreaterOrEqual(t, compared, 32, "tics compared across the tabs after the repair")
	t.Logf("after the repair: %d tics' checksums the same on every tab", compared)

	states := make([]desyncStatesOf, len(tabs))
	for i, ctx := range tabs {
		text, err := runEval(ctx, "ticnetDemo.desyncStates()")
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal([]byte(text), &states[i]), "tab %d: %s", i, text)
		require.Equal(t, uint32(corruptAt), states[i].Tic, "tab %d: the desync's tic", i)
		require.Equal(t, i == 3, states[i].Diverged, "tab %d: diverged", i)
		require.Equal(t, states[0].Before, states[i].Before, "tab %d: the state before tic %d", i, corruptAt)
	}
	require.NotEqual(t, states[0].After, states[3].After, "the corrupted tab's state after tic %d", corruptAt)
	// The corrupted tab fetched a copy of the majority's: the server's
	// tab's, or another's, all the same.
	var fetched desyncStatesOf
	text, err := runEval(tabs[3], "ticnetDemo.fetchedStates()")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal([]byte(text), &fetched), text)
	require.True(t, fetched.Fetched, "the corrupted tab's fetched states: %s", text)
	require.Equal(t, uint32(corruptAt), fetched.Tic)
	require.Equal(t, states[0].Before, fetched.Before, "the fetched state before tic %d", corruptAt)
	require.Equal(t, states[0].After, fetched.After, "the fetched state after tic %d", corruptAt)
	dir := outDir(t)
	for i, ctx := range tabs {
		screenshot(t, ctx, filepath.Join(dir, fmt.Sprintf("tab%d.png", i)))
	}

	page := tab(t, bctx, url+"/diff.html")
	// What the corrupted tab's page holds: its own state, and the
	// majority's it fetched.
	a, _ := json.Marshal(states[3].After)
	b, _ := json.Marshal(fetched.After)
	text = ""
	for end := time.Now().Add(10 * time.Second); text == ""; time.Sleep(100 * time.Millisecond) {
		require.True(t, time.Now().Before(end), "the diff page did not load in 10 s")
		text, _ = runEval(page, fmt.Sprintf(`globalThis.ticnetDiff ? ticnetDiff.compare(%s, %s) : ""`, a, b))
	}
	var diff struct {
		Same   bool `json:"same"`
		Bytes  int  `json:"bytes"`
		Fields []struct {
			Name string `json:"name"`
			A, B int
		} `json:"fields"`
		Error string `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &diff), text)
	t.Logf("diff page: %s", text)
	require.Empty(t, diff.Error)
	require.False(t, diff.Same)
	require.Len(t, diff.Fields, 1, "the fields that differ: %s", text)
	f := diff.Fields[0]
	require.Equal(t, fmt.Sprintf("players[%d].score", victim), f.Name, "the field that differs")
	require.Equal(t, 1000, f.A-f.B, "the corrupted score less the majority's")
	shown, err := runEval(page, `document.getElementById("fields").innerText`)
	require.NoError(t, err)
	require.Contains(t, shown, f.Name, "the page's table")
	screenshot(t, page, filepath.Join(dir, "diff.png"))
}
