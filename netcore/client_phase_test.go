package netcore

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var phaseNames = [...]string{"connecting", "lobby", "launched", "joining", "playing", "reattaching",
	"gone", "gone-joining", "gone-reattaching"}

var stepNames = [...]string{"connected", "launched", "started", "join-started", "joined", "reattach",
	"resumed", "ended", "gone"}

// Every move a client's phase makes, and the only ones: each entry is a
// transition the client takes somewhere (its step's comment says where).
var phaseMoves = []struct {
	from phase
	s    step
	to   phase
}{
	{phaseConnecting, stepConnected, phaseLobby},
	{phaseLobby, stepLaunched, phaseLaunched},
	{phaseLaunched, stepStarted, phasePlaying},
	{phaseLobby, stepJoinStarted, phaseJoining},
	{phaseJoining, stepJoined, phasePlaying},
	{phaseGoneJoining, stepJoined, phaseGone},
	{phasePlaying, stepReattach, phaseReattaching},
	{phaseReattaching, stepReattach, phaseReattaching},
	{phaseGone, stepReattach, phaseReattaching},
	{phaseGoneReattaching, stepReattach, phaseReattaching},
	{phaseReattaching, stepResumed, phasePlaying},
	{phaseJoining, stepEnded, phaseLobby},
	{phasePlaying, stepEnded, phaseLobby},
	{phaseReattaching, stepEnded, phaseLobby},
	{phaseConnecting, stepGone, phaseGone},
	{phaseLobby, stepGone, phaseGone},
	{phaseLaunched, stepGone, phaseGone},
	{phasePlaying, stepGone, phaseGone},
	{phaseJoining, stepGone, phaseGoneJoining},
	{phaseReattaching, stepGone, phaseGoneReattaching},
}

func TestEachPhaseMoveGoesWhereItShould(t *testing.T) {
	for _, m := range phaseMoves {
		t.Run(fmt.Sprintf("%s-%s", phaseNames[m.from], stepNames[m.s]), func(t *testing.T) {
			to, ok := m.from.next(m.s)
			require.True(t, ok, "next: no move to %s", phaseNames[m.to])
			require.Equal(t, m.to, to, "next: %s; want %s", phaseNames[to], phaseNames[m.to])
			p := m.from
			p.move(m.s)
			require.Equal(t, m.to, p, "move: %s; want %s", phaseNames[p], phaseNames[m.to])
		})
	}
}

// A step that is not a move leaves the phase as it was: a late LAUNCH,
// a second GAMESTART, a Resume to a client that does not reattach.
func TestAStepThatIsNoMoveLeavesThePhase(t *testing.T) {
	valid := map[[2]int]bool{}
	for _, m := range phaseMoves {
		valid[[2]int{int(m.from), int(m.s)}] = true
	}
	refused := 0
	for p := range phase(len(phaseNames)) {
		for s := range step(len(stepNames)) {
			if valid[[2]int{int(p), int(s)}] {
				continue
			}
			to, ok := p.next(s)
			assert.False(t, ok, "%s-%s: a move", phaseNames[p], stepNames[s])
			assert.Equal(t, p, to, "%s-%s: %s; want no move", phaseNames[p], stepNames[s], phaseNames[to])
			refused++
		}
	}
	assert.Equal(t, len(phaseNames)*len(stepNames)-len(phaseMoves), refused, "steps refused (a move listed twice?)")
}

// What callers see: joining and reattaching are in the game, and a client
// gone while it joined or reattached is disconnected but still says so.
func TestAPhaseIsSeenAsItsClientState(t *testing.T) {
	want := map[phase]ClientState{
		phaseConnecting: ClientConnecting, phaseLobby: ClientWaitingLaunch, phaseLaunched: ClientWaitingStart,
		phaseJoining: ClientInGame, phasePlaying: ClientInGame, phaseReattaching: ClientInGame,
		phaseGone: ClientDisconnected, phaseGoneJoining: ClientDisconnected, phaseGoneReattaching: ClientDisconnected,
	}
	for p, st := range want {
		assert.Equal(t, st, p.state(), "%s is seen as", phaseNames[p])
		assert.Equal(t, p == phaseJoining || p == phaseGoneJoining, p.joining(), "%s: joining", phaseNames[p])
		assert.Equal(t, p == phaseReattaching || p == phaseGoneReattaching, p.reattaching(), "%s: reattaching", phaseNames[p])
	}
}
