package wire

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The server's first WAITING_DATA to the controller (vectors-run1, #3).
const waitingVectorHex = "00040100000401004772756d7079204d616e6375627573003132372e302e302e313a3536303936000f9caf3cac3392deea003d3159a14f6156bd7a46daaf56c1dcc08a2e7668814811b2cab0cc7d52c101"

func TestWaitingDataDecodesTheLobbyOfTheVector(t *testing.T) {
	pkt := mustHex(t, waitingVectorHex)
	m := &WaitingData{}
	_, err := Decode(pkt, m)
	require.NoError(t, err)
	require.Equal(t, uint8(1), m.NumPlayers, "%+v", m)
	require.Equal(t, uint8(0), m.NumDrones, "%+v", m)
	require.Equal(t, uint8(0), m.ReadyPlayers, "%+v", m)
	require.Equal(t, uint8(4), m.MaxPlayers, "%+v", m)
	require.True(t, m.IsController, "%+v", m)
	require.Equal(t, int8(0), m.ConsolePlayer, "%+v", m)
	require.Equal(t, 1, len(m.Players), "%+v", m)
	require.Equal(t, WaitingPlayer{"Grumpy Mancubus", "127.0.0.1:56096"}, m.Players[0], "%+v", m)
	require.Equal(t, byte(0xda), m.DEHSHA1[0], "%+v", m)
	require.Equal(t, uint8(1), m.IsFreedoom, "%+v", m)
	require.Equal(t, pkt, Encode(nil, m, false, 0), "does not re-encode")
	offs := checkTruncations(t, m, false, nil)
	for n, want := range map[int]int{2: 2, 7: 7, 8: 8, 23: 8, 24: 24, 39: 24, 40: 40, 59: 40, 60: 60, 80: 80} {
		assert.Equal(t, want, offs[n], "cut at %d: offset", n)
	}
}

func TestWaitingDataListsAtMostEightPlayersWhateverTheCount(t *testing.T) {
	m := &WaitingData{NumPlayers: 200, MaxPlayers: 8, ConsolePlayer: -1}
	for i := range 8 {
		m.Players = append(m.Players, WaitingPlayer{Name: strings.Repeat("n", i), Addr: "a"})
	}
	pkt := Encode(nil, m, false, 0)
	got := &WaitingData{}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%+v", got)
	require.Equal(t, 8, len(got.Players), "%+v %v", got, err)
	require.True(t, sameMessage(got, m), "%+v %v", got, err)
	// A list shorter than the count is padded with empty lines, as the
	// wire needs one line per listed player.
	short := &WaitingData{NumPlayers: 2, Players: []WaitingPlayer{{"a", "b"}}}
	_, err = Decode(Encode(nil, short, false, 0), got)
	require.NoError(t, err, "%+v", got)
	require.Equal(t, 2, len(got.Players), "%+v %v", got, err)
	require.Equal(t, WaitingPlayer{}, got.Players[1], "%+v %v", got, err)
	require.Equal(t, int8(0), got.ConsolePlayer, "stale consoleplayer")
}

func TestWaitingDataConsolePlayerIsSigned(t *testing.T) {
	m := &WaitingData{ConsolePlayer: -1}
	pkt := Encode(nil, m, false, 0)
	require.Equal(t, byte(0xff), pkt[7], "% x", pkt)
	got := &WaitingData{}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%v %v", got.ConsolePlayer, err)
	require.Equal(t, int8(-1), got.ConsolePlayer, "%v %v", got.ConsolePlayer, err)
}

func TestWaitingDataEncodesNamesAsGivenAndTruncateCutsThemTo29Bytes(t *testing.T) {
	long := strings.Repeat("x", 40)
	m := &WaitingData{NumPlayers: 1, Players: []WaitingPlayer{{Name: long, Addr: long}}}
	got := &WaitingData{}
	_, err := Decode(Encode(nil, m, false, 0), got)
	require.NoError(t, err, "%+v", got)
	require.Equal(t, long, got.Players[0].Name, "%+v %v", got, err)
	for _, tc := range []struct{ in, want string }{
		{"", ""}, {"abc", "abc"}, {strings.Repeat("a", 29), strings.Repeat("a", 29)},
		{strings.Repeat("b", 30), strings.Repeat("b", 29)}, {long, long[:29]},
	} {
		got := Truncate(tc.in)
		assert.Equal(t, tc.want, got, "Truncate(%d bytes) = %d bytes", len(tc.in), len(got))
	}
}
