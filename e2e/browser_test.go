package e2e

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ticnet/ticnet/election/session"
)

// demoOnce builds the demo once per test run.
var demoOnce struct {
	sync.Once
	dir string
	err error
}

// repoRoot is the repository's top folder.
func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// buildDemo builds ticnet.wasm and assembles the demo page, as `make web`.
func buildDemo(t testing.TB) string {
	t.Helper()
	demoOnce.Do(func() {
		root := repoRoot(t)
		dir, err := os.MkdirTemp("", "ticnet-demo-")
		if err != nil {
			demoOnce.err = err
			return
		}
		demoOnce.dir = dir
		cmd := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, "ticnet.wasm"), "./wasm")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			demoOnce.err = fmt.Errorf("building the wasm: %v\n%s", err, out)
			return
		}
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			demoOnce.err = err
			return
		}
		files := map[string]string{filepath.Join(strings.TrimSpace(string(goroot)), "lib/wasm/wasm_exec.js"): "wasm_exec.js"}
		for _, f := range []string{"js/shim.js", "js/ticnet.js", "web/index.html", "web/hooks.js", "web/main.js", "web/game.js", "web/draw.js",
			"web/replay.html", "web/replay.js", "web/diff.html", "web/diff.js", "web/synctest.html", "web/synctest.js", "web/quickstart.html", "web/quickstart.js",
			"web/style.css", "web/manifest.toml", "web/icon.png"} {
			files[filepath.Join(root, f)] = filepath.Base(f)
		}
		// The second example, a game folder two folders below, with the
		// page's runtime beside it, as make web has it.
		for _, f := range []string{"index.html", "cycles.js"} {
			files[filepath.Join(root, "web/examples/cycles", f)] = filepath.Join("examples/cycles", f)
		}
		for _, f := range []string{"ticnet.js", "shim.js", "wasm_exec.js", "ticnet.wasm"} {
			files[filepath.Join(dir, f)] = filepath.Join("examples/cycles", f)
		}
		if err := os.MkdirAll(filepath.Join(dir, "examples/cycles"), 0o755); err != nil {
			demoOnce.err = err
			return
		}
		// The top folder's first: the runtime is copied from there.
		srcs := slices.Collect(maps.Keys(files))
		slices.SortFunc(srcs, func(a, b string) int { return strings.Count(files[a], "/") - strings.Count(files[b], "/") })
		for _, src := range srcs {
			data, err := os.ReadFile(src)
			if err != nil {
				demoOnce.err = err
				return
			}
			if err := os.WriteFile(filepath.Join(dir, files[src]), data, 0o644); err != nil {
				demoOnce.err = err
				return
			}
		}
	})
	if demoOnce.err != nil {
		t.Fatal(demoOnce.err)
	}
	return demoOnce.dir
}

// serveDemo serves dir on 127.0.0.1 for the test, with an empty webxdc.js
// in every folder (no messenger: the shim uses a BroadcastChannel).
func serveDemo(t testing.TB, dir string) string {
	t.Helper()
	return serveDemoWith(t, dir, false)
}

// serveDemoWith serves the demo as serveDemo does; isolated pages are
// cross-origin isolated (COOP and COEP headers), which gives them a clock
// of 5 µs rather than 100 µs: the benchmarks' pass and tic times need it.
func serveDemoWith(t testing.TB, dir string, isolated bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	files := http.FileServer(http.Dir(dir))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if isolated {
			w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
			w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
		}
		if path.Base(r.URL.Path) == "webxdc.js" {
			w.Header().Set("Content-Type", "text/javascript")
			io.WriteString(w, "")
			return
		}
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		files.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// needChromium fails (in CI) or skips loudly (elsewhere) without a browser.
func needChromium(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed: `make test` installs it (e2e/setup.sh)")
		}
		t.Skip("SKIPPED: chromium is not installed; run `sh e2e/setup.sh` (Debian: apt-get install chromium)")
	}
	return path
}

// oneChromium is the headless Chromium the tests share: starting one took
// 3-4 s on the loaded 2-core machine, and twenty tests start one. Each
// test gets a browser context of its own (browser), whose storage, cookies
// and cache no other test sees, as a fresh profile; TestMain ends it.
var oneChromium struct {
	sync.Mutex
	ctx    context.Context // the first tab's: it owns the browser
	cancel func()          // ends the browser and removes its profile
}

// sharedChromium returns the running Chromium, starting one when there is
// none or the last one died.
func sharedChromium(t testing.TB) context.Context {
	t.Helper()
	exe := needChromium(t)
	oneChromium.Lock()
	defer oneChromium.Unlock()
	if oneChromium.ctx != nil && oneChromium.ctx.Err() == nil {
		return oneChromium.ctx
	}
	profile, err := os.MkdirTemp("", "ticnet-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-features", "WebUIOmniboxPopup,WebUIOmniboxAimPopup,Translate"),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(800, 600),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	stop := func() { cancelB(); cancelA(); os.RemoveAll(profile) }
	if err := chromedp.Do(ctx); err != nil { // start the browser
		stop()
		t.Fatal(err)
	}
	oneChromium.ctx, oneChromium.cancel = ctx, stop
	return ctx
}

// stopChromium ends the shared Chromium, if one runs.
func stopChromium() {
	oneChromium.Lock()
	defer oneChromium.Unlock()
	if oneChromium.cancel != nil {
		oneChromium.cancel()
		oneChromium.ctx, oneChromium.cancel = nil, nil
	}
}

// browser gives the test a browser context of its own in the shared
// Chromium (an incognito profile: the tabs it opens share storage and a
// BroadcastChannel with each other only); it is closed, with every tab
// the test opened in it, when the test ends.
func browser(t testing.TB) context.Context {
	t.Helper()
	bctx, cancel := chromedp.NewContext(sharedChromium(t), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(bctx); err != nil { // create the browser context and its first tab
		t.Fatal(err)
	}
	return bctx
}

// tab opens url in a new tab of the browser.
func tab(t testing.TB, bctx context.Context, url string) context.Context {
	t.Helper()
	return hookedTab(t, bctx, url, "")
}

// hookedTab is tab with a script that runs in the page before its own
// (none when hook is empty).
func hookedTab(t testing.TB, bctx context.Context, url, hook string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	var steps []chromedp.Action[chromedp.Void]
	if hook != "" {
		steps = append(steps, runFirst(hook))
	}
	if err := chromedp.Do(ctx, append(steps, chromedp.Navigate(url))...); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// runFirst has the tab's pages run script before their own, from the next
// navigation on.
func runFirst(script string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tt *chromedp.Target) error {
		return tt.Call(ctx, "Page.addScriptToEvaluateOnNewDocument", map[string]string{"source": script}, nil)
	})
}

// demoStatus is what globalThis.ticnetDemo.status() returns.
type demoStatus struct {
	Role    string   `json:"role"`
	UID     uint32   `json:"uid"`
	Players []string `json:"players"`
	Gametic uint32   `json:"gametic"`
	Started bool     `json:"started"`
	Start   *struct {
		Tic      uint32 `json:"tic"`
		Joined   bool   `json:"joined"`
		Rejoined bool   `json:"rejoined"`
		// The game's tic rate, and its controller's seed and options (the
		// cycles example keeps them).
		TicRate float64        `json:"ticRate"`
		Seed    float64        `json:"seed"`
		Options map[string]any `json:"options"`
	} `json:"start"` // the last "start" event
	Joining bool `json:"joining"`
	// Me is the local player as the page shows it (predicted).
	Me *struct {
		X     int `json:"x"`
		Y     int `json:"y"`
		Angle int `json:"angle"`
	} `json:"me"`
	Migrating bool   `json:"migrating"` // the server went; the game waits for the next
	Notice    string `json:"notice"`    // the notice shown over the arena, if any
	Progress  int    `json:"progress"`
	Player    int    `json:"player"`
	Protocol  string `json:"protocol"`
	Checksums []struct {
		Tic uint32 `json:"tic"`
		Sum uint32 `json:"sum"`
	} `json:"checksums"`
	Lobby *struct {
		Players []struct {
			Name string `json:"name"`
		} `json:"players"`
		Controller bool `json:"controller"`
	} `json:"lobby"`
	Stats struct {
		PassMeanUS      float64  `json:"passMeanUS"`
		TicMedianUS     float64  `json:"ticMedianUS"`
		TicP99US        float64  `json:"ticP99US"`
		FramesInPerSec  int64    `json:"framesInPerSec"`
		FramesOutPerSec int64    `json:"framesOutPerSec"`
		BytesInPerSec   int64    `json:"bytesInPerSec"`
		BytesOutPerSec  int64    `json:"bytesOutPerSec"`
		PassMedianUS    int64    `json:"passMedianUS"`
		PassP99US       int64    `json:"passP99US"`
		Dropped         int64    `json:"dropped"`
		Forged          int64    `json:"forged"`
		TransferBytesIn int64    `json:"transferBytesIn"`
		TransferMS      int64    `json:"transferMS"`
		JoinMS          int64    `json:"joinMS"`
		TicsPerUpdate   int      `json:"ticsPerUpdate"`
		TicCostUS       int64    `json:"ticCostUS"`
		RTTMS           int64    `json:"rttMS"`
		PredictedTic    uint32   `json:"predictedTic"`
		Predicted       int64    `json:"predicted"`
		Gametic         uint32   `json:"gametic"`
		Maketic         uint32   `json:"maketic"`
		Rollbacks       int64    `json:"rollbacks"`
		InputDelay      int      `json:"inputDelay"`
		RolledBack      int64    `json:"rolledBack"`
		Watchers        int      `json:"watchers"`
		WatcherNames    []string `json:"watcherNames"`
		Channel         struct {
			Kind string `json:"kind"` // "webxdc" for a messenger's realtime channel
		} `json:"channel"`
	} `json:"stats"`
	Timing struct {
		Role  *float64 `json:"role"`
		Lobby *float64 `json:"lobby"`
	} `json:"timing"`
}

// status reads a tab's status; ok is false while the page is not ready.
func status(ctx context.Context) (demoStatus, bool) {
	var st demoStatus
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	text, err := chromedp.Run(c, chromedp.Evaluate[string](
		`globalThis.ticnetDemo ? globalThis.ticnetDemo.status() : ""`))
	if err != nil || text == "" {
		return st, false
	}
	return st, json.Unmarshal([]byte(text), &st) == nil
}

// eval runs a script in a tab.
func eval(t testing.TB, ctx context.Context, js string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := chromedp.Run(c, chromedp.Evaluate[any](js)); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
}

// waitFor polls the tabs' statuses until done is true for them, or fails.
func waitFor(t testing.TB, tabs []context.Context, what string, limit time.Duration, done func([]demoStatus) bool) []demoStatus {
	t.Helper()
	end := time.Now().Add(limit)
	var sts []demoStatus
	for time.Now().Before(end) {
		sts = sts[:0]
		ready := true
		for _, ctx := range tabs {
			st, ok := status(ctx)
			ready = ready && ok
			sts = append(sts, st)
		}
		if ready && done(sts) {
			return sts
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: not within %v; statuses: %+v", what, limit, sts)
	return nil
}

// oneServerOneLobby reports whether exactly one tab is the server and every
// tab sees all n players in the lobby.
func oneServerOneLobby(n int) func([]demoStatus) bool {
	return func(sts []demoStatus) bool {
		servers := 0
		for _, st := range sts {
			if st.Role == "server" {
				servers++
			}
			if st.Lobby == nil || len(st.Lobby.Players) != n {
				return false
			}
		}
		return servers == 1
	}
}

// controller returns the index of the tab that may launch.
func controller(t testing.TB, sts []demoStatus) int {
	t.Helper()
	for i, st := range sts {
		if st.Lobby != nil && st.Lobby.Controller {
			return i
		}
	}
	t.Fatal("no tab is the controller")
	return -1
}

// compareSums checks that the tabs agree at every tic they all report, and
// returns how many tics that is.
func compareSums(t testing.TB, sts []demoStatus) int {
	t.Helper()
	common, apart := sumsApart(sts)
	if apart != nil {
		t.Fatalf("tic %d: checksums differ: %x", apart.tic, apart.sums)
	}
	return common
}

// parting is the first tic at which tabs' checksums differ.
type parting struct {
	tic  uint32
	sums []uint32
}

// sumsApart counts the tics every tab reports and finds the first of them
// whose checksums differ, if any.
func sumsApart(sts []demoStatus) (int, *parting) {
	byTic := map[uint32][]uint32{}
	for _, st := range sts {
		for _, c := range st.Checksums {
			byTic[c.Tic] = append(byTic[c.Tic], c.Sum)
		}
	}
	common := 0
	var first *parting
	for tic, sums := range byTic {
		if len(sums) != len(sts) {
			continue
		}
		common++
		for _, s := range sums[1:] {
			if s != sums[0] && (first == nil || tic < first.tic) {
				first = &parting{tic, sums}
			}
		}
	}
	return common, first
}

// outDir is the test's output folder, kept after the run.
func outDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "e2e", "out", t.Name())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func screenshot(t testing.TB, ctx context.Context, path string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(c, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// playTogether opens n tabs, waits for one server and one lobby, launches
// from the controller and waits until every tab runs the game.
func playTogether(t testing.TB, n int) (context.Context, []context.Context, string) {
	t.Helper()
	return playTogetherAt(t, serveDemo(t, buildDemo(t)), n)
}

// playTogetherAt is playTogether on the demo served at url.
func playTogetherAt(t testing.TB, url string, n int) (context.Context, []context.Context, string) {
	t.Helper()
	return playTogetherWith(t, url, n, "")
}

// playTogetherWith is playTogetherAt with a hook script in every tab
// (hookedTab).
func playTogetherWith(t testing.TB, url string, n int, hook string) (context.Context, []context.Context, string) {
	t.Helper()
	return playTogetherQuery(t, url, n, hook, "")
}

// playTogetherQuery is playTogetherWith with more of the demo's query
// (such as "&draw=0") in every tab's address.
func playTogetherQuery(t testing.TB, url string, n int, hook, query string) (context.Context, []context.Context, string) {
	t.Helper()
	bctx := browser(t)
	var tabs []context.Context
	for i := range n {
		tabs = append(tabs, hookedTab(t, bctx, fmt.Sprintf("%s/?bot=%d&name=tab%d%s", url, 1000+i, i, query), hook))
	}
	launch(t, tabs, waitFor(t, tabs, "one server and every tab in its lobby", 20*time.Second, oneServerOneLobby(n)))
	return bctx, tabs, url
}

// launch has the controller start the game and waits until every tab runs it.
func launch(t testing.TB, tabs []context.Context, lobby []demoStatus) {
	t.Helper()
	eval(t, tabs[controller(t, lobby)], "ticnetDemo.launch()")
	waitFor(t, tabs, "every tab in the game", 20*time.Second, func(sts []demoStatus) bool {
		for _, st := range sts {
			if !st.Started || st.Gametic < 10 {
				return false
			}
		}
		return true
	})
}

func TestFourTabsElectOneServerAndPlayInStep(t *testing.T) {
	_, tabs, _ := playTogether(t, 4)
	playAndCompare(t, tabs, "tab")
	checkStatsFields(t, tabs[0])
}

// checkStatsFields checks that net.stats(), which the wasm builds field by
// field (wasm/objects.go), has every field of session.Stats by its JSON
// name, and no other (but the channel's, which ticnet.js adds).
func checkStatsFields(t *testing.T, tab context.Context) {
	t.Helper()
	text, err := runEval(tab, `JSON.stringify(Object.keys(ticnetDemo.net.stats()).filter((k) => k !== "channel"))`)
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatal(err)
	}
	for f := range reflect.TypeFor[session.Stats]().Fields() {
		want = append(want, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("stats() has the fields %v, session.Stats %v", got, want)
	}
	checkPeers(t, tab)
}

// checkPeers checks that stats().peers names every player of stats().players,
// in order, each with every field of session.Peer and no other.
func checkPeers(t *testing.T, tab context.Context) {
	t.Helper()
	text, err := runEval(tab, `JSON.stringify((({ players, peers }) => ({ players, peers }))(ticnetDemo.net.stats()))`)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Players []string         `json:"players"`
		Peers   []map[string]any `json:"peers"`
	}
	if err := json.Unmarshal([]byte(text), &st); err != nil {
		t.Fatal(err)
	}
	var want, named []string
	for f := range reflect.TypeFor[session.Peer]().Fields() {
		want = append(want, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	slices.Sort(want)
	for _, n := range st.Players {
		if n != "" {
			named = append(named, n)
		}
	}
	t.Logf("stats().peers: %v", st.Peers)
	if len(st.Peers) != len(named) {
		t.Fatalf("stats().peers has %d players, stats().players %d: %s", len(st.Peers), len(named), text)
	}
	for _, p := range st.Peers {
		keys := slices.Sorted(maps.Keys(p))
		if !slices.Equal(keys, want) {
			t.Fatalf("a peer has the fields %v, session.Peer %v", keys, want)
		}
		n, _ := p["player"].(float64)
		if name, _ := p["name"].(string); int(n) >= len(st.Players) || name != st.Players[int(n)] {
			t.Fatalf("peer %v is not named as stats().players %v names it", p, st.Players)
		}
		if rtt, _ := p["rttMS"].(float64); rtt < 0 {
			t.Fatalf("peer %v has no round trip after 20 s of play", p)
		}
	}
}

// playAndCompare lets the tabs play for 20 s, compares their checksums
// every 2 s, checks that each ran at least 600 tics, and keeps a screenshot
// of each under the test's output folder.
func playAndCompare(t *testing.T, tabs []context.Context, label string) {
	t.Helper()
	compared := 0
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); {
		time.Sleep(2 * time.Second)
		compared += compareSums(t, statuses(t, tabs))
	}
	for i, st := range statuses(t, tabs) {
		t.Logf("%s %d: %s uid %08x player %d gametic %d protocol %s", label, i, st.Role, st.UID, st.Player, st.Gametic, st.Protocol)
		if st.Gametic < 20*30 {
			t.Fatalf("%s %d ran only %d tics in 20 s", label, i, st.Gametic)
		}
	}
	if compared < 100 {
		t.Fatalf("only %d tics compared across the %d %ss", compared, len(tabs), label)
	}
	t.Logf("%d tic checksums compared across %d %ss: all equal", compared, len(tabs), label)
	dir := outDir(t)
	for i, ctx := range tabs {
		screenshot(t, ctx, filepath.Join(dir, fmt.Sprintf("%s%d.png", label, i)))
	}
}

// runEval evaluates a script that returns a string.
func runEval(ctx context.Context, js string) (string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[string](js))
}

// parallelTests is how many tests that call t.Parallel run at once unless
// -parallel says: all of them. They are real Chocolate Doom's, each
// waiting out real time (a client's 30 s timeout, games at 35 tics a
// second) with a few light processes; two at a time (-parallel's default,
// GOMAXPROCS, is 2 here) they took 100 s after the browser tests.
const parallelTests = 8

// TestMain runs the parallel tests all at once (parallelTests), ends the
// shared Chromium and removes the demo, the .xdc and the npm project
// built for the tests.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(parallelTests))
	}
	code := m.Run()
	stopChromium()
	for _, dir := range []string{demoOnce.dir, xdcOnce.dir, npmOnce.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}
