package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vectors-run1 #832 (client 50983 to the server) and #834 (the server
// relaying it to client 56096).
const (
	clientGameDataHex = "0006c4c302000410120004103a"
	serverGameDataHex = "0006c3020002021012000402103a"
)

func TestClientGameDataDecodesTheVectorsTics(t *testing.T) {
	pkt := mustHex(t, clientGameDataHex)
	m := &ClientGameData{}
	_, err := Decode(pkt, m)
	require.NoError(t, err)
	want := &ClientGameData{Ack: 0xc4, Start: 0xc3, Tics: []ClientTic{
		{Latency: 4, Diff: TicDiff{Flags: DiffConsistency, Cmd: TicCmd{Consistency: 0x12}}},
		{Latency: 4, Diff: TicDiff{Flags: DiffConsistency, Cmd: TicCmd{Consistency: 0x3a}}},
	}}
	require.True(t, sameMessage(m, want), "got %+v", m)
	require.Equal(t, pkt, Encode(nil, m, false, 0), "does not re-encode")
}

func TestClientGameDataTruncatedAtEveryLengthFailsAtTheFieldItCuts(t *testing.T) {
	m := &ClientGameData{}
	_, err := Decode(mustHex(t, clientGameDataHex), m)
	require.NoError(t, err)
	offs := checkTruncations(t, m, false, nil)
	// type 0-1, ack 2, start 3, num_tics 4 (refused while 2 tics cannot
	// fit: 6 bytes), latency 5-6, flags 7, consistancy 8, latency 9-10,
	// flags 11, consistancy 12.
	want := []int{0, 0, 2, 3, 4, 4, 4, 4, 4, 4, 4, 11, 12}
	for n := range want {
		assert.Equal(t, want[n], offs[n], "cut at %d: offset", n)
	}
}

func TestServerGameDataDecodesTheVectorsFullTicmds(t *testing.T) {
	pkt := mustHex(t, serverGameDataHex)
	m := &ServerGameData{}
	_, err := Decode(pkt, m)
	require.NoError(t, err)
	require.Equal(t, uint8(0xc3), m.Start, "%+v", m)
	require.Equal(t, 2, len(m.Tics), "%+v", m)
	require.Equal(t, int16(2), m.Tics[0].Latency, "%+v", m)
	require.Equal(t, int16(4), m.Tics[1].Latency, "%+v", m)
	for i, c := range []uint8{0x12, 0x3a} {
		tic := &m.Tics[i]
		require.Equal(t, uint8(2), tic.InGame, "tic %d: %+v", i, tic)
		require.False(t, tic.Has(0), "tic %d: %+v", i, tic)
		require.True(t, tic.Has(1), "tic %d: %+v", i, tic)
		require.Equal(t, TicDiff{Flags: DiffConsistency, Cmd: TicCmd{Consistency: c}}, tic.Cmds[1], "tic %d: %+v", i, tic)
		for p := range MaxPlayers {
			if p != 1 {
				require.Equal(t, TicDiff{}, tic.Cmds[p], "tic %d: player %d not in the game has a command", i, p)
			}
		}
	}
	require.Equal(t, pkt, Encode(nil, m, false, 0), "does not re-encode")
	offs := checkTruncations(t, m, false, nil)
	want := []int{0, 0, 2, 3, 3, 3, 3, 3, 3, 3, 9, 11, 12, 13}
	for n := range want {
		assert.Equal(t, want[n], offs[n], "cut at %d: offset", n)
	}
}

func TestGameDataRefusesMoreThan128TicsAtTheCount(t *testing.T) {
	big := make([]byte, 2000) // room for any count: the limit itself must refuse
	for _, n := range []byte{129, 200, 255} {
		wantDecodeErrorAt(t, append([]byte{0, 6, 0, 0, n}, big...), &ClientGameData{}, 4, "num_tics", "> limit 128")
		wantDecodeErrorAt(t, append([]byte{0, 6, 0, n}, big...), &ServerGameData{}, 3, "num_tics", "> limit 128")
	}
	// 128 is allowed.
	c := &ClientGameData{}
	_, err := Decode(append([]byte{0, 6, 0, 0, 128}, make([]byte, 128*3)...), c)
	require.NoError(t, err, "128 client tics")
	require.Equal(t, 128, len(c.Tics), "128 client tics: %v", err)
	s := &ServerGameData{}
	_, err = Decode(append([]byte{0, 6, 0, 128}, make([]byte, 128*3)...), s)
	require.NoError(t, err, "128 server tics")
	require.Equal(t, 128, len(s.Tics), "128 server tics: %v", err)
}

func TestGameDataRefusesACountThatCannotFitBeforeReadingTics(t *testing.T) {
	// 5 tics need at least 15 bytes: 14 are there.
	wantDecodeErrorAt(t, append([]byte{0, 6, 0, 0, 5}, make([]byte, 14)...), &ClientGameData{}, 4, "num_tics", "cannot fit")
	wantDecodeErrorAt(t, append([]byte{0, 6, 0, 5}, make([]byte, 14)...), &ServerGameData{}, 3, "num_tics", "cannot fit")
}

func TestGameDataTurningFollowsTheLowresOption(t *testing.T) {
	// vectors-run4 #147: lowres, turn byte 0x02 = 512.
	pkt := mustHex(t, "0006171e020000060002000000")
	lo := &ClientGameData{LowResTurn: true}
	_, err := Decode(pkt, lo)
	require.NoError(t, err, "%+v", lo)
	require.Equal(t, int16(512), lo.Tics[0].Diff.Cmd.AngleTurn, "%+v %v", lo, err)
	require.Equal(t, uint8(DiffSide|DiffTurn), lo.Tics[0].Diff.Flags, "%+v %v", lo, err)
	require.Equal(t, pkt, Encode(nil, lo, false, 0), "lowres does not re-encode")
	// Read as hi-res the same bytes are another packet: turning takes two
	// bytes and the rest shifts.
	hi := &ClientGameData{}
	_, err = Decode(pkt, hi)
	if err == nil {
		require.NotEqual(t, int16(512), hi.Tics[0].Diff.Cmd.AngleTurn, "hi-res read gave the lowres turn")
	}
	// Encoding a hi-res turn in a lowres game keeps only the high byte.
	m := &ServerGameData{LowResTurn: true, Tics: []ServerTic{{InGame: 1, Cmds: [MaxPlayers]TicDiff{{Flags: DiffTurn, Cmd: TicCmd{AngleTurn: 0x1234}}}}}}
	pkt = Encode(nil, m, false, 0)
	require.Equal(t, []byte{0, 6, 0, 1, 0, 0, 1, DiffTurn, 0x12}, pkt, "% x", pkt)
	_, err = Decode(pkt, m)
	require.NoError(t, err, "%v %v", m.Tics[0].Cmds[0], err)
	require.Equal(t, int16(4608), m.Tics[0].Cmds[0].Cmd.AngleTurn, "%v %v", m.Tics[0].Cmds[0], err)
}

func TestServerTicWritesPlayersInAscendingBitOrder(t *testing.T) {
	var tic ServerTic
	tic.Latency = -2
	tic.InGame = 0b1000_0101
	tic.Cmds[0] = TicDiff{Flags: DiffForward, Cmd: TicCmd{ForwardMove: 0x10}}
	tic.Cmds[2] = TicDiff{Flags: DiffButtons, Cmd: TicCmd{Buttons: 0x22}}
	tic.Cmds[7] = TicDiff{Flags: DiffSide, Cmd: TicCmd{SideMove: 0x37}}
	tic.Cmds[5] = TicDiff{Flags: DiffChatChar, Cmd: TicCmd{ChatChar: 'x'}} // bit 5 clear: not sent
	pkt := Encode(nil, &ServerGameData{Start: 9, Tics: []ServerTic{tic}}, false, 0)
	want := []byte{0, 6, 9, 1, 0xff, 0xfe, 0x85, DiffForward, 0x10, DiffButtons, 0x22, DiffSide, 0x37}
	require.Equal(t, want, pkt)
	require.True(t, tic.Has(0), "Has disagrees with InGame")
	require.False(t, tic.Has(1), "Has disagrees with InGame")
	require.True(t, tic.Has(2), "Has disagrees with InGame")
	require.False(t, tic.Has(5), "Has disagrees with InGame")
	require.True(t, tic.Has(7), "Has disagrees with InGame")
}

func TestGameDataAtTheSizesOfTheSpec(t *testing.T) {
	// §14: idle, 2 players, extratics 1: C>S 11 bytes, S>C 12.
	c := &ClientGameData{Tics: make([]ClientTic, 2)}
	s := &ServerGameData{Tics: []ServerTic{{InGame: 1}, {InGame: 1}}}
	a, b := len(Encode(nil, c, false, 0)), len(Encode(nil, s, false, 0))
	require.Equal(t, 11, a, "client %d, server %d bytes", a, b)
	require.Equal(t, 12, b, "client %d, server %d bytes", a, b)
	// §17.11: a full cmd for 8 players with every flag is 107 bytes a tic.
	full := ServerTic{InGame: 0xff}
	for p := range MaxPlayers {
		full.Cmds[p].Flags = 0xff
	}
	n := len(Encode(nil, &ServerGameData{Tics: []ServerTic{full}}, false, 0)) - 4
	require.Equal(t, 107, n, "full tic: %d bytes", n)
}

// Under the extension a client's GAMEDATA has no latency per tic, and may
// end with its checksum report.
func TestExtensionClientGameDataHasNoLatencyAndCarriesAReport(t *testing.T) {
	m := &ClientGameData{Ext: true, Near: 70010, Ack: 1, Start: 2, Tics: []ClientTic{
		{Diff: TicDiff{Flags: DiffForward, Cmd: TicCmd{ForwardMove: 5}}}, {Diff: TicDiff{}}},
		Report: ChecksumReport{Start: 70000, Sums: []uint16{0xabcd, 2}}}
	pkt := Encode(nil, m, false, 0)
	want := []byte{0, 6, 1, 2, 2, DiffForward, 5, 0, 0x11, 0x70, 2, 0xab, 0xcd, 0, 2}
	require.Equal(t, want, pkt)
	got := &ClientGameData{Ext: true, Near: 70010}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%+v", got)
	require.True(t, sameMessage(got, m), "%+v %v", got, err)
	// Without a report it ends with its tics.
	m.Report.Sums = nil
	pkt = Encode(nil, m, false, 0)
	require.Equal(t, want[:8], pkt, "% x", pkt)
	wantDecodeErrorAt(t, append(want[:8:8], 0x11, 0x70, 3, 0), &ClientGameData{Ext: true}, 10, "num_sums", "cannot fit")
	wantDecodeErrorAt(t, append(want[:8:8], 0x11, 0x70, 0), &ClientGameData{Ext: true}, 10, "num_sums", "without checksums")
}
