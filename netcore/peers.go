package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Peer is one player's network as a client knows it (EventPeers): what
// the server measures of the player's connection and tells every copy
// about once a second (FiguresReportTics; the extension only), with what
// the client counts itself.
type Peer struct {
	Player int
	// RTTMS is the round trip between the server and the player's copy
	// (from its acknowledgements), -1 before one was measured.
	RTTMS int
	// MarginMS is how early its commands reached the server at worst in
	// the last few tics (negative: late), the server's last timing report.
	MarginMS int
	// Loss is the share of its packets lost on the way to the server, to
	// the 1/255.
	Loss float64
	// Substituted counts its commands the server replaced in the tics this
	// client received (it came too late, or never).
	Substituted int64
	// Ahead is how many tics past the server's stream its commands were
	// in (negative: they come late); InputDelay the delay it builds them
	// with.
	Ahead      int
	InputDelay int
}

// peerBook is what a client learns of every player's network: the margins
// of the server's timing reports and the substitutes of the tics it
// confirms, and, when the server's figures come, a report (EventPeers).
type peerBook struct {
	margin      [tic.MaxPlayers]int16
	substituted [tic.MaxPlayers]int64
	out         []Peer // the last report, whose room the next takes
}

// timed takes a timing report.
func (b *peerBook) timed(ts []wire.PlayerTiming) {
	for _, t := range ts {
		b.margin[t.Player] = t.MarginMS
	}
}

// confirmed counts a confirmed tic's substitutes.
func (b *peerBook) confirmed(substituted uint8) {
	if substituted == 0 {
		return // nearly every tic
	}
	for p := range tic.MaxPlayers {
		if substituted&(1<<p) != 0 {
			b.substituted[p]++
		}
	}
}

// report is every player's figures, the server's with the book's, valid
// until the next report.
func (b *peerBook) report(figs []wire.PlayerFigures) []Peer {
	out := b.out[:0]
	for _, f := range figs {
		p := Peer{Player: int(f.Player), RTTMS: int(f.RTTMS), MarginMS: int(b.margin[f.Player]), Loss: float64(f.Loss) / 255,
			Substituted: b.substituted[f.Player], Ahead: int(f.Ahead), InputDelay: int(f.InputDelay)}
		if f.RTTMS == wire.NoRTT {
			p.RTTMS = -1
		}
		out = append(out, p)
	}
	b.out = out
	return out
}
