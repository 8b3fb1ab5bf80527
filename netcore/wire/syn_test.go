package wire

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Debian client's SYN (vectors-run1, packet #1).
const synVectorHex = "000056abe18c43686f636f6c61746520446f6f6d20332e302e30000143484f434f4c4154455f444f4f4d5f30000201000004010f9caf3cac3392deea003d3159a14f6156bd7a46daaf56c1dcc08a2e7668814811b2cab0cc7d52c15b4772756d7079204d616e637562757300"

func TestSYNDecodesTheDebianClientsRequest(t *testing.T) {
	pkt := mustHex(t, synVectorHex)
	m := &SYN{}
	h, err := Decode(pkt, m)
	require.NoError(t, err, "%v %v", h, err)
	require.False(t, h.Reliable, "%v %v", h, err)
	wad := mustHex(t, "0f9caf3cac3392deea003d3159a14f6156bd7a46")
	require.Equal(t, Magic, m.Magic, "%+v", m)
	require.Equal(t, "Chocolate Doom 3.0.0", m.Version, "%+v", m)
	require.Equal(t, 1, len(m.Protocols), "%+v", m)
	require.Equal(t, ProtocolChocolate, m.Protocols[0], "%+v", m)
	require.Equal(t, uint8(ModeCommercial), m.Connect.GameMode, "%+v", m)
	require.Equal(t, uint8(MissionDoom2), m.Connect.GameMission, "%+v", m)
	require.False(t, m.Connect.LowResTurn, "%+v", m)
	require.False(t, m.Connect.Drone, "%+v", m)
	require.Equal(t, uint8(4), m.Connect.MaxPlayers, "%+v", m)
	require.Equal(t, uint8(1), m.Connect.IsFreedoom, "%+v", m)
	require.Equal(t, wad, m.Connect.WADSHA1[:], "%+v", m)
	require.Equal(t, uint8(0x5b), m.Connect.PlayerClass, "%+v", m)
	require.Equal(t, "Grumpy Mancubus", m.PlayerName, "%+v", m)
	got := Encode(nil, m, false, 0)
	require.Equal(t, pkt, got, "re-encoded % x", got)
}

func TestSYNRefusesMoreThan16Protocols(t *testing.T) {
	body := []byte{0x56, 0xab, 0xe1, 0x8c, 'v', 0}
	body = append(body, 17)
	body = append(body, bytes.Repeat([]byte{'p', 0}, 17)...)
	body = append(body, make([]byte, 47+2)...)
	pkt := append([]byte{0, 0}, body...)
	wantDecodeErrorAt(t, pkt, &SYN{}, 8, "num_protocols", "17 protocols > limit 16")
	// 16 is the limit and decodes.
	pkt[8] = 16
	m := &SYN{}
	_, err := Decode(pkt[:len(pkt)-2], m)
	require.NoError(t, err, "16 protocols: %v, %d", err, len(m.Protocols))
	require.Equal(t, 16, len(m.Protocols), "16 protocols: %v, %d", err, len(m.Protocols))
}

func TestSYNRefusesAProtocolCountLargerThanTheBytesLeft(t *testing.T) {
	// 10 names need at least 10 NULs: 3 bytes left cannot hold them.
	pkt := []byte{0, 0, 0x56, 0xab, 0xe1, 0x8c, 'v', 0, 10, 'a', 0, 0}
	wantDecodeErrorAt(t, pkt, &SYN{}, 8, "num_protocols", "cannot fit")
}

func TestSYNCarriesTheOldMagicAndGarbageAsData(t *testing.T) {
	// The decoder does not judge: the server answers the old magic with
	// REJECTED, and player_class is whatever the client left there.
	m := &SYN{Magic: OldMagic, Version: "Chocolate Doom 2.3.0", Protocols: nil, PlayerName: "x",
		Connect: ConnectData{GameMode: 0xee, GameMission: 0xdd, MaxPlayers: 200, PlayerClass: 0x5b}}
	got := &SYN{}
	_, err := Decode(Encode(nil, m, false, 0), got)
	require.NoError(t, err, "%+v", got)
	require.True(t, sameMessage(got, m), "%+v, %v", got, err)
}

func TestSYNConnectFlagsDecodeAnyNonZeroByteAsTrue(t *testing.T) {
	pkt := mustHex(t, synVectorHex)
	pkt[47], pkt[48] = 2, 0xff // lowres_turn, drone
	m := &SYN{}
	_, err := Decode(pkt, m)
	require.NoError(t, err, "%+v", m.Connect)
	require.True(t, m.Connect.LowResTurn, "%+v, %v", m.Connect, err)
	require.True(t, m.Connect.Drone, "%+v, %v", m.Connect, err)
}

func TestSYNTruncatedAtEveryLengthFailsInsideThePacket(t *testing.T) {
	m := &SYN{}
	_, err := Decode(mustHex(t, synVectorHex), m)
	require.NoError(t, err)
	offs := checkTruncations(t, m, false, nil)
	// Spot checks: the field being read when the bytes ran out.
	for n, want := range map[int]int{0: 0, 2: 2, 5: 2, 6: 6, 26: 6, 27: 27, 28: 27, 45: 45, 50: 50, 51: 51, 70: 51, 71: 71, 91: 91, 92: 92, 107: 92} {
		assert.Equal(t, want, offs[n], "cut at %d: error at", n)
	}
}

func TestSYNReplyDecodesTheServersAnswerAndFailsWhenCut(t *testing.T) {
	pkt := mustHex(t, "80000043686f636f6c61746520446f6f6d20332e302e300043484f434f4c4154455f444f4f4d5f3000")
	h, m, err := DecodePacket(pkt, ServerToClient, false)
	r, ok := m.(*SYNReply)
	require.NoError(t, err, "%+v %+v", h, m)
	require.True(t, ok, "%+v %+v %v", h, m, err)
	require.True(t, h.Reliable, "%+v %+v %v", h, m, err)
	require.Equal(t, uint8(0), h.Seq, "%+v %+v %v", h, m, err)
	require.Equal(t, "Chocolate Doom 3.0.0", r.Version, "%+v %+v %v", h, m, err)
	require.Equal(t, ProtocolChocolate, r.Protocol, "%+v %+v %v", h, m, err)
	offs := checkTruncations(t, r, true, nil)
	require.Equal(t, 3, offs[3], "offsets %v", offs)
	require.Equal(t, 3, offs[23], "offsets %v", offs)
	require.Equal(t, 24, offs[24], "offsets %v", offs)
	require.Equal(t, 24, offs[40], "offsets %v", offs)
}
