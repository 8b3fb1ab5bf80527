package session

import (
	"encoding/binary"

	"github.com/ticnet/ticnet/election"
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/transfer"
)

// frame is one game frame waiting for the engine.
type frame struct {
	from    netcore.Addr
	payload []byte
}

// channel is the engine's transport on the broadcast channel: it frames
// what the engine sends as [to][from][payload] into the session's outbox,
// and hands the engine the game frames the router kept for it.
type channel struct {
	s     *Session
	inbox []frame
	head  int
	bytes int
	spare [][]byte
	cur   []byte
}

func (c *channel) Send(to netcore.Addr, payload []byte) { c.s.queue(to, payload) }

func (c *channel) Recv() (netcore.Addr, []byte, bool) {
	if c.cur != nil {
		c.spare = append(c.spare, c.cur)
		c.cur = nil
	}
	if c.head == len(c.inbox) {
		c.inbox, c.head, c.bytes = c.inbox[:0], 0, 0
		return 0, nil, false
	}
	f := c.inbox[c.head]
	c.inbox[c.head] = frame{}
	c.head++
	c.cur = f.payload
	return f.from, f.payload, true
}

// push keeps a copy of a game frame for the engine; false when full.
func (c *channel) push(from netcore.Addr, payload []byte) bool {
	if len(c.inbox)-c.head >= maxInbox || c.bytes+len(payload) > maxInboxBytes {
		return false
	}
	var b []byte
	if k := len(c.spare); k > 0 {
		b, c.spare = c.spare[k-1][:0], c.spare[:k-1]
	}
	c.inbox = append(c.inbox, frame{from: from, payload: append(b, payload...)})
	c.bytes += len(payload)
	return true
}

// AddrString shows a channel UID in the lobby.
func (c *channel) AddrString(a netcore.Addr) string {
	if a == netcore.LocalClientAddr {
		return "host"
	}
	return "uid " + hex32(uint32(a))
}

func hex32(v uint32) string {
	const digits = "0123456789abcdef"
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b[:])
}

// queue appends a game frame to the outbox. A server's broadcasts, and
// what it sends a ticnet client, go out from its election tie-break, so
// that clients of another server ignore them: a client reattached to the
// server that took its game over must not take a late frame of the old
// one (both are ServerUID) for its new server's. A reference client (a
// VectorDoom page) knows the server as ServerUID only.
func (s *Session) queue(to netcore.Addr, payload []byte) {
	from := s.gameUID()
	if s.el.Role() == election.Server && (to == netcore.Broadcast ||
		(s.eng != nil && s.eng.server != nil && s.eng.server.SpeaksTicnet(to))) {
		from = netcore.Addr(s.el.Self().Tie)
	}
	s.scratch = link.AppendFrame(s.scratch[:0], to, from, payload)
	s.outFrame(s.scratch)
}

// outFrame appends one frame, as the batch layout has it: [u32 LE len][frame].
func (s *Session) outFrame(f []byte) {
	if len(f) > link.MaxFrame {
		s.stats.Dropped++
		return
	}
	s.out = binary.LittleEndian.AppendUint32(s.out, uint32(len(f)))
	s.out = append(s.out, f...)
	s.stats.FramesOut++
	s.stats.BytesOut += int64(len(f))
}

// AppendOutgoing appends every frame queued since the last call to dst, as
// [u32 LE length][frame]..., and forgets them.
func (s *Session) AppendOutgoing(dst []byte) []byte {
	dst = append(dst, s.out...)
	s.out = s.out[:0]
	return dst
}

// engine is the lockstep engine in the role the election gave this copy.
type engine struct {
	server *netcore.Server // nil unless this copy serves
	client *netcore.Client
	ch     *channel
}

// startEngine builds the engine for role; the old one, if any, is dropped.
func (s *Session) startEngine(now int64, role Role) {
	s.keepReplay()
	ch := &channel{s: s}
	e := &engine{ch: ch}
	ccfg := netcore.ClientConfig{Name: s.cfg.Name, Timeouts: s.cfg.Timeouts, Settings: s.cfg.Settings, Token: s.cfg.Token,
		Predict: s.cfg.Predict, PredictTics: s.cfg.PredictTics, InputDelay: s.cfg.InputDelay, Input: s.cfg.Input, Replay: s.cfg.Replay}
	if role == RoleServer {
		srvEnd, cliEnd := netcore.NewLoopback(ServerUID)
		ccfg.Transfer = transfer.Loopback
		e.server = netcore.NewServer(s.serverConfig(s.el.Self().Tie), &netcore.HostTransport{Channel: ch, Local: srvEnd})
		e.client = netcore.NewClient(ccfg, cliEnd, ServerUID, s.game, now)
	} else {
		e.client = netcore.NewClient(ccfg, ch, ServerUID, s.game, now)
	}
	e.client.SetTicsPerUpdate(s.budget.tics())
	s.eng = e
	s.mig = nil
	s.lobby = nil
	s.joinMS, s.stateMS, s.enteredMS = 0, 0, 0
}

// updateEngine runs the engine and turns its events into the session's.
func (s *Session) updateEngine(now int64) {
	e := s.eng
	if e == nil {
		return
	}
	if e.server != nil {
		for _, ev := range e.server.Update(now) {
			s.fromServer(ev)
		}
	}
	for _, ev := range e.client.Update(now) {
		s.fromClient(now, ev)
	}
	// A lobby once the server described one: a copy joining a game in
	// progress passes through the waiting states without.
	if l := e.client.Lobby(); l.MaxPlayers > 0 && (e.client.State() == netcore.ClientWaitingLaunch || e.client.State() == netcore.ClientWaitingStart) {
		r := &LobbyReport{Players: []LobbyPlayer{}, Controller: l.IsController, Player: l.Player, MaxPlayers: l.MaxPlayers}
		for _, p := range l.Players {
			r.Players = append(r.Players, LobbyPlayer(p))
		}
		if !sameLobby(r, s.lobby) {
			s.lobby = r
			s.emit(Event{Kind: "lobby", Lobby: r})
		}
	}
}

func sameLobby(a, b *LobbyReport) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Controller != b.Controller || a.Player != b.Player || a.MaxPlayers != b.MaxPlayers || len(a.Players) != len(b.Players) {
		return false
	}
	for i := range a.Players {
		if a.Players[i] != b.Players[i] {
			return false
		}
	}
	return true
}

// fromServer reports what only the server knows: who the desynced player is.
func (s *Session) fromServer(ev netcore.Event) {
	if ev.Kind == netcore.EventDesyncSuspected {
		s.emit(Event{Kind: "desync", Player: intp(ev.Player), Players: ev.Players, Tic: ev.Tic, Name: ev.Name, Reason: ev.Reason})
	}
}

func (s *Session) fromClient(now int64, ev netcore.Event) {
	switch ev.Kind {
	case netcore.EventGameStarted:
		// A copy that joins a game in progress starts at a later tic.
		joined := ev.Tic != 0 || s.eng.client.Joining()
		rejoined := ev.Reason == netcore.ReasonRejoined
		if joined {
			s.joinMS = now
		}
		setup := s.eng.client.Setup()
		s.emit(Event{Kind: "start", Player: intp(ev.Player), Protocol: ev.Protocol, Tic: ev.Tic, Joined: joined, Rejoined: rejoined,
			TicRate: s.eng.client.TicRate(), Seed: setup.Seed, Options: setup.Options})
		if rejoined {
			s.emit(Event{Kind: "rejoined", Player: intp(ev.Player), Tic: ev.Tic})
		}
	case netcore.EventCatchUp:
		if ev.Unit == "tics" && s.stateMS == 0 {
			s.stateMS = now
		}
		s.emit(Event{Kind: "catchup", Tic: ev.Tic, Done: ev.Done, Total: ev.Total, Unit: ev.Unit})
	case netcore.EventPlayerEntered:
		if s.joinMS != 0 && s.enteredMS == 0 && ev.Player == s.eng.client.Player() {
			s.enteredMS = now
		}
		s.emit(Event{Kind: "join", Player: intp(ev.Player), Tic: ev.Tic})
	case netcore.EventPlayerLeft:
		s.emit(Event{Kind: "leave", Player: intp(ev.Player), Reason: ev.Reason, Tic: ev.Tic})
	case netcore.EventDesyncSuspected:
		s.emit(Event{Kind: "desync", Player: intp(ev.Player), Players: ev.Players, Tic: ev.Tic, Reason: ev.Reason})
	case netcore.EventConsoleMessage:
		s.emit(Event{Kind: "message", Reason: ev.Reason})
	case netcore.EventLaunched:
		s.emit(Event{Kind: "launched"})
	case netcore.EventEndAsked:
		s.emit(Event{Kind: "endAsked", Player: intp(ev.Player)})
	case netcore.EventGameEnded:
		s.emit(Event{Kind: "end", Tic: ev.Tic})
		s.lobby = nil // back in the lobby: report it again, though it is the same
	case netcore.EventResumed:
		s.resumed(now, ev.Tic)
	case netcore.EventRejected:
		s.emit(Event{Kind: "rejected", Reason: ev.Reason})
		s.engineEnded(now, ev.Reason)
	case netcore.EventDisconnected:
		// A game that goes on under a new server says "migrating" instead.
		if !s.migratesOn(ev.Reason) {
			s.emit(Event{Kind: "disconnect", Reason: ev.Reason})
		}
		s.engineEnded(now, ev.Reason)
	}
}
