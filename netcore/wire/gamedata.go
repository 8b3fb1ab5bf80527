package wire

import "strconv"

// ClientTic is one tic in a client's GAMEDATA: the client's latency and its
// command, diffed against its command of the tic before.
type ClientTic struct {
	Latency int16
	Diff    TicDiff
}

// ClientGameData is GAMEDATA from a client to the server (type 6): its new
// tics, and the acknowledgement of the tics it has consumed (spec §9.2).
//
// LowResTurn and InputSize are not on the wire: they are the game's
// lowres_turn setting, which decides how turning is encoded, and the size
// of its opaque input (InputLayout), and must be set before Decode or
// Encode.
//
// Ext, not on the wire either, selects the layout of a game that runs
// under the extension protocol: no latency per tic (the server tells each
// player its timing instead), and after the tics, when the client has
// checksums to report, its ChecksumReport, as u16 start (the low 16 bits,
// expanded near Near), u8 num_sums and num_sums × u16.
type ClientGameData struct {
	LowResTurn bool
	InputSize  uint8
	Ext        bool
	Near       uint32 // not on the wire: Report.Start is expanded near it
	Ack        uint8  // low byte of the client's receive window start
	Start      uint8  // low byte of the first tic
	Tics       []ClientTic
	Report     ChecksumReport // Ext only; none when it has no sums
}

func (*ClientGameData) Type() Type { return TypeGameData }

func (m *ClientGameData) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(m.Ack)
	w.U8(m.Start)
	w.U8(uint8(len(m.Tics)))
	for i := range m.Tics {
		if !m.Ext {
			w.S16(m.Tics[i].Latency)
		}
		appendDiff(&w, &m.Tics[i].Diff, CmdFormat{m.LowResTurn, m.InputSize})
	}
	if m.Ext && len(m.Report.Sums) > 0 {
		w.U16(uint16(m.Report.Start))
		appendSums(&w, m.Report.Sums)
	}
	return w.Buf
}

func (m *ClientGameData) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.Ack = r.U8("ack")
	m.Start = r.U8("start_tic")
	minSize := 3
	if m.Ext {
		minSize = 1
	}
	n := readTicCount(&r, minSize)
	m.Tics = m.Tics[:0]
	f := CmdFormat{m.LowResTurn, m.InputSize}
	for i := 0; i < n && r.err == nil; i++ {
		m.Tics = append(m.Tics, ClientTic{})
		t := &m.Tics[i]
		if !m.Ext {
			t.Latency = r.S16("tic.latency")
		}
		readDiff(&r, &t.Diff, f)
	}
	m.Report.Start, m.Report.Sums = 0, m.Report.Sums[:0]
	if m.Ext && r.err == nil && r.Remaining() > 0 {
		m.Report.Start = ExpandTic16(m.Near, r.U16("report.start_tic"))
		at := r.Offset()
		m.Report.Sums = readSums(&r, m.Report.Sums)
		if r.err == nil && len(m.Report.Sums) == 0 {
			// A client without sums sends no report: one would not re-encode.
			r.failAt(at, "num_sums", "a report without checksums")
		}
	}
	return bodyErr(&r, TypeGameData)
}

// readTicCount reads a tic count and checks it against the protocol's limit
// and against the bytes left, minSize being the smallest encoding of a tic.
func readTicCount(r *Reader, minSize int) int {
	at := r.Offset()
	n := int(r.U8("num_tics"))
	switch {
	case n > MaxTicsPerPacket:
		r.failAt(at, "num_tics", strconv.Itoa(n)+" tics > limit "+strconv.Itoa(MaxTicsPerPacket))
		return 0
	case n*minSize > r.Remaining():
		r.failAt(at, "num_tics", strconv.Itoa(n)+" tics cannot fit in "+strconv.Itoa(r.Remaining())+" bytes")
		return 0
	}
	return n
}

// ServerTic is one tic as the server relays it: the full per-tic command set
// (spec §8.3). Cmds[p] is meaningful where bit p of InGame is set.
type ServerTic struct {
	Latency int16 // the highest latency among the players included
	InGame  uint8 // bit p: player p's command follows
	Cmds    [MaxPlayers]TicDiff
}

// Has reports whether player p's command is included.
func (t *ServerTic) Has(p int) bool { return t.InGame&(1<<p) != 0 }

// ServerGameData is GAMEDATA from the server to a client (type 6): complete
// tics starting at Start (spec §9.3). LowResTurn and InputSize are as in
// ClientGameData.
type ServerGameData struct {
	LowResTurn bool
	InputSize  uint8
	Start      uint8 // low byte of the first tic
	Tics       []ServerTic
}

func (*ServerGameData) Type() Type { return TypeGameData }

func (m *ServerGameData) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(m.Start)
	w.U8(uint8(len(m.Tics)))
	for i := range m.Tics {
		appendServerTic(&w, &m.Tics[i], CmdFormat{m.LowResTurn, m.InputSize})
	}
	return w.Buf
}

func appendServerTic(w *Writer, t *ServerTic, f CmdFormat) {
	w.S16(t.Latency)
	w.U8(t.InGame)
	for p := 0; p < MaxPlayers; p++ {
		if t.Has(p) {
			appendDiff(w, &t.Cmds[p], f)
		}
	}
}

func (m *ServerGameData) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	m.Start = r.U8("start_tic")
	n := readTicCount(&r, 3)
	m.Tics = m.Tics[:0]
	for i := 0; i < n && r.err == nil; i++ {
		m.Tics = append(m.Tics, ServerTic{})
		readServerTic(&r, &m.Tics[i], CmdFormat{m.LowResTurn, m.InputSize})
	}
	return bodyErr(&r, TypeGameData)
}

func readServerTic(r *Reader, t *ServerTic, f CmdFormat) {
	t.Latency = r.S16("tic.latency")
	t.InGame = r.U8("tic.playeringame")
	for p := 0; p < MaxPlayers; p++ {
		if t.Has(p) {
			readDiff(r, &t.Cmds[p], f)
		} else {
			t.Cmds[p] = TicDiff{}
		}
	}
}
