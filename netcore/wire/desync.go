package wire

import "strconv"

// TicnetKindDesync is the server's verdict when the copies' checksums of a
// tic differ (Desync): server to every client in the game, reliable.
const TicnetKindDesync = 21

// Desync is the server's verdict on a tic whose checksums differ: the
// players whose copies diverged from the majority's, or every player's
// when there is no majority (two players, say). Each player is named once,
// until its copy is repaired (Repair): a diverged copy stays diverged.
type Desync struct {
	Tic     uint32
	Players uint8 // bit p: player p's copy diverged; at least one
}

func (*Desync) Type() Type { return TypeTicnet }

func (m *Desync) AppendBody(dst []byte) []byte {
	return append(appendTicBody(dst, TicnetKindDesync, m.Tic), m.Players)
}

func (m *Desync) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindDesync {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a desync")
	}
	m.Tic = r.U32("tic")
	at := r.Offset()
	m.Players = r.U8("players")
	if r.err == nil && m.Players == 0 {
		r.failAt(at, "players", "no player diverged")
	}
	return bodyErr(&r, TypeTicnet)
}
