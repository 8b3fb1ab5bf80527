package wire

import (
	"bytes"
	"slices"
	"testing"
)

func queryResponseFixture() *QueryResponse {
	return &QueryResponse{Version: "Chocolate Doom 3.0.0", State: ServerWaitingLaunch, NumPlayers: 1, MaxPlayers: 4,
		GameMode: ModeIndetermined, GameMission: 0, Description: "Unnamed server",
		HasProtocols: true, Protocols: []string{ProtocolChocolate}}
}

func TestQueryResponseRoundTripsWithAndWithoutItsProtocolList(t *testing.T) {
	with := queryResponseFixture()
	pkt := Encode(nil, with, false, 0)
	tail := append([]byte{1}, ProtocolChocolate+"\x00"...)
	if !bytes.HasSuffix(pkt, tail) {
		t.Fatalf("% x", pkt)
	}
	got := &QueryResponse{}
	if _, err := Decode(pkt, got); err != nil || !sameMessage(got, with) {
		t.Fatalf("%+v %v", got, err)
	}
	// Older servers end after the description: no list, and none re-encoded.
	without := queryResponseFixture()
	without.HasProtocols, without.Protocols = false, nil
	short := pkt[:len(pkt)-len(tail)]
	if _, err := Decode(short, got); err != nil || got.HasProtocols || len(got.Protocols) != 0 || !sameMessage(got, without) {
		t.Fatalf("%+v %v", got, err)
	}
	if !bytes.Equal(Encode(nil, got, false, 0), short) {
		t.Fatal("a response without a list re-encoded with one")
	}
	// An empty list is a list.
	empty := queryResponseFixture()
	empty.Protocols = nil
	if _, err := Decode(Encode(nil, empty, false, 0), got); err != nil || !got.HasProtocols || len(got.Protocols) != 0 {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestQueryResponseRefusesMoreThan16Protocols(t *testing.T) {
	m := queryResponseFixture()
	m.Protocols = slices.Repeat([]string{"P"}, 17)
	pkt := Encode(nil, m, false, 0)
	at := len(pkt) - 17*2 - 1
	wantDecodeErrorAt(t, pkt, &QueryResponse{}, at, "num_protocols", "17 protocols > limit 16")
}

func TestQueryResponseTruncatedFailsExceptRightBeforeTheOptionalList(t *testing.T) {
	m := queryResponseFixture()
	pkt := Encode(nil, m, false, 0)
	listAt := len(pkt) - 1 - len(ProtocolChocolate) - 1
	offs := checkTruncations(t, m, false, func(n int) bool { return n == listAt })
	if offs[listAt] != -1 {
		t.Fatal("the response without its list did not decode")
	}
	for n := listAt + 1; n < len(pkt); n++ {
		if n == listAt+1 && offs[n] != listAt {
			t.Errorf("cut at %d: offset %d, want the count at %d", n, offs[n], listAt)
		}
		if n > listAt+1 && offs[n] != listAt+1 {
			t.Errorf("cut at %d: offset %d, want the name at %d", n, offs[n], listAt+1)
		}
	}
	// The fixed fields: version at 2, then one byte each from 23, then the
	// description from 28.
	for n, want := range map[int]int{2: 2, 22: 2, 23: 23, 27: 27, 28: 28, listAt - 1: 28} {
		if offs[n] != want {
			t.Errorf("cut at %d: offset %d, want %d", n, offs[n], want)
		}
	}
}
