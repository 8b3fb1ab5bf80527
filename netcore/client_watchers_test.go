package netcore

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ticnet/ticnet/netcore/wire"
)

// A list of the watchers' names counts once every page of its generation
// came, in any order; a page of another generation starts the list
// again; a repeat of a list is taken whole again; names are kept
// printable; a page that does not decode changes nothing.
func TestAWatcherListCountsOnceEveryPageOfItsGenerationCame(t *testing.T) {
	var wb watcherBook
	page := func(m wire.WatcherList) []byte { return m.AppendBody(nil) }
	require.NoError(t, wb.take(page(wire.WatcherList{Gen: 1, Page: 1, Pages: 2, Names: []string{"cy"}})))
	require.Nil(t, wb.names, "one page of two")
	require.NoError(t, wb.take(page(wire.WatcherList{Gen: 2, Page: 0, Pages: 2, Names: []string{"al"}})))
	require.Nil(t, wb.names, "a page of another generation: the first one's page is dropped")
	require.NoError(t, wb.take(page(wire.WatcherList{Gen: 2, Page: 1, Pages: 2, Names: []string{"b\x01o", "cy"}})))
	require.Equal(t, []string{"al", "bo", "cy"}, wb.names, "every page of generation 2")
	kept := wb.names
	require.NoError(t, wb.take(page(wire.WatcherList{Gen: 2, Page: 1, Pages: 2, Names: []string{"zz"}})))
	require.Equal(t, []string{"al", "bo", "cy"}, wb.names, "half a repeat")
	require.Error(t, wb.take([]byte{wire.TicnetKindWatcherList, 0, 3, 5, 1}), "page 5 of 1")
	require.NoError(t, wb.take(page(wire.WatcherList{Gen: 3, Pages: 1})))
	require.Empty(t, wb.names, "no watcher")
	require.Equal(t, []string{"al", "bo", "cy"}, kept, "a list given out is never changed")
}
