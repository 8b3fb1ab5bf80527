package wire

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// An input delay is one byte of tics, at most MaxInputDelay; more, or none,
// is an error naming the field.
func TestAnInputDelayIsItsTicsAndNoMoreThanTheMost(t *testing.T) {
	m := InputDelay{Tics: 4}
	body := m.AppendBody(nil)
	require.Equal(t, []byte{TicnetKindInputDelay, 4}, body, "the body: kind, tics")
	var got InputDelay
	require.NoError(t, got.DecodeBody(body))
	require.Equal(t, m, got)
	var de *DecodeError
	require.ErrorAs(t, got.DecodeBody([]byte{TicnetKindInputDelay, MaxInputDelay + 1}), &de)
	require.Equal(t, "tics", de.Field, "too long a delay: %v", de)
	require.ErrorAs(t, got.DecodeBody(body[:1]), &de)
	require.Equal(t, "tics", de.Field, "cut short: %v", de)
	require.ErrorAs(t, got.DecodeBody([]byte{TicnetKindGameOver, 4}), &de)
	require.Equal(t, "kind", de.Field, "another kind: %v", de)
}
