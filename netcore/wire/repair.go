package wire

import "strconv"

// The messages of a desync repair (the extension): the server sends a
// client whose copy diverged the majority's state, the client says when
// it has loaded it, and the server tells every client.
const (
	TicnetKindRepair     = 23 // Repair: server to a diverged client, reliable
	TicnetKindRepairDone = 24 // RepairDone: that client to the server, reliable
	TicnetKindRepaired   = 25 // Repaired: server to every client in the game, reliable
)

// Repair tells a client whose copy diverged from the majority's that the
// majority's state comes on Stream (transfer): the state before a tic,
// which the stream's first 4 bytes name; the client loads it and runs the
// tics since again. Stream 0 says that none comes: the copy diverged
// again and again, its game is not deterministic there, and it is to
// leave the game.
//
//	u8 kind ; u32 stream
type Repair struct {
	Stream uint32
}

func (*Repair) Type() Type { return TypeTicnet }

func (m *Repair) AppendBody(dst []byte) []byte {
	return appendTicBody(dst, TicnetKindRepair, m.Stream)
}

func (m *Repair) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindRepair {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a repair")
	}
	m.Stream = r.U32("stream")
	return bodyErr(&r, TypeTicnet)
}

// RepairDone is a client's word that it loaded the state before Tic, Bytes
// long, that a Repair sent it, and plays on from it: its checksums are
// right from From on, the first tic it had not run before (those it
// reported of the tics before may be the diverged copy's).
//
//	u8 kind ; u32 tic ; u32 bytes ; u32 from
type RepairDone struct {
	Tic, Bytes, From uint32
}

func (*RepairDone) Type() Type { return TypeTicnet }

func (m *RepairDone) AppendBody(dst []byte) []byte {
	w := Writer{Buf: appendTicBody(dst, TicnetKindRepairDone, m.Tic)}
	w.U32(m.Bytes)
	w.U32(m.From)
	return w.Buf
}

func (m *RepairDone) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindRepairDone {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a repair's end")
	}
	m.Tic, m.Bytes, m.From = r.U32("tic"), r.U32("bytes"), r.U32("from")
	return bodyErr(&r, TypeTicnet)
}

// Repaired tells every client that Player's copy was set right: it loaded
// the majority's state before Tic, Bytes long, MS after the server asked
// for it.
//
//	u8 kind ; u8 player ; u32 tic ; u32 bytes ; u32 ms
type Repaired struct {
	Player         uint8
	Tic, Bytes, MS uint32
}

func (*Repaired) Type() Type { return TypeTicnet }

func (m *Repaired) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindRepaired)
	w.U8(m.Player)
	w.U32(m.Tic)
	w.U32(m.Bytes)
	w.U32(m.MS)
	return w.Buf
}

func (m *Repaired) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindRepaired {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a repair's report")
	}
	at := r.Offset()
	m.Player = r.U8("player")
	if r.err == nil && m.Player >= MaxPlayers {
		r.failAt(at, "player", "player "+strconv.Itoa(int(m.Player))+" >= "+strconv.Itoa(MaxPlayers))
	}
	m.Tic, m.Bytes, m.MS = r.U32("tic"), r.U32("bytes"), r.U32("ms")
	return bodyErr(&r, TypeTicnet)
}
