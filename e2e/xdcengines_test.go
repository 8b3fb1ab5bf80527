package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// A chat mixes engines: one instance of a game under webxdc-dev in each of
// Chromium, Firefox and WebKit, over its realtime channel, as the members
// of a chat who run Android or desktop, Firefox and iOS would. The demo,
// then the cycles example: every engine plays at the game's tic rate with
// the same checksums for 30 s; then the server's engine is killed (a
// closed app says no goodbye) and the other two go on with the same game
// under one server, in step, for 10 s more.
func TestXdcPlaysAcrossEnginesAndOutlivesTheServersEngine(t *testing.T) {
	engines := allEngines(t)
	demo := buildDemo(t)
	for _, g := range []struct {
		name, dir string
		seed      int
	}{{"demo", demo, 7000}, {"cycles", filepath.Join(demo, "examples/cycles"), 7100}} {
		t.Run(g.name, func(t *testing.T) { xdcAcrossEngines(t, engines, g.dir, g.seed) })
	}
}

// xdcAcrossEngines runs the game in dir under webxdc-dev, one instance in
// each engine, and checks it as TestXdcPlaysAcrossEnginesAndOutlivesTheServersEngine
// says. webxdc-dev serves the game from a server of the test's (it proxies
// a URL as it would a vite server), which adds e2e/testdata/xdcengines/report.js
// to the page and takes its reports.
func xdcAcrossEngines(t *testing.T, engines []engine, dir string, seed int) {
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	reporter, err := os.ReadFile(filepath.Join(repoRoot(t), "e2e/testdata/xdcengines/report.js"))
	if err != nil {
		t.Fatal(err)
	}
	page := append(slices.Clone(index), "\n<script type=\"module\" src=\"/report.js\"></script>\n"...)
	url, reports := reportServer(t, dir, map[string][]byte{"/": page, "/index.html": page, "/report.js": reporter})
	ui := startWebxdcDev(t, url)
	urls := instances(t, ui, len(engines))
	cmds := map[string]*exec.Cmd{}
	for i, e := range engines {
		cmds[e.name] = e.open(t, fmt.Sprintf("%s?bot=%d&n=%d&engine=%s", urls[i], seed+i, len(engines), e.name), t.TempDir())
	}

	// The latest status of each engine's instance, as its reports come.
	latest := map[string]demoStatus{}
	take := func(until time.Time) {
		for {
			select {
			case r := <-reports:
				if r.kind == "error" {
					t.Fatalf("%s: the page failed: %s", r.engine, r.body)
				}
				var st demoStatus
				if err := json.Unmarshal(r.body, &st); err != nil {
					t.Fatalf("%s: its report: %v", r.engine, err)
				}
				latest[r.engine] = st
			case <-time.After(time.Until(until)):
				return
			}
		}
	}
	statuses := func(names []string) []demoStatus {
		var sts []demoStatus
		for _, n := range names {
			sts = append(sts, latest[n])
		}
		return sts
	}
	waitFor := func(what string, limit time.Duration, names []string, done func([]demoStatus) bool) {
		end := time.Now().Add(limit)
		for {
			take(time.Now().Add(250 * time.Millisecond))
			if len(latest) >= len(names) && done(statuses(names)) {
				return
			}
			if time.Now().After(end) {
				t.Fatalf("%s: not within %v: %+v", what, limit, statuses(names))
			}
		}
	}
	// play reports for d the tics each instance named ran and the tic
	// checksums compared across them, failing the test where they differ
	// or where one ran slower than 90 % of the game's tic rate.
	play := func(label string, names []string, d time.Duration) {
		first, at := statuses(names), time.Now()
		compared := 0
		for end := at.Add(d); time.Now().Before(end); {
			take(time.Now().Add(time.Second))
			compared += compareSums(t, statuses(names))
		}
		seconds := time.Since(at).Seconds()
		for i, st := range statuses(names) {
			ran := float64(st.Gametic - first[i].Gametic)
			rate := st.Start.TicRate
			if rate == 0 {
				rate = 35 // the demo keeps no start.ticRate: it runs the default
			}
			t.Logf("%s: %s, %s, %.0f tics in %.1f s (%.1f a second, the game's rate %.0f)", label, names[i], st.Role, ran, seconds, ran/seconds, rate)
			if ran < 0.9*rate*seconds {
				t.Errorf("%s: %s ran %.0f tics in %.1f s: fewer than 90 %% of %.0f a second", label, names[i], ran, seconds, rate)
			}
		}
		if compared < int(seconds) {
			t.Errorf("%s: %d tic checksums compared in %.0f s", label, compared, seconds)
		}
		t.Logf("%s: %d tic checksums compared across %d engines: all equal", label, compared, len(names))
	}

	all := make([]string, len(engines))
	for i, e := range engines {
		all[i] = e.name
	}
	waitFor("every engine in the game", 90*time.Second, all, func(sts []demoStatus) bool {
		for _, st := range sts {
			if !st.Started || st.Start == nil || st.Gametic < 35 || st.Protocol != "TICNET_1" {
				return false
			}
		}
		return true
	})
	for _, n := range all {
		if k := latest[n].Stats.Channel.Kind; k != "webxdc" {
			t.Fatalf("%s: channel %q, not webxdc-dev's realtime channel", n, k)
		}
	}
	play("every engine", all, 30*time.Second)

	// The server's engine is killed: the others go on in one game.
	var server string
	var rest []string
	for _, n := range all {
		if latest[n].Role == "server" {
			server = n
		} else {
			rest = append(rest, n)
		}
	}
	if server == "" || len(rest) != len(all)-1 {
		t.Fatalf("no single server: %+v", statuses(all))
	}
	startTic := latest[rest[0]].Start.Tic
	gone := latest[rest[0]].Gametic
	syscall.Kill(-cmds[server].Process.Pid, syscall.SIGKILL)
	killed := time.Now()
	t.Logf("killed %s, the server's engine, at tic %d", server, gone)
	waitFor("the others going on under one server", 60*time.Second, rest, func(sts []demoStatus) bool {
		servers := 0
		for _, st := range sts {
			if st.Role == "server" {
				servers++
			}
			if st.Migrating || st.Gametic < gone+35 {
				return false
			}
		}
		return servers == 1
	})
	t.Logf("the others play on %.1f s after %s was killed", time.Since(killed).Seconds(), server)
	for _, n := range rest {
		if st := latest[n]; st.Start == nil || st.Start.Tic != startTic {
			t.Errorf("%s: started a game again (start tic %v, was %d)", n, st.Start, startTic)
		}
	}
	play("after "+server+" was killed", rest, 10*time.Second)
}
