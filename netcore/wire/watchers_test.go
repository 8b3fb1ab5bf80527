package wire

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A watcher list is its generation, page, pages and names, each
// NUL-terminated, in order. A page past the last, no page, a name too
// long, or too many names is an error naming the field.
func TestAWatcherListIsItsFieldsInOrder(t *testing.T) {
	var de *DecodeError
	m := WatcherList{Gen: 0x0102, Page: 1, Pages: 2, Names: []string{"ann", "", "bo"}}
	body := m.AppendBody(nil)
	require.Equal(t, []byte{TicnetKindWatcherList, 1, 2, 1, 2, 'a', 'n', 'n', 0, 0, 'b', 'o', 0}, body)
	var got WatcherList
	require.NoError(t, got.DecodeBody(body))
	require.Equal(t, m, got)
	empty := WatcherList{Pages: 1}
	require.NoError(t, got.DecodeBody(empty.AppendBody(nil)))
	require.Empty(t, got.Names, "a list of no watcher")
	for _, bad := range []WatcherList{{Page: 2, Pages: 2}, {Pages: 0}, {Pages: MaxWatcherListPages + 1}} {
		require.ErrorAs(t, got.DecodeBody(bad.AppendBody(nil)), &de)
		require.Equal(t, "page", de.Field, "%+v: %v", bad, de)
	}
	long := WatcherList{Pages: 1, Names: []string{strings.Repeat("x", MaxPlayerName)}}
	require.ErrorAs(t, got.DecodeBody(long.AppendBody(nil)), &de)
	require.Equal(t, "name", de.Field, "a name too long: %v", de)
	many := WatcherList{Pages: 1, Names: make([]string, MaxWatcherNames+1)}
	require.ErrorAs(t, got.DecodeBody(many.AppendBody(nil)), &de)
	require.Equal(t, "name", de.Field, "too many names: %v", de)
	require.ErrorAs(t, got.DecodeBody(body[:len(body)-1]), &de)
	require.Equal(t, "name", de.Field, "a name cut short: %v", de)
}

// The pages of a list hold every name, in order, each page at most
// WatcherListPageBytes of names: 128 names of the longest take 5 pages,
// every one of which decodes; a name too long is cut, and names past
// MaxWatcherNames are left out.
func TestAWatcherListSplitsIntoPagesThatFitADatagram(t *testing.T) {
	var names []string
	for i := range MaxWatcherNames + 3 {
		names = append(names, strings.Repeat(string(rune('a'+i%26)), MaxPlayerName+4))
	}
	pages := WatcherListPages(7, names)
	require.Len(t, pages, 5)
	var all []string
	for i, p := range pages {
		require.Equal(t, WatcherList{Gen: 7, Page: uint8(i), Pages: 5, Names: p.Names}, p)
		body := p.AppendBody(nil)
		require.LessOrEqual(t, len(body)-5, WatcherListPageBytes, "page %d's names", i)
		var got WatcherList
		require.NoError(t, got.DecodeBody(body), "page %d", i)
		all = append(all, got.Names...)
	}
	require.Len(t, all, MaxWatcherNames)
	for i, n := range all {
		require.Equal(t, names[i][:MaxPlayerName-1], n, "name %d", i)
	}
	require.Equal(t, []WatcherList{{Gen: 3, Pages: 1}}, WatcherListPages(3, nil), "no watcher")
}
