package netcore

import (
	"github.com/ticnet/ticnet/netcore/wire"
)

// AutoDelay makes the server choose the game's input delay (ServerConfig):
// from the round trips it measures to its clients, the delay that covers
// the longest (with its deviation), between Min and Max tics. Each client
// takes it as its own (ClientConfig.InputDelay) from its next command on.
type AutoDelay struct {
	On       bool
	Min, Max int // tics, 0 to MaxInputDelay; Max 0: DefaultMaxAutoDelay
}

// DefaultMaxAutoDelay bounds an automatic delay unless the game says: 6
// tics, 171 ms at 35 tics a second, cover a round trip of 85 ms each way;
// past that, a player feels the delay more than the rollbacks it saves.
const DefaultMaxAutoDelay = 6

// AutoDelayEveryTics is how often the server looks at the round trips
// again (a second at 35 tics a second), and AutoDelayLowerAfter how many
// looks in a row must find a shorter delay enough before it shortens it:
// a delay goes up at once, for a round trip that grew rolls back every
// tic, and down only once the round trip stayed short for 5 s.
const (
	AutoDelayEveryTics  = 35
	AutoDelayLowerAfter = 5
)

// inputDelays is the server's part in input delay: which players build
// their commands ahead (each client says, wire.InputDelay), so that a tic
// may go before it is due; and, with AutoDelay, the delay it chooses for
// every player and tells them.
type inputDelays struct {
	s     *Server
	delay int  // the delay chosen (AutoDelay)
	told  bool // a delay was chosen
	lower int  // looks in a row that found a shorter delay enough
}

// ahead reports whether every player builds its commands ahead, with an
// input delay (wire.InputDelay): then a tic goes as soon as its commands
// are in, and reaches the copies before their clocks do, which need not
// predict it. Under no delay it goes when it is due, as always: sent as
// soon as complete, a tic would go the players' margin early
// (ExtTargetMarginMS), and a tic held up behind it would seem the longer
// for it (a hidden player's, in a hand-off: 155 ms where 133 are allowed).
func (d *inputDelays) ahead(players []*serverClient) bool {
	for _, p := range players {
		if p.inputDelay == 0 {
			return false
		}
	}
	return true
}

// onTic chooses the delay again every AutoDelayEveryTics tics sent, under
// AutoDelay, and tells every client in the game a delay it was not told.
func (d *inputDelays) onTic(seq uint32) {
	s := d.s
	a := s.cfg.AutoDelay
	if !a.On || seq%AutoDelayEveryTics != 0 {
		return
	}
	if want, ok := d.choose(); ok {
		switch {
		case !d.told || want > d.delay:
			d.delay, d.told, d.lower = want, true, 0
		case want < d.delay:
			if d.lower++; d.lower >= AutoDelayLowerAfter {
				d.delay, d.lower = want, 0
			}
		default:
			d.lower = 0
		}
	}
	if !d.told {
		return
	}
	for _, sc := range s.slots {
		if sc.connected() && sc.inGame() && sc.player >= 0 && sc.protocol == wire.ProtocolTicnet && sc.delayTold != d.delay+1 {
			sc.delayTold = d.delay + 1
			sc.conn.SendReliable(&wire.InputDelay{Tics: uint8(d.delay)})
		}
	}
}

// choose is the delay that covers the longest round trip to a client in
// the game, with two deviations, in tics, within AutoDelay's bounds; false
// until every one of them has a round trip measured. A round trip is
// measured from a tic first sent to its acknowledgement (confirmRTT: a
// tic lost and sent again takes longer, and a delay that covers it spares
// the rollback), which rides on the client's next command, half a tic
// later on average: half a tic comes off.
func (d *inputDelays) choose() (int, bool) {
	s := d.s
	a := s.cfg.AutoDelay
	tic := 1000 * int64(s.settings.TicDup) / s.relay.ticRate()
	var worst int64
	for _, sc := range s.players() {
		if sc.addr == LocalClientAddr {
			continue // the loopback: no round trip to cover
		}
		ms, ok := sc.confirmRTT.Bound(2)
		if !ok {
			return 0, false
		}
		worst = max(worst, ms)
	}
	need := int((max(0, worst-tic/2) + tic - 1) / tic)
	return max(a.Min, min(need, a.maxTics())), true
}

func (a AutoDelay) maxTics() int {
	if a.Max == 0 {
		return DefaultMaxAutoDelay
	}
	return a.Max
}
