package wire

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	require.True(t, bytes.HasSuffix(pkt, tail), "% x", pkt)
	got := &QueryResponse{}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%+v", got)
	require.True(t, sameMessage(got, with), "%+v %v", got, err)
	// Older servers end after the description: no list, and none re-encoded.
	without := queryResponseFixture()
	without.HasProtocols, without.Protocols = false, nil
	short := pkt[:len(pkt)-len(tail)]
	_, err = Decode(short, got)
	require.NoError(t, err, "%+v", got)
	require.False(t, got.HasProtocols, "%+v %v", got, err)
	require.Equal(t, 0, len(got.Protocols), "%+v %v", got, err)
	require.True(t, sameMessage(got, without), "%+v %v", got, err)
	require.Equal(t, short, Encode(nil, got, false, 0), "a response without a list re-encoded with one")
	// An empty list is a list.
	empty := queryResponseFixture()
	empty.Protocols = nil
	_, err = Decode(Encode(nil, empty, false, 0), got)
	require.NoError(t, err, "%+v", got)
	require.True(t, got.HasProtocols, "%+v %v", got, err)
	require.Equal(t, 0, len(got.Protocols), "%+v %v", got, err)
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
	require.Equal(t, -1, offs[listAt], "the response without its list did not decode")
	for n := listAt + 1; n < len(pkt); n++ {
		if n == listAt+1 {
			assert.Equal(t, listAt, offs[n], "cut at %d: offset %d, want the count at %d", n, offs[n], listAt)
		}
		if n > listAt+1 {
			assert.Equal(t, listAt+1, offs[n], "cut at %d: offset %d, want the name at %d", n, offs[n], listAt+1)
		}
	}
	// The fixed fields: version at 2, then one byte each from 23, then the
	// description from 28.
	for n, want := range map[int]int{2: 2, 22: 2, 23: 23, 27: 27, 28: 28, listAt - 1: 28} {
		assert.Equal(t, want, offs[n], "cut at %d: offset", n)
	}
}
