package scenario

import (
	"fmt"

	"github.com/ticnet/ticnet/internal/fingerprint"
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
)

// tapped is a host's loopback end whose sends a fingerprint sees: the
// frames between the server and its host's own client never cross the
// channel, and are part of what the game did all the same.
type tapped struct {
	link.Transport
	net  func() int64
	node int // -1: the server's end, -2: the host's client's
	fp   *fingerprint.Print
}

func (t *tapped) Send(to link.Addr, payload []byte) {
	if t.node == -2 || to == netcore.LocalClientAddr || to == link.Broadcast {
		frame := link.AppendFrame(nil, to, 0, payload)
		t.fp.Frame(t.net(), t.node, frame)
	}
	t.Transport.Send(to, payload)
}

// Fingerprint adds to Options.Fingerprint what the fingerprint cannot see
// as it happens, once the game is over: every event, and every tic every
// peer's game ran (and each replay, when the peers record). It returns the
// fingerprint.
func (s *Scenario) Fingerprint() string {
	fp := s.opts.Fingerprint
	for _, l := range s.Log {
		// An end's Cause restates its Reason, and a start's Start, a
		// lobby's Lobby, a roster and the players' figures what the
		// frames said, hashed already, and EventReattachable what the
		// client holds: without them, the games' prints are those kept
		// before events had them.
		e := l.Event
		if e.Kind == netcore.EventRoster || e.Kind == netcore.EventReattachable || e.Kind == netcore.EventPeers {
			continue
		}
		e.Cause, e.Start, e.Lobby = 0, nil, nil
		fp.Event(l.At, l.Peer, e)
	}
	for _, p := range s.Peers {
		// (A game launched again keeps the checksums of its last game only.)
		sums := p.Game.Sums()
		for t, r := range p.Game.Ran().Before(len(sums)).All() {
			if r.OK {
				fp.Tic(p.Index, uint32(t), sums[t], r)
			}
		}
		// Rollbacks and saves show in no frame and no tic: the engine's
		// calls of the game count them.
		fp.Value(p.Index, "calls", p.Game.Calls())
		if s.opts.Replay.Record {
			fp.Data(p.Index, "replay", p.Client.Replay())
		}
	}
	return fp.String()
}

// AddrString shows an address as the transport tapped does: the server
// names its peers through it.
func (t *tapped) AddrString(a link.Addr) string {
	if n, ok := t.Transport.(netcore.AddrNamer); ok {
		return n.AddrString(a)
	}
	return fmt.Sprintf("uid:%08x", uint32(a))
}
