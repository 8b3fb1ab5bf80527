package netcore

// Lobby is the state of the game before it starts, as a client sees it.
type Lobby struct {
	Players      []LobbyPlayer
	NumDrones    int
	ReadyPlayers int
	MaxPlayers   int
	IsController bool // this client is the controller: it may launch
	Player       int  // this client's player number, -1 for a drone
}

// LobbyPlayer is one player in the lobby.
type LobbyPlayer struct {
	Name string
	Addr string
}

func (l *Lobby) equal(o *Lobby) bool {
	if len(l.Players) != len(o.Players) || l.NumDrones != o.NumDrones || l.ReadyPlayers != o.ReadyPlayers ||
		l.MaxPlayers != o.MaxPlayers || l.IsController != o.IsController || l.Player != o.Player {
		return false
	}
	for i := range l.Players {
		if l.Players[i] != o.Players[i] {
			return false
		}
	}
	return true
}
