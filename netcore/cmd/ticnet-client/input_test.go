package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/ticnet/ticnet/netcore/tic"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestThrustHasNoXPartOnlyForOneUnitSouth(t *testing.T) {
	cases := []struct {
		angle uint32
		move  int8
		dx    int32
		known bool
	}{
		{ang270, 1, 0, true},            // forward, facing south
		{ang270 + 0x7ffff, 1, 0, true},  // anywhere in fine angle 6144
		{ang270, -1, -1, true},          // backward facing south: north, x moves
		{ang270, 2, 1, true},            // faster: x moves
		{ang90, -1, 0, true},            // backward facing north: south
		{ang90, 1, -1, true},            // forward facing north: x moves
		{ang270 + 0x80000, 1, 0, false}, // fine angle 6145: the table is not known here
		{0, 1, 0, false},                // east
		{0, 0, 0, true},                 // no thrust
	}
	for _, c := range cases {
		dx, known := thrustX(c.angle, c.move)
		assert.Equal(t, c.dx, dx, "thrustX(%#x, %d) = %d, %v; want %d, %v", c.angle, c.move, dx, known, c.dx, c.known)
		assert.Equal(t, c.known, known, "thrustX(%#x, %d) = %d, %v; want %d, %v", c.angle, c.move, dx, known, c.dx, c.known)
	}
}

// play builds n commands from in, applying each to the model as the
// client does.
func play(m *xModel, in input, n int) []tic.Cmd {
	var cmds []tic.Cmd
	for tic := range uint32(n) {
		cmd := in.next(tic)
		m.apply(tic, cmd)
		cmds = append(cmds, cmd)
	}
	return cmds
}

func TestDoomInputWalksTurnsAndFiresWithoutLosingX(t *testing.T) {
	for _, dup := range []int{1, 2} {
		m := &xModel{angleKnown: true, angle: 0, dup: dup} // Freedoom MAP01's starts face east
		d := newDoomInput(m)
		cmds := play(m, d, 3000)
		require.False(t, m.lost, "dup %d: the model lost x at tic %d (%d moves dropped)", dup, m.lostAt, d.dropped)
		require.Equal(t, 0, d.dropped, "dup %d: the model lost x at tic %d (%d moves dropped)", dup, m.lostAt, d.dropped)
		var forward, back, side, turns, fire int
		angle := uint32(0)
		for _, c := range cmds {
			for range dup {
				angle += uint32(uint16(c.AngleTurn)) << 16
			}
			switch {
			case c.ForwardMove == 1 && angle>>angleToFineShift == 6144:
				forward++
			case c.ForwardMove == -1 && angle>>angleToFineShift == 2048:
				back++
			case c.SideMove == 1 && angle>>angleToFineShift == 0:
				side++
			case c.ForwardMove != 0 || c.SideMove != 0:
				t.Fatalf("dup %d: move %+v at angle %#x", dup, c, angle)
			}
			if c.AngleTurn != 0 {
				turns++
			}
			if c.Buttons&btAttack != 0 {
				fire++
			}
		}
		require.NotEqual(t, 0, forward, "dup %d: forward %d, back %d, side %d, turns %d, fire %d", dup, forward, back, side, turns, fire)
		require.NotEqual(t, 0, back, "dup %d: forward %d, back %d, side %d, turns %d, fire %d", dup, forward, back, side, turns, fire)
		require.NotEqual(t, 0, side, "dup %d: forward %d, back %d, side %d, turns %d, fire %d", dup, forward, back, side, turns, fire)
		require.NotEqual(t, 0, turns, "dup %d: forward %d, back %d, side %d, turns %d, fire %d", dup, forward, back, side, turns, fire)
		require.NotEqual(t, 0, fire, "dup %d: forward %d, back %d, side %d, turns %d, fire %d", dup, forward, back, side, turns, fire)
	}
}

func TestDoomInputDoesNotWalkWithoutAKnownStart(t *testing.T) {
	m := &xModel{dup: 1}
	d := newDoomInput(m)
	for _, c := range play(m, d, 1000) {
		require.Equal(t, int8(0), c.ForwardMove, "moved with an unknown spawn angle: %+v", c)
		require.Equal(t, int8(0), c.SideMove, "moved with an unknown spawn angle: %+v", c)
	}
	require.False(t, m.lost, "lost %v, %d moves dropped", m.lost, d.dropped)
	require.NotEqual(t, 0, d.dropped, "lost %v, %d moves dropped", m.lost, d.dropped)
}

func TestModelNotesTheFirstMoveItCannotFollow(t *testing.T) {
	m := &xModel{angleKnown: true, dup: 1}
	in := &scriptInput{steps: []scriptStep{{tics: 10, cmd: tic.Cmd{AngleTurn: 0x400}}, {tics: 5, cmd: tic.Cmd{ForwardMove: 25}}}}
	play(m, in, 20)
	require.True(t, m.lost, "lost %v at %d, want at tic 10", m.lost, m.lostAt)
	require.Equal(t, uint32(10), m.lostAt, "lost %v at %d, want at tic 10", m.lost, m.lostAt)
	m = &xModel{dup: 1}
	play(m, randomInput{rand.New(rand.NewPCG(1, 2))}, 5)
	require.True(t, m.lost, "random input: lost %v at %d", m.lost, m.lostAt)
	require.Equal(t, uint32(0), m.lostAt, "random input: lost %v at %d", m.lost, m.lostAt)
}

func TestScriptHoldsEachCommandForItsTics(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	os.WriteFile(path, []byte("# walk, then turn and fire\n2 25 0 0 0\n\n1 0 -5 0x400 1 # strafe\n"), 0o644)
	s, err := readScript(path)
	require.NoError(t, err)
	want := []tic.Cmd{{ForwardMove: 25}, {ForwardMove: 25}, {SideMove: -5, AngleTurn: 0x400, Buttons: 1}, {}, {}}
	for i, w := range want {
		got := s.next(uint32(i))
		require.Equal(t, w, got, "tic %d", i)
	}
	for _, bad := range []string{"1 2 3\n", "0 0 0 0 0\n", "1 200 0 0 0\n", "1 0 0 40000 0\n", "1 0 0 0 -1\n"} {
		os.WriteFile(path, []byte(bad), 0o644)
		_, err := readScript(path)
		assert.Error(t, err, "script %q accepted", bad)
	}
}
