package e2e

// A recorded game with real Chocolate Doom clients, exported as a Doom
// demo and played by real Chocolate Doom (issue 15).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ticnet/ticnet/netcore/wire"
)

// demoGameTics is about how many tics the real clients play.
const demoGameTics = 600

// Two real clients, the second with -shorttics (so the game has
// lowres_turn), play about 600 tics through ticnet-server -record; both
// are stopped. ticnet-replay lmp exports the recording twice: a vanilla
// Doom 1.9 demo (version 109, which -strictdemos plays too) and, with
// -longtics, a "Doom 1.91" one (version 111). Real chocolate-doom
// -timedemo, under xvfb-run, plays each to its end and prints how many
// game tics it ran: the tics of the recording, exactly. (The second runs
// with -nodraw, which skips only the drawing: half the test's time.)
func TestARealGameRecordedByTheServerPlaysAsADoomDemo(t *testing.T) {
	t.Parallel()
	ct := needChocolate(t, false)
	xvfbRun := findBinary("xvfb-run")
	if xvfbRun == "" {
		requireInstalled(t, []string{"xvfb-run"})
	}
	bin := buildTicnet(t)
	dir := t.TempDir()
	port := freeUDPPort(t)
	record, ticlog := filepath.Join(dir, "game.replay"), filepath.Join(dir, "tics.jsonl")
	srv := startProc(t, dir, "ticnet-server", nil, bin.server, "-addr", "127.0.0.1", "-port", strconv.Itoa(port),
		"-record", record, "-ticlog", ticlog)
	waitOutput(t, srv, "listening on", 10*time.Second)
	c1 := ct.realClient(t, dir, "controller", port, "-nodes", "2", "-warp", "1", "-skill", "4")
	waitOutput(t, srv, `join: .* player 0, protocol CHOCOLATE_DOOM_0`, 10*time.Second)
	c2 := ct.realClient(t, dir, "player2", port, "-shorttics")
	waitOutput(t, srv, `join: .* player 1, protocol CHOCOLATE_DOOM_0`, 10*time.Second)
	waitOutput(t, srv, `game start: protocol CHOCOLATE_DOOM_0, 2 players`, 20*time.Second)
	waitOutput(t, srv, `replay: recording game 1 to `+regexp.QuoteMeta(record), 5*time.Second)
	waitUntil(t, fmt.Sprintf("%d tics let go by the server", demoGameTics), 60*time.Second, func() bool {
		if !c1.alive() || !c2.alive() {
			t.Fatalf("a real client quit: controller alive %v, player 2 alive %v", c1.alive(), c2.alive())
		}
		return len(readJSONLines[serverTic](t, ticlog)) >= demoGameTics
	})

	// Stop everything: the server first (it tells the clients and writes
	// the end of the replay), then the clients.
	srv.signal(syscall.SIGINT)
	srv.wait(t, 10*time.Second)
	waitOutput(t, srv, `replay: game 1 written to `+regexp.QuoteMeta(record), time.Second)
	for _, c := range []*proc{c1, c2} {
		c.signal(syscall.SIGKILL)
		c.wait(t, 5*time.Second)
	}

	tics := replayTics(t, record)
	if tics < demoGameTics {
		t.Fatalf("the replay holds %d tics, the server let %d go", tics, demoGameTics)
	}
	info := runTool(t, bin.replay, "info", record)
	if !strings.Contains(info, "lowres_turn true") || !strings.Contains(info, fmt.Sprintf("tics        %d: 0 to %d", tics, tics-1)) {
		t.Fatalf("ticnet-replay info:\n%s", info)
	}
	t.Logf("ticnet-replay info:\n%s", info)

	for _, c := range []struct {
		name    string
		version int
		lmpArgs []string
		doom    []string
	}{
		{"vanilla.lmp", 109, nil, []string{"-strictdemos"}},
		{"longtics.lmp", 111, []string{"-longtics"}, []string{"-nodraw"}},
	} {
		lmp := filepath.Join(dir, c.name)
		out := runTool(t, bin.replay, append([]string{"lmp", record, "-o", lmp}, c.lmpArgs...)...)
		want := fmt.Sprintf("wrote %s: Doom demo version %d, players 0 1, view of player 0, %d game tics, ", lmp, c.version, tics)
		if !strings.HasPrefix(out, want) {
			t.Fatalf("ticnet-replay lmp: %q, want %q...", out, want)
		}
		timed, line := timedemo(t, ct, xvfbRun, dir, lmp, c.doom...)
		t.Logf("%s (version %d): chocolate-doom -timedemo: %q", c.name, c.version, line)
		if timed != tics {
			t.Fatalf("%s: chocolate-doom timed %d game tics; the recording holds %d", c.name, timed, tics)
		}
	}
}

// replayTics counts the tics of a replay file, and checks that each has
// both players' commands, none substituted (the reference substitutes
// none).
func replayTics(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := wire.NewReplayReader(data)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		var rec wire.ReplayRecord
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatalf("the replay's record %d: %v", n, err)
		}
		if rec.IsSnapshot() || rec.Tic.Tic != uint32(n) || rec.Tic.InGame != 0b11 || rec.Tic.Substituted != 0 || rec.Tic.HasSum {
			t.Fatalf("the replay's record %d: %+v", n, rec.Tic)
		}
		n++
	}
}

// runTool runs one of our commands to its end and returns its output.
func runTool(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", filepath.Base(bin), args, err, out)
	}
	return string(out)
}

// timedemo plays demo lmp in chocolate-doom -timedemo under xvfb-run and
// returns the game tics it timed, and its line. -nogui keeps I_Error,
// which reports the timing, from showing a message box that would wait
// for a click.
func timedemo(t *testing.T, ct *chocTools, xvfbRun, dir, lmp string, extra ...string) (int, string) {
	t.Helper()
	name := "timedemo-" + strings.TrimSuffix(filepath.Base(lmp), ".lmp")
	home := filepath.Join(dir, name+"-home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-a", ct.doom, "-iwad", ct.wad, "-timedemo", lmp, "-nosound", "-nomusic", "-nogui"}, extra...)
	p := startProc(t, dir, name, []string{"HOME=" + home, "SDL_AUDIODRIVER=dummy"}, xvfbRun, args...)
	// xvfb-run asks its Xvfb to stop when it exits, and Xvfb may take its
	// time: end what is left of the process group, by its id.
	endGroup := func() { syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) }
	t.Cleanup(endGroup)
	p.wait(t, 90*time.Second) // I_Error exits non-zero: the line says how it went
	endGroup()
	m := regexp.MustCompile(`timed (\d+) gametics in \d+ realtics[^\n]*`).FindStringSubmatch(p.output())
	if m == nil {
		t.Fatalf("chocolate-doom -timedemo printed no timing (%v):\n%s", p.err, tail(p.output(), 20))
	}
	n, _ := strconv.Atoi(m[1])
	return n, m[0]
}
