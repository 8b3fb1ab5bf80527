package wire

import "strconv"

// The end of a game under the extension protocol: any player asks
// (EndRequest); the server passes a request of a player's to the
// controller (EndAsked), and ends the game when the controller asks
// (GameEnd): every copy runs the tics before GameEnd.Tic and goes back to
// the lobby, from which the controller may launch again.
const (
	TicnetKindEndRequest = 17 // EndRequest: client to server, reliable
	TicnetKindEndAsked   = 18 // EndAsked: server to the controller, reliable
	TicnetKindGameEnd    = 19 // GameEnd: server to clients, reliable
)

// EndRequest asks the server to end the game: from the controller, it
// ends; from another player, the controller is asked.
type EndRequest struct{}

func (*EndRequest) Type() Type                   { return TypeTicnet }
func (*EndRequest) AppendBody(dst []byte) []byte { return append(dst, TicnetKindEndRequest) }

func (m *EndRequest) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindEndRequest {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not an end request")
	}
	return bodyErr(&r, TypeTicnet)
}

// EndAsked tells the controller that Player asks to end the game.
type EndAsked struct {
	Player int8
}

func (*EndAsked) Type() Type { return TypeTicnet }

func (m *EndAsked) AppendBody(dst []byte) []byte {
	return append(dst, TicnetKindEndAsked, uint8(m.Player))
}

func (m *EndAsked) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindEndAsked {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not an end asked")
	}
	at := r.Offset()
	m.Player = r.S8("player")
	if r.err == nil && (m.Player < 0 || m.Player >= MaxPlayers) {
		r.failAt(at, "player", "player "+strconv.Itoa(int(m.Player))+" is out of range")
	}
	return bodyErr(&r, TypeTicnet)
}

// GameEnd ends the game: Tic is the first tic that does not run.
type GameEnd struct {
	Tic uint32
}

func (*GameEnd) Type() Type { return TypeTicnet }

func (m *GameEnd) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindGameEnd)
	w.U32(m.Tic)
	return w.Buf
}

func (m *GameEnd) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindGameEnd {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a game end")
	}
	m.Tic = r.U32("tic")
	return bodyErr(&r, TypeTicnet)
}
