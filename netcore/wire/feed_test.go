package wire

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A state feed is its tic, stream, watcher and the watcher's connection
// tag. A body cut short, another kind, or a tag no connection has (0, or
// a term's) is an error naming the field.
func TestAStateFeedIsItsFieldsInOrder(t *testing.T) {
	var de *DecodeError
	m := StateFeed{Tic: 0x010203, Stream: 7, To: 0x1004, Tag: ConnTag(254)}
	body := m.AppendBody(nil)
	require.Equal(t, []byte{TicnetKindStateFeed, 0, 1, 2, 3, 0, 0, 0, 7, 0, 0, 0x10, 4, 1}, body)
	var got StateFeed
	require.NoError(t, got.DecodeBody(body))
	require.Equal(t, m, got)
	body[0] = TicnetKindStatesRequest
	require.ErrorAs(t, got.DecodeBody(body), &de)
	require.Equal(t, "kind", de.Field, "another kind: %v", de)
	body[0] = TicnetKindStateFeed
	require.ErrorAs(t, got.DecodeBody(body[:13]), &de)
	require.Equal(t, "tag", de.Field, "cut short: %v", de)
	for _, tag := range []byte{0, TermTag(3)} {
		body[13] = tag
		require.ErrorAs(t, got.DecodeBody(body), &de)
		require.Equal(t, "tag", de.Field, "tag %d: %v", tag, de)
	}
}
