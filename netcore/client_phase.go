package netcore

// phase is where a client is in its life: one value where it had its
// ClientState and two flags (joining, reattaching). ClientState is what
// callers see of it (phase.state).
//
// A client that disconnects keeps what it was doing: a joiner that gives
// up is still one that never caught up (it cannot reattach, Joining stays
// true), and a refused reattachment is still one (Resuming stays true, a
// late Leaving is not taken). Those are phases of their own.
type phase uint8

const (
	phaseConnecting      phase = iota // its SYN, until the server answers
	phaseLobby                        // connected: the lobby, until the launch
	phaseLaunched                     // launched: until GAMESTART
	phaseJoining                      // in a game in progress: its snapshot, then catching up
	phasePlaying                      // in the game
	phaseReattaching                  // its game under the server that took it over, until Resume
	phaseGone                         // disconnected
	phaseGoneJoining                  // disconnected while it joined
	phaseGoneReattaching              // disconnected while it reattached
)

// step is what moves a client from one phase to the next.
type step uint8

const (
	stepConnected   step = iota // the server answered its SYN
	stepLaunched                // LAUNCH
	stepStarted                 // GAMESTART
	stepJoinStarted             // JoinStart: it joins a game in progress
	stepJoined                  // it caught up and said JoinReady
	stepReattach                // Client.Reattach
	stepResumed                 // the new server's Resume
	stepEnded                   // the game ended: back to the lobby
	stepGone                    // disconnected
)

// next is the one function that moves a phase: the phase after step s,
// and false (and p) when s does not apply in p.
func (p phase) next(s step) (phase, bool) {
	switch {
	case s == stepConnected && p == phaseConnecting:
		return phaseLobby, true
	case s == stepLaunched && p == phaseLobby:
		return phaseLaunched, true
	case s == stepStarted && p == phaseLaunched:
		return phasePlaying, true
	case s == stepJoinStarted && p == phaseLobby:
		return phaseJoining, true
	case s == stepJoined && p == phaseJoining:
		return phasePlaying, true
	case s == stepJoined && p == phaseGoneJoining:
		return phaseGone, true // it caught up in the pass that lost its server
	case s == stepReattach && (p == phasePlaying || p == phaseReattaching || p == phaseGone || p == phaseGoneReattaching):
		return phaseReattaching, true
	case s == stepResumed && p == phaseReattaching:
		return phasePlaying, true
	case s == stepEnded && (p == phaseJoining || p == phasePlaying || p == phaseReattaching):
		return phaseLobby, true
	case s == stepGone && p == phaseJoining:
		return phaseGoneJoining, true
	case s == stepGone && p == phaseReattaching:
		return phaseGoneReattaching, true
	case s == stepGone && !p.gone():
		return phaseGone, true
	}
	return p, false
}

// move moves the phase by s; a step that does not apply leaves it.
func (p *phase) move(s step) { *p, _ = p.next(s) }

func (p phase) gone() bool {
	return p == phaseGone || p == phaseGoneJoining || p == phaseGoneReattaching
}

// joining reports whether the client joins a game in progress and is not
// in it yet (or gave up doing so).
func (p phase) joining() bool { return p == phaseJoining || p == phaseGoneJoining }

// reattaching reports whether the client reattaches to a new server whose
// Resume has not come (or was refused).
func (p phase) reattaching() bool { return p == phaseReattaching || p == phaseGoneReattaching }

// state is the ClientState callers see.
func (p phase) state() ClientState {
	switch p {
	case phaseConnecting:
		return ClientConnecting
	case phaseLobby:
		return ClientWaitingLaunch
	case phaseLaunched:
		return ClientWaitingStart
	case phaseJoining, phasePlaying, phaseReattaching:
		return ClientInGame
	}
	return ClientDisconnected
}
