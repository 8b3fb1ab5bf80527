package netcore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
			assert.Equal(t, want, sc.to(to), "%v -> %v: moved (%s)", from, to, why)
			wantPhase := from // a refused move leaves it where it was
			if want {
				wantPhase = to
			}
			assert.Equal(t, wantPhase, sc.phase, "%v -> %v: the slot's phase", from, to)
		}
	}
}

// A move to the phase a slot is in changes nothing: a joiner keeps how
// far its join got.
func TestAMoveToTheSamePhaseKeepsTheSlotAsItIs(t *testing.T) {
	for _, p := range allSlotPhases {
		j := &joiner{started: true}
		sc := &serverClient{phase: p, join: j, readyDue: true}
		assert.True(t, sc.to(p), "%v -> %v: moved", p, p)
		assert.Equal(t, p, sc.phase, "%v -> %v: phase", p, p)
		assert.Same(t, j, sc.join, "%v -> %v: joiner kept", p, p)
		assert.True(t, sc.readyDue, "%v -> %v: readyDue", p, p)
	}
}

// Entering slotJoining starts a fresh joiner; leaving it, whichever way,
// ends it; going back to waiting drops a JoinReady still due.
func TestAJoinerLivesExactlyAsLongAsItsSlotJoins(t *testing.T) {
	sc := &serverClient{}
	sc.to(slotJoining)
	require.NotNil(t, sc.join, "joining: want a fresh joiner")
	require.Equal(t, joiner{}, *sc.join, "joining: want a fresh joiner")
	sc.join.started, sc.readyDue = true, true
	sc.to(slotPlaying)
	require.Nil(t, sc.join, "entered: want no joiner")
	require.True(t, sc.readyDue, "entered: readyDue, want true (its JoinReady is still to come)")
	sc.to(slotWaiting)
	require.False(t, sc.readyDue, "back in the lobby: a JoinReady is still due")
	sc.to(slotJoining)
	sc.to(slotWaiting)
	require.Nil(t, sc.join, "join dropped: want no joiner")
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
		assert.Equal(t, c.inGame, sc.inGame(), "%v: in game", c.p)
		assert.Equal(t, c.takes, sc.takesTics(), "%v: sent tics", c.p)
	}
}
