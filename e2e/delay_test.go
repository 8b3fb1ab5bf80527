package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// channelDelayScript turns on the shim's delay hook: every frame a tab
// receives arrives 50-150 ms late, each frame on its own. It must run
// before the page's scripts, since the election starts at page load.
const channelDelayScript = `globalThis.__ticnetTestDelay = { min: 50, max: 150 };`

// clickStartScript clicks the page's Start button if it shows, as a
// person watching the lobby would, and reports whether it did.
const clickStartScript = `(() => {
	const b = document.getElementById("launch");
	if (!b || b.hidden) return false;
	b.click();
	return true;
})()`

// pageViewScript returns what the page shows while it is not in the game,
// as a pageView, read in one go so that the two fields agree.
const pageViewScript = `(() => {
	const st = globalThis.ticnetDemo ? JSON.parse(ticnetDemo.status()) : {};
	const box = document.getElementById("lobby");
	return JSON.stringify({ joining: !!st.joining, text: box && !box.hidden ? document.getElementById("lobby-status").textContent : "" });
})()`

type pageView struct {
	Joining bool   `json:"joining"` // the page's state: joining a game in progress
	Text    string `json:"text"`    // the lobby box's status line; "" when the box is hidden
}

// delayedTabs opens every url at once, each in its own tab with the
// channel delay from page load, and returns the tabs and when each
// navigation began.
func delayedTabs(t testing.TB, bctx context.Context, urls []string) ([]context.Context, []time.Time) {
	t.Helper()
	return delayedTabsWith(t, bctx, urls, channelDelayScript)
}

// delayedTabsWith is delayedTabs with the hook script given: the delay,
// and loss or duplication.
func delayedTabsWith(t testing.TB, bctx context.Context, urls []string, hook string) ([]context.Context, []time.Time) {
	t.Helper()
	tabs := make([]context.Context, len(urls))
	for i := range urls {
		ctx, cancel := chromedp.NewContext(bctx)
		t.Cleanup(cancel)
		if err := chromedp.Do(ctx, runFirst(hook)); err != nil {
			t.Fatalf("adding the delay hook: %v", err)
		}
		tabs[i] = ctx
	}
	opened := make([]time.Time, len(urls))
	errs := make(chan error, len(urls))
	for i, u := range urls {
		opened[i] = time.Now()
		go func() { errs <- chromedp.Do(tabs[i], chromedp.Navigate(u)) }()
	}
	for range urls {
		if err := <-errs; err != nil {
			t.Fatalf("opening a tab: %v", err)
		}
	}
	// ticnet.js loads the shim when the page calls start: wait for it.
	for i, ctx := range tabs {
		var on string
		var err error
		for end := time.Now().Add(10 * time.Second); on == "" && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			c, cancel := context.WithTimeout(ctx, 5*time.Second)
			on, err = chromedp.Run(c, chromedp.Evaluate[string](`globalThis.__ticnetShim ? String(!!__ticnetShim.testDelay) : ""`))
			cancel()
		}
		if err != nil || on != "true" {
			t.Fatalf("tab %d: the shim's delay hook is off (%q, %v)", i, on, err)
		}
	}
	return tabs, opened
}

// clickStartAtOnce polls every tab until one shows the Start button and
// clicks it there: the first moment the controller could start the game.
func clickStartAtOnce(t testing.TB, tabs []context.Context, limit time.Duration) int {
	t.Helper()
	for end := time.Now().Add(limit); time.Now().Before(end); {
		for i, ctx := range tabs {
			c, cancel := context.WithTimeout(ctx, 5*time.Second)
			clicked, err := chromedp.Run(c, chromedp.Evaluate[bool](clickStartScript))
			cancel()
			if err == nil && clicked {
				return i
			}
		}
		time.Sleep(10 * time.Millisecond) // short beside the channel's delay; spares the 2 cores
	}
	t.Fatalf("no tab showed the Start button within %v", limit)
	return -1
}

// inGame reports whether a tab plays the game: started, and not still
// joining it.
func inGame(st demoStatus) bool { return st.Started && !st.Joining && st.Gametic > 0 }

// pageLog is what one page said on its way into the game.
type pageLog struct {
	name  string   // for logs and screenshots: "tab2"
	said  []string // each new status line, in order
	wrong bool     // it said something wrong while joining (reported once)
}

// check reads what the page says, and when it says something new (its
// digits aside: a percentage moving is not new) logs it and keeps a
// screenshot. A page that joins a game in progress must say so.
func (l *pageLog) check(t testing.TB, ctx context.Context) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	text, err := chromedp.Run(c, chromedp.Evaluate[string](pageViewScript))
	cancel()
	var v pageView
	if err != nil || json.Unmarshal([]byte(text), &v) != nil || v.Text == "" {
		return
	}
	if v.Joining && !l.wrong && !strings.HasPrefix(v.Text, "Joining the game in progress") && !strings.HasPrefix(v.Text, "Back to your place") {
		l.wrong = true
		t.Errorf("%s joins the game in progress, but its page says %q", l.name, v.Text)
	}
	for _, s := range l.said {
		if withoutDigits(s) == withoutDigits(v.Text) {
			return
		}
	}
	l.said = append(l.said, v.Text)
	screenshot(t, ctx, filepath.Join(outDir(t), fmt.Sprintf("%s-%d.png", l.name, len(l.said))))
}

func withoutDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, s)
}

// journey is a tab's events, in short: how it came into the game. It also
// returns the server it last followed.
func journey(t testing.TB, ctx context.Context, player int) (string, uint32) {
	t.Helper()
	var server uint32
	var went []string
	for _, e := range events(t, ctx) {
		switch e["kind"] {
		case "role", "newServer":
			server = uint32(num(e["serverUID"]))
			went = append(went, fmt.Sprintf("%s(%s %08x)", e["kind"], e["role"], server))
		case "rejected", "split", "serverLost", "disconnect":
			went = append(went, fmt.Sprintf("%s(%v)", e["kind"], e["reason"]))
		case "retry", "launched":
			went = append(went, e["kind"].(string))
		case "start":
			went = append(went, fmt.Sprintf("start(player %v, tic %v, joined %v)", num(e["player"]), num(e["tic"]), e["joined"]))
		case "catchup":
			if num(e["done"]) == num(e["total"]) { // the last of each unit
				went = append(went, fmt.Sprintf("catchup(%v %v)", num(e["total"]), e["unit"]))
			}
		case "join":
			if int(num(e["player"])) == player {
				went = append(went, fmt.Sprintf("join(tic %v)", num(e["tic"])))
			}
		case "desync":
			t.Fatalf("desync: %v", e)
		}
	}
	return strings.Join(went, " → "), server
}

// num reads a number of an event; absent is 0 (the engine leaves zero
// fields out).
func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

// startAtOnceAllPlayOneGame opens the urls at once with the channel delay,
// clicks Start the moment one copy may, and proves that every copy ends up
// playing that one game: one server, the same server for all, distinct
// players, tics advancing and equal checksums. label names a copy in logs
// and screenshots.
func startAtOnceAllPlayOneGame(t *testing.T, urls []string, label string, electLimit time.Duration) {
	bctx := browser(t)
	tabs, opened := delayedTabs(t, bctx, urls)
	ctl := clickStartAtOnce(t, tabs, electLimit)
	clicked := time.Now()
	var then []string
	for _, st := range statuses(t, tabs) {
		lobby := 0
		if st.Lobby != nil {
			lobby = len(st.Lobby.Players)
		}
		then = append(then, fmt.Sprintf("%s/%d in lobby", st.Role, lobby))
	}
	t.Logf("Start clicked on %s %d, %v after it opened; the %ss then: %s", label, ctl,
		clicked.Sub(opened[ctl]).Round(10*time.Millisecond), label, strings.Join(then, ", "))

	// Every copy comes into the game: those whose join reached the server
	// after Start are refused, retry a second later and join it late. What
	// each page says on the way is logged, and kept as a screenshot.
	playing := make([]time.Duration, len(tabs))
	pages := make([]pageLog, len(tabs))
	for i := range pages {
		pages[i].name = fmt.Sprintf("%s%d", label, i)
	}
	waitFor(t, tabs, "every "+label+" plays", 30*time.Second, func(sts []demoStatus) bool {
		all := true
		for i, st := range sts {
			if !inGame(st) {
				pages[i].check(t, tabs[i])
			} else if playing[i] == 0 {
				playing[i] = time.Since(opened[i])
			}
			all = all && inGame(st) && st.Gametic >= 10
		}
		return all
	})
	t.Logf("every %s plays %v after Start was clicked", label, time.Since(clicked).Round(10*time.Millisecond))

	// They play on, in step.
	for i, m := range advancing(t, tabs, 2*time.Second) {
		if m < 50 {
			t.Fatalf("%s %d ran %d tics in 2 s", label, i, m)
		}
	}
	compared := 0
	var sts []demoStatus
	for range 3 {
		time.Sleep(time.Second)
		sts = statuses(t, tabs)
		compared += compareSums(t, sts)
	}
	if compared < 50 {
		t.Fatalf("only %d tics compared across the %d %ss", compared, len(tabs), label)
	}

	// One server, and every copy in its game as its own player.
	servers, players, followed := 0, map[int]int{}, map[uint32]bool{}
	for i, st := range sts {
		if st.Role == "server" {
			servers++
		}
		if other, dup := players[st.Player]; dup || st.Player < 0 {
			t.Fatalf("%s %d is player %d, as is %s %d", label, i, st.Player, label, other)
		}
		players[st.Player] = i
		went, server := journey(t, tabs[i], st.Player)
		followed[server] = true
		t.Logf("%s %d: %s, player %d, rtt %d ms, playing %v after it opened; events: %s", label, i, st.Role, st.Player,
			st.Stats.RTTMS, playing[i].Round(10*time.Millisecond), went)
		if len(pages[i].said) > 0 {
			t.Logf("%s %d said: %s", label, i, strings.Join(pages[i].said, " → "))
		}
		// The server's own client does not talk over the channel.
		if st.Role == "client" && st.Stats.RTTMS < 100 {
			t.Fatalf("%s %d: round trip %d ms, but every frame is delayed 50-150 ms", label, i, st.Stats.RTTMS)
		}
	}
	if servers != 1 || len(followed) != 1 {
		t.Fatalf("%d %ss serve, and the %ss follow %d servers, want one", servers, label, label, len(followed))
	}
	t.Logf("%d tic checksums compared across the %d %ss: all equal", compared, len(tabs), label)
	for i, ctx := range tabs {
		screenshot(t, ctx, filepath.Join(outDir(t), fmt.Sprintf("%s%d-playing.png", label, i)))
	}
}

func TestDelayedTabsStartAtOnceAllPlayOneGame(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	var urls []string
	for i := range 4 {
		urls = append(urls, fmt.Sprintf("%s/?bot=%d&name=tab%d", url, 3000+i, i))
	}
	startAtOnceAllPlayOneGame(t, urls, "tab", 10*time.Second)
}

func TestDelayedXdcStartAtOnceAllPlayOneGame(t *testing.T) {
	ui := startWebxdcDev(t, packXDC(t))
	var urls []string
	for i, u := range instances(t, ui, 4) {
		urls = append(urls, fmt.Sprintf("%s/?bot=%d&name=xdc%d", strings.TrimSuffix(u, "/"), 4000+i, i))
	}
	// The realtime channel elects with the gossip profile: a copy alone
	// waits 4.5 s before it serves.
	startAtOnceAllPlayOneGame(t, urls, "instance", 15*time.Second)
}
