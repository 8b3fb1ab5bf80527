package netcore

import (
	"math"

	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// FiguresReportTics is how often the server tells every copy each
// player's figures (wire.PlayerFigures): on the set that carries every
// fourth timing report, so that a copy has every player's margin beside
// them; about once a second at 35 tics a second, six bytes a player.
const FiguresReportTics = 4 * TimingReportTics

// appendFigures appends the figures of each player in the game (players)
// as the server measures them: the round trip of its acknowledgements,
// the share of its packets lost, the input delay it said it builds with,
// and how many tics before it is due its newest command arrived: one past
// it is measuredTic, and dueNow the tic due now.
func appendFigures(dst []wire.PlayerFigures, players []*serverClient, measuredTic *[tic.MaxPlayers]uint32, dueNow uint32) []wire.PlayerFigures {
	for _, sc := range players {
		f := wire.PlayerFigures{Player: uint8(sc.player), RTTMS: wire.NoRTT, InputDelay: sc.inputDelay,
			Loss: uint8(math.Round(sc.loss.Rate() * 255))}
		if rtt, ok := sc.rtt.Bound(0); ok {
			f.RTTMS = uint16(min(rtt, wire.NoRTT-1))
		}
		ahead := int32(measuredTic[sc.player] - 1 - dueNow)
		f.Ahead = int8(max(math.MinInt8, min(math.MaxInt8, ahead)))
		dst = append(dst, f)
	}
	return dst
}
