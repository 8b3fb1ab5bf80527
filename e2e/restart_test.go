package e2e

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// rejoinPage has a demo tab start a new session (ticnetDemo.rejoin, which
// calls start again) and fails unless start resolved.
func rejoinPage(t *testing.T, ctx context.Context, when string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	refused, err := chromedp.Run(c, chromedp.Evaluate[string](`ticnetDemo.rejoin()`, chromedp.EvalAwaitPromise))
	require.NoError(t, err, when)
	require.Empty(t, refused, "start again %s", when)
}

// lobbyNames are the names a tab's lobby lists, sorted.
func lobbyNames(st demoStatus) []string {
	if st.Lobby == nil {
		return nil
	}
	var names []string
	for _, p := range st.Lobby.Players {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	return names
}

// A page whose session ended starts another that works, without a
// reload: after leave() in the lobby, bob's new session is in the same
// lobby as ann's, which lists the two of them (not bob's old copy
// besides); after bob's game threw (an "error" event) in the game they
// launched, his new session joins the game in progress and plays it in
// step with ann's. While a session runs, start refuses to make another.
func TestAPageStartsAgainAfterLeavingAndAfterAnError(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	bctx := browser(t)
	tabs := []context.Context{tab(t, bctx, url+"/?bot=1000&name=ann"), tab(t, bctx, url+"/?bot=1001&name=bob&throwAt=100")}
	waitFor(t, tabs, "one server and both tabs in its lobby", 20*time.Second, oneServerOneLobby(2))

	c, cancel := context.WithTimeout(tabs[1], 10*time.Second)
	refused, err := chromedp.Run(c, chromedp.Evaluate[string](`ticnetDemo.rejoin()`, chromedp.EvalAwaitPromise))
	cancel()
	require.NoError(t, err)
	require.Contains(t, refused, "this page's session runs", "start while the session runs")

	eval(t, tabs[1], "ticnetDemo.leave()")
	rejoinPage(t, tabs[1], "after leave()")
	both := []string{"ann", "bob"}
	sts := waitFor(t, tabs, "one lobby of ann and bob, bob's new session in it", 20*time.Second, func(sts []demoStatus) bool {
		return oneServerOneLobby(2)(sts) && slices.Equal(lobbyNames(sts[0]), both) && slices.Equal(lobbyNames(sts[1]), both)
	})
	t.Logf("after leave() and start: bob is %s in a lobby of %v", sts[1].Role, lobbyNames(sts[1]))

	launch(t, tabs, sts)
	var failed map[string]any
	for end := time.Now().Add(20 * time.Second); failed == nil; time.Sleep(100 * time.Millisecond) {
		require.True(t, time.Now().Before(end), "bob's game did not throw within 20 s")
		for _, e := range events(t, tabs[1]) {
			if e["kind"] == "error" {
				failed = e
			}
		}
	}
	require.Equal(t, float64(100), failed["tic"], "bob's error event: %v", failed)
	rejoinPage(t, tabs[1], "after an error")
	st := waitFor(t, tabs[1:], "bob's new session plays the game in progress", 30*time.Second, func(sts []demoStatus) bool {
		return sts[0].Started && !sts[0].Joining && sts[0].Start != nil && sts[0].Start.Joined
	})[0]
	t.Logf("after the error and start: bob plays as player %d from tic %d (rejoined %v)", st.Player, st.Start.Tic, st.Start.Rejoined)
	require.Greater(t, st.Start.Tic, uint32(100), "bob's new session starts from the game in progress")
	playOnInStep(t, tabs, 3*time.Second, 80, "after bob started again")
	for i, st := range statuses(t, tabs) { // every copy's, the one started again included
		names := slices.DeleteFunc(slices.Clone(st.Players), func(n string) bool { return n == "" })
		slices.Sort(names)
		require.Equal(t, both, names, "tab %d's (%s's) stats().players", i, st.Role)
	}
}
