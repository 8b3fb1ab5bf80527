package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// webxdcDev is the project-local webxdc-dev that `make test` installs.
func webxdcDev(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(repoRoot(t), ".npm-local", "node_modules", ".bin", "webxdc-dev")
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("webxdc-dev is not installed at %s: `make test` installs it (e2e/setup.sh)", bin)
		}
		t.Skipf("SKIPPED: webxdc-dev is not installed at %s; run `sh e2e/setup.sh .npm-local`", bin)
	}
	return bin
}

// xdcOnce packs the demo once per test run.
var xdcOnce struct {
	sync.Once
	dir, path string // dir: removed by TestMain
	err       error
}

// packXDC builds the demo and packs it as a .xdc, as `make xdc` does,
// once per run: three tests run it under webxdc-dev.
func packXDC(t testing.TB) string {
	t.Helper()
	dir := buildDemo(t)
	xdcOnce.Do(func() {
		tmp, err := os.MkdirTemp("", "ticnet-xdc-")
		if err != nil {
			xdcOnce.err = err
			return
		}
		xdcOnce.dir = tmp
		out := filepath.Join(tmp, "ticnet-demo.xdc")
		cmd := exec.Command("go", "run", "./web/serve", "-dir", dir, "-pack", out)
		cmd.Dir = repoRoot(t)
		if b, err := cmd.CombinedOutput(); err != nil {
			xdcOnce.err = fmt.Errorf("packing the .xdc: %v\n%s", err, b)
			return
		}
		xdcOnce.path = out
	})
	if xdcOnce.err != nil {
		t.Fatal(xdcOnce.err)
	}
	return xdcOnce.path
}

// startWebxdcDev runs webxdc-dev on the bundle and returns its UI's URL.
// The process group is killed when the test ends.
func startWebxdcDev(t testing.TB, xdc string) string {
	t.Helper()
	cmd := exec.Command(webxdcDev(t), "run", xdc, "--port", "17300")
	cmd.Dir = t.TempDir()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	started := regexp.MustCompile(`frontend on (http://localhost:\d+)`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := started.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case url := <-found:
		return strings.Replace(url, "localhost", "127.0.0.1", 1)
	case <-time.After(30 * time.Second):
		t.Fatal("webxdc-dev did not start within 30 s")
		return ""
	}
}

type devInstance struct {
	URL string `json:"url"`
}

// instances adds instances until there are n and returns their URLs.
func instances(t testing.TB, ui string, n int) []string {
	t.Helper()
	list := func() []devInstance {
		resp, err := http.Get(ui + "/instances")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var l []devInstance
		if err := json.NewDecoder(resp.Body).Decode(&l); err != nil {
			t.Fatal(err)
		}
		return l
	}
	l := list()
	for len(l) < n {
		resp, err := http.Post(ui+"/instances", "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		l = list()
	}
	var urls []string
	for _, in := range l[:n] {
		urls = append(urls, strings.Replace(in.URL, "localhost", "127.0.0.1", 1))
	}
	return urls
}

// xdcLobby packs the demo, runs it under webxdc-dev, opens n instances,
// each in a tab with a bot seeded from bot and no name of its own (each
// plays under its chat name, webxdc.selfName), and waits until they sit
// in one lobby.
func xdcLobby(t testing.TB, n, bot int) ([]context.Context, []demoStatus) {
	t.Helper()
	ui := startWebxdcDev(t, packXDC(t))
	urls := instances(t, ui, n)
	bctx := browser(t)
	var tabs []context.Context
	for i, u := range urls {
		tabs = append(tabs, tab(t, bctx, fmt.Sprintf("%s/?bot=%d", strings.TrimSuffix(u, "/"), bot+i)))
	}
	return tabs, waitFor(t, tabs, "one server and every instance in its lobby", 30*time.Second, oneServerOneLobby(n))
}

// Three instances of the .xdc play over webxdc-dev's realtime channel,
// each under its chat member's name: every instance's lobby lists the
// three names that webxdc.selfName gives the instances.
func TestXdcUnderWebxdcDevPlaysOverTheRealtimeChannel(t *testing.T) {
	tabs, sts := xdcLobby(t, 3, 2000)
	var selves []string
	for i, tb := range tabs {
		c, cancel := context.WithTimeout(tb, 5*time.Second)
		self, err := runEval(c, `webxdc.selfName`)
		cancel()
		require.NoError(t, err, "instance %d's webxdc.selfName", i)
		selves = append(selves, self)
	}
	slices.Sort(selves)
	for i, st := range sts {
		var names []string
		for _, p := range st.Lobby.Players {
			names = append(names, p.Name)
		}
		slices.Sort(names)
		require.Equal(t, selves, names, "instance %d's lobby: the chat names", i)
		require.NotEqual(t, selves[0], selves[1], "webxdc-dev names its instances apart")
	}
	for i := range sts {
		var kind struct {
			Channel struct {
				Kind string `json:"kind"`
			} `json:"channel"`
		}
		c, cancel := context.WithTimeout(tabs[i], 5*time.Second)
		text, err := runEval(c, `JSON.stringify(ticnetDemo && JSON.parse(ticnetDemo.status()).stats)`)
		cancel()
		if err != nil || json.Unmarshal([]byte(text), &kind) != nil || kind.Channel.Kind != "webxdc" {
			t.Fatalf("instance %d does not use the realtime channel: %q %v", i, text, err)
		}
	}
	launch(t, tabs, sts)
	playAndCompare(t, tabs, "instance")
}

// Four instances of the .xdc play over webxdc-dev's realtime channel; the
// server's instance closes: the other three carry on the same game.
func TestXdcOutlivesTheServersInstance(t *testing.T) {
	tabs, sts := xdcLobby(t, 4, 5000)
	launch(t, tabs, sts)
	closeTheServersTab(t, tabs, "instance")
}
