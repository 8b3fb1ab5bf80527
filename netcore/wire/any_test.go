package wire

import (
	"fmt"
	"testing"
)

func TestNewMessagePicksTheLayoutByTypeReliabilityAndDirection(t *testing.T) {
	for _, tc := range []struct {
		h    Header
		body []byte
		dir  Direction
		want string
	}{
		{Header{Type: TypeSYN}, nil, ClientToServer, "*wire.SYN"},
		{Header{Type: TypeSYN, Reliable: true}, nil, ServerToClient, "*wire.SYNReply"},
		{Header{Type: TypeRejected}, nil, ServerToClient, "*wire.Rejected"},
		{Header{Type: TypeWaitingData}, nil, ServerToClient, "*wire.WaitingData"},
		{Header{Type: TypeGameStart, Reliable: true}, nil, ClientToServer, "*wire.GameStart"},
		{Header{Type: TypeGameStart, Reliable: true}, nil, ServerToClient, "*wire.GameStart"},
		{Header{Type: TypeGameData}, nil, ClientToServer, "*wire.ClientGameData"},
		{Header{Type: TypeGameData}, nil, ServerToClient, "*wire.ServerGameData"},
		{Header{Type: TypeGameDataAck}, nil, ClientToServer, "*wire.GameDataAck"},
		{Header{Type: TypeReliableAck}, nil, ServerToClient, "*wire.ReliableAck"},
		{Header{Type: TypeGameDataResend}, nil, ServerToClient, "*wire.GameDataResend"},
		{Header{Type: TypeConsoleMessage, Reliable: true}, nil, ServerToClient, "*wire.ConsoleMessage"},
		{Header{Type: TypeQueryResponse}, nil, ServerToClient, "*wire.QueryResponse"},
		{Header{Type: TypeLaunch, Reliable: true}, nil, ServerToClient, "*wire.Launch"},
		{Header{Type: TypeLaunch, Reliable: true}, nil, ClientToServer, "*wire.Empty LAUNCH"},
		{Header{Type: TypeKeepalive}, nil, ClientToServer, "*wire.Empty KEEPALIVE"},
		{Header{Type: TypeDisconnect}, nil, ServerToClient, "*wire.Empty DISCONNECT"},
		{Header{Type: TypeDisconnectAck}, nil, ServerToClient, "*wire.Empty DISCONNECT_ACK"},
		{Header{Type: TypeQuery}, nil, ClientToServer, "*wire.Empty QUERY"},
		{Header{Type: TypeNATHolePunch}, nil, ServerToClient, "*wire.Empty NAT_HOLE_PUNCH"},
		{Header{Type: TypeACK}, nil, ServerToClient, "*wire.Empty ACK"},
		{Header{Type: TypeTicnet}, []byte{TicnetKindTicSet}, ServerToClient, "*wire.TicSet"},
		{Header{Type: TypeTicnet}, []byte{TicnetKindChecksum}, ClientToServer, "*wire.ChecksumReport"},
		{Header{Type: TypeTicnet, Reliable: true}, []byte{TicnetKindMode}, ServerToClient, "*wire.ModeNotice"},
		{Header{Type: TypeTicnet}, []byte{TicnetKindTransferChunk}, ServerToClient, "*wire.TransferChunk"},
		{Header{Type: TypeTicnet}, []byte{TicnetKindTransferAck}, ClientToServer, "*wire.TransferAck"},
		{Header{Type: TypeTicnet}, []byte{TicnetKindTransferAbort}, ClientToServer, "*wire.TransferAbort"},
	} {
		m, err := NewMessage(tc.h, tc.body, tc.dir, true)
		if err != nil {
			t.Errorf("%+v %v: %v", tc.h, tc.dir, err)
			continue
		}
		got := fmt.Sprintf("%T", m)
		if e, ok := m.(*Empty); ok {
			got += " " + e.Kind.String()
		}
		if got != tc.want || m.Type() != tc.h.Type {
			t.Errorf("%+v %v: %s (type %v), want %s", tc.h, tc.dir, got, m.Type(), tc.want)
		}
		if !lowresOf(m) && (got == "*wire.ClientGameData" || got == "*wire.ServerGameData" || got == "*wire.TicSet") {
			t.Errorf("%s: the lowres option was not passed on", got)
		}
	}
}

func TestNewMessageRefusesUnknownTypesAndTicnetKinds(t *testing.T) {
	for _, tc := range []struct {
		pkt   []byte
		off   int
		field string
	}{
		{[]byte{0x00, 0x11}, 0, "type"},
		{[]byte{0x7f, 0xff, 1, 2}, 0, "type"},
		{[]byte{0x00, 0x70}, 2, "kind"},
		{[]byte{0x80, 0x70, 0x01}, 3, "kind"},
		{[]byte{0x00, 0x70, 0xff, 0, 0}, 2, "kind"},
	} {
		_, _, err := DecodePacket(tc.pkt, ServerToClient, false)
		de := decodeError(t, err, len(tc.pkt))
		if de.Offset != tc.off || de.Field != tc.field {
			t.Errorf("% x: %v, want %s at %d", tc.pkt, err, tc.field, tc.off)
		}
	}
}

func TestDecodePacketReturnsTheHeaderAndTheDecodedMessage(t *testing.T) {
	g := newGen(21)
	for range 200 {
		for _, m := range g.messages() {
			reliable := g.bool()
			if _, ok := m.(*SYNReply); ok {
				reliable = true
			} else if _, ok := m.(*SYN); ok {
				reliable = false
			}
			if v, ok := m.(*ClientGameData); ok && v.Ext {
				continue // read in the reference's layout: see NewMessage
			}
			seq := g.u8()
			pkt := Encode(nil, m, reliable, seq)
			h, got, err := DecodePacket(pkt, directionOf(m), lowresOf(m))
			if err != nil {
				t.Fatalf("%T: %v", m, err)
			}
			if h.Type != m.Type() || h.Reliable != reliable || (reliable && h.Seq != seq) {
				t.Fatalf("%T: header %+v", m, h)
			}
			switch v := m.(type) {
			case *TicSet:
				w := *v
				w.Near, w.Start = 0, ExpandTic16(0, uint16(v.Start)) // see NewMessage
				m = &w
			}
			if !sameMessage(got, m) {
				t.Fatalf("%T: got %+v\nwant %+v", m, got, m)
			}
		}
	}
}
