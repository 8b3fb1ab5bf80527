package synctest

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"

	"github.com/stretchr/testify/require"
)

// planted is the test game with a non-determinism planted from tic from
// on: its state takes in what source returns.
type planted struct {
	*testgame.Game
	from   uint32
	source func() uint32
	extra  uint32 // part of the state
}

func (g *planted) RunTic(tic uint32, cmds *[tic.MaxPlayers]tic.Cmd, ingame *[tic.MaxPlayers]bool) {
	g.Game.RunTic(tic, cmds, ingame)
	if tic >= g.from {
		g.extra = g.extra*31 + g.source()
	}
}

func (g *planted) Checksum() uint32 { return g.Game.Checksum() ^ g.extra }

func (g *planted) SaveState() []byte {
	return binary.LittleEndian.AppendUint32(g.Game.SaveState(), g.extra)
}

func (g *planted) LoadState(s []byte) error {
	if len(s) < 4 {
		return errors.New("short state")
	}
	if err := g.Game.LoadState(s[:len(s)-4]); err != nil {
		return err
	}
	g.extra = binary.LittleEndian.Uint32(s[len(s)-4:])
	return nil
}

// mapOrder folds the keys of a map into a value in the order Go's map
// iteration gives, which differs from one iteration to the next.
func mapOrder() uint32 {
	m := map[uint32]bool{}
	for k := range uint32(64) {
		m[k] = true
	}
	var v uint32
	for k := range m {
		v = v*33 + k
	}
	return v
}

// The test game is deterministic: 2 000 tics, each followed by a re-run
// of the last 8, at 4 players, come out the same.
func TestADeterministicGamePasses(t *testing.T) {
	err := Run(testgame.New(1), Config{Tics: 2000, Rollback: 8, Players: 4})
	require.NoError(t, err)
}

// A game that reads a random source, or Go's map order, from tic 300 on
// is caught at tic 300, with both checksums and the byte of the saved
// state that differs: a random source by the rollback right after it;
// map order within the 8 rollbacks that run tic 300 again (two
// iterations of a 64-key map come out in the same order about once in
// 64, so the first re-runs may agree; all 8, about once in 10^14).
func TestAPlantedNonDeterminismIsFoundAtItsTic(t *testing.T) {
	for name, source := range map[string]func() uint32{"math/rand": rand.Uint32, "map order": mapOrder} {
		g := &planted{Game: testgame.New(2), from: 300, source: source}
		err := Run(g, Config{Tics: 1000, Rollback: 8, Players: 2})
		m, ok := IsMismatch(err)
		require.True(t, ok, "%s: %v, want a mismatch", name, err)
		wantOffset := len(g.Game.SaveState()) // the planted part is saved last
		lastAt := uint32(300)
		if name == "map order" {
			lastAt = 307
		}
		require.Equal(t, uint32(300), m.Tic, "%s: %+v; want tic 300 found at 300-%d, the state differing in bytes %d-%d", name, m, lastAt, wantOffset, wantOffset+3)
		require.GreaterOrEqual(t, m.At, uint32(300), "%s: %+v; want tic 300 found at 300-%d, the state differing in bytes %d-%d", name, m, lastAt, wantOffset, wantOffset+3)
		require.LessOrEqual(t, m.At, lastAt, "%s: %+v; want tic 300 found at 300-%d, the state differing in bytes %d-%d", name, m, lastAt, wantOffset, wantOffset+3)
		require.NotEqual(t, m.Rerun, m.Checksum, "%s: %+v; want tic 300 found at 300-%d, the state differing in bytes %d-%d", name, m, lastAt, wantOffset, wantOffset+3)
		require.GreaterOrEqual(t, m.StateOffset, wantOffset, "%s: %+v; want tic 300 found at 300-%d, the state differing in bytes %d-%d", name, m, lastAt, wantOffset, wantOffset+3)
		require.Less(t, m.StateOffset, wantOffset+4, "%s: %+v; want tic 300 found at 300-%d, the state differing in bytes %d-%d", name, m, lastAt, wantOffset, wantOffset+3)
		t.Logf("%s: %v", name, err)
	}
}

// A rollback too deep, or too many players, is refused; a state the game
// cannot load is reported as such.
func TestBadConfigAndLoadErrors(t *testing.T) {
	for _, c := range []Config{{Rollback: MaxRollback + 1}, {Players: tic.MaxPlayers + 1}} {
		err := Run(testgame.New(3), c)
		require.Error(t, err, "%+v accepted", c)
	}
	g := &refusing{Game: testgame.New(4)}
	err := Run(g, Config{Tics: 10})
	require.Error(t, err, "got %v", err)
	require.ErrorIs(t, err, errRefused, "got %v", err)
}

var errRefused = errors.New("refused")

type refusing struct{ *testgame.Game }

func (*refusing) LoadState([]byte) error { return errRefused }

// ResultOf reports a clean run with its tics, a mismatch with its fields,
// and any other error with its message alone.
func TestResultOf(t *testing.T) {
	r := ResultOf(Config{}, nil)
	require.True(t, r.OK, "clean: %+v", r)
	require.Equal(t, DefaultTics, r.Tics, "clean: %+v", r)
	require.Equal(t, -1, r.StateOffset, "clean: %+v", r)
	m := &Mismatch{Tic: 7, At: 9, Checksum: 1, Rerun: 2, StateOffset: 3}
	r = ResultOf(Config{Tics: 50}, m)
	require.False(t, r.OK, "mismatch: %+v", r)
	require.Equal(t, uint32(7), r.Tic, "mismatch: %+v", r)
	require.Equal(t, uint32(9), r.At, "mismatch: %+v", r)
	require.Equal(t, uint32(1), r.Checksum, "mismatch: %+v", r)
	require.Equal(t, uint32(2), r.Rerun, "mismatch: %+v", r)
	require.Equal(t, 3, r.StateOffset, "mismatch: %+v", r)
	require.Equal(t, m.Error(), r.Message, "mismatch: %+v", r)
	r = ResultOf(Config{}, errRefused)
	require.False(t, r.OK, "error: %+v", r)
	require.Equal(t, uint32(0), r.Tic, "error: %+v", r)
	require.Equal(t, -1, r.StateOffset, "error: %+v", r)
	require.Equal(t, "refused", r.Message, "error: %+v", r)
}
