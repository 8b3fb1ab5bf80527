package wire

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewMessagePicksTheLayoutByTypeReliabilityAndDirection(t *testing.T) {
	ctx := Context{LowResTurn: true, InputSize: 4, Ext: true, Near: 70000}
	// What each message takes of the context; the others take nothing.
	takes := map[string]Context{
		"*wire.ClientGameData": ctx,
		"*wire.ServerGameData": {LowResTurn: true, InputSize: 4},
		"*wire.TicSet":         {LowResTurn: true, InputSize: 4, Near: 70000},
	}
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
		m, err := NewMessageIn(tc.h, tc.body, tc.dir, ctx)
		if !assert.NoError(t, err, "%+v %v", tc.h, tc.dir) {
			continue
		}
		got := fmt.Sprintf("%T", m)
		if e, ok := m.(*Empty); ok {
			got += " " + e.Kind.String()
		}
		assert.Equal(t, tc.want, got, "%+v %v: %s (type %v), want %s", tc.h, tc.dir, got, m.Type(), tc.want)
		assert.Equal(t, tc.h.Type, m.Type(), "%+v %v: %s (type %v), want %s", tc.h, tc.dir, got, m.Type(), tc.want)
		c := contextOf(m)
		assert.Equal(t, takes[got], c, "%s: context", got)
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
		assert.Equal(t, tc.off, de.Offset, "% x: %v, want %s at %d", tc.pkt, err, tc.field, tc.off)
		assert.Equal(t, tc.field, de.Field, "% x: %v, want %s at %d", tc.pkt, err, tc.field, tc.off)
	}
}

func TestDecodePacketInReturnsTheHeaderAndTheMessageEncodedInItsContext(t *testing.T) {
	g := newGen(21)
	for range 200 {
		for _, m := range g.messages() {
			reliable := g.bool()
			if _, ok := m.(*SYNReply); ok {
				reliable = true
			} else if _, ok := m.(*SYN); ok {
				reliable = false
			}
			seq := g.u8()
			pkt := Encode(nil, m, reliable, seq)
			h, got, err := DecodePacketIn(pkt, directionOf(m), contextOf(m))
			require.NoError(t, err, "%T", m)
			require.Equal(t, m.Type(), h.Type, "%T: header %+v", m, h)
			require.Equal(t, reliable, h.Reliable, "%T: header %+v", m, h)
			if reliable {
				require.Equal(t, seq, h.Seq, "%T: header %+v", m, h)
			}
			require.True(t, sameMessage(got, m), "%T: got %+v\nwant %+v", m, got, m)
		}
	}
}

// A session under the extension: its clients' GAMEDATA has no latency and
// ends with a checksum report, and its tic sets start past 32 767. Given
// what the session learned they decode as encoded; without it the
// GAMEDATA reads in the reference's layout and the starts expand near 0.
func TestDecodePacketInReadsExtensionGameDataAndLargeTicSetStarts(t *testing.T) {
	gd := &ClientGameData{Ext: true, Near: 70010, Ack: 1, Start: 2, Tics: []ClientTic{
		{Diff: TicDiff{Flags: DiffForward, Cmd: TicCmd{ForwardMove: 5}}}, {Diff: TicDiff{Flags: DiffTurn, Cmd: TicCmd{AngleTurn: 0x1234}}}},
		Report: ChecksumReport{Start: 70000, Sums: []uint16{0xabcd, 2}}}
	pkt := Encode(nil, gd, false, 0)
	_, got, err := DecodePacketIn(pkt, ClientToServer, Context{Ext: true, Near: 70010})
	require.NoError(t, err, "GAMEDATA: %+v", got)
	require.True(t, sameMessage(got, gd), "GAMEDATA: %+v %v", got, err)
	_, got, err = DecodePacket(pkt, ClientToServer, false)
	if err == nil {
		require.False(t, sameMessage(got, gd), "GAMEDATA under the extension decodes without its context")
	}
	for _, c := range []struct{ start, near uint32 }{{70000, 69990}, {70000, 70000 + 32767}, {40000, 39000}, {1 << 31, 1<<31 - 5}} {
		set := &TicSet{Start: c.start, Near: c.near, Tics: []SetTic{{ServerTic: ServerTic{InGame: 1}}}}
		pkt := Encode(nil, set, false, 0)
		_, got, err := DecodePacketIn(pkt, ServerToClient, Context{Near: c.near})
		require.NoError(t, err, "start %d near %d: %+v", c.start, c.near, got)
		require.True(t, sameMessage(got, set), "start %d near %d: %+v %v", c.start, c.near, got, err)
		_, got, err = DecodePacket(pkt, ServerToClient, false)
		require.NoError(t, err, "start %d without a context: %+v", c.start, got)
		require.NotEqual(t, c.start, got.(*TicSet).Start, "start %d without a context: %+v %v", c.start, got, err)
	}
}
