package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ticnet/ticnet/netcore/wire"
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
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
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
	if err != nil || w == nil || w.path != want {
		t.Fatalf("described %v (%v), want %s", w, err, want)
	}
	if c.GameMode != wire.ModeCommercial || c.GameMission != wire.MissionDoom2 || c.IsFreedoom != 1 {
		t.Errorf("connect data %+v, want doom2 (commercial), Freedoom", c)
	}
}

func TestWithoutIWADFlagDescribesFreedoom1WhenOnlyItIsInstalled(t *testing.T) {
	dir := t.TempDir()
	want := writeFreedoom1(t, dir)
	w, c, err := describeIWAD("", []string{dir})
	if err != nil || w == nil || w.path != want {
		t.Fatalf("described %v (%v), want %s", w, err, want)
	}
	if c.GameMode != wire.ModeRetail || c.GameMission != wire.MissionDoom || c.IsFreedoom != 1 {
		t.Errorf("connect data %+v, want doom (retail), Freedoom", c)
	}
}

func TestWithoutIWADFlagOrIWADDescribesDoom2(t *testing.T) {
	w, c, err := describeIWAD("", []string{t.TempDir()})
	if err != nil || w != nil {
		t.Fatalf("described %v (%v), want none", w, err)
	}
	if c != noIWAD || c.GameMode != wire.ModeCommercial || c.GameMission != wire.MissionDoom2 {
		t.Errorf("connect data %+v, want doom2 (commercial)", c)
	}
}

func TestIWADFlagWinsOverTheDefault(t *testing.T) {
	dir := t.TempDir()
	writeFreedoom2(t, dir)
	named := writeFreedoom1(t, t.TempDir())
	if w, _, err := describeIWAD(named, []string{dir}); err != nil || w.path != named {
		t.Errorf("described %v (%v), want %s", w, err, named)
	}
	if _, _, err := describeIWAD(filepath.Join(dir, "missing.wad"), []string{dir}); err == nil {
		t.Error("a missing -iwad accepted")
	}
}

// TestDefaultIWADIsTheOneARealClientWouldLoad: Chocolate Doom tries each
// name in every directory before the next name, commercial IWADs first.
func TestDefaultIWADIsTheOneARealClientWouldLoad(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	dirs := []string{first, second}
	if got := defaultIWAD(dirs); got != "" {
		t.Errorf("with no IWAD: %q", got)
	}
	writeFreedoom1(t, second)
	free2 := writeFreedoom2(t, second)
	if got := defaultIWAD(dirs); got != free2 {
		t.Errorf("with Freedoom in the second directory: %q, want %q", got, free2)
	}
	doom2 := filepath.Join(second, "doom2.wad")
	writeIWAD(t, filepath.Join(first, "tnt.wad"), "MAP01")
	writeIWAD(t, doom2, "MAP01")
	if got := defaultIWAD(dirs); got != doom2 {
		t.Errorf("with doom2.wad in the second directory and tnt.wad in the first: %q, want %q", got, doom2)
	}
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
		if err != nil {
			t.Fatal(err)
		}
		if mode, m := w.game(); mode != wire.ModeCommercial || m != mission {
			t.Errorf("%s: mode %d mission %d, want %d %d", name, mode, m, wire.ModeCommercial, mission)
		}
	}
}

func TestGameMismatchSaysWhichIWADToPass(t *testing.T) {
	const reason = "Game mismatch: server is doom2 (commercial), client is doom (retail)"
	dir := t.TempDir()
	msg := rejected(reason, []string{dir}).Error()
	for _, want := range []string{reason, "-iwad", "doom2 (commercial)", "freedoom2.wad", "apt install freedoom"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not name %q", msg, want)
		}
	}
	path := writeFreedoom2(t, dir)
	if msg := rejected(reason, []string{dir}).Error(); !strings.Contains(msg, "-iwad "+path) {
		t.Errorf("%q does not name -iwad %s", msg, path)
	}
	retail := "Game mismatch: server is doom (retail), client is doom2 (commercial)"
	if msg := rejected(retail, []string{dir}).Error(); !strings.Contains(msg, "-iwad with a doom (retail) IWAD (freedoom1.wad or doom.wad)") {
		t.Errorf("%q does not name freedoom1.wad", msg)
	}
}

func TestRejectionsThatNameNoGameGetNoIWAD(t *testing.T) {
	for reason, want := range map[string]string{
		"Server is full!":                 "rejected: Server is full!",
		"You are playing the wrong game!": "rejected: You are playing the wrong game!; to join, pass -iwad with the IWAD the server's players load",
		"Game mismatch: server is none (unknown), client is doom2 (commercial)": "rejected: Game mismatch: server is none (unknown), " +
			"client is doom2 (commercial); the server has no game yet: a drone can join only after a player",
	} {
		if got := rejected(reason, nil).Error(); got != want {
			t.Errorf("%q: %q, want %q", reason, got, want)
		}
	}
}
