package wire

import (
	"bytes"
	"testing"
)

func TestConsoleMessageDecodesTheTimeoutNoticeAndKeepsRawBytes(t *testing.T) {
	pkt := mustHex(t, "800c01436c69656e74202746616b65476f272074696d6564206f757420616e6420646973636f6e6e656374656400")
	m := &ConsoleMessage{}
	h, err := Decode(pkt, m)
	if err != nil || !h.Reliable || h.Seq != 1 || m.Text != "Client 'FakeGo' timed out and disconnected" {
		t.Fatalf("%+v %+v %v", h, m, err)
	}
	// Bytes the reference's safe-string reader would drop are kept: the
	// caller shows the text through Printable.
	raw := &ConsoleMessage{Text: "a\x01\x1b[2J\xffb"}
	got := &ConsoleMessage{}
	if _, err := Decode(Encode(nil, raw, true, 0), got); err != nil || got.Text != raw.Text || Printable(got.Text) != "a[2Jb" {
		t.Fatalf("%q %v", got.Text, err)
	}
	offs := checkTruncations(t, m, true, nil)
	for n := 3; n < len(pkt); n++ {
		if offs[n] != 3 {
			t.Fatalf("cut at %d: offset %d, want 3 (the message)", n, offs[n])
		}
	}
}

func TestRejectedCarriesItsMessageAndNeedsTheNUL(t *testing.T) {
	m := &Rejected{Message: "Server is full!"}
	pkt := Encode(nil, m, false, 0)
	if !bytes.Equal(pkt, append([]byte{0, 2}, "Server is full!\x00"...)) {
		t.Fatalf("% x", pkt)
	}
	got := &Rejected{}
	if _, err := Decode(pkt, got); err != nil || got.Message != m.Message {
		t.Fatal(got, err)
	}
	wantDecodeErrorAt(t, pkt[:len(pkt)-1], &Rejected{}, 2, "message", "NUL")
	checkTruncations(t, m, false, nil)
}

func TestEmptyMessagesAreJustTheHeaderAndTolerateTrailingBytes(t *testing.T) {
	for _, m := range []*Empty{Keepalive, Disconnect, DisconnectAck, Query, NATHolePunch, LaunchRequest, {Kind: TypeACK}} {
		pkt := Encode(nil, m, false, 0)
		if !bytes.Equal(pkt, []byte{0, byte(m.Kind)}) {
			t.Errorf("%v: % x", m.Kind, pkt)
		}
		got := &Empty{Kind: m.Kind}
		if _, err := Decode(append(pkt, 1, 2, 3), got); err != nil {
			t.Errorf("%v with trailing bytes: %v", m.Kind, err)
		}
		checkTruncations(t, m, false, nil)
	}
	// The controller's LAUNCH request is reliable with no payload.
	h, m, err := DecodePacket([]byte{0x80, 0x0f, 0x00}, ClientToServer, false)
	if e, ok := m.(*Empty); err != nil || !ok || e.Kind != TypeLaunch || !h.Reliable {
		t.Fatalf("%+v %+v %v", h, m, err)
	}
	if Keepalive.Kind != TypeKeepalive || Disconnect.Kind != TypeDisconnect || DisconnectAck.Kind != TypeDisconnectAck ||
		Query.Kind != TypeQuery || NATHolePunch.Kind != TypeNATHolePunch || LaunchRequest.Kind != TypeLaunch {
		t.Fatal("a named empty message has the wrong kind")
	}
}

func TestLaunchFromTheServerCarriesThePlayerCount(t *testing.T) {
	pkt := []byte{0x80, 0x0f, 0x01, 0x02}
	h, m, err := DecodePacket(pkt, ServerToClient, false)
	if l, ok := m.(*Launch); err != nil || !ok || l.NumPlayers != 2 || h.Seq != 1 {
		t.Fatalf("%+v %+v %v", h, m, err)
	}
	wantDecodeErrorAt(t, pkt[:3], &Launch{}, 3, "num_players", "need 1")
}

func TestOneByteAcksEncodeTheirByteAndFailWhenItIsMissing(t *testing.T) {
	for _, tc := range []struct {
		m    Message
		pkt  []byte
		into Message
	}{
		{&ReliableAck{Ack: 1}, []byte{0x00, 0x0a, 0x01}, &ReliableAck{}},
		{&GameDataAck{Ack: 9}, []byte{0x00, 0x07, 0x09}, &GameDataAck{}},
	} {
		if got := Encode(nil, tc.m, false, 0); !bytes.Equal(got, tc.pkt) {
			t.Errorf("%T: % x", tc.m, got)
		}
		if _, err := Decode(tc.pkt, tc.into); err != nil || !sameMessage(tc.into, tc.m) {
			t.Errorf("%T: %+v %v", tc.m, tc.into, err)
		}
		wantDecodeErrorAt(t, tc.pkt[:2], fresh(tc.m), 2, "ack", "need 1")
	}
}

func TestGameDataResendCarriesAFullTicNumber(t *testing.T) {
	m := &GameDataResend{Start: 0x01020309, Count: 6}
	pkt := Encode(nil, m, false, 0)
	if !bytes.Equal(pkt, []byte{0x00, 0x0b, 0x01, 0x02, 0x03, 0x09, 0x06}) {
		t.Fatalf("% x", pkt)
	}
	offs := checkTruncations(t, m, false, nil)
	for n, want := range []int{0, 0, 2, 2, 2, 2, 6} {
		if offs[n] != want {
			t.Errorf("cut at %d: offset %d, want %d", n, offs[n], want)
		}
	}
}
