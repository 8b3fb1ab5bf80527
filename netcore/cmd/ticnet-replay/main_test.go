package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/scenario"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// played is a game of the test game on the simulated channel, three
// players under a dedicated server: a client's replay (checksums every
// tic) and the server's (none), each as a file.
var played struct {
	sync.Once
	client, server []byte
	clientTics     uint32
	err            error
}

const playedTics = 400

func playGame(t *testing.T) (client, server string) {
	t.Helper()
	played.Do(func() {
		s := scenario.New(scenario.Options{Players: 3, Seed: 7, Dedicated: true,
			Link:   simnet.Link{LatencyMS: 30, JitterMS: 20, Loss: 0.1},
			Server: netcore.ServerConfig{Replay: replay.ServerConfig{Record: true}},
			Replay: replay.Config{Record: true}})
		if played.err = s.Start(); played.err != nil {
			return
		}
		if played.err = s.RunTics(playedTics, 60000); played.err != nil {
			return
		}
		p := s.Peers[1]
		played.client, played.clientTics = bytes.Clone(p.Client.Replay()), p.Client.GameTic()
		played.server = bytes.Clone(s.Server.Replay())
	})
	require.NoError(t, played.err)
	dir := t.TempDir()
	client, server = filepath.Join(dir, "client.replay"), filepath.Join(dir, "server.replay")
	for path, data := range map[string][]byte{client: played.client, server: played.server} {
		err := os.WriteFile(path, data, 0o644)
		require.NoError(t, err)
	}
	return client, server
}

// runCmd runs the command line and returns its exit status and output.
func runCmd(args ...string) (status int, stdout, stderr string) {
	var o, e bytes.Buffer
	status = run(args, &o, &e)
	return status, o.String(), e.String()
}

// field returns the value of info's line label.
func field(t *testing.T, out, label string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(label) + ` +(.*)$`).FindStringSubmatch(out)
	require.NotNil(t, m, "no %q line in\n%s", label, out)
	return m[1]
}

func TestInfoDescribesAClientsAndAServersReplay(t *testing.T) {
	client, server := playGame(t)
	status, out, errs := runCmd("info", client)
	require.Equal(t, 0, status, "info: status %d, %s", status, errs)
	require.Equal(t, "", errs, "info: status %d, %s", status, errs)
	n := played.clientTics
	commands := 3 * int(n)
	r, err := wire.NewReplayReader(played.client)
	require.NoError(t, err)
	names := r.Header.Names // by player number, which the order of arrival decided
	for label, want := range map[string]string{
		"protocol":  "TICNET_1",
		"players":   fmt.Sprintf(`0 %q, 1 %q, 2 %q`, names[0], names[1], names[2]),
		"tics":      fmt.Sprintf("%d: 0 to %d (%.1f s at 35 tics/s)", n, n-1, float64(n)/35),
		"in game":   "from tic 0: players 0 1 2",
		"checksums": fmt.Sprintf("%d, every 1 tics; each player's with %d of them", n, n),
		"snapshots": "1 (", // before the first tic: the test game can save
	} {
		got := field(t, out, label)
		assert.True(t, strings.HasPrefix(got, want), "%s: %q, want %q", label, got, want)
	}
	perPlayer := fmt.Sprintf("%.2f per tic per player (the file over %d tics, %d commands)",
		float64(len(played.client))/float64(commands), n, commands)
	got := field(t, out, "bytes")
	assert.Contains(t, got, perPlayer, "bytes: %q, want %q", got, perPlayer)

	_, out, _ = runCmd("info", server)
	got = field(t, out, "checksums")
	assert.Equal(t, "none", got, "the server's replay: checksums %q", got)
	got = field(t, out, "snapshots")
	assert.Equal(t, "0 (0 bytes)", got, "the server's replay: snapshots %q", got)
	t.Logf("the server's replay:\n%s", out)
}

func TestVerifyPassesAGoodReplayAndNamesTheTicAndPlayerOfABadOne(t *testing.T) {
	client, server := playGame(t)
	status, out, errs := runCmd("verify", client)
	want := fmt.Sprintf("ok: %d tics played into testgame, %d checksums compared, every one equal\n", played.clientTics, played.clientTics)
	require.Equal(t, 0, status, "verify: status %d, %q (%s), want %q", status, out, errs, want)
	require.Equal(t, want, out, "verify: status %d, %q (%s), want %q", status, out, errs, want)
	require.Equal(t, "", errs, "verify: status %d, %q (%s), want %q", status, out, errs, want)

	// The same replay with one command changed: player 2's at tic 250.
	bad := rewrite(t, played.client, func(tic *wire.ReplayTic) {
		if tic.Tic == 250 {
			tic.Cmds[2].SideMove++
		}
	})
	path := filepath.Join(t.TempDir(), "bad.replay")
	err := os.WriteFile(path, bad, 0o644)
	require.NoError(t, err)
	status, out, _ = runCmd("verify", path)
	require.Equal(t, 1, status, "verify of a changed command: status %d, %q", status, out)
	require.True(t, strings.HasPrefix(out, "MISMATCH at tic 250: "), "verify of a changed command: status %d, %q", status, out)
	require.Contains(t, out, "(players [2])", "verify of a changed command: status %d, %q", status, out)

	status, _, errs = runCmd("verify", server)
	require.Equal(t, 2, status, "verify of a server's replay: status %d, %q", status, errs)
	require.Contains(t, errs, "nothing to verify", "verify of a server's replay: status %d, %q", status, errs)
}

// rewrite returns replay data with its tics changed by f, checksums and
// snapshots kept.
func rewrite(t *testing.T, data []byte, f func(*wire.ReplayTic)) []byte {
	t.Helper()
	r, err := wire.NewReplayReader(data)
	require.NoError(t, err)
	w := wire.NewReplayWriter(&r.Header)
	err = eachRecord(data, func(rec *wire.ReplayRecord) error {
		if rec.IsSnapshot() {
			return w.Snapshot(rec.Tic.Tic, rec.State)
		}
		f(&rec.Tic)
		return w.Tic(&rec.Tic)
	})
	require.NoError(t, err)
	return bytes.Clone(w.Bytes())
}

// A file cut inside a record, as a killed server leaves one at worst, is
// read up to its last whole record, with a warning.
func TestAFileCutShortIsReadToItsLastWholeRecord(t *testing.T) {
	_, server := playGame(t)
	cut := played.server[:len(played.server)-3]
	path := filepath.Join(t.TempDir(), "cut.replay")
	err := os.WriteFile(path, cut, 0o644)
	require.NoError(t, err)
	_, whole, _ := runCmd("info", server)
	status, out, errs := runCmd("info", path)
	require.Equal(t, 0, status, "info of a cut file: status %d, stderr %q", status, errs)
	require.Contains(t, errs, "warning: "+path+": read up to byte", "info of a cut file: status %d, stderr %q", status, errs)
	var n, m int
	fmt.Sscan(field(t, whole, "tics"), &n)
	fmt.Sscan(field(t, out, "tics"), &m)
	require.Equal(t, n-1, m, "the whole file has %d tics, the cut one %d", n, m)
}

// lmp writes the demo of a server's replay next to it, or to -o; a game
// it cannot export is refused with the reason, and no file is written.
func TestLmpWritesTheDemoOfAServersReplay(t *testing.T) {
	_, server := playGame(t)
	status, out, errs := runCmd("lmp", server)
	lmp := strings.TrimSuffix(server, ".replay") + ".lmp"
	require.Equal(t, 0, status, "lmp: status %d, %q (%s)", status, out, errs)
	require.Equal(t, "", errs, "lmp: status %d, %q (%s)", status, out, errs)
	require.True(t, strings.HasPrefix(out, "wrote "+lmp+": Doom demo version 111, players 0 1 2, view of player 0, "), "lmp: status %d, %q (%s)", status, out, errs)
	got, err := os.ReadFile(lmp)
	require.NoError(t, err)
	in, tics := readDemo(t, got)
	var n int
	err = eachRecord(played.server, func(rec *wire.ReplayRecord) error {
		c := rec.Tic.Cmds[1]
		if g := tics[rec.Tic.Tic][1]; g.ForwardMove != c.ForwardMove || g.SideMove != c.SideMove ||
			g.AngleTurn != c.AngleTurn || g.Buttons != c.Buttons {
			return fmt.Errorf("tic %d: the demo has %+v for player 1, the replay %+v", rec.Tic.Tic, g, c)
		}
		n++
		return nil
	})
	require.NoError(t, err, "the demo holds players %03b, %d tics; the replay %d (%v)", in, len(tics), n, err)
	require.Equal(t, uint8(0b111), in, "the demo holds players %03b, %d tics; the replay %d (%v)", in, len(tics), n, err)
	require.Equal(t, n, len(tics), "the demo holds players %03b, %d tics; the replay %d (%v)", in, len(tics), n, err)

	out2 := filepath.Join(t.TempDir(), "view.lmp")
	status, _, errs = runCmd("lmp", "-player", "2", server, "-o", out2)
	require.Equal(t, 0, status, "lmp -player 2 -o: %s", errs)
	b, _ := os.ReadFile(out2)
	require.Equal(t, len(got), len(b), "-player 2: %d bytes, consoleplayer %d", len(b), b[8])
	require.Equal(t, byte(2), b[8], "-player 2: %d bytes, consoleplayer %d", len(b), b[8])

	opaque := replayOf(t, wire.ReplayHeader{Settings: doomSettings, Setup: wire.GameSetup{Input: wire.InputLayout{Size: 2}}},
		wire.ReplayTic{InGame: 1})
	path := filepath.Join(t.TempDir(), "cycles.replay")
	err = os.WriteFile(path, opaque, 0o644)
	require.NoError(t, err)
	status, _, errs = runCmd("lmp", path)
	_, err = os.Stat(strings.TrimSuffix(path, ".replay") + ".lmp")
	require.Equal(t, 2, status, "lmp of opaque input: status %d, %q; a file written: %v", status, errs, err == nil)
	require.Contains(t, errs, "opaque", "lmp of opaque input: status %d, %q; a file written: %v", status, errs, err == nil)
	require.Error(t, err, "lmp of opaque input: status %d, %q; a file written: %v", status, errs, err == nil)
}

func TestBadCommandLinesExitTwo(t *testing.T) {
	client, _ := playGame(t)
	for _, args := range [][]string{
		nil,
		{"info"},
		{"info", client, client},
		{"play", client},
		{"info", filepath.Join(t.TempDir(), "missing.replay")},
		{"lmp", client, "-o"},
		{"verify", "-o", "x", client}, // -o is lmp's
	} {
		status, _, errs := runCmd(args...)
		assert.Equal(t, 2, status, "%q: status %d, stderr %q", args, status, errs)
		assert.NotEqual(t, "", errs, "%q: status %d, stderr %q", args, status, errs)
	}
	notReplay := filepath.Join(t.TempDir(), "demo.lmp")
	os.WriteFile(notReplay, []byte{109, 2, 1, 1}, 0o644)
	status, _, errs := runCmd("info", notReplay)
	assert.Equal(t, 2, status, "info of a .lmp: status %d, %q", status, errs)
	assert.Contains(t, errs, "not a ticnet replay", "info of a .lmp: status %d, %q", status, errs)
}
