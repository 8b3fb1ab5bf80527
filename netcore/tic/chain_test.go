package tic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A chain is a function of the one before, the tic's number and what the
// tic runs: the same on every copy, and another when any of it differs:
// a player in or out, a substitute, any field of a playing player's
// command, or a byte of its input the game uses. A player out of the tic
// and input bytes past the game's size do not count (every copy has them
// zero, or not at all).
func TestAChainChangesWithEverythingATicRuns(t *testing.T) {
	ct := ConfirmedTic{InGame: 0b101}
	ct.Cmds[0] = Cmd{ForwardMove: 10, AngleTurn: -300, Buttons: 1}
	ct.Cmds[2] = Cmd{SideMove: -5, Inventory: 0x1234, Input: [len(Cmd{}.Input)]byte{1, 2, 3}}
	var c0 Chain
	c0[0] = 1
	base := c0.Next(7, &ct, 3)
	require.Equal(t, base, c0.Next(7, &ct, 3), "the same tic, the same chain")
	differ := func(name string, c Chain, seq uint32, tc ConfirmedTic) {
		t.Helper()
		require.NotEqual(t, base, c.Next(seq, &tc, 3), name)
	}
	differ("another chain before", Chain{}, 7, ct)
	differ("another tic", c0, 8, ct)
	mod := ct
	mod.InGame |= 0b10
	differ("a player in", c0, 7, mod)
	mod = ct
	mod.Substituted = 1
	differ("a substitute", c0, 7, mod)
	for i, f := range []func(*Cmd){
		func(m *Cmd) { m.ForwardMove++ }, func(m *Cmd) { m.SideMove++ }, func(m *Cmd) { m.AngleTurn++ },
		func(m *Cmd) { m.ChatChar++ }, func(m *Cmd) { m.Buttons++ }, func(m *Cmd) { m.Consistency++ },
		func(m *Cmd) { m.Buttons2++ }, func(m *Cmd) { m.Inventory++ }, func(m *Cmd) { m.LookFly++ },
		func(m *Cmd) { m.Arti++ }, func(m *Cmd) { m.Input[2]++ },
	} {
		mod = ct
		f(&mod.Cmds[2])
		differ("field "+string(rune('a'+i)), c0, 7, mod)
	}
	mod = ct
	mod.Cmds[1].ForwardMove = 9 // player 1 is out
	mod.Cmds[2].Input[3] = 9    // past the game's 3 bytes
	mod.Sum, mod.Ran = 99, true // the copy's own, after it ran the tic
	require.Equal(t, base, c0.Next(7, &mod, 3), "what a tic does not run")
}

// BenchmarkChainNext times a tic's chain, 8 players with 16 bytes of
// input each: every copy computes one a tic.
func BenchmarkChainNext(b *testing.B) {
	ct := ConfirmedTic{InGame: 0xff}
	var c Chain
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c = c.Next(uint32(i), &ct, 16)
	}
}
