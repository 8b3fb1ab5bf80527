package netcore

import "slices"

// slotPhase is where a server's slot is in its client's life. A slot is
// made slotWaiting (newSlot) and moved only by serverClient.to, along
// slotMoves; a player's place whose copy has not reattached to a server
// that took the game over is made slotPlaceholder (NewResumedServer) and
// never moves: the copy that reattaches takes it in a slot of its own.
// Whether its connection is up is its connection's (reliable.Conn), not a phase: a
// slot that went keeps the phase it had, for what is done with its player.
type slotPhase uint8

const (
	// slotWaiting is a client in no game: in the lobby, or, connected
	// during a game, held back until it says it reattaches or joins.
	slotWaiting slotPhase = iota
	// slotReady sent its GAMESTART: it waits for the others'.
	slotReady
	// slotJoining joins a game in progress (join says how far).
	slotJoining
	// slotPlaying is in the game: it was at its start, entered it as a
	// joiner, or reattached to it.
	slotPlaying
	// slotPlaceholder holds the place of a player whose copy has not
	// reattached: it is in the game, and its commands are substituted.
	slotPlaceholder
)

var slotPhaseNames = [...]string{"waiting", "ready", "joining", "playing", "placeholder"}

func (p slotPhase) String() string { return slotPhaseNames[p] }

// slotMoves says which phases a slot may move to from each.
var slotMoves = [...][]slotPhase{
	slotWaiting: {slotReady, slotJoining, slotPlaying},
	slotReady:   {slotWaiting, slotPlaying},
	slotJoining: {slotPlaying, slotWaiting},
	slotPlaying: {slotWaiting},
}

// to moves the slot to phase p, and reports whether it may: a slot
// stays where it is rather than take a move slotMoves lacks. Entering
// slotJoining starts its joiner's state; leaving it ends it.
func (sc *serverClient) to(p slotPhase) bool {
	if p == sc.phase {
		return true
	}
	if int(sc.phase) >= len(slotMoves) || !slices.Contains(slotMoves[sc.phase], p) {
		return false
	}
	sc.phase = p
	sc.join = nil
	if p == slotJoining {
		sc.join = &joiner{}
	}
	if p == slotWaiting {
		sc.readyDue = false
	}
	return true
}

// inGame reports whether the slot's player (or drone) is in the game.
func (sc *serverClient) inGame() bool { return sc.phase == slotPlaying || sc.phase == slotPlaceholder }

// takesTics reports whether the slot is sent the game's tics: it is in
// the game, or joins it.
func (sc *serverClient) takesTics() bool { return sc.inGame() || sc.phase == slotJoining }
