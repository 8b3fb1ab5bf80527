package wire

import "strconv"

// TicnetKindStateFeed: a StateFeed, server to a copy that holds the game
// state and to a watcher, and a watcher to the server, reliable.
const TicnetKindStateFeed = 27

// StateFeed names the two ends of a state streamed straight from a copy in
// the game to a watcher that joins, not through the server (whose uplink
// then carries no watcher's state). To the copy in the game, it asks for
// the game state before tic Tic, or before a later tic if it has run Tic
// already, as a SnapshotRequest does, to be streamed as stream Stream to
// the watcher at To; to the watcher, it says that its state comes as
// stream Stream from the copy at To (0: the server relays it). From a
// watcher to the server, it says that the stream Stream from To stalled
// (its feeder went, most likely): another is to feed it. The stream's
// frames, both ways, carry Tag, the tag of the watcher's connection
// (ConnTag): each end takes from the other only frames of that tag.
//
//	u8 kind ; u32 tic ; u32 stream ; u32 to ; u8 tag
type StateFeed struct {
	Tic, Stream, To uint32
	Tag             uint8
}

func (*StateFeed) Type() Type { return TypeTicnet }

func (m *StateFeed) AppendBody(dst []byte) []byte {
	w := Writer{Buf: appendTicBody(dst, TicnetKindStateFeed, m.Tic)}
	w.U32(m.Stream)
	w.U32(m.To)
	w.U8(m.Tag)
	return w.Buf
}

func (m *StateFeed) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindStateFeed {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a state feed")
	}
	m.Tic, m.Stream, m.To = r.U32("tic"), r.U32("stream"), r.U32("to")
	at := r.Offset()
	if m.Tag = r.U8("tag"); r.err == nil && (m.Tag == 0 || m.Tag > 127) {
		r.failAt(at, "tag", "tag "+strconv.Itoa(int(m.Tag))+" is not a connection's")
	}
	return bodyErr(&r, TypeTicnet)
}
