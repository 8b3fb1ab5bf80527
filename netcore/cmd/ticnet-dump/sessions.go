package main

import (
	"fmt"

	"github.com/ticnet/ticnet/netcore/wire"
)

// sessions follows, per flow, what a session learns that changes how its
// later packets decode (wire.Context), as the client and the server do:
//
//   - lowres_turn, from the server's GAMESTART (or -lowres, which forces
//     it): GAMEDATA and tic sets carry turning in one byte or two;
//   - the extension and the input layout, from the server's ModeNotice: a
//     client's GAMEDATA under the extension has no latency per tic and
//     may end with a checksum report, and opaque input travels as so many
//     bytes;
//   - the tic the session is at, from the last full tic number it showed
//     (a tic set's start, a checksum report's, a late joiner's JoinStart,
//     a Resume): tic sets and reports carry 16 bits of their start, which
//     expand near it.
//
// A late joiner's JoinStart teaches all of them at once. The rest does
// not change how a packet decodes: a server GAMEDATA carries its own
// player bits whatever the player count or a drone's place, and ticnet's
// messages name their kind whichever protocol SYN negotiated.
type sessions struct {
	forced *bool // -lowres given, true or false
	flows  map[flow]facts
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

// facts is what a flow's packets taught so far.
type facts struct {
	ctx wire.Context
	// turnedBy is the number of the packet that set ctx.LowResTurn, a
	// GAMESTART or a JoinStart; -1 when none did.
	turnedBy int
}

func newSessions(forced *bool) *sessions {
	return &sessions{forced: forced, flows: map[flow]facts{}}
}

// of returns the facts of p's flow.
func (s *sessions) of(p packet) facts {
	if f, ok := s.flows[flowOf(p)]; ok {
		return f
	}
	return facts{turnedBy: -1}
}

// context says how to decode p and, when a GAMESTART or JoinStart decided
// its turning, the number of that packet (-1 otherwise).
func (s *sessions) context(p packet) (ctx wire.Context, turnedBy int) {
	f := s.of(p)
	if s.forced != nil {
		f.ctx.LowResTurn, f.turnedBy = *s.forced, -1
	}
	return f.ctx, f.turnedBy
}

// warning is what to tell about the input read: a game's clients share
// its lowres_turn, so a flow whose GAMESTART the capture missed (it began
// later) was likely misdecoded when another flow's set it. Two-byte
// turning may decode one-byte turning without an error, reading the
// following bytes.
func (s *sessions) warning() string {
	if !s.lowresSeen || s.defaulted == 0 {
		return ""
	}
	return fmt.Sprintf("%d packets on flows without a GAMESTART were decoded with two-byte turning, "+
		"though a GAMESTART in this input set lowres_turn: if they are of that game, -lowres decodes them", s.defaulted)
}

// decoded takes note of packet n, decoded as h and m with the turning of
// packet turnedBy (-1: none). What sets up a game counts only from the
// server, and one of unknown direction is taken too: a GAMESTART from the
// server sets lowres_turn if any player asked for it, where a client's
// ("ready") carries its own wish, and the server sends its GAMESTART
// after every client's, so the last one seen is the server's. A
// ModeNotice or JoinStart counts, as for the client, only when reliable.
func (s *sessions) decoded(p packet, h wire.Header, m wire.Message, n, turnedBy int) {
	if turnedBy < 0 && s.forced == nil && turnMatters(m) {
		s.defaulted++
	}
	f := s.of(p)
	if tic, ok := fullTic(m); ok {
		f.ctx.Near = tic
	}
	if !p.dirKnown || p.dir == wire.ServerToClient {
		switch m := m.(type) {
		case *wire.GameStart:
			f.ctx.LowResTurn, f.ctx.Near, f.turnedBy = m.Settings.LowResTurn, 0, n
			s.lowresSeen = s.lowresSeen || m.Settings.LowResTurn
		case *wire.ModeNotice:
			if h.Reliable {
				f.ctx.Ext, f.ctx.InputSize = m.Extended, m.Setup.Input.Size
			}
		case *wire.JoinStart:
			if h.Reliable {
				f.ctx = wire.Context{LowResTurn: m.Settings.LowResTurn, InputSize: m.Setup.Input.Size, Ext: true, Near: m.Start}
				f.turnedBy = n
				s.lowresSeen = s.lowresSeen || m.Settings.LowResTurn
			}
		}
	}
	s.flows[flowOf(p)] = f
}

// fullTic returns the tic number m shows in full (expanded from 16 bits
// or sent whole), if it shows one that tells where its session is.
func fullTic(m wire.Message) (uint32, bool) {
	switch m := m.(type) {
	case *wire.TicSet:
		return m.Start, true
	case *wire.ClientGameData:
		return m.Report.Start, len(m.Report.Sums) > 0
	case *wire.ChecksumReport:
		return m.Start, true
	case *wire.Resume:
		return m.Tic, true
	}
	return 0, false
}

// forget starts over, for the next input.
func (s *sessions) forget() {
	clear(s.flows)
	s.lowresSeen, s.defaulted = false, 0
}

// turnMatters reports whether turning is in m's layout.
func turnMatters(m wire.Message) bool {
	switch m.(type) {
	case *wire.ClientGameData, *wire.ServerGameData, *wire.TicSet:
		return true
	}
	return false
}
