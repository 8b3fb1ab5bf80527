package testgame

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/tic"

	"github.com/stretchr/testify/require"
)

// play runs n tics of random commands for every player on g, drawn from a
// game of the given seed.
func play(g *Game, from, n uint32, seed uint64) {
	input := New(seed)
	var cmds [tic.MaxPlayers]tic.Cmd
	var ingame [tic.MaxPlayers]bool
	for t := from; t < from+n; t++ {
		for p := range cmds {
			cmds[p] = input.BuildTiccmd(t)
			ingame[p] = p%3 != 2
		}
		g.RunTic(t, &cmds, &ingame)
	}
}

func TestLoadedStatePlaysOnExactlyAsTheOriginal(t *testing.T) {
	for _, size := range []int{0, 1024, 1 << 20} {
		a := NewSized(1, size)
		play(a, 0, 300, 7)
		saved := a.SaveState()
		require.Equal(t, stateHeaderBytes+size, len(saved), "saved %d bytes, want %d", len(saved), stateHeaderBytes+size)
		b := NewSized(2, 0)
		err := b.LoadState(saved)
		require.NoError(t, err)
		require.Equal(t, a.Checksum(), b.Checksum(), "size %d: checksum %08x after load, want %08x", size, b.Checksum(), a.Checksum())
		play(a, 300, 300, 8)
		play(b, 300, 300, 8)
		require.Equal(t, a.Checksum(), b.Checksum(), "size %d: the loaded copy differs 300 tics later", size)
	}
}

func TestWorldIsPartOfTheState(t *testing.T) {
	a := NewSized(1, 4096)
	play(a, 0, 100, 7)
	saved := a.SaveState()
	saved[len(saved)-1000] ^= 0xff // somewhere in the world
	b := NewSized(1, 0)
	err := b.LoadState(saved)
	require.NoError(t, err)
	play(a, 100, 2000, 8)
	play(b, 100, 2000, 8)
	require.NotEqual(t, b.Checksum(), a.Checksum(), "a copy with a different world still agrees 2000 tics later")
}

func TestBadStatesAreRefusedAndChangeNothing(t *testing.T) {
	g := NewSized(1, 64)
	play(g, 0, 10, 3)
	want := g.Checksum()
	good := g.SaveState()
	for _, bad := range [][]byte{nil, good[:3], good[:stateHeaderBytes-1], good[:len(good)-1], append(good[:len(good):len(good)], 0),
		append([]byte("XXXX"), good[4:]...)} {
		err := g.LoadState(bad)
		require.Error(t, err, "a bad state of %d bytes was loaded", len(bad))
		require.Equal(t, want, g.Checksum(), "a refused state changed the game")
	}
}

func FuzzLoadState(f *testing.F) {
	g := NewSized(1, 16)
	play(g, 0, 5, 3)
	f.Add(g.SaveState())
	f.Fuzz(func(t *testing.T, b []byte) {
		h := New(1)
		if err := h.LoadState(b); err == nil {
			got := h.SaveState()
			require.Equal(t, string(b), string(got), "a loaded state saves differently")
		}
	})
}
