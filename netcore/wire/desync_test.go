package wire

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A desync names its tic and at least one player; one that names none, or
// is cut short, is an error naming the field.
func TestADesyncNamesItsTicAndItsPlayers(t *testing.T) {
	m := Desync{Tic: 0x01020304, Players: 0b101}
	body := m.AppendBody(nil)
	require.Equal(t, []byte{TicnetKindDesync, 1, 2, 3, 4, 0b101}, body, "the body: kind, tic (big-endian), players")
	var got Desync
	require.NoError(t, got.DecodeBody(body))
	require.Equal(t, m, got)
	var de *DecodeError
	none := append(body[:5:5], 0)
	require.ErrorAs(t, got.DecodeBody(none), &de)
	require.Equal(t, "players", de.Field, "a desync of no player: %v", de)
	require.ErrorAs(t, got.DecodeBody(body[:5]), &de)
	require.Equal(t, "players", de.Field, "a desync cut short: %v", de)
}
