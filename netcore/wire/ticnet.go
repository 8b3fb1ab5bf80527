package wire

import "strconv"

// The messages of ProtocolTicnet share packet type TypeTicnet; the first
// byte of the body says which one it is.
const (
	TicnetKindTicSet   = 1 // TicSet: complete tics, server to every client
	TicnetKindChecksum = 2 // ChecksumReport: client to server
	TicnetKindMode     = 3 // ModeNotice: server to client, reliable, before GAMESTART
)

// SetTic is one complete tic of a TicSet: every player's command, and which
// of them the server substituted because the real one came too late.
type SetTic struct {
	ServerTic
	Substituted uint8 // bit p: Cmds[p] is the server's substitute
}

// TicSet carries complete tics from the server (ProtocolTicnet). Unlike
// GAMEDATA it holds every player's command, the recipient's own included, so
// one copy serves every client; each player's command is diffed against the
// command the server sent for that player the tic before. Start is a full
// tic number.
type TicSet struct {
	LowResTurn bool  // not on the wire, as in ServerGameData
	InputSize  uint8 // not on the wire, as in ServerGameData
	Start      uint32
	Tics       []SetTic
	// Timing, when present, tells players how early their commands reach
	// the server, so that each can move its clock to arrive in time.
	Timing []PlayerTiming
}

// PlayerTiming is how early (positive) or late (negative) a player's
// commands reached the server, at worst, over the last few tics.
type PlayerTiming struct {
	Player   uint8
	MarginMS int16
}

func (*TicSet) Type() Type { return TypeTicnet }

func (m *TicSet) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindTicSet)
	w.U32(m.Start)
	w.U8(uint8(len(m.Tics)))
	for i := range m.Tics {
		w.U8(m.Tics[i].Substituted)
		appendServerTic(&w, &m.Tics[i].ServerTic, CmdFormat{m.LowResTurn, m.InputSize})
	}
	w.U8(uint8(len(m.Timing)))
	for _, t := range m.Timing {
		w.U8(t.Player)
		w.S16(t.MarginMS)
	}
	return w.Buf
}

func (m *TicSet) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindTicSet {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a tic set")
	}
	m.Start = r.U32("start_tic")
	n := readTicCount(&r, 4)
	m.Tics = m.Tics[:0]
	for i := 0; i < n && r.err == nil; i++ {
		m.Tics = append(m.Tics, SetTic{})
		t := &m.Tics[i]
		at := r.Offset()
		t.Substituted = r.U8("tic.substituted")
		readServerTic(&r, &t.ServerTic, CmdFormat{m.LowResTurn, m.InputSize})
		if t.Substituted&^t.InGame != 0 {
			r.failAt(at, "tic.substituted", "substitute for a player not in the tic")
		}
	}
	at := r.Offset()
	k := int(r.U8("num_timings"))
	m.Timing = m.Timing[:0]
	switch {
	case k > MaxPlayers:
		r.failAt(at, "num_timings", strconv.Itoa(k)+" timings > limit "+strconv.Itoa(MaxPlayers))
	case 3*k > r.Remaining():
		r.failAt(at, "num_timings", strconv.Itoa(k)+" timings cannot fit in "+strconv.Itoa(r.Remaining())+" bytes")
	}
	for i := 0; i < k && r.err == nil; i++ {
		at := r.Offset()
		t := PlayerTiming{Player: r.U8("timing.player"), MarginMS: r.S16("timing.margin")}
		if t.Player >= MaxPlayers {
			r.failAt(at, "timing.player", "player "+strconv.Itoa(int(t.Player))+" >= "+strconv.Itoa(MaxPlayers))
		}
		m.Timing = append(m.Timing, t)
	}
	return bodyErr(&r, TypeTicnet)
}

// MaxChecksums bounds the checksums of one ChecksumReport.
const MaxChecksums = 64

// ChecksumReport carries a client's game-state checksums after running tics
// Start, Start+1, ... (ProtocolTicnet). The server compares the reports of
// every client to find the first tic where a copy diverged, and whose copy
// it was.
type ChecksumReport struct {
	Start uint32
	Sums  []uint32
}

func (*ChecksumReport) Type() Type { return TypeTicnet }

func (m *ChecksumReport) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindChecksum)
	w.U32(m.Start)
	w.U8(uint8(len(m.Sums)))
	for _, s := range m.Sums {
		w.U32(s)
	}
	return w.Buf
}

func (m *ChecksumReport) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindChecksum {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a checksum report")
	}
	m.Start = r.U32("start_tic")
	at := r.Offset()
	n := int(r.U8("num_sums"))
	m.Sums = m.Sums[:0]
	switch {
	case n > MaxChecksums:
		r.failAt(at, "num_sums", strconv.Itoa(n)+" checksums > limit "+strconv.Itoa(MaxChecksums))
	case 4*n > r.Remaining():
		r.failAt(at, "num_sums", strconv.Itoa(n)+" checksums cannot fit in "+strconv.Itoa(r.Remaining())+" bytes")
	}
	for i := 0; i < n && r.err == nil; i++ {
		m.Sums = append(m.Sums, r.U32("checksum"))
	}
	return bodyErr(&r, TypeTicnet)
}

// TicnetKind returns the kind byte of a TypeTicnet body.
func TicnetKind(body []byte) (uint8, error) {
	if len(body) == 0 {
		return 0, &DecodeError{Type: "TICNET", Field: "kind", Reason: "need 1 bytes, have 0"}
	}
	return body[0], nil
}

// ModeNotice tells a client that negotiated ProtocolTicnet how the game that
// is starting runs (ProtocolTicnet, sent reliable just before GAMESTART).
// Extended is false when some peer speaks only the reference protocol: then
// everyone plays by the reference's rules. Setup is the game's input
// layout (which the client's game must share), tic rate, seed and options;
// it holds nothing that counts when Extended is false.
type ModeNotice struct {
	Extended bool
	Setup    GameSetup
}

func (*ModeNotice) Type() Type { return TypeTicnet }

func (m *ModeNotice) AppendBody(dst []byte) []byte {
	w := Writer{Buf: append(dst, TicnetKindMode, b2u(m.Extended))}
	appendSetup(&w, &m.Setup)
	return w.Buf
}

func (m *ModeNotice) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindMode {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a mode notice")
	}
	m.Extended = r.U8("extended") != 0
	readSetup(&r, &m.Setup)
	return bodyErr(&r, TypeTicnet)
}
