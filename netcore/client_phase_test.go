package netcore

import (
	"fmt"
	"testing"
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
			if to, ok := m.from.next(m.s); !ok || to != m.to {
				t.Fatalf("next: %s, %v; want %s, true", phaseNames[to], ok, phaseNames[m.to])
			}
			p := m.from
			if p.move(m.s); p != m.to {
				t.Fatalf("move: %s; want %s", phaseNames[p], phaseNames[m.to])
			}
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
			if to, ok := p.next(s); ok || to != p {
				t.Errorf("%s-%s: %s, %v; want no move", phaseNames[p], stepNames[s], phaseNames[to], ok)
			}
			refused++
		}
	}
	if want := len(phaseNames)*len(stepNames) - len(phaseMoves); refused != want {
		t.Errorf("%d steps refused; want %d (a move listed twice?)", refused, want)
	}
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
		if p.state() != st {
			t.Errorf("%s is seen as %s; want %s", phaseNames[p], p.state(), st)
		}
		if got := p == phaseJoining || p == phaseGoneJoining; p.joining() != got {
			t.Errorf("%s: joining %v", phaseNames[p], p.joining())
		}
		if got := p == phaseReattaching || p == phaseGoneReattaching; p.reattaching() != got {
			t.Errorf("%s: reattaching %v", phaseNames[p], p.reattaching())
		}
	}
}
