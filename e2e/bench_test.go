package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// wasmBrotliBound is issue 16's bound on ticnet.wasm after brotli -q 11
// (685 561 bytes when it was set; README.md says what each dependency
// would add).
const wasmBrotliBound = 700_000

// BenchmarkWasmSize reports the size of ticnet.wasm as make web ships it
// (-trimpath -ldflags=-s; the tests' build keeps the names, for their
// stack traces): raw, gzip and brotli (brotli with Debian's brotli CLI,
// at its best level), and fails when brotli's is over wasmBrotliBound.
func BenchmarkWasmSize(b *testing.B) {
	path := filepath.Join(b.TempDir(), "ticnet.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s", "-o", path, "./wasm")
	cmd.Dir = repoRoot(b)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the wasm: %v\n%s", err, out)
	}
	wasm, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(wasm)
	w.Close()
	for range b.N {
	}
	b.ReportMetric(float64(len(wasm)), "raw-bytes")
	b.ReportMetric(float64(gz.Len()), "gzip-bytes")
	if _, err := exec.LookPath("brotli"); err != nil {
		b.Log("brotli is not installed (e2e/setup.sh installs it): no brotli size")
		return
	}
	br, err := exec.Command("brotli", "-c", "-q", "11", path).Output()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(br)), "brotli-bytes")
	if len(br) > wasmBrotliBound {
		b.Errorf("ticnet.wasm is %d bytes after brotli, over the bound of %d", len(br), wasmBrotliBound)
	}
}

// BenchmarkLoadToRoleAndLobby loads the demo in one tab, then in more tabs
// one after another, and reports the median time from navigation to the
// role being decided and to being in the lobby, for the tabs that join a
// running server; and the same for the first tab, which waits out the
// election alone.
func BenchmarkLoadToRoleAndLobby(b *testing.B) {
	url := serveDemo(b, buildDemo(b))
	var role, lobby, firstRole, firstLobby []float64
	for i := range b.N {
		bctx := browser(b)
		tabs := []context.Context{tab(b, bctx, fmt.Sprintf("%s/?name=first%d", url, i))}
		for j := range 5 {
			waitFor(b, tabs, "every tab in the lobby", 20*time.Second, oneServerOneLobby(len(tabs)))
			tabs = append(tabs, tab(b, bctx, fmt.Sprintf("%s/?name=t%d_%d", url, i, j)))
		}
		sts := waitFor(b, tabs, "every tab in the lobby", 20*time.Second, oneServerOneLobby(len(tabs)))
		for j, st := range sts {
			if st.Timing.Role == nil || st.Timing.Lobby == nil {
				b.Fatalf("tab %d has no timing", j)
			}
			if j == 0 {
				firstRole, firstLobby = append(firstRole, *st.Timing.Role), append(firstLobby, *st.Timing.Lobby)
				continue
			}
			role, lobby = append(role, *st.Timing.Role), append(lobby, *st.Timing.Lobby)
		}
	}
	med := func(v []float64) float64 { slices.Sort(v); return v[len(v)/2] }
	b.ReportMetric(med(role), "join-role-ms")
	b.ReportMetric(med(lobby), "join-lobby-ms")
	b.ReportMetric(med(firstRole), "first-role-ms")
	b.ReportMetric(med(firstLobby), "first-lobby-ms")
}

// sendTimeScript times, from page load, every postMessage on a
// BroadcastChannel (the shim's sending, which the netcode's time counts),
// in µs, into __sendUS. Its two clock reads add about 0.1 µs to each.
const sendTimeScript = `(() => {
	const times = globalThis.__sendUS = [];
	const post = BroadcastChannel.prototype.postMessage;
	BroadcastChannel.prototype.postMessage = function (m) {
		const t0 = performance.now();
		post.call(this, m);
		times.push((performance.now() - t0) * 1000);
	};
})();`

// BenchmarkFourTabGame plays 10 s in four tabs and reports, per tab, the
// frames and bytes per second each way; the netcode's time (net.stats(),
// the game's callbacks excluded: session.Stats says what it counts) per
// pass of the net loop (every 5 ms) and per tic run, median and p99, the
// slowest tab's, over the game's last 1024 passes (and passes that ran
// tics): about 5 s and all of it; and the time of one postMessage, all
// tabs' sends of the 10 s together (part of the netcode's time).
func BenchmarkFourTabGame(b *testing.B) {
	var fin, fout, bin, bout, mean, med, p99, ticMed, ticP99, sends, run, wait []float64
	for range b.N {
		// Cross-origin isolated, the pages' clock ticks in 5 µs, not 100.
		bctx, tabs, _ := playTogetherWith(b, serveDemoWith(b, buildDemo(b), true), 4, sendTimeScript)
		c, cancel := context.WithTimeout(tabs[0], 5*time.Second)
		isolated, err := chromedp.Run(c, chromedp.Evaluate[bool](`crossOriginIsolated`))
		cancel()
		if err != nil || !isolated {
			b.Fatalf("the page is not cross-origin isolated (%v)", err)
		}
		for _, tab := range tabs {
			eval(b, tab, "__sendUS.length = 0")
		}
		share := startCPUShare(bctx)
		time.Sleep(10 * time.Second)
		if share != nil {
			r, w := share.perSecond()
			run, wait = append(run, float64(r.Milliseconds())), append(wait, float64(w.Milliseconds()))
		}
		for _, st := range statuses(b, tabs) {
			s := st.Stats
			fin, fout = append(fin, float64(s.FramesInPerSec)), append(fout, float64(s.FramesOutPerSec))
			bin, bout = append(bin, float64(s.BytesInPerSec)), append(bout, float64(s.BytesOutPerSec))
			mean, med, p99 = append(mean, s.PassMeanUS), append(med, float64(s.PassMedianUS)), append(p99, float64(s.PassP99US))
			ticMed, ticP99 = append(ticMed, s.TicMedianUS), append(ticP99, s.TicP99US)
		}
		for _, tab := range tabs {
			c, cancel := context.WithTimeout(tab, 5*time.Second)
			us, err := chromedp.Run(c, chromedp.Evaluate[[]float64](`__sendUS`))
			cancel()
			if err != nil {
				b.Fatal(err)
			}
			sends = append(sends, us...)
		}
	}
	avg := func(v []float64) float64 {
		t := 0.0
		for _, x := range v {
			t += x
		}
		return t / float64(len(v))
	}
	b.ReportMetric(avg(fin), "frames-in/s/tab")
	b.ReportMetric(avg(fout), "frames-out/s/tab")
	b.ReportMetric(avg(bin), "bytes-in/s/tab")
	b.ReportMetric(avg(bout), "bytes-out/s/tab")
	b.ReportMetric(avg(mean), "pass-mean-us")
	b.ReportMetric(slices.Max(med), "pass-median-us")
	b.ReportMetric(slices.Max(p99), "pass-p99-us")
	b.ReportMetric(slices.Max(ticMed), "net-per-tic-median-us")
	b.ReportMetric(slices.Max(ticP99), "net-per-tic-p99-us")
	if len(run) > 0 {
		b.ReportMetric(avg(run), "main-thread-run-ms/s/tab")
		b.ReportMetric(avg(wait), "main-thread-wait-ms/s/tab")
	}
	if len(sends) > 0 {
		slices.Sort(sends)
		b.ReportMetric(sends[len(sends)/2], "postMessage-median-us")
		b.ReportMetric(sends[len(sends)*99/100], "postMessage-p99-us")
	}
}
