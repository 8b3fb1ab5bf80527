package main

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"

	"github.com/stretchr/testify/assert"
)

// replayOf writes a replay file of tics, numbered from h.Start.
func replayOf(t testing.TB, h wire.ReplayHeader, tics ...wire.ReplayTic) []byte {
	t.Helper()
	w := wire.NewReplayWriter(&h)
	for i := range tics {
		tics[i].Tic = h.Start + uint32(i)
		err := w.Tic(&tics[i])
		require.NoError(t, err)
	}
	return bytes.Clone(w.Bytes())
}

// doomSettings are a cooperative-style game's settings of the tests: each
// header field a different value, so that a field in the wrong place shows.
var doomSettings = wire.Settings{TicDup: 1, ExtraTics: 1, Deathmatch: 1, FastMonsters: 1, Episode: 1, Map: 7,
	Skill: 2, ConsolePlayer: 2, NumPlayers: 2, LoadGame: -1}

// twoPlayers are three tics of players 0 and 2.
func twoPlayers() []wire.ReplayTic {
	in := uint8(0b101)
	tic := func(p0, p2 wire.TicCmd) wire.ReplayTic {
		return wire.ReplayTic{InGame: in, Cmds: [wire.MaxPlayers]wire.TicCmd{0: p0, 2: p2}}
	}
	return []wire.ReplayTic{
		tic(wire.TicCmd{ForwardMove: 25, AngleTurn: 0x0140, Buttons: 1, Consistency: 9},
			wire.TicCmd{ForwardMove: -25, SideMove: 10, AngleTurn: -2}),
		tic(wire.TicCmd{ForwardMove: 50, SideMove: -24, Buttons: 2, ChatChar: 'x'},
			wire.TicCmd{ForwardMove: -25, SideMove: 10, AngleTurn: -2}),
		tic(wire.TicCmd{}, wire.TicCmd{AngleTurn: 0x0100, Buttons: 4}),
	}
}

// A game whose lowres_turn is off is written as a longtics demo (version
// 111): every byte checked by hand.
func TestALongticsDemoIsWrittenByteForByte(t *testing.T) {
	data := replayOf(t, wire.ReplayHeader{Protocol: wire.ProtocolChocolate, Settings: doomSettings,
		Names: []string{"ann", "", "bob"}}, twoPlayers()...)
	d, err := makeDemo(data, demoOptions{player: -1})
	require.NoError(t, err)
	want := []byte{
		111, 2, 1, 7, 1, 0, 1, 0, // version, skill, episode, map, deathmatch, respawn, fast, nomonsters
		2,          // consoleplayer: the recording copy's
		1, 0, 1, 0, // playeringame
		// forwardmove, sidemove, angleturn low, high, buttons
		25, 0, 0x40, 0x01, 1, 0xe7, 10, 0xfe, 0xff, 0, // tic 0: players 0, 2
		50, 0xe8, 0, 0, 2, 0xe7, 10, 0xfe, 0xff, 0, // tic 1
		0, 0, 0, 0, 0, 0, 0, 0, 1, 4, // tic 2
		0x80,
	}
	require.Equal(t, want, d.bytes, "demo")
	require.Equal(t, byte(111), d.version, "%+v", d)
	require.Equal(t, 3, d.tics, "%+v", d)
	require.Equal(t, uint8(0b101), d.ingame, "%+v", d)
	require.Equal(t, 2, d.console, "%+v", d)
	require.False(t, d.stopped, "%+v", d)
}

// A game with lowres_turn is written as a vanilla Doom 1.9 demo (version
// 109), turning in its high byte; -longtics writes it as version 111.
func TestALowresGameIsAVanillaDemoUnlessLongticsIsAsked(t *testing.T) {
	st := doomSettings
	st.LowResTurn = true
	tics := []wire.ReplayTic{
		{InGame: 0b1, Cmds: [wire.MaxPlayers]wire.TicCmd{{ForwardMove: 10, SideMove: -5, AngleTurn: 0x0300, Buttons: 1}}},
		{InGame: 0b1, Cmds: [wire.MaxPlayers]wire.TicCmd{{AngleTurn: -256}}},
		{InGame: 0b1, Cmds: [wire.MaxPlayers]wire.TicCmd{{AngleTurn: -32768, Buttons: 0x82}}},
	}
	data := replayOf(t, wire.ReplayHeader{Protocol: wire.ProtocolChocolate, Settings: st}, tics...)
	d, err := makeDemo(data, demoOptions{player: -1})
	require.NoError(t, err)
	want := []byte{109, 2, 1, 7, 1, 0, 1, 0, 0, 1, 0, 0, 0, // consoleplayer 2 is not in the game: player 0
		10, 0xfb, 0x03, 1,
		0, 0, 0xff, 0,
		0, 0, 0x80, 0x82,
		0x80}
	require.Equal(t, want, d.bytes, "demo")
	d, err = makeDemo(data, demoOptions{player: -1, longtics: true})
	require.NoError(t, err)
	want = []byte{111, 2, 1, 7, 1, 0, 1, 0, 0, 1, 0, 0, 0,
		10, 0xfb, 0x00, 0x03, 1,
		0, 0, 0x00, 0xff, 0,
		0, 0, 0x00, 0x80, 0x82,
		0x80}
	require.Equal(t, want, d.bytes, "-longtics demo")
}

// With ticdup 2 every recorded tic is two game tics, the second with its
// one-off events cleared, as every copy ran it: a BT_SPECIAL request
// (pause, save) once.
func TestTicdupWritesEachTicAsManyTimesAsItRan(t *testing.T) {
	st := doomSettings
	st.TicDup = 2
	tics := []wire.ReplayTic{
		{InGame: 0b1, Cmds: [wire.MaxPlayers]wire.TicCmd{{ForwardMove: 3, Buttons: 0x81}}}, // BT_SPECIAL|BTS_PAUSE
		{InGame: 0b1, Cmds: [wire.MaxPlayers]wire.TicCmd{{ForwardMove: 4, Buttons: 0x01}}}, // BT_ATTACK
	}
	d, err := makeDemo(replayOf(t, wire.ReplayHeader{Settings: st}, tics...), demoOptions{player: 0})
	require.NoError(t, err)
	want := []byte{111, 2, 1, 7, 1, 0, 1, 0, 0, 1, 0, 0, 0,
		3, 0, 0, 0, 0x81, 3, 0, 0, 0, 0,
		4, 0, 0, 0, 1, 4, 0, 0, 0, 1,
		0x80}
	require.Equal(t, want, d.bytes, "demo of %d tics", d.tics)
	require.Equal(t, 4, d.tics, "demo of %d tics\n% x\nwant\n% x", d.tics, d.bytes, want)
}

// A Doom demo holds one set of players: it stops before the tic where
// one left.
func TestTheDemoStopsWhereAPlayerLeaves(t *testing.T) {
	tics := twoPlayers()
	tics[2].InGame = 0b001
	d, err := makeDemo(replayOf(t, wire.ReplayHeader{Settings: doomSettings}, tics...), demoOptions{player: -1})
	require.NoError(t, err)
	require.True(t, d.stopped, "stopped %v at tic %d (players %b) after %d tics, %d bytes", d.stopped, d.stopTic, d.stopIn, d.tics, len(d.bytes))
	require.Equal(t, uint32(2), d.stopTic, "stopped %v at tic %d (players %b) after %d tics, %d bytes", d.stopped, d.stopTic, d.stopIn, d.tics, len(d.bytes))
	require.Equal(t, uint8(0b001), d.stopIn, "stopped %v at tic %d (players %b) after %d tics, %d bytes", d.stopped, d.stopTic, d.stopIn, d.tics, len(d.bytes))
	require.Equal(t, 2, d.tics, "stopped %v at tic %d (players %b) after %d tics, %d bytes", d.stopped, d.stopTic, d.stopIn, d.tics, len(d.bytes))
	require.Equal(t, 13+2*2*5+1, len(d.bytes), "stopped %v at tic %d (players %b) after %d tics, %d bytes", d.stopped, d.stopTic, d.stopIn, d.tics, len(d.bytes))
	require.Equal(t, byte(0x80), d.bytes[len(d.bytes)-1], "stopped %v at tic %d (players %b) after %d tics, %d bytes", d.stopped, d.stopTic, d.stopIn, d.tics, len(d.bytes))
}

// What a Doom demo cannot hold is refused, with the reason.
func TestWhatADemoCannotHoldIsRefused(t *testing.T) {
	one := func(c wire.TicCmd) []wire.ReplayTic {
		return []wire.ReplayTic{{InGame: 1, Cmds: [wire.MaxPlayers]wire.TicCmd{c}}}
	}
	lowres := doomSettings
	lowres.LowResTurn = true
	noItems := doomSettings
	noItems.Skill = -1
	opaque := wire.GameSetup{Input: wire.InputLayout{Size: 4}}
	for _, c := range []struct {
		name   string
		h      wire.ReplayHeader
		tics   []wire.ReplayTic
		player int
		want   string
	}{
		{"opaque input", wire.ReplayHeader{Settings: doomSettings, Setup: opaque}, one(wire.TicCmd{}), -1, "opaque"},
		{"a late start", wire.ReplayHeader{Settings: doomSettings, Start: 40}, one(wire.TicCmd{}), -1, "starts at tic 40"},
		{"skill -1", wire.ReplayHeader{Settings: noItems}, one(wire.TicCmd{}), -1, "skill -1"},
		{"player 4", wire.ReplayHeader{Settings: doomSettings}, []wire.ReplayTic{{InGame: 0b10001}}, -1, "players 0 4 in the game"},
		{"nobody", wire.ReplayHeader{Settings: doomSettings}, []wire.ReplayTic{{}}, -1, "nobody"},
		{"no tic", wire.ReplayHeader{Settings: doomSettings}, nil, -1, "no tic"},
		{"forwardmove -128", wire.ReplayHeader{Settings: doomSettings}, one(wire.TicCmd{ForwardMove: -128}), -1, "end marker"},
		{"a fine turn under lowres", wire.ReplayHeader{Settings: lowres}, one(wire.TicCmd{AngleTurn: 300}), -1, "not a multiple of 256"},
		{"a view of nobody", wire.ReplayHeader{Settings: doomSettings}, one(wire.TicCmd{}), 1, "-player 1 is not in the game"},
	} {
		_, err := makeDemo(replayOf(t, c.h, c.tics...), demoOptions{player: c.player})
		if assert.Error(t, err, "%s: want an error that says %q", c.name, c.want) {
			assert.Contains(t, err.Error(), c.want, "%s", c.name)
		}
	}
}

// readDemo reads a demo back as Chocolate Doom's G_ReadDemoTiccmd does:
// each game tic, each player in the game's command, to the end marker.
func readDemo(t *testing.T, b []byte) (in uint8, tics [][demoPlayers]wire.TicCmd) {
	t.Helper()
	longtics := b[0] == 111
	for p := range demoPlayers {
		in |= b[9+p] << p
	}
	b = b[13:]
	for {
		var tic [demoPlayers]wire.TicCmd
		read := 0 // commands of this tic read
		for p := range demoPlayers {
			if in&(1<<p) == 0 {
				continue
			}
			require.NotEqual(t, 0, len(b), "the demo has no end marker")
			if b[0] == 0x80 {
				require.Equal(t, 0, read, "the end marker in the middle of a tic")
				require.Equal(t, 1, len(b), "%d bytes after the end marker", len(b)-1)
				return in, tics
			}
			c := &tic[p]
			c.ForwardMove, c.SideMove = int8(b[0]), int8(b[1])
			if longtics {
				c.AngleTurn, c.Buttons, b = int16(uint16(b[2])|uint16(b[3])<<8), b[4], b[5:]
			} else {
				c.AngleTurn, c.Buttons, b = int16(uint16(b[2])<<8), b[3], b[4:]
			}
			read++
		}
		tics = append(tics, tic)
	}
}

// Random games of one to four players read back, tic by tic, as the
// commands they ran, in both formats.
func TestARandomGameReadsBackAsTheCommandsItRan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, lowres := range []bool{false, true} {
		for _, in := range []uint8{0b0001, 0b1010, 0b0111, 0b1111} {
			st := doomSettings
			st.LowResTurn = lowres
			tics := make([]wire.ReplayTic, 1000)
			for i := range tics {
				tics[i].InGame = in
				for p := range demoPlayers {
					if in&(1<<p) != 0 {
						turn := int16(r.IntN(65536) - 32768)
						if lowres {
							turn &^= 0xff
						}
						tics[i].Cmds[p] = wire.TicCmd{ForwardMove: int8(r.IntN(255) - 127), SideMove: int8(r.IntN(256) - 128),
							AngleTurn: turn, Buttons: uint8(r.IntN(256)), Consistency: uint8(r.IntN(256))}
					}
				}
			}
			d, err := makeDemo(replayOf(t, wire.ReplayHeader{Settings: st}, tics...), demoOptions{player: -1})
			require.NoError(t, err)
			gotIn, got := readDemo(t, d.bytes)
			require.Equal(t, in, gotIn, "lowres %v, players %04b: the demo reads back players %04b, %d tics", lowres, in, gotIn, len(got))
			require.Equal(t, len(tics), len(got), "lowres %v, players %04b: the demo reads back players %04b, %d tics", lowres, in, gotIn, len(got))
			for i := range got {
				for p := range demoPlayers {
					c := tics[i].Cmds[p]
					want := wire.TicCmd{ForwardMove: c.ForwardMove, SideMove: c.SideMove, AngleTurn: c.AngleTurn, Buttons: c.Buttons}
					require.Equal(t, want, got[i][p], "lowres %v, tic %d, player %d: read back", lowres, i, p)
				}
			}
		}
	}
}
