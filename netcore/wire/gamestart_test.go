package wire

import (
	"bytes"
	"testing"
)

// The server's GAMESTART to player 0 of a 2-player deathmatch (vectors-run1, #32).
const gameStartVectorHex = "80050201010100000001010304000100000000ff4002005b5b"

func TestGameStartDecodesTheServersSettings(t *testing.T) {
	pkt := mustHex(t, gameStartVectorHex)
	m := &GameStart{}
	h, err := Decode(pkt, m)
	if err != nil || !h.Reliable || h.Seq != 2 {
		t.Fatal(h, err)
	}
	want := Settings{TicDup: 1, ExtraTics: 1, Deathmatch: 1, Episode: 1, Map: 1, Skill: 3, GameVersion: 4, NewSync: true,
		LoadGame: -1, Random: 0x40, NumPlayers: 2, ConsolePlayer: 0, PlayerClasses: [MaxPlayers]uint8{0x5b, 0x5b}}
	if m.Settings != want {
		t.Fatalf("got  %+v\nwant %+v", m.Settings, want)
	}
	if !bytes.Equal(Encode(nil, m, true, 2), pkt) {
		t.Fatal("does not re-encode")
	}
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
	if _, err := Decode(pkt[:23+8], m); err != nil || m.Settings.NumPlayers != 8 {
		t.Fatalf("8 players: %v", err)
	}
}

func TestGameStartNeedsAClassByteForEveryPlayer(t *testing.T) {
	pkt := mustHex(t, gameStartVectorHex)
	wantDecodeErrorAt(t, pkt[:24], &GameStart{}, 23, "player_classes", "need 2 bytes, have 1")
}

func TestGameStartSignedFieldsAndTimelimitAreBigEndianAndSigned(t *testing.T) {
	m := &GameStart{Settings: Settings{Skill: -1, LoadGame: -1, ConsolePlayer: -1, TimeLimit: 0x01020304, NumPlayers: 1}}
	pkt := Encode(nil, m, true, 0)
	if pkt[11] != 0xff || !bytes.Equal(pkt[15:19], []byte{1, 2, 3, 4}) || pkt[19] != 0xff || pkt[22] != 0xff {
		t.Fatalf("% x", pkt)
	}
	got := &GameStart{}
	if _, err := Decode(pkt, got); err != nil || got.Settings != m.Settings {
		t.Fatalf("%+v %v", got.Settings, err)
	}
}

func TestGameStartFromAClientIs24Bytes(t *testing.T) {
	// Spec §7.2: 20 fixed bytes, one class, and the 3-byte reliable header.
	m := &GameStart{Settings: Settings{TicDup: 1, NumPlayers: 1}}
	if n := len(Encode(nil, m, true, 1)); n != 24 {
		t.Fatalf("%d bytes", n)
	}
}

func TestGameStartDecodeClearsClassesOfAnEarlierDecode(t *testing.T) {
	m := &GameStart{}
	if _, err := Decode(mustHex(t, gameStartVectorHex), m); err != nil {
		t.Fatal(err)
	}
	one := Encode(nil, &GameStart{Settings: Settings{NumPlayers: 1, PlayerClasses: [MaxPlayers]uint8{7}}}, true, 0)
	if _, err := Decode(one, m); err != nil || m.Settings.PlayerClasses != [MaxPlayers]uint8{7} {
		t.Fatalf("%v %v", m.Settings.PlayerClasses, err)
	}
}

func TestGameStartTruncatedAtEveryLengthFailsAtTheFieldItCuts(t *testing.T) {
	m := &GameStart{}
	if _, err := Decode(mustHex(t, gameStartVectorHex), m); err != nil {
		t.Fatal(err)
	}
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
		if offs[n] != want {
			t.Errorf("cut at %d: offset %d, want %d", n, offs[n], want)
		}
	}
}
