package wire

import "strconv"

// The end of a game under the extension protocol: any player asks
// (EndRequest); the server passes a request of a player's to the
// controller (EndAsked), and ends the game when the controller asks
// (GameEnd): every copy runs the tics before GameEnd.Tic and goes back to
// the lobby, from which the controller may launch again. Or the game ends
// itself: each copy, at the confirmed tic after which its game said it
// was over, tells the server (GameOver), which ends the game there for
// every copy (GameEnd).
const (
	TicnetKindEndRequest = 17 // EndRequest: client to server, reliable
	TicnetKindEndAsked   = 18 // EndAsked: server to the controller, reliable
	TicnetKindGameEnd    = 19 // GameEnd: server to clients, reliable
	TicnetKindGameOver   = 20 // GameOver: client to server, reliable
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

func (m *GameEnd) AppendBody(dst []byte) []byte { return appendTicBody(dst, TicnetKindGameEnd, m.Tic) }

func (m *GameEnd) DecodeBody(body []byte) (err error) {
	m.Tic, err = decodeTicBody(body, TicnetKindGameEnd, "a game end")
	return err
}

// GameOver says that the copy's game ended itself: Tic is the first tic
// that does not run (its game said it was over after the tic before).
type GameOver struct {
	Tic uint32
}

func (*GameOver) Type() Type { return TypeTicnet }

func (m *GameOver) AppendBody(dst []byte) []byte {
	return appendTicBody(dst, TicnetKindGameOver, m.Tic)
}

func (m *GameOver) DecodeBody(body []byte) (err error) {
	m.Tic, err = decodeTicBody(body, TicnetKindGameOver, "a game over")
	return err
}

// appendTicBody appends the body of a message of kind that is one tic.
func appendTicBody(dst []byte, kind uint8, tic uint32) []byte {
	w := Writer{Buf: dst}
	w.U8(kind)
	w.U32(tic)
	return w.Buf
}

// decodeTicBody reads the body of a message of kind that is one tic;
// what names the kind in an error.
func decodeTicBody(body []byte, kind uint8, what string) (uint32, error) {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != kind {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not "+what)
	}
	tic := r.U32("tic")
	return tic, bodyErr(&r, TypeTicnet)
}
