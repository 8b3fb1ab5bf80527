package netcore

import "github.com/ticnet/ticnet/netcore/wire"

// The end of a game and the way back to the lobby (extension protocol
// only: a reference peer knows no such thing). Any player asks; the
// controller decides: its request ends the game, another player's is
// passed on to it. The server stops the stream at a tic, tells every
// copy, and goes back to its lobby once every copy has the tics before it
// (or EndWaitMS has passed); each copy runs those tics, then goes back to
// its lobby too.
//
// Or the game ends itself (tic.Ending): a deterministic game says it is
// over after the same confirmed tic on every copy, and each copy ends
// there at once, without a round trip, and tells the server (GameOver),
// which may run no game of its own: it stops the stream at that tic and
// tells every copy, as for a request (a copy still joining learns it
// there).

// EndWaitMS is how long a server that ends its game waits for its copies
// to acknowledge the last tic before it goes back to the lobby.
const EndWaitMS = 2000

// endState is a game's end, once decided.
type endState struct {
	active  bool
	self    bool   // the game ended itself (GameOver), not at a request
	tic     uint32 // the first tic that does not run
	untilMS int64  // server: back to the lobby by then at the latest
}

// event is the end's EventGameEnded.
func (es endState) event() Event {
	e := Event{Kind: EventGameEnded, Player: -1, Tic: es.tic, Over: es.self}
	if es.self {
		e.Reason = ReasonGameOver
	}
	return e
}

// clientEnd is a client's part in the end of a game.
type clientEnd struct {
	c *Client
	endState
	// lastOver is the tic before which this copy's game last ended
	// itself: the server's GameEnd for it may come once it is back in
	// its lobby.
	lastOver uint32
}

// gameOver ends the game before tic end, after which the game said it was
// over: at once (endIfDone, after the tic), unless an end at or before
// it is on its way; the server learns it from every copy. The server's
// end at the same tic (its GameEnd came first) is the game's too: every
// copy reports the same end.
func (es *clientEnd) gameOver(end uint32) {
	c := es.c
	if es.active && es.tic == end {
		es.self = true
		return
	}
	if es.active && int32(es.tic-end) < 0 {
		return
	}
	es.endState = endState{active: true, self: true, tic: end}
	c.conn.SendReliable(&wire.GameOver{Tic: end})
}

// ended reports whether tic t is at or past the game's end: it does not
// run.
func (es *clientEnd) ended(t uint32) bool { return es.active && int32(t-es.tic) >= 0 }

// RequestEnd asks to end the game under the extension protocol: on the
// controller's client it ends the game, on another it asks the controller
// (EventEndAsked there). It does nothing outside such a game.
func (c *Client) RequestEnd() {
	c.clock.requestEnd(c)
}

// onGameEnd takes the server's word that the game ends before m.Tic.
func (es *clientEnd) onGameEnd(now int64, body []byte) error {
	c := es.c
	var m wire.GameEnd
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if c.phase.state() != ClientInGame {
		if c.phase.state() == ClientWaitingLaunch && es.lastOver == m.Tic && m.Tic != 0 {
			return nil // the end this copy's game reached itself
		}
		return errUnexpected{}
	}
	if es.active && es.self && int32(es.tic-m.Tic) <= 0 {
		return nil // its game ended itself, there or before
	}
	es.endState = endState{active: true, tic: m.Tic}
	es.endIfDone(now)
	return nil
}

// endIfDone takes the client back to the lobby once it has run every tic
// of the game that ended, or at once if it was still joining it; its
// acknowledgement of the last tics goes first, so that the server need
// not wait.
func (es *clientEnd) endIfDone(now int64) {
	c := es.c
	if !es.active || c.phase.state() != ClientInGame || (c.loop.tl.GameTic() < es.tic && !c.phase.joining()) {
		return
	}
	c.send.sendAck(now)
	ended := es.event()
	es.lastOver = 0
	if es.self {
		es.lastOver = es.tic
	}
	c.phase.move(stepEnded)
	c.clock = referenceClock{}
	c.setup = wire.GameSetup{}
	es.endState = endState{}
	c.join = joinSide{c: c}
	c.mig = migrateSide{c: c}
	c.loop.pred = predictSide{}
	c.emit(ended)
}

// onEndAsked tells the controller that a player asks to end the game.
func (es *clientEnd) onEndAsked(body []byte) error {
	c := es.c
	var m wire.EndAsked
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if c.phase.state() != ClientInGame {
		return errUnexpected{}
	}
	c.emit(Event{Kind: EventEndAsked, Player: int(m.Player)})
	return nil
}

// onEndRequest ends the game at the controller's request, and passes
// another player's on to the controller.
func (x *ticnetRelay) onEndRequest(now int64, sc *serverClient, body []byte) error {
	s := x.s
	var m wire.EndRequest
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if s.state != ServerInGame || s.mig.resume != nil || x.end.active || !sc.inGame() || sc.player < 0 {
		return errUnexpected{}
	}
	ctrl := s.slots.controller()
	if sc != ctrl {
		if ctrl != nil {
			ctrl.conn.SendReliable(&wire.EndAsked{Player: int8(sc.player)})
		}
		s.emit(Event{Kind: EventEndAsked, Player: sc.player, Addr: sc.addr})
		return nil
	}
	x.end = endState{active: true, tic: x.sendSeq, untilMS: now + EndWaitMS}
	sendGameEnd(s, x.end.tic)
	return nil
}

// onGameOver takes a copy's word that its game ended itself before
// m.Tic: the game ends there for every copy. The other copies' word on
// the same end follows, and is taken quietly.
func (x *ticnetRelay) onGameOver(now int64, sc *serverClient, body []byte) error {
	s := x.s
	var m wire.GameOver
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if s.mig.resume != nil || !sc.takesTics() || int32(m.Tic-x.sendSeq) > 0 {
		return errUnexpected{} // a tic this server never sent
	}
	if x.end.active && x.end.tic == m.Tic {
		x.end.self = true // the end on its way is the game's too
		return nil
	}
	if x.end.active && int32(x.end.tic-m.Tic) < 0 {
		return nil // an end before it is on its way
	}
	x.end = endState{active: true, self: true, tic: m.Tic, untilMS: now + EndWaitMS}
	sendGameEnd(s, x.end.tic)
	return nil
}

// sendGameEnd tells every copy of s's game that it ends before tic.
func sendGameEnd(s *Server, tic uint32) {
	for _, o := range s.slots {
		if o.connected() && o.takesTics() {
			o.conn.SendReliable(&wire.GameEnd{Tic: tic})
		}
	}
}

// endIfDone takes the server back to the lobby once every copy in the game
// has acknowledged the tics before its end, or EndWaitMS has passed.
func (x *ticnetRelay) endIfDone(now int64) {
	s := x.s
	if !x.end.active || s.state != ServerInGame {
		return
	}
	if now < x.end.untilMS {
		for _, sc := range s.slots {
			if sc.connected() && sc.inGame() && int32(x.end.tic-sc.acked) > 0 {
				return
			}
		}
	}
	ended := x.end.event()
	s.state = ServerWaitingLaunch
	x.reset()
	s.lobby.launchOpts = wire.LaunchOptions{}
	s.rj.departed = s.rj.departed[:0]
	for i, sc := range s.slots {
		if sc == nil {
			continue
		}
		if sc.phase == slotPlaceholder {
			s.slots[i] = nil // a player whose copy never came back
			continue
		}
		sc.to(slotWaiting)
	}
	// Numbered afresh, as a lobby's players are: the game's may have gaps
	// (a player left), and a copy refuses a lobby that numbers it past
	// its players.
	s.slots.assignPlayers()
	s.emit(ended)
	for _, sc := range s.slots {
		if sc.connected() {
			s.lobby.sendWaitingData(now, sc)
		}
	}
}
