package session

import (
	"github.com/ticnet/ticnet/election"
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/wire"
)

// The server's departure, as this copy's client reports it: the server's
// Leaving, if it said one (netcore.EventServerLeaving), then the engine's
// end with its cause (netcore.Cause; the reason is for people only). The
// session decides whether the game moves on to another server
// (migrate.go, handoff.go), the client tries again, or a DISCONNECT that
// came without a Leaving waits for it a little.

// engineEnded handles the engine's end: a client whose server vanished
// tells the election, which elects a new one. (A client's engine never
// ends for CauseGameEnded: that is its server's end.)
func (s *Session) engineEnded(now int64, ev netcore.Event) {
	if s.left || s.el.Role() != election.Client {
		return
	}
	switch ev.Cause {
	case netcore.CauseTimeout, netcore.CauseServerLeft:
		if ev.Cause == netcore.CauseServerLeft && s.eng.leaving == nil && s.canMigrate() {
			// A DISCONNECT without a Leaving: an extension server that
			// leaves says Leaving first, but those may be lost, or
			// overtaken on the way (sentAway).
			s.awaitLeaving.start(now, s.el.JustWoke(now))
			return
		}
		s.serverLeft(now, ev.Reason)
	case netcore.CauseNotDeterministic:
		// The server found this copy's state diverged again and again:
		// its game computes differently here. Trying again would do the
		// same: the copy leaves, and the page hears why.
		s.emit(Event{Kind: "error", Reason: ev.Reason, Message: ev.Reason})
		s.Leave(now)
	case netcore.CauseReattachRefused:
		// The new server cannot take it back as it is: it joins again at
		// once. What that server still sends its reattaching connection
		// (a SYN reply resent, say) names that connection, which the new
		// one drops (netcore/ident.go).
		s.mig = nil
		s.el.SetGame(0)
		s.retryMS = now
	default:
		// Refused, sent away while the server takes a game over
		// (CauseResuming), or a join that did not complete: the server
		// is there; try again.
		s.retryMS = now + RetryMS
	}
}

// serverLeft moves this copy's game on from a server that left, for
// reason: to the copy the server named, or to the one elected.
func (s *Session) serverLeft(now int64, reason string) {
	s.migrate(now, reason)
	if !s.serverHandedOff(now) {
		s.el.ServerGone(now)
	}
}

// LeavingWaitMS is how long a copy whose server sent a DISCONNECT without
// a Leaving waits for the Leaving, which may have been overtaken on the
// way: it names the copy the game was handed to, and where the stream
// stopped.
const LeavingWaitMS = 200

// serverLeaving takes the server's Leaving, which the engine keeps for
// serverHandedOff and resumeAsServer. If it comes after the DISCONNECT
// (sentAway waits for it), the game migrates as it says.
func (s *Session) serverLeaving(now int64, l wire.Leaving) {
	s.eng.leaving = &l
	w := &s.awaitLeaving
	if !w.pending() {
		return
	}
	w.stop()
	if !s.left && s.el.Role() == election.Client {
		s.serverLeft(now, netcore.ReasonServerLeft)
	}
}

// sentAway settles a DISCONNECT that came without a Leaving, while no
// Leaving comes (serverLeaving). A copy that had just woken may have
// fallen behind and been sent away by a server that serves on: if the
// server is heard after the DISCONNECT, the copy joins its game again
// with its token. Otherwise, after LeavingWaitMS (two beacon periods for
// a copy that woke), the server left and its Leavings were lost: the game
// migrates.
func (s *Session) sentAway(now int64) {
	w := &s.awaitLeaving
	if !w.pending() {
		return
	}
	switch {
	case s.left || s.el.Role() != election.Client:
		w.stop()
	case w.serverHeardAfter(s.el.ServerHeardMS()):
		w.stop()
		s.mig = nil
		s.el.SetGame(0)
		s.retryMS = now
	case w.overdue(now, s.cfg.cadence().BeaconPeriodMS):
		w.stop()
		s.serverLeft(now, netcore.ReasonServerLeft)
	}
}

// leavingWait is a DISCONNECT that came without a Leaving, waiting for the
// Leaving, for a sign that the server serves on, or for its deadline.
type leavingWait struct {
	sinceMS int64 // when the DISCONNECT came; 0: none pending
	woke    bool  // the copy had just woken then
}

func (w *leavingWait) start(now int64, woke bool) { w.sinceMS, w.woke = now, woke }
func (w *leavingWait) pending() bool              { return w.sinceMS != 0 }
func (w *leavingWait) stop()                      { *w = leavingWait{} }

// serverHeardAfter reports whether a copy that had just woken heard its
// server (last at heardMS) after the DISCONNECT: the server serves on.
func (w *leavingWait) serverHeardAfter(heardMS int64) bool {
	return w.woke && heardMS > w.sinceMS
}

// overdue reports whether the wait is over: LeavingWaitMS, or two beacon
// periods for a copy that had just woken.
func (w *leavingWait) overdue(now, beaconPeriodMS int64) bool {
	wait := int64(LeavingWaitMS)
	if w.woke {
		wait = 2 * beaconPeriodMS
	}
	return now-w.sinceMS > wait
}
