package netcore

import (
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// State feeds, under the extension (watchers.go): a copy in the game
// streams its state straight to a watcher that joins (wire.StateFeed),
// and the watcher, while it joins, takes a stream of its connection's tag
// from whoever sends it (joinSide.takeFeed). Both ways, the feed's frames
// carry the watcher's tag: the feeding copy tags what it sends to the
// watcher with it, and takes the watcher's acknowledgements by it; the
// watcher tags them as every frame of its connection.

// feed is a watcher this copy streams its state to.
type feed struct {
	to     link.Addr
	tag    uint8
	stream uint32
}

// feedSide is the watchers this copy feeds: at most MaxFeeds.
type feedSide struct {
	c     *Client
	feeds []feed
	buf   []byte // scratch for a frame tagged or untagged
}

// onStateFeed takes the server's word on a state feed: to a watcher that
// joins, the copy its state comes from (joinSide.feedFrom); to a copy in
// the game, a request to stream the state to a watcher, as a
// SnapshotRequest: the state before the tic asked for, or before the next
// this copy runs if it is past it.
func (fs *feedSide) onStateFeed(body []byte) error {
	c := fs.c
	var m wire.StateFeed
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	to := link.Addr(m.To)
	if st := c.phase.state(); st == ClientWaitingLaunch || c.phase.joining() {
		return c.join.feedFrom(c.nowMS, to, m.Tag, m.Stream)
	}
	if c.phase.state() != ClientInGame || to == c.server || to == link.Broadcast {
		return errUnexpected{}
	}
	if i := fs.find(to); i >= 0 {
		// A new state for the same watcher (its handshake outlasted
		// JoinSnapshotMaxAgeTics): it replaces the one on its way.
		c.xfer.CancelSend(c.nowMS, to, fs.feeds[i].stream, wire.TransferReasonCancelled)
		c.join.unsave(to)
		fs.drop(to)
	}
	if len(fs.feeds) >= MaxFeeds {
		return errUnexpected{}
	}
	at := max(m.Tic, c.loop.tl.GameTic())
	if !c.join.save(at, m.Stream, to) {
		return errUnexpected{} // the watcher's state does not come, and it gives up
	}
	fs.feeds = append(fs.feeds, feed{to: to, tag: m.Tag, stream: m.Stream})
	return nil
}

func (fs *feedSide) find(to link.Addr) int {
	for i := range fs.feeds {
		if fs.feeds[i].to == to {
			return i
		}
	}
	return -1
}

// tag returns pkt as it goes to to: with the tag of the feed to to, or,
// to a copy that feeds this one, this connection's own.
func (fs *feedSide) tag(to link.Addr, pkt []byte) []byte {
	c := fs.c
	tag := wire.ConnTag(c.conn.Ident().Conn)
	if i := fs.find(to); i >= 0 {
		tag = fs.feeds[i].tag
	}
	fs.buf = append(fs.buf[:0], pkt...)
	wire.SetTag(fs.buf, tag)
	return fs.buf
}

// take takes a frame from a watcher this copy feeds, by the feed's tag: a
// bulk-stream frame goes to the stream. It reports whether the frame was
// the feed's.
func (fs *feedSide) take(now int64, from link.Addr, pkt []byte) bool {
	c := fs.c
	i := fs.find(from)
	if i < 0 || wire.TagOf(pkt) != fs.feeds[i].tag {
		return false
	}
	body, ok := fs.untag(pkt)
	if !ok {
		c.stats.Unexpected++
		return true
	}
	if ev, ok := c.xfer.Handle(now, from, body); ok {
		fs.onTransfer(ev)
	}
	return true
}

// untag returns the body of a tagged bulk-stream frame, its tag cleared;
// false for any other frame.
func (fs *feedSide) untag(pkt []byte) ([]byte, bool) {
	body, ok := peerBody(&fs.buf, pkt)
	return body, ok && wire.IsTransferKind(body[0])
}

// peerBody returns the body of an unreliable extension frame of another
// copy (a state feed's, a tic source's), its tag cleared, in *buf; false
// for any other frame.
func peerBody(buf *[]byte, pkt []byte) ([]byte, bool) {
	*buf = append((*buf)[:0], pkt...)
	wire.SetTag(*buf, 0)
	h, body, err := wire.ParseHeader(*buf)
	if err != nil || h.Type != wire.TypeTicnet || h.Reliable || len(body) == 0 {
		return nil, false
	}
	return body, true
}

// onTransfer forgets a feed whose stream ended: delivered, or dropped
// (the watcher went; it stopped acknowledging for the stall deadline).
func (fs *feedSide) onTransfer(ev transfer.Event) bool {
	if !ev.Outgoing {
		return false
	}
	i := fs.find(ev.Peer)
	if i < 0 || fs.feeds[i].stream != ev.Stream {
		return false
	}
	fs.feeds = append(fs.feeds[:i], fs.feeds[i+1:]...)
	return true
}

// drop forgets the feed to to: its state could not be sent.
func (fs *feedSide) drop(to link.Addr) {
	if i := fs.find(to); i >= 0 {
		fs.feeds = append(fs.feeds[:i], fs.feeds[i+1:]...)
	}
}
