package wire

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stretchr/testify/assert"
)

func ticSetFixture() *TicSet {
	s := &TicSet{Start: 0x01020304, Near: 0x01020300,
		Timing: []PlayerTiming{{Player: 0, MarginMS: -5}, {Player: 7, MarginMS: 300}}}
	var tic SetTic
	tic.InGame = 0b11
	tic.Substituted = 0b10
	tic.Cmds[0] = TicDiff{Flags: DiffForward, Cmd: TicCmd{ForwardMove: 25}}
	tic.Cmds[1] = TicDiff{Flags: DiffTurn, Cmd: TicCmd{AngleTurn: -640}}
	s.Tics = append(s.Tics, tic)
	return s
}

func TestTicSetLayoutIsKindStartFlagsTicsThenTimings(t *testing.T) {
	pkt := Encode(nil, ticSetFixture(), false, 0)
	want := []byte{0x00, 0x70, TicnetKindTicSet, 3, 4, 1, SetTiming | SetSubstitutes,
		0b11, 0b10, DiffForward, 25, DiffTurn, 0xfd, 0x80,
		2, 0, 0xff, 0xfb, 7, 0x01, 0x2c}
	require.Equal(t, want, pkt)
	got := &TicSet{Near: 0x01020300}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%+v", got)
	require.True(t, sameMessage(got, ticSetFixture()), "%+v %v", got, err)
	h, m, err := DecodePacket(pkt, ServerToClient, false)
	_, ok := m.(*TicSet)
	require.NoError(t, err, "%T", m)
	require.True(t, ok, "%T %v", m, err)
	require.Equal(t, TypeTicnet, h.Type, "%T %v", m, err)
	// No timing, no substitute: neither the timing count nor the masks.
	s := ticSetFixture()
	s.Timing, s.Tics[0].Substituted = nil, 0
	want = []byte{0x00, 0x70, TicnetKindTicSet, 3, 4, 1, 0, 0b11, DiffForward, 25, DiffTurn, 0xfd, 0x80}
	pkt = Encode(nil, s, false, 0)
	require.Equal(t, want, pkt)
}

// A set for one client leaves out its own commands but its substitutes:
// the client fills them in from what it built.
func TestTicSetLeavesOutTheRecipientsOwnCommandsButSubstitutes(t *testing.T) {
	s := &TicSet{Start: 70000, Near: 70001, LeavesOutRecipient: true, Recipient: 1}
	flags := uint8(SetSubstitutes | SetLeavesOutRecipient | 1<<4)
	var a, b SetTic
	a.InGame, b.InGame, b.Substituted = 0b11, 0b11, 0b10
	a.Cmds[0] = TicDiff{Flags: DiffForward, Cmd: TicCmd{ForwardMove: 25}}
	b.Cmds[1] = TicDiff{Flags: DiffSide, Cmd: TicCmd{SideMove: -3}}
	s.Tics = append(s.Tics, a, b)
	pkt := Encode(nil, s, false, 0)
	want := []byte{0x00, 0x70, TicnetKindTicSet, 0x11, 0x70, 2, flags,
		0b11, 0, DiffForward, 25,
		0b11, 0b10, 0, DiffSide, 0xfd}
	require.Equal(t, want, pkt)
	got := &TicSet{Near: 70001}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%+v", got)
	require.True(t, sameMessage(got, s), "%+v %v", got, err)
	// Recipient bits without the flag (with it, every bit has a meaning).
	bad := bytes.Clone(pkt)
	bad[6] = SetSubstitutes | 1<<4
	wantDecodeErrorAt(t, bad, &TicSet{}, 6, "flags", "unknown flags 0x10")
}

func TestTicSetStartExpandsNearTheReceiversTic(t *testing.T) {
	for _, c := range []struct{ start, near uint32 }{{0, 0}, {5, 30000}, {65540, 65530}, {65530, 65540},
		{1 << 20, 1<<20 - 32767}, {1 << 20, 1<<20 + 32768}, {0xfffffff0, 0x10}} {
		s := &TicSet{Start: c.start}
		got := &TicSet{Near: c.near}
		_, err := Decode(Encode(nil, s, false, 0), got)
		assert.NoError(t, err, "start %d near %d: got %d", c.start, c.near, got.Start)
		assert.Equal(t, c.start, got.Start, "start %d near %d: got %d, %v", c.start, c.near, got.Start, err)
	}
	// Further than 32 767 tics away, it is a different tic.
	got := &TicSet{Near: 40000}
	_, err := Decode(Encode(nil, &TicSet{Start: 40000 + 32768}, false, 0), got)
	require.NoError(t, err, "got %d", got.Start)
	require.Equal(t, uint32(40000-32768), got.Start, "got %d, %v", got.Start, err)
}

func TestTicSetRefusesBadKindsCountsAndPlayersWhereTheyAre(t *testing.T) {
	good := Encode(nil, ticSetFixture(), false, 0)
	mod := func(i int, b byte) []byte { p := bytes.Clone(good); p[i] = b; return p }
	m := func() *TicSet { return &TicSet{} }
	wantDecodeErrorAt(t, mod(2, TicnetKindChecksum), m(), 2, "kind", "not a tic set")
	wantDecodeErrorAt(t, mod(6, 0x20), m(), 6, "flags", "unknown flags 0x20")
	wantDecodeErrorAt(t, mod(8, 0b100), m(), 8, "tic.substituted", "not in the tic")
	wantDecodeErrorAt(t, mod(14, 9), m(), 14, "num_timings", "9 timings > limit 8")
	wantDecodeErrorAt(t, mod(14, 3), m(), 14, "num_timings", "cannot fit")
	wantDecodeErrorAt(t, mod(18, 8), m(), 18, "timing.player", "player 8")
	big := append(mod(5, 129), make([]byte, 1000)...)
	wantDecodeErrorAt(t, big, m(), 5, "num_tics", "> limit 128")
	wantDecodeErrorAt(t, mod(5, 16), m(), 5, "num_tics", "cannot fit")
}

func TestTicSetTruncatedAtEveryLengthFails(t *testing.T) {
	for _, m := range []*TicSet{ticSetFixture(), {Start: 1}} {
		checkTruncations(t, m, false, nil)
	}
}

func TestTicSetLowresTurningIsOneByte(t *testing.T) {
	m := ticSetFixture()
	m.LowResTurn = true
	pkt := Encode(nil, m, false, 0)
	require.Equal(t, len(Encode(nil, ticSetFixture(), false, 0))-1, len(pkt), "% x", pkt)
	require.Equal(t, byte(0xfe), pkt[12], "% x", pkt)
	got := &TicSet{LowResTurn: true}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%v %v", got, err)
	require.Equal(t, int16(-512), got.Tics[0].Cmds[1].Cmd.AngleTurn, "%v %v", got, err)
}

func TestChecksumReportRoundTripsAndRefusesMoreThan64Sums(t *testing.T) {
	m := &ChecksumReport{Start: 77, Sums: []uint16{1, 0xbeef}}
	pkt := Encode(nil, m, false, 0)
	require.Equal(t, []byte{0, 0x70, TicnetKindChecksum, 0, 0, 0, 77, 2, 0, 1, 0xbe, 0xef}, pkt, "% x", pkt)
	got := &ChecksumReport{}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%v %v", got, err)
	require.True(t, sameMessage(got, m), "%v %v", got, err)
	checkTruncations(t, m, false, nil)
	big := append(bytes.Clone(pkt[:7]), 65)
	big = append(big, make([]byte, 65*2)...)
	wantDecodeErrorAt(t, big, &ChecksumReport{}, 7, "num_sums", "65 checksums > limit 64")
	wantDecodeErrorAt(t, pkt[:len(pkt)-1], &ChecksumReport{}, 7, "num_sums", "cannot fit")
	bad := bytes.Clone(pkt)
	bad[2] = TicnetKindTicSet
	wantDecodeErrorAt(t, bad, &ChecksumReport{}, 2, "kind", "not a checksum report")
	require.Equal(t, uint16(0x1234^0x5678), Sum16(0x12345678), "Sum16 %#x", Sum16(0x12345678))
}

func TestModeNoticeRoundTripsAndChecksItsKind(t *testing.T) {
	for _, ext := range []bool{false, true} {
		m := &ModeNotice{Extended: ext, Setup: GameSetup{TicRate: DefaultTicRate}}
		pkt := Encode(nil, m, true, 3)
		require.Equal(t, []byte{0x80, 0x70, 3, TicnetKindMode, b2u(ext), 0, 35, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, pkt, "% x", pkt)
		got := &ModeNotice{Extended: !ext, Setup: GameSetup{Input: InputLayout{Size: 2, Events: [MaxInputBytes]byte{1: 4}}, Options: []byte{1}}}
		_, err := Decode(pkt, got)
		require.NoError(t, err, "%v %v", got, err)
		require.True(t, sameMessage(got, m), "%v %v", got, err)
		checkTruncations(t, m, true, nil)
	}
	// An opaque layout (its size, then its event bits), 60 tics a second,
	// a seed and options.
	m := &ModeNotice{Extended: true, Setup: GameSetup{Input: InputLayout{Size: 3, Events: [MaxInputBytes]byte{0, 0x81, 0}},
		TicRate: 60, Seed: 0x01020304, Options: []byte{9, 8}}, Cast: 0x0a0b0c0d}
	pkt := Encode(nil, m, true, 3)
	require.Equal(t, []byte{0x80, 0x70, 3, TicnetKindMode, 1, 3, 0, 0x81, 0, 60, 1, 2, 3, 4, 0, 2, 9, 8, 10, 11, 12, 13}, pkt, "% x", pkt)
	got := &ModeNotice{}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%v %v", got, err)
	require.True(t, sameMessage(got, m), "%v %v", got, err)
	checkTruncations(t, m, true, nil)
	wantDecodeErrorAt(t, []byte{0x80, 0x70, 3, TicnetKindMode, 1, MaxInputBytes + 1}, &ModeNotice{}, 5, "input.size", "limit 64")
	wantDecodeErrorAt(t, []byte{0x80, 0x70, 3, TicnetKindMode, 1, 0, 9, 0, 0, 0, 0, 0, 0}, &ModeNotice{}, 6, "tic_rate", "9 tics a second")
	wantDecodeErrorAt(t, []byte{0x80, 0x70, 3, TicnetKindMode, 1, 0, 35, 0, 0, 0, 0, 0x04, 0x01}, &ModeNotice{}, 11, "options.len", "1025 bytes > limit 1024")
	wantDecodeErrorAt(t, []byte{0, 0x70, 9, 1}, &ModeNotice{}, 2, "kind", "not a mode notice")
}

func TestLaunchOptionsRoundTripAndAreBounded(t *testing.T) {
	m := &LaunchOptions{Seed: 0xdeadbeef, Options: []byte(`{"laps":3}`)}
	pkt := Encode(nil, m, true, 1)
	want := append([]byte{0x80, 0x70, 1, TicnetKindLaunchOptions, 0xde, 0xad, 0xbe, 0xef, 0, 10}, `{"laps":3}`...)
	require.Equal(t, want, pkt, "% x", pkt)
	got := &LaunchOptions{}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%v %v", got, err)
	require.True(t, sameMessage(got, m), "%v %v", got, err)
	checkTruncations(t, m, true, nil)
	wantDecodeErrorAt(t, []byte{0x80, 0x70, 1, TicnetKindLaunchOptions, 0, 0, 0, 0, 0x04, 0x01}, &LaunchOptions{}, 8, "options.len", "limit 1024")
}

func TestTicnetKindReadsTheFirstBodyByte(t *testing.T) {
	k, err := TicnetKind([]byte{TicnetKindChecksum, 0})
	require.NoError(t, err, "%v %v", k, err)
	require.Equal(t, uint8(TicnetKindChecksum), k, "%v %v", k, err)
	_, err = TicnetKind(nil)
	decodeError(t, err, 0)
}

// The players' figures follow the timings, six bytes a player; a figure
// for a player past the last, or an input delay past the most, is an
// error at its byte.
func TestTicSetFiguresFollowTheTimings(t *testing.T) {
	s := ticSetFixture()
	s.Figures = []PlayerFigures{{Player: 0, RTTMS: 260, Loss: 13, InputDelay: 4, Ahead: 3}, {Player: 7, RTTMS: NoRTT, Ahead: -2}}
	pkt := Encode(nil, s, false, 0)
	want := []byte{0x00, 0x70, TicnetKindTicSet, 3, 4, 1, SetTiming | SetSubstitutes | SetFigures,
		0b11, 0b10, DiffForward, 25, DiffTurn, 0xfd, 0x80,
		2, 0, 0xff, 0xfb, 7, 0x01, 0x2c,
		2, 0, 0x01, 0x04, 13, 4, 3, 7, 0xff, 0xff, 0, 0, 0xfe}
	require.Equal(t, want, pkt)
	got := &TicSet{Near: 0x01020300}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%+v", got)
	require.True(t, sameMessage(got, s), "%+v", got)
	// Figures without timings.
	s.Timing = nil
	got = &TicSet{Near: 0x01020300}
	_, err = Decode(Encode(nil, s, false, 0), got)
	require.NoError(t, err, "%+v", got)
	require.True(t, sameMessage(got, s), "%+v", got)

	bad := bytes.Clone(pkt)
	bad[28] = MaxPlayers
	wantDecodeErrorAt(t, bad, &TicSet{}, 28, "figures.player", "player 8 >= 8")
	bad = bytes.Clone(pkt)
	bad[26] = MaxInputDelay + 1
	wantDecodeErrorAt(t, bad, &TicSet{}, 26, "figures.input_delay", "16 tics of input delay, more than 15")
	bad = bytes.Clone(pkt)
	bad[21] = 3
	wantDecodeErrorAt(t, bad, &TicSet{}, 21, "num_figures", "3 figures cannot fit in 12 bytes")
	bad[21] = MaxPlayers + 1
	wantDecodeErrorAt(t, bad, &TicSet{}, 21, "num_figures", "9 figures > limit 8")
	wantDecodeErrorAt(t, pkt[:len(pkt)-1], &TicSet{}, 21, "num_figures", "2 figures cannot fit in 11 bytes")
}

// The number of watchers follows the figures, a u16 that the flags say is
// there; a count of none (which the flags leave out) or one cut short is
// an error at its byte.
func TestTicSetWatchersFollowTheFigures(t *testing.T) {
	s := ticSetFixture()
	s.Timing = nil
	s.Figures = []PlayerFigures{{Player: 7, RTTMS: NoRTT, Ahead: -2}}
	s.Watchers = 300
	pkt := Encode(nil, s, false, 0)
	want := []byte{0x00, 0x70, TicnetKindTicSet, 3, 4, 1, SetSubstitutes | SetFigures | SetWatchers,
		0b11, 0b10, DiffForward, 25, DiffTurn, 0xfd, 0x80,
		1, 7, 0xff, 0xff, 0, 0, 0xfe, 0x01, 0x2c}
	require.Equal(t, want, pkt)
	got := &TicSet{Near: 0x01020300}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%+v", got)
	require.True(t, sameMessage(got, s), "%+v", got)
	require.Equal(t, uint16(300), got.Watchers)
	s.Watchers = 0
	_, err = Decode(Encode(nil, s, false, 0), got)
	require.NoError(t, err)
	require.Zero(t, got.Watchers, "a set that says nothing of watchers, decoded into one that did")

	bad := bytes.Clone(pkt)
	bad[21], bad[22] = 0, 0
	wantDecodeErrorAt(t, bad, &TicSet{}, 21, "watchers", "a count of none")
	wantDecodeErrorAt(t, pkt[:len(pkt)-1], &TicSet{}, 21, "watchers", "")
}
