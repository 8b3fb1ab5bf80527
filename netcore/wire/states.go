package wire

import "strconv"

// TicnetKindStatesRequest: a StatesRequest, client to server and server
// to client, reliable.
const TicnetKindStatesRequest = 26

// StatesRequestStreamBit marks the streams a client names in its
// StatesRequest: the server's own stream numbers never have it.
const StatesRequestStreamBit = 1 << 31

// StatesRequest asks for a copy's states around Tic, the first tic of a
// desync (netcore's forensics): from a client whose copy diverged to the
// server, for a copy of the majority's, to come on Stream (a number with
// StatesRequestStreamBit, which it names so that it knows the stream when
// it comes); from the server to a copy of the majority, for its own, to
// send on Stream. The states come as StatesStream encodes them.
//
//	u8 kind ; u32 tic ; u32 stream
type StatesRequest struct {
	Tic, Stream uint32
}

func (*StatesRequest) Type() Type { return TypeTicnet }

func (m *StatesRequest) AppendBody(dst []byte) []byte {
	w := Writer{Buf: appendTicBody(dst, TicnetKindStatesRequest, m.Tic)}
	w.U32(m.Stream)
	return w.Buf
}

func (m *StatesRequest) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindStatesRequest {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a request for states")
	}
	m.Tic, m.Stream = r.U32("tic"), r.U32("stream")
	return bodyErr(&r, TypeTicnet)
}

// StatesStream is the bytes of the stream a StatesRequest asks for: the
// states before and after Tic, as the game saved them.
//
//	u32 tic ; u32 before's length ; before ; after
type StatesStream struct {
	Tic           uint32
	Before, After []byte
}

// AppendTo appends s to dst.
func (s *StatesStream) AppendTo(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U32(s.Tic)
	w.U32(uint32(len(s.Before)))
	w.Buf = append(w.Buf, s.Before...)
	w.Buf = append(w.Buf, s.After...)
	return w.Buf
}

// Decode reads s from b; its states alias b.
func (s *StatesStream) Decode(b []byte) error {
	r := NewReader(b, 0)
	s.Tic = r.U32("tic")
	at := r.Offset()
	n := r.U32("before's length")
	if r.err == nil && uint64(n) > uint64(len(b)-r.Offset()) {
		r.failAt(at, "before's length", strconv.FormatUint(uint64(n), 10)+" bytes, past the stream's end")
	}
	if err := r.Err(); err != nil {
		return err
	}
	s.Before, s.After = b[r.Offset():r.Offset()+int(n)], b[r.Offset()+int(n):]
	return nil
}
