package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The three engines a chat mixes: Chromium (Android's WebView, Delta Chat
// desktop), Firefox (Gecko) and WebKit (JavaScriptCore, as on iOS). Debian
// has no geckodriver, so a test does not drive them: it opens a page in
// each, and the page POSTs what it found to the test's own server on
// 127.0.0.1 (reportServer). Every process a test starts is ended by that
// test, by its process group, and every proxy setting points outside
// traffic at a closed port on 127.0.0.1.

// engine is one browser engine a page can be opened in.
type engine struct {
	name string
	// open starts the engine on url with a throwaway profile under dir
	// and returns the browser's command; its process group (and any
	// helper's, as WebKit's Xvfb) ends with the test.
	open func(t *testing.T, url, dir string) *exec.Cmd
}

// closedProxy is where outside traffic goes: nothing listens on port 9
// (discard) of a test machine, and 127.0.0.1 itself is never proxied.
const (
	closedProxyHost = "127.0.0.1"
	closedProxyPort = 9
)

var closedProxy = fmt.Sprintf("%s:%d", closedProxyHost, closedProxyPort)

// needEngine finds an engine's program; without it the test fails in CI
// (`make test` installs it) and skips loudly elsewhere, as needChromium.
func needEngine(t *testing.T, name, pkg string, candidates ...string) string {
	t.Helper()
	for _, c := range candidates {
		if strings.Contains(c, "*") {
			if m, _ := filepath.Glob(c); len(m) > 0 {
				return m[0]
			}
			continue
		}
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed: `make test` installs it (e2e/setup.sh)", name)
	}
	t.Skipf("SKIPPED: %s is not installed; run `sh e2e/setup.sh` (Debian: apt-get install %s)", name, pkg)
	return ""
}

// allEngines returns Chromium, Firefox and WebKit, each found or the test
// skipped (failed in CI).
func allEngines(t *testing.T) []engine {
	t.Helper()
	chromium := needChromium(t)
	firefox := needEngine(t, "firefox-esr", "firefox-esr", "firefox-esr", "firefox")
	mini := needEngine(t, "WebKitGTK's MiniBrowser", "webkit2gtk-driver", "/usr/lib/*/webkit2gtk-4.1/MiniBrowser", "/usr/lib/*/webkit2gtk-4.0/MiniBrowser")
	xvfb := needEngine(t, "Xvfb", "xvfb", "Xvfb")
	return []engine{
		{"chromium", func(t *testing.T, url, dir string) *exec.Cmd {
			return startGroup(t, exec.Command(chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
				"--no-first-run", "--no-default-browser-check", "--disable-background-networking",
				"--disable-component-update", "--disable-sync", "--disable-default-apps",
				"--proxy-server=http://"+closedProxy, "--user-data-dir="+dir, url))
		}},
		{"firefox", func(t *testing.T, url, dir string) *exec.Cmd {
			writeFirefoxPrefs(t, dir)
			cmd := exec.Command(firefox, "--headless", "--no-remote", "--profile", dir, url)
			cmd.Env = append(os.Environ(), "HOME="+dir, "MOZ_CRASHREPORTER_DISABLE=1")
			return startGroup(t, cmd)
		}},
		{"webkit", func(t *testing.T, url, dir string) *exec.Cmd {
			display := startXvfb(t, xvfb)
			cmd := exec.Command(mini, "--private", "--proxy=http://"+closedProxy, "--ignore-host=127.0.0.1", url)
			cmd.Env = append(os.Environ(), "DISPLAY="+display, "HOME="+dir, "XDG_CACHE_HOME="+dir,
				"XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir, "WEBKIT_DISABLE_COMPOSITING_MODE=1")
			return startGroup(t, cmd)
		}},
	}
}

// writeFirefoxPrefs writes a profile's user.js: no first-run pages, no
// updates, telemetry or remote services, every proxy a closed port.
func writeFirefoxPrefs(t *testing.T, dir string) {
	t.Helper()
	host, port := closedProxyHost, closedProxyPort
	prefs := map[string]any{
		"browser.shell.checkDefaultBrowser":                          false,
		"browser.startup.homepage_override.mstone":                   "ignore",
		"browser.aboutwelcome.enabled":                               false,
		"datareporting.policy.dataSubmissionEnabled":                 false,
		"datareporting.healthreport.uploadEnabled":                   false,
		"toolkit.telemetry.enabled":                                  false,
		"app.update.enabled":                                         false,
		"app.normandy.enabled":                                       false,
		"browser.safebrowsing.malware.enabled":                       false,
		"browser.safebrowsing.phishing.enabled":                      false,
		"network.captive-portal-service.enabled":                     false,
		"network.connectivity-service.enabled":                       false,
		"extensions.update.enabled":                                  false,
		"browser.newtabpage.enabled":                                 false,
		"browser.sessionstore.resume_from_crash":                     false,
		"dom.disable_open_during_load":                               false,
		"network.proxy.type":                                         1,
		"network.proxy.http":                                         host,
		"network.proxy.http_port":                                    port,
		"network.proxy.ssl":                                          host,
		"network.proxy.ssl_port":                                     port,
		"network.proxy.socks":                                        host,
		"network.proxy.socks_port":                                   port,
		"network.proxy.allow_hijacking_localhost":                    false,
		"browser.region.network.url":                                 "",
		"services.settings.server":                                   "http://" + closedProxy,
		"browser.topsites.contile.enabled":                           false,
		"browser.newtabpage.activity-stream.feeds.system.topstories": false,
	}
	var b strings.Builder
	for k, v := range prefs {
		switch v := v.(type) {
		case string:
			fmt.Fprintf(&b, "user_pref(%q, %q);\n", k, v)
		default:
			fmt.Fprintf(&b, "user_pref(%q, %v);\n", k, v)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "user.js"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// startGroup starts cmd in a process group of its own and ends the group
// (the browser and the processes it started) when the test ends.
func startGroup(t *testing.T, cmd *exec.Cmd) *exec.Cmd {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out strings.Builder
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", cmd.Path, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("%s (pid %d) did not end", filepath.Base(cmd.Path), cmd.Process.Pid)
		}
		if t.Failed() {
			t.Logf("%s's output:\n%s", filepath.Base(cmd.Path), tail(out.String(), 40))
		}
	})
	return cmd
}

// startXvfb starts a virtual X display for MiniBrowser (WebKitGTK has no
// headless mode) and returns its name, ":N".
func startXvfb(t *testing.T, xvfb string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(xvfb, "-displayfd", "3", "-nolisten", "tcp", "-screen", "0", "1024x768x24")
	cmd.ExtraFiles = []*os.File{w}
	startGroup(t, cmd)
	w.Close()
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
		r.Close()
	}()
	select {
	case n := <-got:
		if n == "" {
			t.Fatal("Xvfb did not name its display")
		}
		return ":" + n
	case <-time.After(30 * time.Second):
		t.Fatal("Xvfb did not start within 30 s")
		return ""
	}
}

// report is one POST a page made to the test: its path's last element
// (the kind of report), the engine the page was opened for and the body.
type report struct {
	kind, engine string
	body         []byte
}

// reportServer serves dir on 127.0.0.1, and extra's files by their path
// over it, and takes the pages' reports: a POST to /report/KIND?engine=NAME.
func reportServer(t *testing.T, dir string, extra map[string][]byte) (string, <-chan report) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	reports := make(chan report, 256)
	files := http.FileServer(http.Dir(dir))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/report/") {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			reports <- report{strings.TrimPrefix(r.URL.Path, "/report/"), r.URL.Query().Get("engine"), body}
			return
		}
		if data, ok := extra[r.URL.Path]; ok {
			http.ServeContent(w, r, r.URL.Path, time.Time{}, bytes.NewReader(data))
			return
		}
		files.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String(), reports
}

// runInEngine opens url with engine=NAME in its query in the engine, collects the reports the
// page sends until it sends one of kind last, ends the engine and returns
// them in order. A report of kind "error" fails the test with its body.
func runInEngine(t *testing.T, e engine, url string, reports <-chan report, last string, limit time.Duration) []report {
	t.Helper()
	t.Logf("%s: opening %s", e.name, url)
	start := time.Now()
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	cmd := e.open(t, url+sep+"engine="+e.name, t.TempDir())
	var got []report
	deadline := time.After(limit)
	for {
		select {
		case r := <-reports:
			if r.engine != e.name {
				t.Fatalf("a report for %q while %s runs", r.engine, e.name)
			}
			if r.kind == "error" {
				t.Fatalf("%s: the page failed: %s", e.name, r.body)
			}
			got = append(got, r)
			if r.kind == last {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				t.Logf("%s: reported in %v", e.name, time.Since(start).Round(time.Millisecond))
				return got
			}
		case <-deadline:
			t.Fatalf("%s: no %q report within %v", e.name, last, limit)
		}
	}
}

// runInEachEngine opens path in every engine at once, each in a subtest
// of its own with a report server of its own on dir (and extra, as
// reportServer), and returns each engine's reports, as runInEngine, in
// the engines' order. The pages compute and report, and no check of
// theirs reads a clock: side by side the three took 24 s where one after
// the other took 46 (the deterministic math check; the float game 11 s
// where 26). It fails the test if any engine failed.
func runInEachEngine(t *testing.T, engines []engine, dir string, extra map[string][]byte, path, last string, limit time.Duration) [][]report {
	t.Helper()
	got := make([][]report, len(engines))
	var wg sync.WaitGroup
	for i, e := range engines {
		wg.Go(func() {
			t.Run(e.name, func(t *testing.T) {
				url, reports := reportServer(t, dir, extra)
				got[i] = runInEngine(t, e, url+path, reports, last, limit)
			})
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return got
}

// copyFromRepo copies the repository's files (by their path in it) into
// dir under the names files maps them to.
func copyFromRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for src, dst := range files {
		data, err := os.ReadFile(filepath.Join(repoRoot(t), src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, dst), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// lastOf is the body of the last report of kind, nil if none.
func lastOf(reps []report, kind string) []byte {
	for i := len(reps) - 1; i >= 0; i-- {
		if reps[i].kind == kind {
			return reps[i].body
		}
	}
	return nil
}
