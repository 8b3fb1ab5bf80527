package netcore

import "testing"

var allSlotPhases = []slotPhase{slotWaiting, slotReady, slotJoining, slotPlaying, slotPlaceholder}

// Each move a slot makes in its client's life, and what makes it; every
// other move is refused and leaves the slot where it was.
func TestASlotMovesOnlyAlongItsLife(t *testing.T) {
	moves := map[[2]slotPhase]string{
		{slotWaiting, slotReady}:   "its GAMESTART came",
		{slotWaiting, slotJoining}: "it connected to a game in progress, or said Hello while held back",
		{slotWaiting, slotPlaying}: "it reattached to a server that took the game over",
		{slotReady, slotWaiting}:   "the game it was ready for ended before it started",
		{slotReady, slotPlaying}:   "every client was ready: the game started",
		{slotJoining, slotPlaying}: "it caught up and entered, or reattached instead",
		{slotJoining, slotWaiting}: "its join was dropped, or the game ended",
		{slotPlaying, slotWaiting}: "the game ended: back to the lobby",
	}
	for _, from := range allSlotPhases {
		for _, to := range allSlotPhases {
			if from == to {
				continue
			}
			sc := &serverClient{phase: from}
			why, want := moves[[2]slotPhase{from, to}]
			if got := sc.to(to); got != want {
				t.Errorf("%v -> %v: moved %v, want %v (%s)", from, to, got, want, why)
			}
			if want && sc.phase != to || !want && sc.phase != from {
				t.Errorf("%v -> %v: the slot is %v", from, to, sc.phase)
			}
		}
	}
}

// A move to the phase a slot is in changes nothing: a joiner keeps how
// far its join got.
func TestAMoveToTheSamePhaseKeepsTheSlotAsItIs(t *testing.T) {
	for _, p := range allSlotPhases {
		j := &joiner{started: true}
		sc := &serverClient{phase: p, join: j, readyDue: true}
		if !sc.to(p) || sc.phase != p || sc.join != j || !sc.readyDue {
			t.Errorf("%v -> %v: phase %v, joiner kept %v, readyDue %v", p, p, sc.phase, sc.join == j, sc.readyDue)
		}
	}
}

// Entering slotJoining starts a fresh joiner; leaving it, whichever way,
// ends it; going back to waiting drops a JoinReady still due.
func TestAJoinerLivesExactlyAsLongAsItsSlotJoins(t *testing.T) {
	sc := &serverClient{}
	sc.to(slotJoining)
	if sc.join == nil || *sc.join != (joiner{}) {
		t.Fatalf("joining: joiner %+v, want a fresh one", sc.join)
	}
	sc.join.started, sc.readyDue = true, true
	sc.to(slotPlaying)
	if sc.join != nil || !sc.readyDue {
		t.Fatalf("entered: joiner %+v, readyDue %v; want none, true (its JoinReady is still to come)", sc.join, sc.readyDue)
	}
	sc.to(slotWaiting)
	if sc.readyDue {
		t.Fatal("back in the lobby: a JoinReady is still due")
	}
	sc.to(slotJoining)
	sc.to(slotWaiting)
	if sc.join != nil {
		t.Fatalf("join dropped: joiner %+v, want none", sc.join)
	}
}

// In the game are the players at its start, entered or reattached, and
// the places awaited; the tics go to those and to joiners.
func TestAPhaseSaysWhetherTheSlotIsInTheGameAndIsSentTics(t *testing.T) {
	for _, c := range []struct {
		p             slotPhase
		inGame, takes bool
	}{
		{slotWaiting, false, false},
		{slotReady, false, false},
		{slotJoining, false, true},
		{slotPlaying, true, true},
		{slotPlaceholder, true, true},
	} {
		sc := &serverClient{phase: c.p}
		if sc.inGame() != c.inGame || sc.takesTics() != c.takes {
			t.Errorf("%v: in game %v, sent tics %v; want %v, %v", c.p, sc.inGame(), sc.takesTics(), c.inGame, c.takes)
		}
	}
}
