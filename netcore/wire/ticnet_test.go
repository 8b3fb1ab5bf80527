package wire

import (
	"bytes"
	"testing"
)

func ticSetFixture() *TicSet {
	s := &TicSet{Start: 0x01020304, Timing: []PlayerTiming{{Player: 0, MarginMS: -5}, {Player: 7, MarginMS: 300}}}
	var tic SetTic
	tic.Latency = 3
	tic.InGame = 0b11
	tic.Substituted = 0b10
	tic.Cmds[0] = TicDiff{Flags: DiffForward, Cmd: TicCmd{ForwardMove: 25}}
	tic.Cmds[1] = TicDiff{Flags: DiffTurn, Cmd: TicCmd{AngleTurn: -640}}
	s.Tics = append(s.Tics, tic)
	return s
}

func TestTicSetLayoutIsKindStartTicsThenTimings(t *testing.T) {
	pkt := Encode(nil, ticSetFixture(), false, 0)
	want := []byte{0x00, 0x70, TicnetKindTicSet, 1, 2, 3, 4, 1,
		0b10, 0, 3, 0b11, DiffForward, 25, DiffTurn, 0xfd, 0x80,
		2, 0, 0xff, 0xfb, 7, 0x01, 0x2c}
	if !bytes.Equal(pkt, want) {
		t.Fatalf("got  % x\nwant % x", pkt, want)
	}
	got := &TicSet{}
	if _, err := Decode(pkt, got); err != nil || !sameMessage(got, ticSetFixture()) {
		t.Fatalf("%+v %v", got, err)
	}
	h, m, err := DecodePacket(pkt, ServerToClient, false)
	if _, ok := m.(*TicSet); err != nil || !ok || h.Type != TypeTicnet {
		t.Fatalf("%T %v", m, err)
	}
}

func TestTicSetRefusesBadKindsCountsAndPlayersWhereTheyAre(t *testing.T) {
	good := Encode(nil, ticSetFixture(), false, 0)
	mod := func(i int, b byte) []byte { p := bytes.Clone(good); p[i] = b; return p }
	wantDecodeErrorAt(t, mod(2, TicnetKindChecksum), &TicSet{}, 2, "kind", "not a tic set")
	wantDecodeErrorAt(t, mod(8, 0b100), &TicSet{}, 8, "tic.substituted", "not in the tic")
	wantDecodeErrorAt(t, mod(17, 9), &TicSet{}, 17, "num_timings", "9 timings > limit 8")
	wantDecodeErrorAt(t, mod(17, 3), &TicSet{}, 17, "num_timings", "cannot fit")
	wantDecodeErrorAt(t, mod(21, 8), &TicSet{}, 21, "timing.player", "player 8")
	big := append(mod(7, 129), make([]byte, 1000)...)
	wantDecodeErrorAt(t, big, &TicSet{}, 7, "num_tics", "> limit 128")
	wantDecodeErrorAt(t, mod(7, 5), &TicSet{}, 7, "num_tics", "cannot fit")
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
	if len(pkt) != len(Encode(nil, ticSetFixture(), false, 0))-1 || pkt[15] != 0xfe {
		t.Fatalf("% x", pkt)
	}
	got := &TicSet{LowResTurn: true}
	if _, err := Decode(pkt, got); err != nil || got.Tics[0].Cmds[1].Cmd.AngleTurn != -512 {
		t.Fatal(got, err) // -640/256 truncates to -2: -512
	}
}

func TestChecksumReportRoundTripsAndRefusesMoreThan64Sums(t *testing.T) {
	m := &ChecksumReport{Start: 77, Sums: []uint32{1, 0xdeadbeef}}
	pkt := Encode(nil, m, false, 0)
	if !bytes.Equal(pkt, []byte{0, 0x70, TicnetKindChecksum, 0, 0, 0, 77, 2, 0, 0, 0, 1, 0xde, 0xad, 0xbe, 0xef}) {
		t.Fatalf("% x", pkt)
	}
	got := &ChecksumReport{}
	if _, err := Decode(pkt, got); err != nil || !sameMessage(got, m) {
		t.Fatal(got, err)
	}
	checkTruncations(t, m, false, nil)
	big := append(bytes.Clone(pkt[:7]), 65)
	big = append(big, make([]byte, 65*4)...)
	wantDecodeErrorAt(t, big, &ChecksumReport{}, 7, "num_sums", "65 checksums > limit 64")
	wantDecodeErrorAt(t, pkt[:len(pkt)-1], &ChecksumReport{}, 7, "num_sums", "cannot fit")
	bad := bytes.Clone(pkt)
	bad[2] = TicnetKindTicSet
	wantDecodeErrorAt(t, bad, &ChecksumReport{}, 2, "kind", "not a checksum report")
}

func TestModeNoticeRoundTripsAndChecksItsKind(t *testing.T) {
	for _, ext := range []bool{false, true} {
		m := &ModeNotice{Extended: ext, Setup: GameSetup{TicRate: DefaultTicRate}}
		pkt := Encode(nil, m, true, 3)
		if !bytes.Equal(pkt, []byte{0x80, 0x70, 3, TicnetKindMode, b2u(ext), 0, 35, 0, 0, 0, 0, 0, 0}) {
			t.Fatalf("% x", pkt)
		}
		got := &ModeNotice{Extended: !ext, Setup: GameSetup{Input: InputLayout{Size: 2, Events: [MaxInputBytes]byte{1: 4}}, Options: []byte{1}}}
		if _, err := Decode(pkt, got); err != nil || !sameMessage(got, m) {
			t.Fatal(got, err)
		}
		checkTruncations(t, m, true, nil)
	}
	// An opaque layout (its size, then its event bits), 60 tics a second,
	// a seed and options.
	m := &ModeNotice{Extended: true, Setup: GameSetup{Input: InputLayout{Size: 3, Events: [MaxInputBytes]byte{0, 0x81, 0}},
		TicRate: 60, Seed: 0x01020304, Options: []byte{9, 8}}}
	pkt := Encode(nil, m, true, 3)
	if !bytes.Equal(pkt, []byte{0x80, 0x70, 3, TicnetKindMode, 1, 3, 0, 0x81, 0, 60, 1, 2, 3, 4, 0, 2, 9, 8}) {
		t.Fatalf("% x", pkt)
	}
	got := &ModeNotice{}
	if _, err := Decode(pkt, got); err != nil || !sameMessage(got, m) {
		t.Fatal(got, err)
	}
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
	if !bytes.Equal(pkt, want) {
		t.Fatalf("% x", pkt)
	}
	got := &LaunchOptions{}
	if _, err := Decode(pkt, got); err != nil || !sameMessage(got, m) {
		t.Fatal(got, err)
	}
	checkTruncations(t, m, true, nil)
	wantDecodeErrorAt(t, []byte{0x80, 0x70, 1, TicnetKindLaunchOptions, 0, 0, 0, 0, 0x04, 0x01}, &LaunchOptions{}, 8, "options.len", "limit 1024")
}

func TestTicnetKindReadsTheFirstBodyByte(t *testing.T) {
	if k, err := TicnetKind([]byte{TicnetKindChecksum, 0}); err != nil || k != TicnetKindChecksum {
		t.Fatal(k, err)
	}
	_, err := TicnetKind(nil)
	decodeError(t, err, 0)
}
