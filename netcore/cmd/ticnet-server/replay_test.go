package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		got := replayName(c.path, c.n)
		assert.Equal(t, c.want, got, "game %d of %q", c.n, c.path)
	}
}

// Each game's replay goes to its own file, which holds what the server
// recorded so far after every update, before the game ends.
func TestEachGamesReplayIsWrittenAsItGrows(t *testing.T) {
	dir := t.TempDir()
	r := &replayFiles{path: filepath.Join(dir, "g.replay")}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		return b
	}
	r.update(0, nil, false) // no game yet: no file
	names, _ := os.ReadDir(dir)
	require.Equal(t, 0, len(names), "a file before any game: %v", names)
	game1 := []byte("TICNETRP first game")
	r.update(1, game1[:8], false)
	got := read("g.replay")
	require.Equal(t, game1[:8], got, "after the first update: %q", got)
	r.update(1, game1, false)
	got = read("g.replay")
	require.Equal(t, game1, got, "after the second update: %q", got)
	r.finish()
	r.update(1, append(game1, "late"...), false) // the game ended: its file is closed
	game2 := []byte("TICNETRP second")
	r.update(2, game2, false)
	r.finish()
	got, got2 := read("g.replay"), read("g-2.replay")
	require.Equal(t, game1, got, "game 1's file %q, game 2's %q", got, got2)
	require.Equal(t, game2, got2, "game 1's file %q, game 2's %q", got, got2)
}
