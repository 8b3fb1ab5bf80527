package session

import (
	"slices"

	"github.com/ticnet/ticnet/election"
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// frame is one game frame waiting for the engine.
type frame struct {
	from    link.Addr
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

func (c *channel) Send(to link.Addr, payload []byte) { c.s.queue(to, payload) }

func (c *channel) Recv() (link.Addr, []byte, bool) {
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
func (c *channel) push(from link.Addr, payload []byte) bool {
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
func (c *channel) AddrString(a link.Addr) string {
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
func (s *Session) queue(to link.Addr, payload []byte) {
	from := s.gameUID()
	if s.el.Role() == election.Server && (to == link.Broadcast ||
		(s.eng != nil && s.eng.server != nil && s.eng.server.SpeaksTicnet(to))) {
		from = link.Addr(s.el.Self().Tie)
	}
	s.outbox.add(to, from, payload)
}

// engine is the lockstep engine in the role the election gave this copy.
type engine struct {
	server *netcore.Server // nil unless this copy serves
	client *netcore.Client
	view   clientView // the client, as its events told it
	ch     *channel
	// leaving is what client's server said when it left, if it did
	// (netcore.EventServerLeaving): where the stream stopped, and the
	// copy it handed the game to.
	leaving *wire.Leaving
	// resuming: server takes a game over and has not resumed it yet (its
	// EventResumed).
	resuming bool
}

// startEngine builds the engine for role; the old one, if any, is dropped.
func (s *Session) startEngine(now int64, role Role) {
	s.kept.keep(s.Client())
	ch := &channel{s: s}
	e := &engine{ch: ch, view: newClientView()}
	cfg := s.cfg.clientConfig(role == RoleServer)
	cfg.ConnSeq = s.conns // the copy's connections are numbered in turn
	s.conns++
	if role == RoleServer {
		srvEnd, cliEnd := netcore.NewLoopback(ServerUID)
		e.server = netcore.NewServer(s.cfg.serverConfig(s.el.Self().Tie, s.el), &netcore.HostTransport{Channel: ch, Local: srvEnd})
		e.client = netcore.NewClient(cfg, cliEnd, ServerUID, s.game, now)
	} else {
		e.client = netcore.NewClient(cfg, ch, ServerUID, s.game, now)
	}
	e.client.SetTicsPerUpdate(s.budget.tics())
	s.eng = e
	s.mig = nil
	s.lobby.reset()
	s.join = joinTimes{}
}

// updateEngine runs the engine and turns its events into the session's.
func (s *Session) updateEngine(now int64) {
	e := s.eng
	if e == nil {
		return
	}
	if e.server != nil {
		for _, ev := range e.server.Update(now) {
			if ev.Kind == netcore.EventResumed {
				e.resuming = false
			}
			if sev, ok := serverEvent(ev, e.view.player); ok {
				s.emit(sev)
			}
		}
	}
	for _, ev := range e.client.Update(now) {
		e.view.see(ev)
		s.fromClient(now, ev)
	}
	if r, changed := s.lobby.update(&e.view, s.cfg.MaxPlayers); changed {
		s.emit(Event{Kind: "lobby", Lobby: r})
	}
}

// serverEvent is what the server finds that a page shows: a desync, the
// server's verdict, with the names of the players whose copies diverged;
// me is this copy's player.
func serverEvent(ev netcore.Event, me int) (Event, bool) {
	if ev.Kind == netcore.EventDesyncSuspected {
		return desyncEvent(ev, me), true
	}
	return Event{}, false
}

// desyncEvent is the session's desync event for the engine's, on the copy
// whose player is me.
func desyncEvent(ev netcore.Event, me int) Event {
	return Event{Kind: "desync", Player: intp(ev.Player), Players: ev.Players, Tic: ev.Tic, Name: ev.Name, Reason: ev.Reason,
		Diverged: slices.Contains(ev.Players, me)}
}

// fromClient turns the client's events into the session's, and reacts to
// its end.
func (s *Session) fromClient(now int64, ev netcore.Event) {
	switch ev.Kind {
	case netcore.EventGameStarted:
		s.stats.Peers, s.stats.Watchers, s.stats.WatcherNames = s.stats.Peers[:0], 0, nil // a game's own, when they come
		// A copy that joins a game in progress starts at a later tic.
		st := ev.Start
		if st.Joined {
			s.join.told(now)
		}
		if st.Joined || st.Rejoined {
			s.el.EnteredGame(now)
		}
		// Its players: the lobby's, in which this copy waited; a copy
		// that joins learns them when it plays (a "lobby" event).
		var players *LobbyReport
		if !st.Joined && !st.Rejoined {
			players = s.lobby.last
		}
		s.emit(Event{Kind: "start", Player: intp(ev.Player), Protocol: ev.Protocol, Tic: ev.Tic, Joined: st.Joined, Rejoined: st.Rejoined,
			TicRate: st.TicRate, Seed: st.Setup.Seed, Options: st.Setup.Options, Lobby: players})
		if st.Rejoined {
			s.emit(Event{Kind: "rejoined", Player: intp(ev.Player), Name: s.eng.view.nameOf(ev.Player, s.cfg.Name), Tic: ev.Tic})
		}
	case netcore.EventCatchUp:
		if ev.Unit == "tics" {
			s.join.stateArrived(now)
		}
		s.emit(Event{Kind: "catchup", Tic: ev.Tic, Done: ev.Done, Total: ev.Total, Unit: ev.Unit})
	case netcore.EventPlayerEntered:
		if ev.Player == s.eng.view.player {
			s.join.entered(now)
		}
		s.emit(Event{Kind: "join", Player: intp(ev.Player), Name: s.eng.view.nameOf(ev.Player, s.cfg.Name), Tic: ev.Tic})
	case netcore.EventPlayerLeft:
		s.emit(Event{Kind: "leave", Player: intp(ev.Player), Name: s.eng.view.nameOf(ev.Player, s.cfg.Name), Reason: ev.Reason, Tic: ev.Tic})
	case netcore.EventDesyncSuspected:
		// A consistency byte that differs from this copy's own: under
		// the extension the server's verdict, which every copy hears,
		// names the one that diverged; the page is told that.
		if !s.eng.view.ticnet {
			s.emit(desyncEvent(ev, s.eng.view.player))
		}
	case netcore.EventDesyncVerdict:
		// The server's own copy told its page the verdict already.
		if s.eng.server == nil {
			s.emit(desyncEvent(ev, s.eng.view.player))
		}
	case netcore.EventConsoleMessage:
		s.emit(Event{Kind: "message", Reason: ev.Reason})
	case netcore.EventLaunched:
		s.emit(Event{Kind: "launched"})
	case netcore.EventEndAsked:
		s.emit(Event{Kind: "endAsked", Player: intp(ev.Player)})
	case netcore.EventInputDelay:
		s.emit(Event{Kind: "inputDelay", Tic: ev.Tic, Delay: ev.Delay})
	case netcore.EventPeers:
		s.stats.Peers = appendPeers(s.stats.Peers[:0], ev.Peers)
		s.stats.Watchers, s.stats.WatcherNames = ev.Watchers, ev.WatcherNames
	case netcore.EventRepaired:
		s.emit(Event{Kind: "repaired", Player: intp(ev.Player), Name: s.eng.view.nameOf(ev.Player, s.cfg.Name), Tic: ev.Tic,
			Bytes: ev.Bytes, MS: ev.MS, Diverged: ev.Player == s.eng.view.player})
	case netcore.EventDesyncStates:
		st := ev.States
		s.emit(Event{Kind: "desyncStates", Tic: st.Tic, Before: st.Before, After: st.After, Diverged: st.Diverged, Fetched: st.Fetched})
	case netcore.EventGameEnded:
		s.stats.Peers, s.stats.Watchers, s.stats.WatcherNames = s.stats.Peers[:0], 0, nil
		s.emit(Event{Kind: "end", Tic: ev.Tic, Over: ev.Over})
		s.lobby.reset() // back in the lobby: report it again, though it is the same
	case netcore.EventResumed:
		s.resumed(now, ev.Tic)
	case netcore.EventServerLeaving:
		s.serverLeaving(now, ev.Leaving())
	case netcore.EventRejected:
		s.emit(Event{Kind: "rejected", Reason: ev.Reason})
		s.engineEnded(now, ev)
	case netcore.EventDisconnected:
		// A game that goes on under a new server says "migrating" instead.
		if !s.migratesOn(ev.Cause) {
			s.emit(Event{Kind: "disconnect", Reason: ev.Reason})
		}
		s.engineEnded(now, ev)
	}
}
