package netcore

// How a server under the extension protocol leaves a game that goes on
// without it: whom it names to take over, and what it tells the clients.

import (
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// successor is, of the clients ServerConfig.MaySucceed allows, an
// extension player in the game that acknowledged the most tics (it holds
// the most of the timeline), the first such slot on a tie.
func (x *ticnetRelay) successor() (link.Addr, bool) {
	s := x.s
	may := s.cfg.MaySucceed
	if s.state != ServerInGame {
		return 0, false
	}
	var best *serverClient
	for _, sc := range s.slots {
		if !sc.connected() || sc.addr == LocalClientAddr || sc.phase != slotPlaying || sc.player < 0 || sc.drone() ||
			sc.protocol != wire.ProtocolTicnet || may != nil && !may(sc.addr) {
			continue
		}
		if best == nil || int32(sc.acked-best.acked) > 0 {
			best = sc
		}
	}
	if best == nil {
		return 0, false
	}
	return best.addr, true
}

// leaving tells the clients that the server leaves the game: where the
// stream stopped and, unless it hands the game over and stays, its player.
func (x *ticnetRelay) leaving(now int64, successor link.Addr, stays bool) {
	s := x.s
	if s.state != ServerInGame {
		return
	}
	m := wire.Leaving{Tic: x.sendSeq, Player: wire.NoPlayer, Successor: uint32(successor)}
	if local := s.slots.find(LocalClientAddr); local != nil && !stays && local.player >= 0 {
		m.Player = int8(local.player)
	}
	// The server is going: no resend can follow, so it says it
	// leavingCopies times (at 20 % loss, one copy in 125 misses them all,
	// and finds out from the silence).
	for range leavingCopies {
		if s.cfg.BroadcastTics {
			s.broadcast(&m)
			continue
		}
		for _, sc := range s.slots {
			if sc.connected() && sc.protocol == wire.ProtocolTicnet {
				sc.conn.SendMessage(now, &m)
			}
		}
	}
}

// leavingCopies is how many times a leaving server sends its Leaving.
const leavingCopies = 3
