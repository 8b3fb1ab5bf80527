package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The server's GAMESTART to player 0 of a 2-player deathmatch (vectors-run1, #32).
const gameStartVectorHex = "80050201010100000001010304000100000000ff4002005b5b"

func TestGameStartDecodesTheServersSettings(t *testing.T) {
	pkt := mustHex(t, gameStartVectorHex)
	m := &GameStart{}
	h, err := Decode(pkt, m)
	require.NoError(t, err, "%v %v", h, err)
	require.True(t, h.Reliable, "%v %v", h, err)
	require.Equal(t, uint8(2), h.Seq, "%v %v", h, err)
	want := Settings{TicDup: 1, ExtraTics: 1, Deathmatch: 1, Episode: 1, Map: 1, Skill: 3, GameVersion: 4, NewSync: true,
		LoadGame: -1, Random: 0x40, NumPlayers: 2, ConsolePlayer: 0, PlayerClasses: [MaxPlayers]uint8{0x5b, 0x5b}}
	require.Equal(t, want, m.Settings)
	require.Equal(t, pkt, Encode(nil, m, true, 2), "does not re-encode")
}

func TestGameStartRefusesMoreThanEightPlayersAtTheCount(t *testing.T) {
	pkt := mustHex(t, gameStartVectorHex)
	pkt[21] = 9
	pkt = append(pkt, make([]byte, 10)...) // enough bytes: the count itself is refused
	wantDecodeErrorAt(t, pkt, &GameStart{}, 21, "num_players", "9 players > limit 8")
	pkt[21] = 255
	wantDecodeErrorAt(t, pkt, &GameStart{}, 21, "num_players", "> limit")
	pkt[21] = 8
	m := &GameStart{}
	_, err := Decode(pkt[:23+8], m)
	require.NoError(t, err, "8 players")
	require.Equal(t, uint8(8), m.Settings.NumPlayers, "8 players: %v", err)
}

func TestGameStartNeedsAClassByteForEveryPlayer(t *testing.T) {
	pkt := mustHex(t, gameStartVectorHex)
	wantDecodeErrorAt(t, pkt[:24], &GameStart{}, 23, "player_classes", "need 2 bytes, have 1")
}

func TestGameStartSignedFieldsAndTimelimitAreBigEndianAndSigned(t *testing.T) {
	m := &GameStart{Settings: Settings{Skill: -1, LoadGame: -1, ConsolePlayer: -1, TimeLimit: 0x01020304, NumPlayers: 1}}
	pkt := Encode(nil, m, true, 0)
	require.Equal(t, byte(0xff), pkt[11], "% x", pkt)
	require.Equal(t, []byte{1, 2, 3, 4}, pkt[15:19], "% x", pkt)
	require.Equal(t, byte(0xff), pkt[19], "% x", pkt)
	require.Equal(t, byte(0xff), pkt[22], "% x", pkt)
	got := &GameStart{}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%+v", got.Settings)
	require.Equal(t, m.Settings, got.Settings, "%+v %v", got.Settings, err)
}

func TestGameStartFromAClientIs24Bytes(t *testing.T) {
	// Spec §7.2: 20 fixed bytes, one class, and the 3-byte reliable header.
	m := &GameStart{Settings: Settings{TicDup: 1, NumPlayers: 1}}
	n := len(Encode(nil, m, true, 1))
	require.Equal(t, 24, n, "%d bytes", n)
}

func TestGameStartDecodeClearsClassesOfAnEarlierDecode(t *testing.T) {
	m := &GameStart{}
	_, err := Decode(mustHex(t, gameStartVectorHex), m)
	require.NoError(t, err)
	one := Encode(nil, &GameStart{Settings: Settings{NumPlayers: 1, PlayerClasses: [MaxPlayers]uint8{7}}}, true, 0)
	_, err = Decode(one, m)
	require.NoError(t, err, "%v", m.Settings.PlayerClasses)
	require.Equal(t, [MaxPlayers]uint8{7}, m.Settings.PlayerClasses, "%v %v", m.Settings.PlayerClasses, err)
}

func TestGameStartTruncatedAtEveryLengthFailsAtTheFieldItCuts(t *testing.T) {
	m := &GameStart{}
	_, err := Decode(mustHex(t, gameStartVectorHex), m)
	require.NoError(t, err)
	offs := checkTruncations(t, m, true, nil)
	// Every field is one byte except timelimit (15..18) and the classes (23..24).
	for n := 3; n < len(offs); n++ {
		want := n
		if n >= 15 && n <= 18 {
			want = 15
		}
		if n >= 23 {
			want = 23
		}
		assert.Equal(t, want, offs[n], "cut at %d: offset", n)
	}
}
