package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConsoleMessageDecodesTheTimeoutNoticeAndKeepsRawBytes(t *testing.T) {
	pkt := mustHex(t, "800c01436c69656e74202746616b65476f272074696d6564206f757420616e6420646973636f6e6e656374656400")
	m := &ConsoleMessage{}
	h, err := Decode(pkt, m)
	require.NoError(t, err, "%+v %+v", h, m)
	require.True(t, h.Reliable, "%+v %+v %v", h, m, err)
	require.Equal(t, uint8(1), h.Seq, "%+v %+v %v", h, m, err)
	require.Equal(t, "Client 'FakeGo' timed out and disconnected", m.Text, "%+v %+v %v", h, m, err)
	// Bytes the reference's safe-string reader would drop are kept: the
	// caller shows the text through Printable.
	raw := &ConsoleMessage{Text: "a\x01\x1b[2J\xffb"}
	got := &ConsoleMessage{}
	_, err = Decode(Encode(nil, raw, true, 0), got)
	require.NoError(t, err, "%q", got.Text)
	require.Equal(t, raw.Text, got.Text, "%q %v", got.Text, err)
	require.Equal(t, "a[2Jb", Printable(got.Text), "%q %v", got.Text, err)
	offs := checkTruncations(t, m, true, nil)
	for n := 3; n < len(pkt); n++ {
		require.Equal(t, 3, offs[n], "cut at %d: offset %d, want 3 (the message)", n, offs[n])
	}
}

func TestRejectedCarriesItsMessageAndNeedsTheNUL(t *testing.T) {
	m := &Rejected{Message: "Server is full!"}
	pkt := Encode(nil, m, false, 0)
	require.Equal(t, append([]byte{0, 2}, "Server is full!\x00"...), pkt, "% x", pkt)
	got := &Rejected{}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%v %v", got, err)
	require.Equal(t, m.Message, got.Message, "%v %v", got, err)
	wantDecodeErrorAt(t, pkt[:len(pkt)-1], &Rejected{}, 2, "message", "NUL")
	checkTruncations(t, m, false, nil)
}

func TestEmptyMessagesAreJustTheHeaderAndTolerateTrailingBytes(t *testing.T) {
	for _, m := range []*Empty{Keepalive, Disconnect, DisconnectAck, Query, NATHolePunch, LaunchRequest, {Kind: TypeACK}} {
		pkt := Encode(nil, m, false, 0)
		assert.Equal(t, []byte{0, byte(m.Kind)}, pkt, "%v: % x", m.Kind, pkt)
		got := &Empty{Kind: m.Kind}
		_, err := Decode(append(pkt, 1, 2, 3), got)
		assert.NoError(t, err, "%v with trailing bytes", m.Kind)
		checkTruncations(t, m, false, nil)
	}
	// The controller's LAUNCH request is reliable with no payload.
	h, m, err := DecodePacket([]byte{0x80, 0x0f, 0x00}, ClientToServer, false)
	e, ok := m.(*Empty)
	require.NoError(t, err, "%+v %+v", h, m)
	require.True(t, ok, "%+v %+v %v", h, m, err)
	require.Equal(t, TypeLaunch, e.Kind, "%+v %+v %v", h, m, err)
	require.True(t, h.Reliable, "%+v %+v %v", h, m, err)
	require.Equal(t, TypeKeepalive, Keepalive.Kind, "a named empty message has the wrong kind")
	require.Equal(t, TypeDisconnect, Disconnect.Kind, "a named empty message has the wrong kind")
	require.Equal(t, TypeDisconnectAck, DisconnectAck.Kind, "a named empty message has the wrong kind")
	require.Equal(t, TypeQuery, Query.Kind, "a named empty message has the wrong kind")
	require.Equal(t, TypeNATHolePunch, NATHolePunch.Kind, "a named empty message has the wrong kind")
	require.Equal(t, TypeLaunch, LaunchRequest.Kind, "a named empty message has the wrong kind")
}

func TestLaunchFromTheServerCarriesThePlayerCount(t *testing.T) {
	pkt := []byte{0x80, 0x0f, 0x01, 0x02}
	h, m, err := DecodePacket(pkt, ServerToClient, false)
	l, ok := m.(*Launch)
	require.NoError(t, err, "%+v %+v", h, m)
	require.True(t, ok, "%+v %+v %v", h, m, err)
	require.Equal(t, uint8(2), l.NumPlayers, "%+v %+v %v", h, m, err)
	require.Equal(t, uint8(1), h.Seq, "%+v %+v %v", h, m, err)
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
		got := Encode(nil, tc.m, false, 0)
		assert.Equal(t, tc.pkt, got, "%T: % x", tc.m, got)
		_, err := Decode(tc.pkt, tc.into)
		assert.NoError(t, err, "%T: %+v", tc.m, tc.into)
		assert.True(t, sameMessage(tc.into, tc.m), "%T: %+v %v", tc.m, tc.into, err)
		wantDecodeErrorAt(t, tc.pkt[:2], fresh(tc.m), 2, "ack", "need 1")
	}
}

func TestGameDataResendCarriesAFullTicNumber(t *testing.T) {
	m := &GameDataResend{Start: 0x01020309, Count: 6}
	pkt := Encode(nil, m, false, 0)
	require.Equal(t, []byte{0x00, 0x0b, 0x01, 0x02, 0x03, 0x09, 0x06}, pkt, "% x", pkt)
	offs := checkTruncations(t, m, false, nil)
	for n, want := range []int{0, 0, 2, 2, 2, 2, 6} {
		assert.Equal(t, want, offs[n], "cut at %d: offset", n)
	}
}
