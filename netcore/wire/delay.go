package wire

import "strconv"

// TicnetKindInputDelay is a client's input delay (InputDelay): client to
// server, reliable.
const TicnetKindInputDelay = 22

// MaxInputDelay is the most tics of input delay a client may announce.
const MaxInputDelay = 15

// InputDelay says how many tics before its tic a client builds each of its
// commands, from now on: the server may send a tic that much before it is
// due, once every command for it is in. A client that never sends one
// builds its commands with no delay.
type InputDelay struct {
	Tics uint8
}

func (*InputDelay) Type() Type { return TypeTicnet }

func (m *InputDelay) AppendBody(dst []byte) []byte {
	return append(dst, TicnetKindInputDelay, m.Tics)
}

func (m *InputDelay) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindInputDelay {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not an input delay")
	}
	at := r.Offset()
	m.Tics = r.U8("tics")
	if r.err == nil && m.Tics > MaxInputDelay {
		r.failAt(at, "tics", strconv.Itoa(int(m.Tics))+" tics of input delay, more than "+strconv.Itoa(MaxInputDelay))
	}
	return bodyErr(&r, TypeTicnet)
}
