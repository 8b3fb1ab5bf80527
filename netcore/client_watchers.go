package netcore

import "github.com/ticnet/ticnet/netcore/wire"

// watcherBook is the watchers' names as the server last listed them
// (wire.WatcherList; watcher_list.go): a list counts once every page of
// its generation came. Names are kept printable (wire.Printable), for a
// page to show.
type watcherBook struct {
	gen   uint16
	pages uint8
	have  uint16 // bit i: page i of gen came
	parts [wire.MaxWatcherListPages][]string
	names []string // the last list complete
	in    wire.WatcherList
}

// take takes a page of the list.
func (wb *watcherBook) take(body []byte) error {
	m := &wb.in
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if m.Gen != wb.gen || m.Pages != wb.pages {
		wb.gen, wb.pages, wb.have = m.Gen, m.Pages, 0
	}
	wb.parts[m.Page] = append(wb.parts[m.Page][:0], m.Names...)
	wb.have |= 1 << m.Page
	if wb.have == 1<<wb.pages-1 {
		names := []string{} // a new slice: events keep the last
		for _, part := range wb.parts[:wb.pages] {
			for _, n := range part {
				names = append(names, wire.Printable(n))
			}
		}
		wb.names = names
		wb.have = 0 // the next list of this generation, a repeat, is taken whole again
	}
	return nil
}
