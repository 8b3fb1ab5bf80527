package session

import (
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/wire"
)

// clientView is what the session knows of its engine's client, learnt
// from the client's events alone (design.md: return, don't get polled):
// where the client is in its life, the lobby it was last told, its
// player, and the game's roster. Every change of these comes with an
// event, and the session reads them only between two of the client's
// Updates, so the view is the client's own.
type clientView struct {
	state  netcore.ClientState
	lobby  netcore.Lobby
	player int          // -1: none yet (a drone's stays -1)
	roster *wire.Roster // the game's last roster; nil: none this game
	// ticnet: the game runs under the extension, whose server gives its
	// verdict on a desync (EventDesyncVerdict).
	ticnet bool
}

// newClientView is the view of a client just built: it connects.
func newClientView() clientView { return clientView{state: netcore.ClientConnecting, player: -1} }

// see takes one of the client's events.
func (v *clientView) see(ev netcore.Event) {
	switch ev.Kind {
	case netcore.EventConnected:
		v.state = netcore.ClientWaitingLaunch
	case netcore.EventLobbyChanged:
		v.lobby = *ev.Lobby
	case netcore.EventLaunched:
		v.state = netcore.ClientWaitingStart
	case netcore.EventGameStarted:
		v.state, v.player, v.roster = netcore.ClientInGame, ev.Player, nil
		v.ticnet = ev.Protocol == wire.ProtocolTicnet
	case netcore.EventRoster:
		v.roster = ev.Roster
	case netcore.EventGameEnded:
		v.state, v.roster = netcore.ClientWaitingLaunch, nil
	case netcore.EventDisconnected, netcore.EventRejected:
		v.state = netcore.ClientDisconnected
	}
}

// rostered is the game's last roster, and whether one came.
func (v *clientView) rostered() (wire.Roster, bool) {
	if v.roster == nil {
		return wire.Roster{}, false
	}
	return *v.roster, true
}

// reattached is the view of a client that Reattach made a client of a
// new server: in its game, which goes on.
func (v clientView) reattached() clientView {
	v.state = netcore.ClientInGame
	return v
}

// waiting reports whether the client waits in its lobby for the game to
// start.
func (v *clientView) waiting() bool {
	return v.state == netcore.ClientWaitingLaunch || v.state == netcore.ClientWaitingStart
}
