package wire

import "strconv"

// TicnetKindTicSource: a TicSource, server to a watcher and to the copy
// that answers it, reliable.
const TicnetKindTicSource = 28

// TicSource names the copy a watcher asks for the tics it misses, so that
// the server's uplink does not carry them (a watcher on a lossy link
// misses a share of the tic sets every copy takes). To the watcher, it
// names that copy, at To (0: the server, as before one was named); to the
// copy, with Serve set, the watcher at To it answers. The watcher asks
// with a TicFetch and is answered with a TicSet of the confirmed tics the
// copy holds; those frames, both ways, carry Tag, the tag of the
// watcher's connection (ConnTag), and each end takes from the other only
// frames of that tag.
//
//	u8 kind ; u32 to ; u8 tag ; u8 serve (0 or 1)
type TicSource struct {
	To    uint32
	Tag   uint8
	Serve bool
}

func (*TicSource) Type() Type { return TypeTicnet }

func (m *TicSource) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindTicSource)
	w.U32(m.To)
	w.U8(m.Tag)
	var serve uint8
	if m.Serve {
		serve = 1
	}
	w.U8(serve)
	return w.Buf
}

func (m *TicSource) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindTicSource {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a tic source")
	}
	m.To = r.U32("to")
	at := r.Offset()
	if m.Tag = r.U8("tag"); r.err == nil && (m.Tag == 0 || m.Tag > 127) {
		r.failAt(at, "tag", "tag "+strconv.Itoa(int(m.Tag))+" is not a connection's")
	}
	at = r.Offset()
	switch serve := r.U8("serve"); {
	case r.err != nil:
	case serve > 1:
		r.failAt(at, "serve", "serve "+strconv.Itoa(int(serve))+" is not 0 or 1")
	default:
		m.Serve = serve == 1
	}
	return bodyErr(&r, TypeTicnet)
}
