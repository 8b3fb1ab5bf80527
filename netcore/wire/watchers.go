package wire

import "strconv"

// TicnetKindWatcherList: a WatcherList, server to everyone, unreliable.
const TicnetKindWatcherList = 29

// The bounds of a WatcherList: at most MaxWatcherNames names, in at most
// MaxWatcherListPages pages of at most WatcherListPageBytes of names each
// (a page fits a datagram with room to spare).
const (
	MaxWatcherNames      = 128
	MaxWatcherListPages  = 8
	WatcherListPageBytes = 900
)

// WatcherList names the copies that watch the game, for every copy to
// show: page Page (from 0) of Pages of generation Gen of the list, which
// the server counts up at each change. A copy takes a generation once it
// has every page of it. Each name is at most MaxPlayerName-1 bytes; a
// list of no watcher is one page of no name.
//
//	u8 kind ; u16 gen ; u8 page ; u8 pages ; names, each NUL-terminated, to the end
type WatcherList struct {
	Gen         uint16
	Page, Pages uint8
	Names       []string
}

func (*WatcherList) Type() Type { return TypeTicnet }

func (m *WatcherList) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindWatcherList)
	w.U16(m.Gen)
	w.U8(m.Page)
	w.U8(m.Pages)
	for _, n := range m.Names {
		w.String(n)
	}
	return w.Buf
}

func (m *WatcherList) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindWatcherList {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a watcher list")
	}
	m.Gen = r.U16("gen")
	at := r.Offset()
	m.Page, m.Pages = r.U8("page"), r.U8("pages")
	if r.err == nil && (m.Pages == 0 || m.Pages > MaxWatcherListPages || m.Page >= m.Pages) {
		r.failAt(at, "page", "page "+strconv.Itoa(int(m.Page))+" of "+strconv.Itoa(int(m.Pages)))
	}
	m.Names = m.Names[:0]
	for r.Remaining() > 0 {
		at = r.Offset()
		n := r.String("name")
		switch {
		case r.err != nil:
		case len(n) >= MaxPlayerName:
			r.failAt(at, "name", "name longer than "+strconv.Itoa(MaxPlayerName-1)+" bytes")
		case len(m.Names) == MaxWatcherNames:
			r.failAt(at, "name", "more than "+strconv.Itoa(MaxWatcherNames)+" names")
		default:
			m.Names = append(m.Names, n)
		}
	}
	return bodyErr(&r, TypeTicnet)
}

// WatcherListPages splits names into the pages of generation gen, in
// order, each holding names of at most WatcherListPageBytes in all; names
// beyond MaxWatcherNames, or that would need more than
// MaxWatcherListPages pages, are left out, and each is cut to
// MaxPlayerName-1 bytes.
func WatcherListPages(gen uint16, names []string) []WatcherList {
	pages := []WatcherList{{Gen: gen}}
	size := 0
	for i, n := range names {
		if i == MaxWatcherNames {
			break
		}
		if len(n) >= MaxPlayerName {
			n = n[:MaxPlayerName-1]
		}
		if size+len(n)+1 > WatcherListPageBytes {
			if len(pages) == MaxWatcherListPages {
				break
			}
			pages, size = append(pages, WatcherList{Gen: gen}), 0
		}
		p := &pages[len(pages)-1]
		p.Names = append(p.Names, n)
		size += len(n) + 1
	}
	for i := range pages {
		pages[i].Page, pages[i].Pages = uint8(i), uint8(len(pages))
	}
	return pages
}
