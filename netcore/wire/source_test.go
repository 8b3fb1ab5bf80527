package wire

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A tic source is its copy's address, the watcher's connection tag and
// whether the copy is to serve. A body cut short, another kind, a tag no
// connection has (0, or a term's) or a serve byte other than 0 or 1 is
// an error naming the field.
func TestATicSourceIsItsFieldsInOrder(t *testing.T) {
	var de *DecodeError
	for _, m := range []TicSource{{To: 0x1004, Tag: ConnTag(254)}, {To: 7, Tag: 127, Serve: true}} {
		body := m.AppendBody(nil)
		var got TicSource
		require.NoError(t, got.DecodeBody(body))
		require.Equal(t, m, got)
	}
	m := TicSource{To: 0x01020304, Tag: ConnTag(254), Serve: true}
	body := m.AppendBody(nil)
	require.Equal(t, []byte{TicnetKindTicSource, 1, 2, 3, 4, 1, 1}, body)
	var got TicSource
	body[0] = TicnetKindStateFeed
	require.ErrorAs(t, got.DecodeBody(body), &de)
	require.Equal(t, "kind", de.Field, "another kind: %v", de)
	body[0] = TicnetKindTicSource
	require.ErrorAs(t, got.DecodeBody(body[:6]), &de)
	require.Equal(t, "serve", de.Field, "cut short: %v", de)
	for _, tag := range []byte{0, TermTag(3)} {
		body[5] = tag
		require.ErrorAs(t, got.DecodeBody(body), &de)
		require.Equal(t, "tag", de.Field, "tag %d: %v", tag, de)
	}
	body[5], body[6] = 1, 2
	require.ErrorAs(t, got.DecodeBody(body), &de)
	require.Equal(t, "serve", de.Field, "serve 2: %v", de)
}
