package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ticnet/ticnet/internal/wasmsize"
)

// wasmBrotliBound is issue 33's bound on ticnet.wasm after brotli -q 11:
// room for the standard library's crypto and safejs (issue 16's, 700 000
// bytes, had them out). BenchmarkWasmSize says what each adds.
const wasmBrotliBound = 1_000_000

// BenchmarkWasmSize reports the size of ticnet.wasm as make web ships it
// (-trimpath -ldflags=-s; the tests' build keeps the names, for their
// stack traces): raw, gzip and brotli (brotli with Debian's brotli CLI,
// at its best level), and fails when brotli's is over wasmBrotliBound.
// It logs what each dependency adds (internal/wasmsize.Adds: the code of
// the packages only it brings, from a build with names), and reports the
// code of each that adds any as <dependency>-code-bytes.
func BenchmarkWasmSize(b *testing.B) {
	dir := b.TempDir()
	build := func(name string, flags ...string) []byte {
		path := filepath.Join(dir, name)
		cmd := exec.Command("go", append(append([]string{"build", "-trimpath"}, flags...), "-o", path, "./wasm")...)
		cmd.Dir = repoRoot(b)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("building the wasm: %v\n%s", err, out)
		}
		wasm, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		return wasm
	}
	wasm := build("ticnet.wasm", "-ldflags=-s")
	sizes, err := wasmsize.Measure(build("ticnet-names.wasm"))
	if err != nil {
		b.Fatal(err)
	}
	pkgs, err := wasmsize.List(repoRoot(b), "./wasm")
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
	// Those that add no code are left out: a benchmark's log is cut
	// after ten lines.
	deps := slices.DeleteFunc(wasmsize.Adds(pkgs, sizes), func(d wasmsize.Dependency) bool { return d.Code == 0 })
	var adds strings.Builder
	wasmsize.PrintAdds(&adds, deps)
	b.Logf("code %d bytes of %d (a build with names); what each dependency adds, in code bytes:\n%s", sizes.Code, sizes.Total, adds.String())
	for _, d := range deps {
		if d.Path != "(shared)" {
			b.ReportMetric(float64(d.Code), path.Base(d.Path)+"-code-bytes")
		}
	}
	if _, err := exec.LookPath("brotli"); err != nil {
		b.Log("brotli is not installed (e2e/setup.sh installs it): no brotli size")
		return
	}
	br, err := exec.Command("brotli", "-c", "-q", "11", filepath.Join(dir, "ticnet.wasm")).Output()
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

// jsOpsScript counts, from page load, the crossings from Go into JS that
// the page's Go programs make, by kind (wasm_exec.js's imports named
// syscall/js.*, without the prefix), into __jsOps: it wraps each import of
// each Go instance in one more JS function call.
const jsOpsScript = `(() => {
	const counts = globalThis.__jsOps = {};
	let wrapped;
	Object.defineProperty(globalThis, "Go", { configurable: true, get: () => wrapped, set(Go) {
		wrapped = class extends Go {
			constructor() {
				super();
				const gojs = this.importObject.gojs;
				for (const name of Object.keys(gojs)) {
					if (!name.startsWith("syscall/js.")) continue;
					const kind = name.slice("syscall/js.".length), f = gojs[name];
					counts[kind] = 0;
					gojs[name] = (sp) => { counts[kind]++; return f(sp); };
				}
			}
		};
	} });
})();`

// safejsCost is what safejs adds to each kind of crossing, in ns: the
// time with it less the time as ticnet.wasm made it before
// (e2e/testdata/jscost, run in a tab of bctx: each way's fastest of 5). Kinds it does not measure take the cost of one
// that makes the same call (valueCall: valueInvoke's) or none
// (valueLength, the strings', finalizeRef: safejs wraps none of them).
func safejsCost(b *testing.B, bctx context.Context) map[string]float64 {
	dir := b.TempDir()
	cmd := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, "jscost.wasm"), "./e2e/testdata/jscost")
	cmd.Dir = repoRoot(b)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building jscost: %v\n%s", err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatal(err)
	}
	for src, dst := range map[string]string{filepath.Join(strings.TrimSpace(string(goroot)), "lib/wasm/wasm_exec.js"): "wasm_exec.js",
		filepath.Join(repoRoot(b), "e2e/testdata/jscost/index.html"): "index.html"} {
		data, err := os.ReadFile(src)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, dst), data, 0o644)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	ctx := tab(b, bctx, serveDemoWith(b, dir, true)+"/")
	var got map[string][2]float64
	for end := time.Now().Add(60 * time.Second); got == nil; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(end) {
			b.Fatal("jscost gave no result within 60 s")
		}
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		got, _ = chromedp.Run(c, chromedp.Evaluate[map[string][2]float64](`globalThis.__jscost || null`))
		cancel()
	}
	cost := map[string]float64{}
	for kind, t := range got {
		cost[kind] = t[1] - t[0]
	}
	cost["valueCall"], cost["valueIndex"], cost["valueSetIndex"] = cost["valueInvoke"], cost["valueGet"], cost["valueSet"]
	b.Logf("safejs's cost per crossing, ns (before, with safejs): %v", got)
	return cost
}

// BenchmarkFourTabGame plays 10 s in four tabs and reports, per tab, the
// frames and bytes per second each way; the netcode's time (net.stats(),
// the game's callbacks excluded: session.Stats says what it counts) per
// pass of the net loop (every 5 ms) and per tic run, median and p99, the
// slowest tab's, over the game's last 1024 passes (and passes that ran
// tics): about 5 s and all of it; the time of one postMessage, all
// tabs' sends of the 10 s together (part of the netcode's time); and the
// crossings from Go into JS per tic (the game's callbacks' among them),
// with what safejs adds to them per tic: each kind's count (jsOpsScript,
// whose counting costs each crossing one more JS call) times what safejs
// adds to one (safejsCost). Beside those, safejs checks values that do
// not cross (Float, Truthy) and converts each callback's arguments: not
// counted.
func BenchmarkFourTabGame(b *testing.B) {
	var fin, fout, bin, bout, mean, med, p99, ticMed, ticP99, sends, run, wait []float64
	var crossings, safejsUS []float64 // per tic, per tab
	for range b.N {
		// Cross-origin isolated, the pages' clock ticks in 5 µs, not 100.
		bctx, tabs, _ := playTogetherWith(b, serveDemoWith(b, buildDemo(b), true), 4, sendTimeScript+jsOpsScript)
		c, cancel := context.WithTimeout(tabs[0], 5*time.Second)
		isolated, err := chromedp.Run(c, chromedp.Evaluate[bool](`crossOriginIsolated`))
		cancel()
		if err != nil || !isolated {
			b.Fatalf("the page is not cross-origin isolated (%v)", err)
		}
		for _, tab := range tabs {
			eval(b, tab, "__sendUS.length = 0; for (const k in __jsOps) __jsOps[k] = 0")
		}
		before := statuses(b, tabs)
		share := startCPUShare(bctx)
		time.Sleep(10 * time.Second)
		ops := make([]map[string]float64, len(tabs))
		for i, tab := range tabs {
			c, cancel := context.WithTimeout(tab, 5*time.Second)
			v, err := chromedp.Run(c, chromedp.Evaluate[map[string]float64](`__jsOps`))
			cancel()
			if err != nil {
				b.Fatal(err)
			}
			ops[i] = v
		}
		if share != nil {
			r, w := share.perSecond()
			run, wait = append(run, float64(r.Milliseconds())), append(wait, float64(w.Milliseconds()))
		}
		ran := make([]float64, len(tabs)) // tics
		for i, st := range statuses(b, tabs) {
			tics := float64(st.Gametic - before[i].Gametic)
			ran[i] = tics
			if tics <= 0 {
				b.Fatalf("tab %d ran no tic in 10 s", i)
			}
			n := 0.0
			for kind, k := range ops[i] {
				if kind != "finalizeRef" { // the GC's, not a crossing
					n += k
				}
			}
			crossings = append(crossings, n/tics)
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
		// What safejs adds to the tabs' crossings, per tic, by what it
		// adds to each kind, measured in this browser once the game's
		// tabs are gone.
		for _, tab := range tabs {
			if _, err := chromedp.Run(tab, chromedp.Navigate("about:blank")); err != nil {
				b.Fatal(err)
			}
		}
		cost := safejsCost(b, bctx)
		for i := range tabs {
			ns := 0.0
			for kind, k := range ops[i] {
				ns += k * cost[kind]
			}
			safejsUS = append(safejsUS, ns/1000/ran[i])
		}
		b.Logf("crossings into JS by kind, per tab, over the 10 s: %v", ops)
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
	b.ReportMetric(avg(crossings), "js-crossings/tic")
	b.ReportMetric(avg(safejsUS), "safejs-per-tic-us")
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
