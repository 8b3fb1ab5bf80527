package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestReplayFilesAreNumberedBeforeTheExtension(t *testing.T) {
	for _, c := range []struct {
		path string
		n    int
		want string
	}{
		{"game.replay", 1, "game.replay"},
		{"game.replay", 2, "game-2.replay"},
		{"dir.d/game.replay", 12, "dir.d/game-12.replay"},
		{"dir.d/game", 3, "dir.d/game-3"},
		{".replay", 2, ".replay-2"},
	} {
		if got := replayName(c.path, c.n); got != c.want {
			t.Errorf("game %d of %q: %q, want %q", c.n, c.path, got, c.want)
		}
	}
}

// Each game's replay goes to its own file, which holds what the server
// recorded so far after every update, before the game ends.
func TestEachGamesReplayIsWrittenAsItGrows(t *testing.T) {
	dir := t.TempDir()
	r := &replayFiles{path: filepath.Join(dir, "g.replay")}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	r.update(0, nil, false) // no game yet: no file
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Fatalf("a file before any game: %v", names)
	}
	game1 := []byte("TICNETRP first game")
	r.update(1, game1[:8], false)
	if got := read("g.replay"); !bytes.Equal(got, game1[:8]) {
		t.Fatalf("after the first update: %q", got)
	}
	r.update(1, game1, false)
	if got := read("g.replay"); !bytes.Equal(got, game1) {
		t.Fatalf("after the second update: %q", got)
	}
	r.finish()
	r.update(1, append(game1, "late"...), false) // the game ended: its file is closed
	game2 := []byte("TICNETRP second")
	r.update(2, game2, false)
	r.finish()
	if got, got2 := read("g.replay"), read("g-2.replay"); !bytes.Equal(got, game1) || !bytes.Equal(got2, game2) {
		t.Fatalf("game 1's file %q, game 2's %q", got, got2)
	}
}
