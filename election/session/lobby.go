package session

import "github.com/ticnet/ticnet/netcore"

// lobbyView is the lobby as last reported to the page: a "lobby" event
// goes out when it changes.
type lobbyView struct {
	last *LobbyReport
}

// update reports the client's lobby l while it waits for the game to
// start (waiting), once the server described one (a copy joining a game
// in progress passes through the waiting states without), if it differs
// from the last reported.
func (v *lobbyView) update(l netcore.Lobby, waiting bool) (*LobbyReport, bool) {
	if l.MaxPlayers == 0 || !waiting {
		return nil, false
	}
	r := &LobbyReport{Players: []LobbyPlayer{}, Controller: l.IsController, Player: l.Player, MaxPlayers: l.MaxPlayers}
	for _, p := range l.Players {
		r.Players = append(r.Players, LobbyPlayer(p))
	}
	if sameLobby(r, v.last) {
		return nil, false
	}
	v.last = r
	return r, true
}

// reset makes the next lobby reported, though it be the same.
func (v *lobbyView) reset() { v.last = nil }

func sameLobby(a, b *LobbyReport) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Controller != b.Controller || a.Player != b.Player || a.MaxPlayers != b.MaxPlayers || len(a.Players) != len(b.Players) {
		return false
	}
	for i := range a.Players {
		if a.Players[i] != b.Players[i] {
			return false
		}
	}
	return true
}
