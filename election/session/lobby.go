package session

// lobbyView is the game's players as last reported to the page: a "lobby"
// event goes out when they change (clientView.players says what they are
// in the lobby and in a game).
type lobbyView struct {
	last *LobbyReport
	next LobbyReport // the players as this pass finds them, kept to reuse its slice
}

// update finds the players of the copy cv shows (maxPlayers: the game's
// limit) and, when they are known and differ from the last reported,
// reports them: a copy, which becomes the last reported.
func (v *lobbyView) update(cv *clientView, maxPlayers int) (*LobbyReport, bool) {
	if !cv.fillPlayers(maxPlayers, &v.next) || sameLobby(&v.next, v.last) {
		return nil, false
	}
	r := v.next
	r.Players = append([]LobbyPlayer{}, v.next.Players...)
	v.last = &r
	return &r, true
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

// names are r's players' names by player number ("" for a number no one
// plays), as stats().players has them.
func (r *LobbyReport) names() []string {
	names := []string{}
	for _, p := range r.Players {
		for len(names) <= p.Player {
			names = append(names, "")
		}
		names[p.Player] = p.Name
	}
	return names
}
