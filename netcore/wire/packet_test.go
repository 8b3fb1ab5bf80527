package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHeaderEncodesTheTypeBigEndianWithBit15ForReliable(t *testing.T) {
	for _, tc := range []struct {
		h    Header
		wire []byte
	}{
		{Header{Type: TypeSYN}, []byte{0x00, 0x00}},
		{Header{Type: TypeSYN, Reliable: true, Seq: 0}, []byte{0x80, 0x00, 0x00}},
		{Header{Type: TypeGameData}, []byte{0x00, 0x06}},
		{Header{Type: TypeLaunch, Reliable: true, Seq: 1}, []byte{0x80, 0x0f, 0x01}},
		{Header{Type: TypeConsoleMessage, Reliable: true, Seq: 255}, []byte{0x80, 0x0c, 0xff}},
		{Header{Type: TypeTicnet}, []byte{0x00, 0x70}},
		{Header{Type: 0x1234}, []byte{0x12, 0x34}},
	} {
		got := tc.h.AppendTo([]byte{0xaa})
		assert.Equal(t, tc.wire, got[1:], "%+v", tc.h)
		assert.Equal(t, byte(0xaa), got[0], "%+v: the bytes before were overwritten", tc.h)
		assert.Equal(t, len(tc.wire), tc.h.Len(), "%+v: Len", tc.h)
		h, body, err := ParseHeader(append(tc.wire, 1, 2))
		assert.NoError(t, err, "ParseHeader(% x) = %+v, % x", tc.wire, h, body)
		assert.Equal(t, tc.h, h, "ParseHeader(% x) = %+v, % x, %v", tc.wire, h, body, err)
		assert.Equal(t, []byte{1, 2}, body, "ParseHeader(% x) = %+v, % x, %v", tc.wire, h, body, err)
	}
}

func TestParseHeaderOfAShortPacketFailsAtTheMissingField(t *testing.T) {
	for _, tc := range []struct {
		pkt   []byte
		off   int
		field string
	}{
		{nil, 0, "type"},
		{[]byte{0x00}, 0, "type"},
		{[]byte{0x80}, 0, "type"},
		{[]byte{0x80, 0x05}, 2, "reliable_seq"},
	} {
		_, _, err := ParseHeader(tc.pkt)
		de := decodeError(t, err, len(tc.pkt))
		assert.Equal(t, tc.off, de.Offset, "% x: %v, want %s at %d", tc.pkt, err, tc.field, tc.off)
		assert.Equal(t, tc.field, de.Field, "% x: %v, want %s at %d", tc.pkt, err, tc.field, tc.off)
	}
}

func TestTypeNamesAreTheReferenceNames(t *testing.T) {
	want := map[Type]string{0: "SYN", 1: "ACK", 2: "REJECTED", 3: "KEEPALIVE", 4: "WAITING_DATA", 5: "GAMESTART",
		6: "GAMEDATA", 7: "GAMEDATA_ACK", 8: "DISCONNECT", 9: "DISCONNECT_ACK", 10: "RELIABLE_ACK",
		11: "GAMEDATA_RESEND", 12: "CONSOLE_MESSAGE", 13: "QUERY", 14: "QUERY_RESPONSE", 15: "LAUNCH",
		16: "NAT_HOLE_PUNCH", 0x70: "TICNET", 17: "TYPE_17", 0x7fff: "TYPE_32767"}
	for ty, name := range want {
		got := ty.String()
		assert.Equal(t, name, got, "Type(%d) =", uint16(ty))
	}
}

func TestDirectionsPrintAsCtoSAndStoC(t *testing.T) {
	require.Equal(t, "C>S", ClientToServer.String(), "%v %v", ClientToServer.String(), ServerToClient.String())
	require.Equal(t, "S>C", ServerToClient.String(), "%v %v", ClientToServer.String(), ServerToClient.String())
}

func TestDecodeRefusesAPacketOfAnotherType(t *testing.T) {
	pkt := Encode(nil, &ReliableAck{Ack: 1}, false, 0)
	wantDecodeErrorAt(t, pkt, &GameDataAck{}, 0, "type", "RELIABLE_ACK")
}

func TestDecodeErrorOffsetsCountFromThePacketStartReliableOrNot(t *testing.T) {
	// A GAMEDATA_RESEND whose count byte is missing: offset 6 unreliable, 7
	// reliable, and the error names the message.
	for _, reliable := range []bool{false, true} {
		pkt := Encode(nil, &GameDataResend{Start: 9, Count: 6}, reliable, 3)
		pkt = pkt[:len(pkt)-1]
		want := 6
		if reliable {
			want = 7
		}
		m := &GameDataResend{}
		_, err := Decode(pkt, m)
		de := decodeError(t, err, len(pkt))
		require.Equal(t, want, de.Offset, "reliable=%v: %v (%+v)", reliable, err, de)
		require.Equal(t, "num_tics", de.Field, "reliable=%v: %v (%+v)", reliable, err, de)
		require.Equal(t, "GAMEDATA_RESEND", de.Type, "reliable=%v: %v (%+v)", reliable, err, de)
		// DecodePacket reports the same.
		_, _, err = DecodePacket(pkt, ClientToServer, false)
		de2 := decodeError(t, err, len(pkt))
		require.Equal(t, *de, *de2, "DecodePacket: %+v, Decode: %+v", de2, de)
	}
}

func TestEncodeAppendsAndKeepsWhatWasThere(t *testing.T) {
	dst := []byte{1, 2, 3}
	got := Encode(dst, &GameDataAck{Ack: 9}, true, 4)
	require.Equal(t, []byte{1, 2, 3, 0x80, 0x07, 4, 9}, got, "% x", got)
}
