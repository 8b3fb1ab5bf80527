package wire

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func joinStartFixture() *JoinStart {
	m := &JoinStart{Start: 0x01020304, Stream: 0x0a0b0c0d, Rejoined: true, Cast: 0x05060708,
		Setup: GameSetup{TicRate: 20, Seed: 0x11223344, Options: []byte("{}")}}
	m.Settings = Settings{TicDup: 1, ExtraTics: 1, Deathmatch: 1, Skill: 3, LoadGame: -1, NewSync: true,
		NumPlayers: 3, ConsolePlayer: 2, PlayerClasses: [MaxPlayers]uint8{0, 1, 2}}
	m.Base.InGame = 0b101
	m.Base.Cmds[0] = TicDiff{Flags: DiffForward, Cmd: TicCmd{ForwardMove: 25}}
	m.Base.Cmds[2] = TicDiff{Flags: DiffTurn, Cmd: TicCmd{AngleTurn: -640}}
	for i := range m.Chain {
		m.Chain[i] = byte(0xc0 + i)
	}
	return m
}

func TestJoinStartLayoutIsKindStartStreamSettingsSetupBaseTicCastThenChain(t *testing.T) {
	m := joinStartFixture()
	pkt := Encode(nil, m, true, 9)
	settings := (&GameStart{Settings: m.Settings}).AppendBody(nil)
	want := append([]byte{0x80, 0x70, 9, TicnetKindJoinStart, 1, 2, 3, 4, 0x0a, 0x0b, 0x0c, 0x0d, 1}, settings...)
	// Doom's ticcmd (no input layout), 20 tics a second, the seed, 2 bytes of options.
	want = append(want, 0, 20, 0x11, 0x22, 0x33, 0x44, 0, 2, '{', '}')
	want = append(want, 0, 0, 0b101, DiffForward, 25, DiffTurn, 0xfd, 0x80)
	want = append(want, 5, 6, 7, 8) // the broadcasts' count
	want = append(want, m.Chain[:]...)
	require.Equal(t, want, pkt)
	got := &JoinStart{}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%+v", got)
	require.True(t, sameMessage(got, m), "%+v %v", got, err)
	_, dm, err := DecodePacket(pkt, ServerToClient, false)
	require.NoError(t, err, "DecodePacket: %T", dm)
	require.True(t, sameMessage(dm, m), "DecodePacket: %T %v", dm, err)
}

func TestSnapshotRequestAndJoinReadyLayouts(t *testing.T) {
	for _, tc := range []struct {
		m    Message
		want []byte
	}{
		{&SnapshotRequest{Tic: 0x01020304, Stream: 5}, []byte{0x80, 0x70, 0, TicnetKindSnapshotRequest, 1, 2, 3, 4, 0, 0, 0, 5}},
		{&JoinReady{Tic: 0x0a0b0c0d}, []byte{0x80, 0x70, 0, TicnetKindJoinReady, 0x0a, 0x0b, 0x0c, 0x0d}},
		{&Hello{}, []byte{0x80, 0x70, 0, TicnetKindHello, 0}},
		{&Hello{Rejoinable: true}, []byte{0x80, 0x70, 0, TicnetKindHello, 1}},
	} {
		pkt := Encode(nil, tc.m, true, 0)
		require.Equal(t, tc.want, pkt, "%T", tc.m)
		_, dm, err := DecodePacket(pkt, ClientToServer, false)
		require.NoError(t, err, "%T: decoded %T %+v", tc.m, dm, dm)
		require.True(t, sameMessage(dm, tc.m), "%T: decoded %T %+v, %v", tc.m, dm, dm, err)
	}
}

func TestJoinMessagesRefuseOtherKindsAndTooManyPlayers(t *testing.T) {
	good := Encode(nil, joinStartFixture(), true, 0)
	bad := bytes.Clone(good)
	bad[3] = TicnetKindSnapshotRequest
	wantDecodeErrorAt(t, bad, &JoinStart{}, 3, "kind", "not a join start")
	bad = bytes.Clone(good)
	bad[13+18] = 9 // num_players, after kind, start, stream, rejoined and 18 bytes of settings
	wantDecodeErrorAt(t, bad, &JoinStart{}, 13+18, "num_players", "9 players > limit 8")
	wantDecodeErrorAt(t, Encode(nil, &JoinReady{}, true, 0), &SnapshotRequest{}, 3, "kind", "not a snapshot request")
	wantDecodeErrorAt(t, Encode(nil, &SnapshotRequest{}, true, 0), &JoinReady{}, 3, "kind", "not a join ready")
}

func TestJoinMessagesTruncatedAtEveryLengthFail(t *testing.T) {
	for _, m := range []Message{joinStartFixture(), &SnapshotRequest{Tic: 1, Stream: 2}, &JoinReady{Tic: 3}, &Hello{Rejoinable: true}} {
		checkTruncations(t, m, true, nil)
	}
}

func FuzzJoinStart(f *testing.F)       { fuzzBody(f, func() Message { return &JoinStart{} }) }
func FuzzSnapshotRequest(f *testing.F) { fuzzBody(f, func() Message { return &SnapshotRequest{} }) }
func FuzzJoinReady(f *testing.F)       { fuzzBody(f, func() Message { return &JoinReady{} }) }
func FuzzHello(f *testing.F)           { fuzzBody(f, func() Message { return &Hello{} }) }
