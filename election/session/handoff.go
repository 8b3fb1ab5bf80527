package session

// Planned hand-off: a page that is hidden, frozen or being closed runs
// its timers once a second at best, and every player would wait for it if
// it served. Its server hands the game over at once to the client that
// holds the most of it (netcore.Server.HandOff), which takes it over
// without an election (election.TakeOver) while the others wait for it
// (election.ServerHandedTo); the hidden copy stays in the game as a client
// of the new server, reattached like any survivor of a migration.

// ReasonHandedOff is the reason of the "migrating" event of a copy that
// handed its game over.
const ReasonHandedOff = "handed off"

// SetHidden tells the session whether this copy's page is hidden (or
// frozen, or being closed). A hidden copy does not serve while a visible
// one can: if it serves a game in progress, it hands the game over on its
// next Update.
func (s *Session) SetHidden(on bool) { s.el.SetHidden(on) }

// handOffIfHidden hands this copy's game over when its page is hidden and
// it serves, if a client can take the game over.
func (s *Session) handOffIfHidden(now int64) {
	if !s.el.Hidden() || s.left || s.mig != nil || s.eng == nil || s.eng.server == nil || !s.eng.view.reattachable {
		return
	}
	// The server's last word goes out as the server's (before the
	// election makes this copy a client); the successor is a copy the
	// election knows (MaySucceed), so it can hand over.
	succ, ok := s.eng.server.HandOff(now)
	if !ok {
		return
	}
	heir, _ := s.el.HandOver(now, uint32(succ))
	s.migrate(now, ReasonHandedOff)
	s.emit(Event{Kind: "role", Role: RoleClient, UID: uint32(s.gameUID()), ServerUID: heir.Tie})
	s.reattach(now)
}

// serverHandedOff reports the copy to which this copy's server handed its
// game over, if it named one (its Leaving), and moves the election on:
// this copy takes the game over if it is that copy, or waits for it.
func (s *Session) serverHandedOff(now int64) bool {
	l := s.eng.leaving
	if l == nil || l.Successor == 0 || s.mig == nil {
		return false
	}
	if l.Successor == uint32(s.gameUID()) {
		s.el.TakeOver(now)
	} else {
		s.el.ServerHandedTo(now, l.Successor)
	}
	return true
}
