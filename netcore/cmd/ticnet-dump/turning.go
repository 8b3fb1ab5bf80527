package main

import (
	"fmt"

	"github.com/ticnet/ticnet/netcore/wire"
)

// turning decides, packet by packet, whether GAMEDATA (and ticnet's tic
// set) carries turning in one byte: as -lowres forces it, or as the
// game's GAMESTART said, per flow.
//
// lowres_turn is the one thing a session learns that changes how a later
// packet decodes (wire.DecodePacket takes a direction and lowres, nothing
// else). The rest does not: a server GAMEDATA carries its own player bits
// whatever the player count or a drone's place, and ticnet's messages name
// their kind whichever protocol SYN negotiated.
type turning struct {
	forced  *bool              // -lowres given, true or false
	learned map[flow]gameStart // the last GAMESTART seen on each flow
	// Of this input: whether a GAMESTART set lowres_turn, and how many
	// packets with turning were decoded by default, on flows without one.
	lowresSeen bool
	defaulted  int
}

// flow is the conversation between a client and the server: the two
// addresses in order, so both directions meet. Both are empty for hex
// input, which is then one flow.
type flow struct{ a, b string }

func flowOf(p packet) flow {
	if p.src > p.dst {
		return flow{p.dst, p.src}
	}
	return flow{p.src, p.dst}
}

// gameStart is what a GAMESTART taught: its lowres_turn, and the number of
// the packet that carried it.
type gameStart struct {
	lowres bool
	n      int
}

func newTurning(forced *bool) *turning {
	return &turning{forced: forced, learned: map[flow]gameStart{}}
}

// lowres says how to decode p's turning and, when a GAMESTART decided it,
// the number of that packet (-1 otherwise).
func (t *turning) lowres(p packet) (lowres bool, from int) {
	if t.forced != nil {
		return *t.forced, -1
	}
	if g, ok := t.learned[flowOf(p)]; ok {
		return g.lowres, g.n
	}
	return false, -1
}

// warning is what to tell about the input read: a game's clients share
// its lowres_turn, so a flow whose GAMESTART the capture missed (it began
// later) was likely misdecoded when another flow's set it. Two-byte
// turning may decode one-byte turning without an error, reading the
// following bytes.
func (t *turning) warning() string {
	if !t.lowresSeen || t.defaulted == 0 {
		return ""
	}
	return fmt.Sprintf("%d packets on flows without a GAMESTART were decoded with two-byte turning, "+
		"though a GAMESTART in this input set lowres_turn: if they are of that game, -lowres decodes them", t.defaulted)
}

// decoded takes note of packet n, decoded as m with the turning of
// GAMESTART number from (-1: none). A GAMESTART from the server sets its
// flow's turning: the server's is the one that counts, as it sets
// lowres_turn if any player asked for it, where a client's GAMESTART
// ("ready") carries its own wish. One of unknown direction is taken too:
// the server sends its GAMESTART after every client's, so the last one
// seen is the server's.
func (t *turning) decoded(p packet, m wire.Message, n, from int) {
	if from < 0 && t.forced == nil && turnMatters(m) {
		t.defaulted++
	}
	g, ok := m.(*wire.GameStart)
	if !ok || (p.dirKnown && p.dir != wire.ServerToClient) {
		return
	}
	t.learned[flowOf(p)] = gameStart{lowres: g.Settings.LowResTurn, n: n}
	t.lowresSeen = t.lowresSeen || g.Settings.LowResTurn
}

// forget starts over, for the next input.
func (t *turning) forget() {
	clear(t.learned)
	t.lowresSeen, t.defaulted = false, 0
}

// turnMatters reports whether turning is in m's layout.
func turnMatters(m wire.Message) bool {
	switch m.(type) {
	case *wire.ClientGameData, *wire.ServerGameData, *wire.TicSet:
		return true
	}
	return false
}
