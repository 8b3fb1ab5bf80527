package wire

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMigrationMessageLayouts(t *testing.T) {
	roster := &Roster{Game: 0x01020304, ServerPlayer: 2, Present: 0b101, Rejoinable: 0b100, Held: 0b100, Controller: 1, Playing: 0b011,
		Names: [MaxPlayers]string{"ann", "bo", "cy"}}
	roster.Keys[0] = PublicKey{1, 2, 3, 31: 8}
	roster.Keys[2] = PublicKey{9, 31: 9}
	for _, tc := range []struct {
		m    Message
		want []byte
	}{
		{roster, []byte{0x80, 0x70, 0, TicnetKindRoster, 1, 2, 3, 4, 2, 0b101, 0b100, 0b100,
			1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8,
			9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 1, 0b011, 'a', 'n', 'n', 0, 'b', 'o', 0, 'c', 'y', 0}},
		{&Leaving{Tic: 0x0a0b0c0d, Player: -1, Successor: 0x11223344},
			[]byte{0x80, 0x70, 0, TicnetKindLeaving, 0x0a, 0x0b, 0x0c, 0x0d, 0xff, 0x11, 0x22, 0x33, 0x44}},
		{&Reattach{Game: 5, Player: 7, Confirmed: 0x100, Conn: 0x0a0b0c0d},
			[]byte{0x80, 0x70, 0, TicnetKindReattach, 0, 0, 0, 5, 7, 0, 0, 1, 0, 0x0a, 0x0b, 0x0c, 0x0d}},
		{&Resume{Tic: 300, Term: 0x0102}, []byte{0x80, 0x70, 0, TicnetKindResume, 0, 0, 1, 44, 1, 2}},
		{&TicFetch{Start: 299, Count: 3}, []byte{0x80, 0x70, 0, TicnetKindTicFetch, 0, 0, 1, 43, 3}},
	} {
		pkt := Encode(nil, tc.m, true, 0)
		require.Equal(t, tc.want, pkt, "%T", tc.m)
		_, dm, err := DecodePacket(pkt, ClientToServer, false)
		require.NoError(t, err, "%T: decoded %T %+v", tc.m, dm, dm)
		require.True(t, sameMessage(dm, tc.m), "%T: decoded %T %+v, %v", tc.m, dm, dm, err)
	}
}

func TestMigrationMessagesRefuseWhatCannotBe(t *testing.T) {
	wantDecodeErrorAt(t, Encode(nil, &Resume{}, true, 0), &Leaving{}, 3, "kind", "not a leaving")
	bad := Encode(nil, &Leaving{Player: 1}, true, 0)
	bad[8] = 8
	wantDecodeErrorAt(t, bad, &Leaving{}, 8, "player", "player 8 is out of range")
	bad = Encode(nil, &Reattach{}, true, 0)
	bad[8] = 0xfe
	wantDecodeErrorAt(t, bad, &Reattach{}, 8, "player", "player -2 is out of range")
	bad = Encode(nil, &Roster{Present: 1}, true, 0)
	bad[10] = 2
	wantDecodeErrorAt(t, bad, &Roster{}, 10, "rejoinable", "a rejoinable player without a key")
	bad[10], bad[11] = 0, 1
	wantDecodeErrorAt(t, bad, &Roster{}, 11, "held", "a held player that cannot come back")
	bad = Encode(nil, &Roster{Present: 1, Rejoinable: 1, Held: 1, Controller: NoPlayer}, true, 0)
	bad[44] = 8
	wantDecodeErrorAt(t, bad, &Roster{}, 44, "controller", "player 8 is out of range")
	bad[44], bad[45] = 0, 1
	wantDecodeErrorAt(t, append(bad, 0, 0), &Roster{}, 45, "playing", "a held player plays")
	long := Encode(nil, &Roster{Playing: 1, Names: [MaxPlayers]string{strings.Repeat("n", MaxPlayerName)}}, true, 0)
	wantDecodeErrorAt(t, long, &Roster{}, 14, "name", "name longer than 29 bytes")
	wantDecodeErrorAt(t, Encode(nil, &TicFetch{Start: 1}, true, 0), &TicFetch{}, 8, "count", "no tics asked for")
}

func TestMigrationMessagesTruncatedAtEveryLengthFail(t *testing.T) {
	r := &Roster{Game: 1, ServerPlayer: 0, Present: 0b11, Rejoinable: 0b10, Held: 0b10, Controller: 0, Playing: 0b101,
		Names: [MaxPlayers]string{"a", "", "c"}}
	for _, m := range []Message{r, &Leaving{Tic: 1, Player: 2, Successor: 3}, &Reattach{Game: 1, Player: 1, Confirmed: 2},
		&Resume{Tic: 4}, &TicFetch{Start: 5, Count: 6}} {
		checkTruncations(t, m, true, nil)
	}
}

func FuzzRoster(f *testing.F)   { fuzzBody(f, func() Message { return &Roster{} }) }
func FuzzLeaving(f *testing.F)  { fuzzBody(f, func() Message { return &Leaving{} }) }
func FuzzReattach(f *testing.F) { fuzzBody(f, func() Message { return &Reattach{} }) }
func FuzzResume(f *testing.F)   { fuzzBody(f, func() Message { return &Resume{} }) }
func FuzzTicFetch(f *testing.F) { fuzzBody(f, func() Message { return &TicFetch{} }) }
