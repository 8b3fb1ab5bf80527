package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// lossyWindowMS is how long BenchmarkLossyChannel measures, from the
// first second of the game on.
const lossyWindowMS = 20000

// ticWatchScript watches the page's game from page load: from one second
// after its first tic, for lossyWindowMS, the tics it confirmed, the
// longest time its confirmed game tic stood still, and the resends it
// counted (as net.stats() has them: resend requests and tics resent).
// It polls every 20 ms, so a stall is known to 20 ms; the longest time
// between two polls is how long the page did not run at all. Each stall
// over 250 ms is kept: when it began (ms since the epoch, the same clock
// in every tab), how long it lasted, the longest time between polls
// during it, and the tic it stood at.
const ticWatchScript = `(() => {
	const w = globalThis.__ticWatch = { done: false, maxGapMS: 0, tics: 0, ms: 0, resends: 0, role: "", maxPollGapMS: 0, stalls: [] };
	let first = 0, t0 = 0, g0 = 0, r0 = 0, last = 0, lastAt = 0, polled = 0, pollGap = 0;
	const poll = setInterval(() => {
		const d = globalThis.ticnetDemo;
		if (!d || !d.net) return;
		const st = d.net.stats(), now = performance.now(), g = st.gametic;
		if (t0 && polled) { w.maxPollGapMS = Math.max(w.maxPollGapMS, now - polled); pollGap = Math.max(pollGap, now - polled); }
		polled = now;
		if (!first) { if (g > 0) first = now; return; }
		if (!t0) {
			if (now - first < 1000) return;
			t0 = lastAt = now; g0 = last = g; r0 = st.resends;
		}
		if (g !== last) {
			w.maxGapMS = Math.max(w.maxGapMS, now - lastAt);
			if (now - lastAt > 250) w.stalls.push({ at: performance.timeOrigin + lastAt, ms: now - lastAt, pollGapMS: pollGap, tic: last });
			last = g; lastAt = now; pollGap = 0;
		}
		if (now - t0 >= WINDOW) {
			w.maxGapMS = Math.max(w.maxGapMS, now - lastAt);
			Object.assign(w, { tics: g - g0, ms: now - t0, resends: st.resends - r0, role: st.role, done: true });
			clearInterval(poll);
		}
	}, 20);
})();`

// ticWatch is what ticWatchScript measured in one tab.
type ticWatch struct {
	Done     bool    `json:"done"`
	MaxGapMS float64 `json:"maxGapMS"`
	Tics     float64 `json:"tics"`
	MS       float64 `json:"ms"`
	Resends  float64 `json:"resends"`
	Role     string  `json:"role"`
	// MaxPollGapMS is the longest the page did not run its 20 ms poll.
	MaxPollGapMS float64 `json:"maxPollGapMS"`
	Stalls       []struct {
		At, MS, PollGapMS, Tic float64
	} `json:"stalls"`
}

// BenchmarkLossyChannel plays the demo in 4 and 8 tabs whose channel
// delays each frame 50-150 ms, without loss and with 20 % of the frames
// lost (the shim's test hook), and reports, over 20 s from the first
// second of the game on: the tic rate (the slowest tab's and the mean),
// the longest time any tab's confirmed game tic stood still, and resends
// per second (resend requests and tics resent: a client tab's mean, and
// the server's tab), and how the tabs' main threads shared the CPUs
// meanwhile: a tab's mean time on a CPU, and waiting for one, per second
// (schedstat): a tab that waits stalls whatever the netcode does. The
// draw=0 runs draw no arena (the demo's ?draw=0): eight tabs that render
// on two cores measure the rendering, one machine standing in for eight.
func BenchmarkLossyChannel(b *testing.B) {
	for _, draw := range []bool{true, false} {
		for _, n := range []int{4, 8} {
			for _, loss := range []float64{0, 0.2} {
				name := fmt.Sprintf("tabs=%d/loss=%g", n, loss)
				if !draw {
					name += "/draw=0"
				}
				b.Run(name, func(b *testing.B) { benchLossy(b, n, loss, draw) })
			}
		}
	}
}

// benchLossy is one of BenchmarkLossyChannel's runs.
func benchLossy(b *testing.B, n int, loss float64, draw bool) {
	var minRate, meanRate, stall, pause, clientResends, serverResends, run, wait float64
	for range b.N {
		w, r, wt := playLossy(b, n, loss, draw)
		run, wait = run+float64(r.Milliseconds()), wait+float64(wt.Milliseconds())
		logStalls(b, w)
		var rates, clients []float64
		for _, t := range w {
			rate := t.Tics * 1000 / t.MS
			rates = append(rates, rate)
			stall, pause = max(stall, t.MaxGapMS), max(pause, t.MaxPollGapMS)
			perSec := t.Resends * 1000 / t.MS
			if t.Role == "server" {
				serverResends += perSec
			} else {
				clients = append(clients, perSec)
			}
		}
		minRate += slices.Min(rates)
		meanRate += mean(rates)
		clientResends += mean(clients)
	}
	runs := float64(b.N)
	b.ReportMetric(minRate/runs, "tics/s-slowest")
	b.ReportMetric(meanRate/runs, "tics/s-mean")
	b.ReportMetric(stall, "longest-stall-ms")
	b.ReportMetric(pause, "longest-page-pause-ms")
	b.ReportMetric(clientResends/runs, "resends/s/client")
	b.ReportMetric(serverResends/runs, "resends/s/server")
	b.ReportMetric(run/runs, "main-run-ms/s")
	b.ReportMetric(wait/runs, "main-wait-ms/s")
}

// logStalls logs every stall over 250 ms of the tabs, in the order they
// began, from the first: a stall every tab has at once is the server's
// (or the channel's), one whose page did not run (its poll paused as
// long) is that tab's thread's.
func logStalls(b *testing.B, w []ticWatch) {
	type stall struct {
		tab                    int
		role                   string
		at, ms, pollGapMS, tic float64
	}
	var all []stall
	for i, t := range w {
		for _, s := range t.Stalls {
			all = append(all, stall{i, t.Role, s.At, s.MS, s.PollGapMS, s.Tic})
		}
	}
	slices.SortFunc(all, func(x, y stall) int { return int(x.at - y.at) })
	for _, s := range all {
		b.Logf("stall at +%.0f ms: tab %d (%s) stood at tic %.0f for %.0f ms; its page paused %.0f ms at most meanwhile",
			s.at-all[0].at, s.tab, s.role, s.tic, s.ms, s.pollGapMS)
	}
}

func mean(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t / float64(len(v))
}

// playLossy opens n tabs of the demo (bots playing) with the delay hook
// at loss, launches the game and returns what each tab's watch measured,
// and the tabs' mean time on a CPU and waiting for one, per second, from
// about the start of the watches' window (two seconds after the launch)
// to its end.
func playLossy(b *testing.B, n int, loss float64, draw bool) ([]ticWatch, time.Duration, time.Duration) {
	b.Helper()
	url := serveDemo(b, buildDemo(b))
	var urls []string
	for i := range n {
		u := fmt.Sprintf("%s/?bot=%d&name=tab%d", url, 1000+i, i)
		if !draw {
			u += "&draw=0"
		}
		urls = append(urls, u)
	}
	hook := fmt.Sprintf("globalThis.__ticnetTestDelay = { min: 50, max: 150, loss: %g };\n", loss) +
		strings.Replace(ticWatchScript, "WINDOW", fmt.Sprint(lossyWindowMS), 1)
	bctx := browser(b)
	tabs, _ := delayedTabsWith(b, bctx, urls, hook)
	launch(b, tabs, waitFor(b, tabs, "one server and every tab in its lobby", 60*time.Second, oneServerOneLobby(n)))
	time.Sleep(2 * time.Second) // the first tic, then a second: the window starts
	share := startCPUShare(bctx)
	if share == nil {
		b.Fatal("no renderer's schedstat: the tabs' share of the CPUs cannot be measured")
	}
	var w []ticWatch
	deadline := time.Now().Add(lossyWindowMS*time.Millisecond + 30*time.Second)
	for i := 0; i < len(tabs); {
		var t ticWatch
		c, cancel := context.WithTimeout(tabs[i], 5*time.Second)
		text, err := chromedp.Run(c, chromedp.Evaluate[string](`JSON.stringify(globalThis.__ticWatch || {})`))
		cancel()
		if err == nil && json.Unmarshal([]byte(text), &t) == nil && t.Done {
			w = append(w, t)
			i++
			continue
		}
		if time.Now().After(deadline) {
			b.Fatalf("tab %d: no measurement (%v, %s)", i, err, text)
		}
		time.Sleep(500 * time.Millisecond)
	}
	run, wait := share.perSecond()
	for i, tab := range tabs {
		// The page marks its arena once it draws it (dataset.arena).
		c, cancel := context.WithTimeout(tab, 5*time.Second)
		drew, err := chromedp.Run(c, chromedp.Evaluate[bool](`!!document.getElementById("arena").dataset.arena`))
		cancel()
		if err != nil || drew != draw {
			b.Fatalf("tab %d drew its arena: %v, want %v (%v)", i, drew, draw, err)
		}
	}
	return w, run, wait
}
