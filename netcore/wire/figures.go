package wire

import "strconv"

// PlayerFigures is what the server measures of one player's connection,
// which a TicSet carries now and then (SetFigures) so that every copy can
// show every player's network: the round trip to the server, the share of
// the player's packets lost on the way, the input delay it builds with,
// and how far ahead of the server's stream its commands are.
//
//	u8 player ; u16 rtt_ms (NoRTT: not measured yet) ; u8 loss (the share
//	lost, ×255) ; u8 input_delay ; s8 ahead (tics)
type PlayerFigures struct {
	Player     uint8
	RTTMS      uint16
	Loss       uint8
	InputDelay uint8
	// Ahead is how many tics past the last tic the server sent it holds
	// the player's commands for (negative: its commands come late).
	Ahead int8
}

// NoRTT is a PlayerFigures' RTTMS before a round trip was measured.
const NoRTT = 0xffff

// playerFiguresLen is the bytes of one PlayerFigures.
const playerFiguresLen = 6

func appendFigures(w *Writer, figs []PlayerFigures) {
	w.U8(uint8(len(figs)))
	for _, f := range figs {
		w.U8(f.Player)
		w.U16(f.RTTMS)
		w.U8(f.Loss)
		w.U8(f.InputDelay)
		w.S8(f.Ahead)
	}
}

func readFigures(r *Reader, dst []PlayerFigures) []PlayerFigures {
	at := r.Offset()
	k := int(r.U8("num_figures"))
	switch {
	case k > MaxPlayers:
		r.failAt(at, "num_figures", strconv.Itoa(k)+" figures > limit "+strconv.Itoa(MaxPlayers))
	case playerFiguresLen*k > r.Remaining():
		r.failAt(at, "num_figures", strconv.Itoa(k)+" figures cannot fit in "+strconv.Itoa(r.Remaining())+" bytes")
	}
	for i := 0; i < k && r.err == nil; i++ {
		at := r.Offset()
		f := PlayerFigures{Player: r.U8("figures.player"), RTTMS: r.U16("figures.rtt"), Loss: r.U8("figures.loss")}
		dat := r.Offset()
		f.InputDelay, f.Ahead = r.U8("figures.input_delay"), r.S8("figures.ahead")
		switch {
		case f.Player >= MaxPlayers:
			r.failAt(at, "figures.player", "player "+strconv.Itoa(int(f.Player))+" >= "+strconv.Itoa(MaxPlayers))
		case f.InputDelay > MaxInputDelay:
			r.failAt(dat, "figures.input_delay", strconv.Itoa(int(f.InputDelay))+" tics of input delay, more than "+strconv.Itoa(MaxInputDelay))
		}
		dst = append(dst, f)
	}
	return dst
}
