package wire

import (
	"bytes"
	"strings"
	"testing"
)

// The server's first WAITING_DATA to the controller (vectors-run1, #3).
const waitingVectorHex = "00040100000401004772756d7079204d616e6375627573003132372e302e302e313a3536303936000f9caf3cac3392deea003d3159a14f6156bd7a46daaf56c1dcc08a2e7668814811b2cab0cc7d52c101"

func TestWaitingDataDecodesTheLobbyOfTheVector(t *testing.T) {
	pkt := mustHex(t, waitingVectorHex)
	m := &WaitingData{}
	if _, err := Decode(pkt, m); err != nil {
		t.Fatal(err)
	}
	if m.NumPlayers != 1 || m.NumDrones != 0 || m.ReadyPlayers != 0 || m.MaxPlayers != 4 || !m.IsController ||
		m.ConsolePlayer != 0 || len(m.Players) != 1 || m.Players[0] != (WaitingPlayer{"Grumpy Mancubus", "127.0.0.1:56096"}) ||
		m.DEHSHA1[0] != 0xda || m.IsFreedoom != 1 {
		t.Fatalf("%+v", m)
	}
	if !bytes.Equal(Encode(nil, m, false, 0), pkt) {
		t.Fatal("does not re-encode")
	}
	offs := checkTruncations(t, m, false, nil)
	for n, want := range map[int]int{2: 2, 7: 7, 8: 8, 23: 8, 24: 24, 39: 24, 40: 40, 59: 40, 60: 60, 80: 80} {
		if offs[n] != want {
			t.Errorf("cut at %d: offset %d, want %d", n, offs[n], want)
		}
	}
}

func TestWaitingDataListsAtMostEightPlayersWhateverTheCount(t *testing.T) {
	m := &WaitingData{NumPlayers: 200, MaxPlayers: 8, ConsolePlayer: -1}
	for i := range 8 {
		m.Players = append(m.Players, WaitingPlayer{Name: strings.Repeat("n", i), Addr: "a"})
	}
	pkt := Encode(nil, m, false, 0)
	got := &WaitingData{}
	if _, err := Decode(pkt, got); err != nil || len(got.Players) != 8 || !sameMessage(got, m) {
		t.Fatalf("%+v %v", got, err)
	}
	// A list shorter than the count is padded with empty lines, as the
	// wire needs one line per listed player.
	short := &WaitingData{NumPlayers: 2, Players: []WaitingPlayer{{"a", "b"}}}
	if _, err := Decode(Encode(nil, short, false, 0), got); err != nil || len(got.Players) != 2 || got.Players[1] != (WaitingPlayer{}) {
		t.Fatalf("%+v %v", got, err)
	}
	if got.ConsolePlayer != 0 {
		t.Fatal("stale consoleplayer")
	}
}

func TestWaitingDataConsolePlayerIsSigned(t *testing.T) {
	m := &WaitingData{ConsolePlayer: -1}
	pkt := Encode(nil, m, false, 0)
	if pkt[7] != 0xff {
		t.Fatalf("% x", pkt)
	}
	got := &WaitingData{}
	if _, err := Decode(pkt, got); err != nil || got.ConsolePlayer != -1 {
		t.Fatal(got.ConsolePlayer, err)
	}
}

func TestWaitingDataEncodesNamesAsGivenAndTruncateCutsThemTo29Bytes(t *testing.T) {
	long := strings.Repeat("x", 40)
	m := &WaitingData{NumPlayers: 1, Players: []WaitingPlayer{{Name: long, Addr: long}}}
	got := &WaitingData{}
	if _, err := Decode(Encode(nil, m, false, 0), got); err != nil || got.Players[0].Name != long {
		t.Fatalf("%+v %v", got, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"", ""}, {"abc", "abc"}, {strings.Repeat("a", 29), strings.Repeat("a", 29)},
		{strings.Repeat("b", 30), strings.Repeat("b", 29)}, {long, long[:29]},
	} {
		if got := Truncate(tc.in); got != tc.want {
			t.Errorf("Truncate(%d bytes) = %d bytes", len(tc.in), len(got))
		}
	}
}
