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
// ServerTic's Latency does not travel in a TicSet.
type SetTic struct {
	ServerTic
	Substituted uint8 // bit p: Cmds[p] is the server's substitute
}

// TicSet carries complete tics from the server (ProtocolTicnet). Unlike
// GAMEDATA it holds every player's command, so one copy serves every
// client; each player's command is diffed against the command the server
// sent for that player the tic before.
//
// The fields marked "not on the wire" are the receiver's to set before
// Decode (and the sender's before Encode, where they say so).
//
//	u8  kind (TicnetKindTicSet)
//	u16 start: the low 16 bits of the first tic
//	u8  num_tics
//	u8  flags: SetTiming, SetSubstitutes, SetLeavesOutRecipient, and with
//	    it the recipient's player in bits 4-6, SetFigures, SetWatchers
//	num_tics × { u8 playeringame ; [u8 substituted, with SetSubstitutes] ;
//	             a diff per player in the tic, but the recipient's own where
//	             SetLeavesOutRecipient says so and it is not a substitute }
//	with SetTiming: u8 num_timings ; num_timings × { u8 player ; s16 margin_ms }
//	with SetFigures: u8 num_figures ; num_figures × PlayerFigures
//	with SetWatchers: u16 watchers (not 0)
type TicSet struct {
	LowResTurn bool  // not on the wire, as in ServerGameData
	InputSize  uint8 // not on the wire, as in ServerGameData
	// Near is not on the wire: Start travels as its low 16 bits, which
	// Decode expands to the tic nearest Near (the receiver's next tic).
	Near  uint32
	Start uint32
	Tics  []SetTic
	// LeavesOutRecipient says that the set, meant for one client only,
	// leaves out that client's own commands, which it built and holds,
	// except those the server substituted. Recipient is the client's
	// player. A decoded set that leaves them out has the player in each
	// tic's InGame, with a zero diff.
	LeavesOutRecipient bool
	Recipient          uint8
	// Timing, when present, tells players how early their commands reach
	// the server, so that each can move its clock to arrive in time.
	Timing []PlayerTiming
	// Figures, when present, tell every copy how each player's connection
	// to the server fares.
	Figures []PlayerFigures
	// Watchers, when not 0, is how many copies watch the game (the
	// server says so with the figures).
	Watchers uint16
}

// The flags of a TicSet.
const (
	SetTiming             = 0x01 // timings follow the tics
	SetSubstitutes        = 0x02 // each tic has a substitution mask
	SetLeavesOutRecipient = 0x04 // the recipient's own commands are left out
	SetFigures            = 0x08 // the players' figures follow the timings
	setRecipientShift     = 4    // the recipient's player, with SetLeavesOutRecipient
	SetWatchers           = 0x80 // the number of watchers follows the figures
)

// PlayerTiming is how early (positive) or late (negative) a player's
// commands reached the server, at worst, over the last few tics.
type PlayerTiming struct {
	Player   uint8
	MarginMS int16
}

func (*TicSet) Type() Type { return TypeTicnet }

// sends reports whether the set carries player p's command in t.
func (m *TicSet) sends(t *SetTic, p int) bool {
	return t.Has(p) && (!m.LeavesOutRecipient || p != int(m.Recipient) || t.Substituted&(1<<p) != 0)
}

func (m *TicSet) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindTicSet)
	w.U16(uint16(m.Start))
	w.U8(uint8(len(m.Tics)))
	var flags uint8
	if len(m.Timing) > 0 {
		flags |= SetTiming
	}
	if len(m.Figures) > 0 {
		flags |= SetFigures
	}
	if m.Watchers > 0 {
		flags |= SetWatchers
	}
	for i := range m.Tics {
		if m.Tics[i].Substituted != 0 {
			flags |= SetSubstitutes
		}
	}
	if m.LeavesOutRecipient {
		flags |= SetLeavesOutRecipient | m.Recipient%MaxPlayers<<setRecipientShift
	}
	w.U8(flags)
	f := CmdFormat{m.LowResTurn, m.InputSize}
	for i := range m.Tics {
		t := &m.Tics[i]
		w.U8(t.InGame)
		if flags&SetSubstitutes != 0 {
			w.U8(t.Substituted)
		}
		for p := range MaxPlayers {
			if m.sends(t, p) {
				appendDiff(&w, &t.Cmds[p], f)
			}
		}
	}
	if flags&SetTiming != 0 {
		w.U8(uint8(len(m.Timing)))
		for _, t := range m.Timing {
			w.U8(t.Player)
			w.S16(t.MarginMS)
		}
	}
	if flags&SetFigures != 0 {
		appendFigures(&w, m.Figures)
	}
	if flags&SetWatchers != 0 {
		w.U16(m.Watchers)
	}
	return w.Buf
}

func (m *TicSet) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindTicSet {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a tic set")
	}
	m.Start = ExpandTic16(m.Near, r.U16("start_tic"))
	n := readTicCount(&r, 1)
	at := r.Offset()
	flags := r.U8("flags")
	m.LeavesOutRecipient = flags&SetLeavesOutRecipient != 0
	m.Recipient = 0
	known := uint8(SetTiming | SetSubstitutes | SetFigures | SetWatchers)
	if m.LeavesOutRecipient {
		known |= SetLeavesOutRecipient | (MaxPlayers-1)<<setRecipientShift
		m.Recipient = flags >> setRecipientShift % MaxPlayers
	}
	if flags&^known != 0 {
		r.failAt(at, "flags", "unknown flags 0x"+strconv.FormatUint(uint64(flags&^known), 16))
	}
	f := CmdFormat{m.LowResTurn, m.InputSize}
	m.Tics = m.Tics[:0]
	for i := 0; i < n && r.err == nil; i++ {
		m.Tics = append(m.Tics, SetTic{})
		t := &m.Tics[i]
		t.InGame = r.U8("tic.playeringame")
		at := r.Offset()
		if flags&SetSubstitutes != 0 {
			t.Substituted = r.U8("tic.substituted")
		}
		if t.Substituted&^t.InGame != 0 {
			r.failAt(at, "tic.substituted", "substitute for a player not in the tic")
		}
		for p := 0; p < MaxPlayers && r.err == nil; p++ {
			if m.sends(t, p) {
				readDiff(&r, &t.Cmds[p], f)
			}
		}
	}
	m.Timing, m.Figures = m.Timing[:0], m.Figures[:0]
	if flags&SetTiming != 0 && r.err == nil {
		m.Timing = readTimings(&r, m.Timing)
	}
	if flags&SetFigures != 0 && r.err == nil {
		m.Figures = readFigures(&r, m.Figures)
	}
	m.Watchers = 0
	if flags&SetWatchers != 0 && r.err == nil {
		at := r.Offset()
		if m.Watchers = r.U16("watchers"); r.err == nil && m.Watchers == 0 {
			r.failAt(at, "watchers", "a count of none, which the flags leave out")
		}
	}
	return bodyErr(&r, TypeTicnet)
}

func readTimings(r *Reader, dst []PlayerTiming) []PlayerTiming {
	at := r.Offset()
	k := int(r.U8("num_timings"))
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
		dst = append(dst, t)
	}
	return dst
}

// ExpandTic16 turns the low 16 bits of a tic number into the full tic
// number nearest near: exact while the two are less than 32 768 tics (15
// minutes at 35 tics a second) apart.
func ExpandTic16(near uint32, low uint16) uint32 {
	return near + uint32(int32(int16(low-uint16(near))))
}

// MaxChecksums bounds the checksums of one ChecksumReport.
const MaxChecksums = 64

// Sum16 folds a game-state checksum into the 16 bits a report carries: a
// copy that diverges shows within a tic or two all the same, since its
// state stays different.
func Sum16(sum uint32) uint16 { return uint16(sum ^ sum>>16) }

// ChecksumReport carries a client's game-state checksums (Sum16) after
// running tics Start, Start+1, ... (ProtocolTicnet). The server compares
// the reports of every client to find the first tic where a copy diverged,
// and whose copy it was. Reports ride on the client's GAMEDATA
// (ClientGameData.Report); one goes alone only when there is no GAMEDATA
// to carry it.
type ChecksumReport struct {
	Start uint32
	Sums  []uint16
}

func (*ChecksumReport) Type() Type { return TypeTicnet }

func (m *ChecksumReport) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindChecksum)
	w.U32(m.Start)
	appendSums(&w, m.Sums)
	return w.Buf
}

func (m *ChecksumReport) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindChecksum {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a checksum report")
	}
	m.Start = r.U32("start_tic")
	m.Sums = readSums(&r, m.Sums)
	return bodyErr(&r, TypeTicnet)
}

func appendSums(w *Writer, sums []uint16) {
	w.U8(uint8(len(sums)))
	for _, s := range sums {
		w.U16(s)
	}
}

func readSums(r *Reader, sums []uint16) []uint16 {
	at := r.Offset()
	n := int(r.U8("num_sums"))
	sums = sums[:0]
	switch {
	case n > MaxChecksums:
		r.failAt(at, "num_sums", strconv.Itoa(n)+" checksums > limit "+strconv.Itoa(MaxChecksums))
	case 2*n > r.Remaining():
		r.failAt(at, "num_sums", strconv.Itoa(n)+" checksums cannot fit in "+strconv.Itoa(r.Remaining())+" bytes")
	}
	for i := 0; i < n && r.err == nil; i++ {
		sums = append(sums, r.U16("checksum"))
	}
	return sums
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
// it holds nothing that counts when Extended is false. Cast is how many
// frames the server has broadcast: a player checks its own tag in each
// that follows, and takes the counter of the next from here (a copy that
// watched the last game checked none of its broadcasts).
type ModeNotice struct {
	Extended bool
	Setup    GameSetup
	Cast     uint32
}

func (*ModeNotice) Type() Type { return TypeTicnet }

func (m *ModeNotice) AppendBody(dst []byte) []byte {
	w := Writer{Buf: append(dst, TicnetKindMode, b2u(m.Extended))}
	appendSetup(&w, &m.Setup)
	w.U32(m.Cast)
	return w.Buf
}

func (m *ModeNotice) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindMode {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a mode notice")
	}
	m.Extended = r.U8("extended") != 0
	readSetup(&r, &m.Setup)
	m.Cast = r.U32("cast")
	return bodyErr(&r, TypeTicnet)
}
