package session

import (
	"cmp"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/tic"
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
	// names are the players' names by number, as the lobby or a roster
	// last named them: a player who left keeps the name it left with.
	names [tic.MaxPlayers]string
	// reattachable: the client can go on with its game under a new
	// server (EventReattachable).
	reattachable bool
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
		for p, lp := range v.lobby.Players {
			if p < len(v.names) {
				v.names[p] = lp.Name
			}
		}
	case netcore.EventLaunched:
		v.state = netcore.ClientWaitingStart
	case netcore.EventGameStarted:
		v.state, v.player, v.roster = netcore.ClientInGame, ev.Player, nil
		v.ticnet = ev.Protocol == wire.ProtocolTicnet
	case netcore.EventRoster:
		v.roster = ev.Roster
		for p := range v.names {
			if (v.roster.Playing|v.roster.Held)&(1<<p) != 0 {
				v.names[p] = wire.Printable(v.roster.Names[p])
			}
		}
	case netcore.EventReattachable:
		v.reattachable = ev.On
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

// nameOf is player p's name, as far as this copy knows it ("": not);
// its own player's is own, the name it gave, until a roster says it.
func (v *clientView) nameOf(p int, own string) string {
	switch {
	case p < 0 || p >= len(v.names):
		return ""
	case v.names[p] == "" && p == v.player:
		return own
	}
	return v.names[p]
}

// players is the game's players as the page sees them (a "lobby" event's
// and stats().players): the lobby's while the copy waits in it (nil
// before the server described one), the roster's in a game (nil before
// the first came: a copy that joins a game in progress, until it plays;
// a game under the reference protocol, which has none). maxPlayers is
// the game's limit in a game (0: tic.MaxPlayers).
func (v *clientView) players(maxPlayers int) *LobbyReport {
	r := &LobbyReport{}
	if !v.fillPlayers(maxPlayers, r) {
		return nil
	}
	return r
}

// fillPlayers is players written into r, whose Players it reuses (the
// session asks every pass whether they changed); it reports whether they
// are known.
func (v *clientView) fillPlayers(maxPlayers int, r *LobbyReport) bool {
	r.Players = r.Players[:0]
	if r.Players == nil {
		r.Players = []LobbyPlayer{}
	}
	switch {
	case v.waiting() && v.lobby.MaxPlayers > 0:
		r.Controller, r.Player, r.MaxPlayers = v.lobby.IsController, v.lobby.Player, v.lobby.MaxPlayers
		for p, lp := range v.lobby.Players {
			r.Players = append(r.Players, LobbyPlayer{Name: lp.Name, Addr: lp.Addr, Player: p})
		}
		return true
	case v.state == netcore.ClientInGame && v.roster != nil:
		r.Controller = v.player >= 0 && int(v.roster.Controller) == v.player
		r.Player, r.MaxPlayers = v.player, cmp.Or(maxPlayers, tic.MaxPlayers)
		for p := range tic.MaxPlayers {
			if v.roster.Playing&(1<<p) != 0 {
				r.Players = append(r.Players, LobbyPlayer{Name: v.names[p], Player: p})
			}
		}
		return true
	}
	return false
}
