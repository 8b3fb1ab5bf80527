package netcore

import "strconv"

// Cause is why an engine ended (EventDisconnected, EventRejected), for
// the code above it to act on: the event's Reason says the same to people,
// in words that may change or come from the server, and decides nothing.
type Cause uint8

const (
	// CauseLeft: this endpoint left (Client.Leave).
	CauseLeft Cause = iota + 1
	// CauseTimeout: the peer fell silent.
	CauseTimeout
	// CauseServerLeft: the server said it leaves (its Leaving, reported
	// first as EventServerLeaving) or sent a DISCONNECT.
	CauseServerLeft
	// CauseResuming: sent away after its Hello by a server that takes a
	// game over; it takes joiners once the game has resumed.
	CauseResuming
	// CauseReattachRefused: the server that took the game over cannot
	// take this copy back as it is.
	CauseReattachRefused
	// CauseRejected: the server refused the connection; Reason is its
	// message.
	CauseRejected
	// CauseNoResponse: the server never answered.
	CauseNoResponse
	// CauseUnknownProtocol: the server chose a protocol this client does
	// not speak.
	CauseUnknownProtocol
	// CauseIncompatible: this game cannot play the server's: its input
	// layout, the protocol its input needs, or a game in progress that
	// it cannot load a state to join.
	CauseIncompatible
	// CauseJoinFailed: joining a game in progress failed: its state did
	// not arrive, or is not of a tic it can start from.
	CauseJoinFailed
	// CauseLoadFailed: the game could not load a state (to join, or to
	// roll back a prediction).
	CauseLoadFailed
	// CauseGameEnded: the server's game ended, no player being left.
	CauseGameEnded
	// CauseGameAborted: the server's game ended before it started.
	CauseGameAborted
	// CauseNotDeterministic: this copy's game state diverged from the
	// others' again and again (RepairLimit times within RepairWindowMS):
	// the game computes differently here, and the copy left the game.
	CauseNotDeterministic
)

var causeNames = [...]string{
	CauseLeft: "left", CauseTimeout: "timeout", CauseServerLeft: "server left", CauseResuming: "resuming",
	CauseReattachRefused: "reattach refused", CauseRejected: "rejected", CauseNoResponse: "no response",
	CauseUnknownProtocol: "unknown protocol", CauseIncompatible: "incompatible", CauseJoinFailed: "join failed",
	CauseLoadFailed: "load failed",
	CauseGameEnded:  "game ended", CauseGameAborted: "game aborted", CauseNotDeterministic: "not deterministic",
}

func (c Cause) String() string {
	if int(c) < len(causeNames) && causeNames[c] != "" {
		return causeNames[c]
	}
	return "cause(" + strconv.Itoa(int(c)) + ")"
}
