package wire

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A repair's messages: the stream, the tic, and the report of a repair
// with its player, tic, bytes and time; a player past the last, a body
// cut short or another kind is an error naming the field.
func TestARepairsMessagesAreTheirFieldsInOrder(t *testing.T) {
	var de *DecodeError
	r := Repair{Stream: 0x01020304}
	require.Equal(t, []byte{TicnetKindRepair, 1, 2, 3, 4}, r.AppendBody(nil))
	var gotR Repair
	require.NoError(t, gotR.DecodeBody(r.AppendBody(nil)))
	require.Equal(t, r, gotR)
	require.ErrorAs(t, gotR.DecodeBody([]byte{TicnetKindRepairDone, 1, 2, 3, 4}), &de)
	require.Equal(t, "kind", de.Field, "another kind: %v", de)
	require.ErrorAs(t, gotR.DecodeBody([]byte{TicnetKindRepair, 1, 2}), &de)
	require.Equal(t, "stream", de.Field, "cut short: %v", de)

	d := RepairDone{Tic: 70000, Bytes: 258, From: 70010}
	require.Equal(t, []byte{TicnetKindRepairDone, 0, 1, 0x11, 0x70, 0, 0, 1, 2, 0, 1, 0x11, 0x7a}, d.AppendBody(nil))
	var gotD RepairDone
	require.NoError(t, gotD.DecodeBody(d.AppendBody(nil)))
	require.Equal(t, d, gotD)
	require.ErrorAs(t, gotD.DecodeBody([]byte{TicnetKindRepairDone, 0, 1}), &de)
	require.Equal(t, "tic", de.Field, "cut short: %v", de)
	require.ErrorAs(t, gotD.DecodeBody([]byte{TicnetKindRepairDone, 0, 1, 0x11, 0x70, 0}), &de)
	require.Equal(t, "bytes", de.Field, "cut short: %v", de)
	require.ErrorAs(t, gotD.DecodeBody([]byte{TicnetKindRepairDone, 0, 1, 0x11, 0x70, 0, 0, 1, 2, 0}), &de)
	require.Equal(t, "from", de.Field, "cut short: %v", de)

	m := Repaired{Player: 3, Tic: 1000, Bytes: 65536, MS: 420}
	body := m.AppendBody(nil)
	require.Equal(t, []byte{TicnetKindRepaired, 3, 0, 0, 3, 0xe8, 0, 1, 0, 0, 0, 0, 1, 0xa4}, body)
	var got Repaired
	require.NoError(t, got.DecodeBody(body))
	require.Equal(t, m, got)
	bad := append([]byte(nil), body...)
	bad[1] = MaxPlayers
	require.ErrorAs(t, got.DecodeBody(bad), &de)
	require.Equal(t, "player", de.Field, "player 8: %v", de)
	require.ErrorAs(t, got.DecodeBody(body[:len(body)-1]), &de)
	require.Equal(t, "ms", de.Field, "cut short: %v", de)
}
