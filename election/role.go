package election

// Role is what a copy is.
type Role uint8

const (
	Undecided Role = iota
	Server
	Client
)

func (r Role) String() string {
	switch r {
	case Server:
		return "server"
	case Client:
		return "client"
	}
	return "undecided"
}

// become is the one place where this copy's role, or its server, changes.
// Every decision after the first counts (Counters.RoleChanges); dropping a
// server does not (the decision that follows does). A client has just
// heard its new server. A copy that changes role follows no heir any
// more; a client that only changes server keeps the heir it follows. ev,
// unless 0, reports the change, with the new role and server.
func (e *Election) become(now int64, role Role, srv Identity, ev EventKind) {
	if role != Undecided {
		if e.decided {
			e.stats.RoleChanges++
		}
		e.decided = true
	}
	if role != e.role {
		e.heir = heir{}
	}
	e.role, e.server = role, srv
	if role == Client {
		e.serverHeardMS = now
	}
	if ev != 0 {
		e.emit(ev)
	}
}

// migrating reports whether this copy looks for the next server of its
// game.
func (e *Election) migrating() bool { return e.role == Undecided && e.game != 0 }
