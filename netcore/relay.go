package netcore

import (
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// relay is the part of a game in progress that differs by protocol: how
// the server lets complete tics go, how it takes their acknowledgements
// and sends them again, and what only the extension does (late join,
// checksums, ending and leaving a game). The reference's is
// referenceRelay (relay_reference.go), the extension's ticnetRelay
// (relay_ticnet.go); the server picks one when the game launches
// (chooseRelay) and asks no other question of which protocol runs.
type relay interface {
	// protocol is the protocol's name, for events and replays.
	protocol() string
	// ticRate is the running game's tics per second.
	ticRate() int64
	// next is the next tic the server will send (Server.SendSeq).
	next() uint32
	// sentEnd is one past the newest tic sc was sent: its
	// acknowledgement never passes it.
	sentEnd(sc *serverClient) uint32
	// sentAt is when tic t was first sent to sc.
	sentAt(sc *serverClient, t uint32) (int64, bool)
	// holds reports whether tic t can be sent to sc again.
	holds(sc *serverClient, t uint32) bool
	// clip cuts a resend request for [first, last] to the tics sent; false:
	// nothing of it was.
	clip(first, last uint32) (uint32, bool)
	// send sends sc the held tics [first, last] again.
	send(now int64, sc *serverClient, first, last uint32)
	// pumpClient sends sc, in each pass, what it may have now.
	pumpClient(now int64, sc *serverClient)
	// pass lets go, in each pass, the tics that may go.
	pass(now int64)
	// acked follows a client's acknowledgement.
	acked(now int64, sc *serverClient)
	// decode reads a GAMEDATA's body into g, in the protocol's layout.
	decode(g *wire.ClientGameData, body []byte) error
	// fresh reports whether a player's commands [start, start+n) are the
	// first arrival of a new tic, whose arrival measures its clock.
	fresh(p int, start uint32, n int) bool
	// late takes a command of player p for tic, which has gone already.
	late(now int64, p int, tic uint32, fresh bool)
	// checksums takes a player's checksum report.
	checksums(sc *serverClient, m *wire.ChecksumReport) error
	// admitLate takes a copy that connects to a game in progress; false:
	// it cannot join.
	admitLate(now int64, from link.Addr, m *wire.SYN, proto string, conn uint32, key *wire.PublicKey) bool
	// hold keeps the player of a copy that left for it to come back.
	hold(now int64, sc *serverClient)
	// successor is who would serve the game best after this server.
	successor() (link.Addr, bool)
	// leaving tells the clients that the server leaves.
	leaving(now int64, successor link.Addr, stays bool)
	// onEndRequest takes a player's request to end the game.
	onEndRequest(now int64, sc *serverClient, body []byte) error
	// onGameOver takes a copy's word that its game ended itself.
	onGameOver(now int64, sc *serverClient, body []byte) error
}

// chooseRelay picks the game's protocol at its launch: the extension when
// every connected client speaks it, the reference otherwise.
func (s *Server) chooseRelay() relay {
	for _, sc := range s.slots {
		if sc.connected() && sc.protocol != wire.ProtocolTicnet {
			return &s.ref
		}
	}
	return &s.ext
}
