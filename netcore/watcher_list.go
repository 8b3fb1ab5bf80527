package netcore

import (
	"slices"

	"github.com/ticnet/ticnet/netcore/wire"
)

// The watchers' names, under the extension: the server broadcasts them
// to every copy (wire.WatcherList), once for all, unreliable, so that a
// page can show who watches (Event.WatcherNames): the players send no
// frame more for it, and the server one per page, however many copies
// hear it. A change goes out within WatcherListMS, and the list again
// every WatcherListRefreshMS, for the copies that came since or lost it.

// WatcherListMS is how often at most the server broadcasts the watchers'
// names: watchers that come and go within it cost one list.
const WatcherListMS = 2000

// WatcherListRefreshMS is how often the server broadcasts the names
// again, unchanged, while any copy watches or has watched the game.
const WatcherListRefreshMS = 10000

// watcherList is the server's list of the watchers' names.
type watcherList struct {
	s       *Server
	gen     uint16
	names   []string // as last sent
	sentMS  int64
	sent    bool
	checkMS int64
	cur     []string // scratch
	order   []*serverClient
}

// pass broadcasts the list when it changed, at most every WatcherListMS,
// or every WatcherListRefreshMS; it looks every SourceCheckMS.
func (wl *watcherList) pass(now int64) {
	if wl.sent && now-wl.sentMS < WatcherListMS || now-wl.checkMS < SourceCheckMS {
		return
	}
	wl.checkMS = now
	wl.cur = wl.current(wl.cur[:0])
	changed := !slices.Equal(wl.cur, wl.names)
	switch {
	case changed:
		wl.gen++
		wl.names = append(wl.names[:0], wl.cur...)
	case !wl.sent && len(wl.cur) == 0, wl.sent && now-wl.sentMS < WatcherListRefreshMS:
		return
	}
	wl.sent, wl.sentMS = true, now
	for _, p := range wire.WatcherListPages(wl.gen, wl.names) {
		wl.s.broadcast(&p)
	}
}

// current appends the names of the watchers in the game to dst, in the
// order they connected.
func (wl *watcherList) current(dst []string) []string {
	wl.order = wl.order[:0]
	for _, sc := range wl.s.slots {
		if sc != nil && sc.connected() && sc.watcher() && sc.phase == slotPlaying {
			wl.order = append(wl.order, sc)
		}
	}
	slices.SortStableFunc(wl.order, func(a, b *serverClient) int { return int(a.connectMS - b.connectMS) })
	for _, sc := range wl.order {
		dst = append(dst, sc.name)
	}
	return dst
}
