package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeIWAD writes an IWAD at path with these lumps, all empty: enough
// for the game a real client would take it for.
func writeIWAD(t *testing.T, path string, lumps ...string) {
	t.Helper()
	b := []byte("IWAD")
	b = binary.LittleEndian.AppendUint32(b, uint32(len(lumps)))
	b = binary.LittleEndian.AppendUint32(b, 12)
	for _, name := range lumps {
		var e [16]byte
		binary.LittleEndian.PutUint32(e[:], 12)
		copy(e[8:], name)
		b = append(b, e[:]...)
	}
	err := os.MkdirAll(filepath.Dir(path), 0o755)
	require.NoError(t, err)
	err = os.WriteFile(path, b, 0o644)
	require.NoError(t, err)
}

func writeFreedoom2(t *testing.T, dir string) string {
	p := filepath.Join(dir, "freedoom2.wad")
	writeIWAD(t, p, "FREEDOOM", "MAP01", "THINGS")
	return p
}

func writeFreedoom1(t *testing.T, dir string) string {
	p := filepath.Join(dir, "freedoom1.wad")
	writeIWAD(t, p, "FREEDOOM", "E1M1", "THINGS", "E4M1", "THINGS")
	return p
}

func TestWithoutIWADFlagDescribesFreedoom2WhenInstalled(t *testing.T) {
	dir := t.TempDir()
	writeFreedoom1(t, dir)
	want := writeFreedoom2(t, dir)
	w, c, err := describeIWAD("", []string{dir})
	require.NoError(t, err, "described %v (%v), want %s", w, err, want)
	require.NotNil(t, w, "described %v (%v), want %s", w, err, want)
	require.Equal(t, want, w.path, "described %v (%v), want %s", w, err, want)
	assert.Equal(t, uint8(wire.ModeCommercial), c.GameMode, "connect data %+v, want doom2 (commercial), Freedoom", c)
	assert.Equal(t, uint8(wire.MissionDoom2), c.GameMission, "connect data %+v, want doom2 (commercial), Freedoom", c)
	assert.Equal(t, uint8(1), c.IsFreedoom, "connect data %+v, want doom2 (commercial), Freedoom", c)
}

func TestWithoutIWADFlagDescribesFreedoom1WhenOnlyItIsInstalled(t *testing.T) {
	dir := t.TempDir()
	want := writeFreedoom1(t, dir)
	w, c, err := describeIWAD("", []string{dir})
	require.NoError(t, err, "described %v (%v), want %s", w, err, want)
	require.NotNil(t, w, "described %v (%v), want %s", w, err, want)
	require.Equal(t, want, w.path, "described %v (%v), want %s", w, err, want)
	assert.Equal(t, uint8(wire.ModeRetail), c.GameMode, "connect data %+v, want doom (retail), Freedoom", c)
	assert.Equal(t, uint8(wire.MissionDoom), c.GameMission, "connect data %+v, want doom (retail), Freedoom", c)
	assert.Equal(t, uint8(1), c.IsFreedoom, "connect data %+v, want doom (retail), Freedoom", c)
}

func TestWithoutIWADFlagOrIWADDescribesDoom2(t *testing.T) {
	w, c, err := describeIWAD("", []string{t.TempDir()})
	require.NoError(t, err, "described %v (%v), want none", w, err)
	require.Nil(t, w, "described %v (%v), want none", w, err)
	assert.Equal(t, noIWAD, c, "connect data %+v, want doom2 (commercial)", c)
	assert.Equal(t, uint8(wire.ModeCommercial), c.GameMode, "connect data %+v, want doom2 (commercial)", c)
	assert.Equal(t, uint8(wire.MissionDoom2), c.GameMission, "connect data %+v, want doom2 (commercial)", c)
}

func TestIWADFlagWinsOverTheDefault(t *testing.T) {
	dir := t.TempDir()
	writeFreedoom2(t, dir)
	named := writeFreedoom1(t, t.TempDir())
	w, _, err := describeIWAD(named, []string{dir})
	if assert.NoError(t, err, "want %s", named) {
		assert.Equal(t, named, w.path, "described %v", w)
	}
	_, _, err = describeIWAD(filepath.Join(dir, "missing.wad"), []string{dir})
	assert.Error(t, err, "a missing -iwad accepted")
}

// TestDefaultIWADIsTheOneARealClientWouldLoad: Chocolate Doom tries each
// name in every directory before the next name, commercial IWADs first.
func TestDefaultIWADIsTheOneARealClientWouldLoad(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	dirs := []string{first, second}
	got := defaultIWAD(dirs)
	assert.Equal(t, "", got, "with no IWAD: %q", got)
	writeFreedoom1(t, second)
	free2 := writeFreedoom2(t, second)
	got = defaultIWAD(dirs)
	assert.Equal(t, free2, got, "with Freedoom in the second directory")
	doom2 := filepath.Join(second, "doom2.wad")
	writeIWAD(t, filepath.Join(first, "tnt.wad"), "MAP01")
	writeIWAD(t, doom2, "MAP01")
	got = defaultIWAD(dirs)
	assert.Equal(t, doom2, got, "with doom2.wad in the second directory and tnt.wad in the first")
}

// TestFinalDoomIWADsAreTheirOwnGames: a real client tells TNT and
// Plutonia from Doom II by the file's name, and a server rejects a client
// that describes them as Doom II.
func TestFinalDoomIWADsAreTheirOwnGames(t *testing.T) {
	dir := t.TempDir()
	for name, mission := range map[string]uint8{"tnt.wad": wire.MissionPackTNT, "PLUTONIA.WAD": wire.MissionPackPlut,
		"doom2.wad": wire.MissionDoom2, "mywad.wad": wire.MissionDoom2} {
		p := filepath.Join(dir, name)
		writeIWAD(t, p, "MAP01")
		w, err := readWAD(p)
		require.NoError(t, err)
		mode, m := w.game()
		assert.Equal(t, uint8(wire.ModeCommercial), mode, "%s: mode %d mission %d, want %d %d", name, mode, m, wire.ModeCommercial, mission)
		assert.Equal(t, mission, m, "%s: mode %d mission %d, want %d %d", name, mode, m, wire.ModeCommercial, mission)
	}
}

func TestGameMismatchSaysWhichIWADToPass(t *testing.T) {
	const reason = "Game mismatch: server is doom2 (commercial), client is doom (retail)"
	dir := t.TempDir()
	msg := rejected(reason, []string{dir}).Error()
	for _, want := range []string{reason, "-iwad", "doom2 (commercial)", "freedoom2.wad", "apt install freedoom"} {
		assert.Contains(t, msg, want, "%q does not name %q", msg, want)
	}
	path := writeFreedoom2(t, dir)
	msg = rejected(reason, []string{dir}).Error()
	assert.Contains(t, msg, "-iwad "+path, "%q does not name -iwad %s", msg, path)
	retail := "Game mismatch: server is doom (retail), client is doom2 (commercial)"
	msg = rejected(retail, []string{dir}).Error()
	assert.Contains(t, msg, "-iwad with a doom (retail) IWAD (freedoom1.wad or doom.wad)", "%q does not name freedoom1.wad", msg)
}

func TestRejectionsThatNameNoGameGetNoIWAD(t *testing.T) {
	for reason, want := range map[string]string{
		"Server is full!":                 "rejected: Server is full!",
		"You are playing the wrong game!": "rejected: You are playing the wrong game!; to join, pass -iwad with the IWAD the server's players load",
		"Game mismatch: server is none (unknown), client is doom2 (commercial)": "rejected: Game mismatch: server is none (unknown), " +
			"client is doom2 (commercial); the server has no game yet: a drone can join only after a player",
	} {
		got := rejected(reason, nil).Error()
		assert.Equal(t, want, got, "%q", reason)
	}
}
