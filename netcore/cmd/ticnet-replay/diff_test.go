package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/scenario"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// Two copies' replays of a game in which one copy's state went astray at
// tic 250 (testgame's BreakAt adds 1 to player 0's x, a little-endian
// int32 at byte 12 of the state, and mixes it into the hash at bytes 4 to
// 7): diff names tic 250 as the first whose checksums differ, and player 0
// as the one whose own checksum does, finds the commands the same, and
// shows the first snapshot both hold whose states differ (it records one
// every tic), the state after tic 250, at those bytes and no other.
// A command changed in one: diff names its tic and player. The
// majority's replay against itself: the same, exit 0.
func TestDiffNamesTheTicAndTheBytesWhereTwoCopiesWentApart(t *testing.T) {
	t.Parallel()
	s := scenario.New(scenario.Options{Players: 3, Seed: 5, Link: simnet.Link{LatencyMS: 30},
		Replay: replay.Config{Record: true, SnapshotEvery: 1}})
	require.NoError(t, s.Start())
	s.Peers[2].Game.BreakAt = 250
	require.NoError(t, s.RunTics(400, 60000))
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.replay"), filepath.Join(dir, "bad.replay")
	require.NoError(t, os.WriteFile(good, s.Peers[1].Client.Replay(), 0o644))
	require.NoError(t, os.WriteFile(bad, s.Peers[2].Client.Replay(), 0o644))

	status, out, errs := runCmd("diff", good, bad)
	t.Log(out)
	require.Equal(t, 1, status, "diff: %s %s", out, errs)
	require.Contains(t, out, "commands: the same in the ")
	require.Contains(t, out, "checksums: first differ at tic 250: ")
	require.Contains(t, out, "the players whose own differ: [0]")
	require.Regexp(t, `the states before tic 251 differ: A 1\d+ bytes, B 1\d+; 5 bytes differ, in 2 runs:\n  bytes 4 to 7: .*\n  bytes 12 to 12: A [0-9a-f]{2}, B [0-9a-f]{2}\n`, out)

	// One command changed, player 1's at tic 300: diff names it.
	changed := filepath.Join(dir, "changed.replay")
	require.NoError(t, os.WriteFile(changed, rewrite(t, s.Peers[1].Client.Replay(), func(tic *wire.ReplayTic) {
		if tic.Tic == 300 {
			tic.Cmds[1].SideMove++
		}
	}), 0o644))
	status, out, errs = runCmd("diff", good, changed)
	require.Equal(t, 1, status, "diff: %s %s", out, errs)
	require.Contains(t, out, "commands: first differ at tic 300 (in the game: A players 0 1 2, B players 0 1 2); the players whose differ: 1\n")

	status, out, errs = runCmd("diff", good, good)
	require.Equal(t, 0, status, "diff of one replay with itself: %s %s", out, errs)
	require.Contains(t, out, "checksums: the same in every tic both checked")
}

// Two files that are not replays are two states: diff lists the runs of
// bytes that differ, the longer file's tail among them.
func TestDiffComparesTwoStatesByteByByte(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.state"), filepath.Join(dir, "b.state")
	require.NoError(t, os.WriteFile(a, []byte{1, 2, 3, 4, 5, 6}, 0o644))
	require.NoError(t, os.WriteFile(b, []byte{1, 9, 9, 4, 5, 6, 7}, 0o644))
	status, out, errs := runCmd("diff", a, b)
	require.Equal(t, 1, status, "%s %s", out, errs)
	require.Equal(t, "the states differ: A 6 bytes, B 7; 3 bytes differ, in 2 runs:\n  bytes 1 to 2: A 02 03, B 09 09\n  bytes 6 to 6: A , B 07\n", out)
	status, out, _ = runCmd("diff", a, a)
	require.Equal(t, 0, status)
	require.Equal(t, "the states: the same, 6 bytes\n", out)
	status, _, errs = runCmd("diff", a)
	require.Equal(t, 2, status, "one file: %s", errs)
}
