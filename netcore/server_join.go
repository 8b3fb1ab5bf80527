package netcore

import (
	"github.com/ticnet/ticnet/netcore/wire"
)

// Late join, under the extension protocol: a copy that connects while the
// game runs gets a free player number (or a spectator's place when the game
// is full), is told the tic C it starts from, and receives the game state
// before C. The state comes from a copy that has it: the server asks one
// of its clients (its own, in a browser, where it runs beside a player) to
// save the state before C and stream it to the server, which streams it on
// to the joiner. The joiner runs the tics from C that it hears meanwhile,
// says when it has caught up, and enters the game at the next tic the
// server sends: every copy sees it enter at that tic, in the tic's
// in-game bits.

// joiner is the server's state of a client that joined mid-game and is not
// in the game yet.
type joiner struct {
	started bool   // JoinStart is sent
	start   uint32 // C: the snapshot is the state before it
	stream  uint32 // the snapshot's stream, from the source and to the joiner
	source  Addr   // the client asked for the snapshot
	sent    bool   // the snapshot is on its way to the joiner
	ready   bool   // it says it has caught up
}

// ReasonNoSnapshot is why a joiner is sent away when no copy can give it
// the game state.
const ReasonNoSnapshot = "no copy can send the game state"

// admitLate takes a copy that connects to a running extension game. It
// returns false when the copy cannot join (the caller then refuses it as
// the reference does).
func (s *Server) admitLate(now int64, from Addr, m *wire.SYN, proto string) bool {
	if proto != wire.ProtocolTicnet || !s.extended || !s.ext.started {
		return false
	}
	if s.snapshotSource() == nil {
		return false
	}
	clients := 0
	for _, sc := range s.slots {
		if sc.connected() {
			clients++
		}
	}
	if clients >= wire.MaxNodes {
		return false
	}
	sc := s.newSlot(now, from, m, proto)
	if sc == nil {
		return false
	}
	// Its player is decided when it starts, once its token is known.
	sc.player = -1
	s.nextStream++
	sc.join = &joiner{stream: s.nextStream}
	sc.lastGameDataMS = now
	return true
}

// startJoin tells a joiner where it starts, once it has our SYN reply (its
// acknowledgement has emptied the reliable queue): the tics it is sent
// from then on reach a client that takes them, and the ones between the
// start and its first are still in the history to be sent again.
func (s *Server) startJoin(now int64, sc *serverClient) {
	j := sc.join
	rejoined := s.rejoin(now, sc)
	if !rejoined {
		sc.player = s.freePlayer(now, sc)
		if sc.player < 0 {
			sc.data.Drone = true // a spectator: the game is full
		}
		s.emit(Event{Kind: EventPlayerJoined, Player: sc.player, Addr: sc.addr, Name: sc.name, Protocol: sc.protocol})
	}
	source := s.snapshotSource()
	if source == nil {
		sc.conn.disconnect(now, ReasonNoSnapshot)
		return
	}
	x := &s.ext
	j.start, j.source, j.started = x.sendSeq, source.addr, true
	sc.acked, sc.sendSeq, sc.stuckAck = x.sendSeq, x.sendSeq, x.sendSeq
	sc.lastGameDataMS = now
	st := s.settings
	st.ConsolePlayer = int8(sc.player)
	st.NumPlayers = max(st.NumPlayers, uint8(sc.player+1))
	js := wire.JoinStart{Settings: st, Start: x.sendSeq, Stream: j.stream, Rejoined: rejoined}
	if x.sendSeq > 0 {
		// The diffs of tic C are against the commands of the tic before.
		prev := &x.history[(x.sendSeq-1)%BackupTics].tic
		js.Base.InGame = prev.InGame
		for p := range MaxPlayers {
			if prev.Has(p) {
				js.Base.Cmds[p] = wire.Diff(&TicCmd{}, &x.auth[p])
			}
		}
	}
	sc.conn.sendReliable(&js)
	source.conn.sendReliable(&wire.SnapshotRequest{Tic: x.sendSeq, Stream: j.stream})
	s.xfer.AcceptFrom(source.addr)
}

// snapshotSource picks the client to ask for the game state: the server's
// own (no traffic on the channel), else the longest connected player.
func (s *Server) snapshotSource() *serverClient {
	var best *serverClient
	for _, sc := range s.slots {
		if !sc.connected() || !sc.inGame || sc.join != nil {
			continue
		}
		if sc.addr == LocalClientAddr {
			return sc
		}
		if best == nil || sc.connectMS < best.connectMS {
			best = sc
		}
	}
	return best
}

// onTransfer handles the end of a stream.
func (s *Server) onTransfer(now int64, ev TransferEvent) {
	for _, sc := range s.slots {
		j := sc.joining()
		if j == nil || j.stream != ev.Stream {
			continue
		}
		switch {
		case ev.Kind == TransferReceived && !ev.Outgoing && ev.Peer == j.source && !j.sent:
			if err := s.xfer.Send(now, sc.addr, j.stream, ev.Data); err != nil {
				sc.conn.disconnect(now, ReasonNoSnapshot)
				return
			}
			j.sent = true
		case ev.Kind == TransferDropped:
			s.stats.Unexpected++
			sc.conn.disconnect(now, ReasonNoSnapshot)
		}
		return
	}
}

// onJoinReady takes a joiner's word that it has caught up.
func (s *Server) onJoinReady(now int64, sc *serverClient, body []byte) error {
	var m wire.JoinReady
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if j := sc.joining(); j == nil || !j.started || s.state != ServerInGame {
		return errUnexpected{}
	}
	sc.join.ready = true
	s.maybeEnter(now, sc)
	return nil
}

// JoinEntryLagTics is how far behind the stream a joiner that said it is
// ready may be, by its acknowledgements, to enter the game: its ready may
// have taken a while to arrive, and a joiner that entered far behind would
// have its first commands substituted, or be dropped as one that fell
// behind.
const JoinEntryLagTics = TicRate

// maybeEnter puts a ready joiner in the game, from the next tic sent, once
// its acknowledgements are close enough to the stream.
func (s *Server) maybeEnter(now int64, sc *serverClient) {
	x := &s.ext
	if j := sc.joining(); j == nil || !j.ready || x.sendSeq-sc.acked > JoinEntryLagTics {
		return
	}
	sc.join = nil
	sc.inGame = true
	sc.lastGameDataMS = now
	if p := sc.player; p >= 0 {
		x.auth[p] = TicCmd{}
		x.lagging[p] = true // not waited for until its commands come
		x.measuredTic[p] = x.sendSeq
		x.desynced[p] = false
		for t := range s.recvWin {
			s.recvWin[t][p] = recvCmd{}
		}
	}
	s.emit(Event{Kind: EventPlayerEntered, Player: sc.player, Addr: sc.addr, Name: sc.name, Tic: x.sendSeq})
}

// onJoinerGameData takes the commands of a joiner that said it is ready,
// for the acknowledgement they carry: its commands count from the tic it
// enters at.
func (s *Server) onJoinerGameData(now int64, sc *serverClient) {
	s.takeAck(sc, s.inGD.Ack)
	s.pushMissing(now, sc)
	s.maybeEnter(now, sc)
}

func (sc *serverClient) joining() *joiner {
	if sc.connected() {
		return sc.join
	}
	return nil
}

// freePlayer is the lowest player number no one has, nor is held for a
// departed copy; -1 if there is none (or sc watches by choice).
func (s *Server) freePlayer(now int64, sc *serverClient) int {
	if sc.data.Drone {
		return -1
	}
	taken := s.held(now)
	for _, o := range s.slots {
		if o != sc && o.connected() && o.player >= 0 {
			taken[o.player] = true
		}
	}
	for p := range s.maxPlayers() {
		if !taken[p] {
			return p
		}
	}
	return -1
}

// departed is a player who left a game in progress, held for its copy.
type departed struct {
	token   [wire.RejoinTokenLen]byte
	player  int
	name    string
	untilMS int64
}

// HelloWaitMS is how long after its connection the server waits for a
// joiner's Hello (its rejoin token) before it starts it as a new player.
const HelloWaitMS = 1000

// hold keeps the player of a copy that left a game in progress for
// RejoinGraceMS, if the copy had a token.
func (s *Server) hold(now int64, sc *serverClient) {
	if s.state != ServerInGame || !s.extended || sc.player < 0 || !sc.inGame || sc.token == ([wire.RejoinTokenLen]byte{}) {
		return
	}
	s.departed = append(s.departed, departed{token: sc.token, player: sc.player, name: sc.name,
		untilMS: now + s.cfg.RejoinGraceMS})
}

// held returns the player numbers held for departed copies, forgetting
// those past their grace.
func (s *Server) held(now int64) [MaxPlayers]bool {
	var taken [MaxPlayers]bool
	kept := s.departed[:0]
	for _, d := range s.departed {
		if now < d.untilMS {
			kept = append(kept, d)
			taken[d.player] = true
		}
	}
	s.departed = kept
	return taken
}

// rejoin gives a joiner the player its token holds, if one is held and its
// owner is not connected from elsewhere; it reports whether it did.
func (s *Server) rejoin(now int64, sc *serverClient) bool {
	if sc.token == ([wire.RejoinTokenLen]byte{}) {
		return false
	}
	s.held(now)
	for _, o := range s.slots {
		if o != sc && o.connected() && o.token == sc.token {
			s.stats.RejoinRefused++
			return false
		}
	}
	for i, d := range s.departed {
		if d.token != sc.token {
			continue
		}
		s.departed = append(s.departed[:i], s.departed[i+1:]...)
		sc.player, sc.name = d.player, d.name
		sc.data.Drone = false
		s.emit(Event{Kind: EventPlayerJoined, Player: sc.player, Addr: sc.addr, Name: sc.name, Reason: ReasonRejoined})
		return true
	}
	return false
}

// onHello takes a client's rejoin token.
func (s *Server) onHello(sc *serverClient, body []byte) error {
	var m wire.Hello
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if sc.hello {
		return errUnexpected{}
	}
	sc.token, sc.hello = m.Token, true
	return nil
}
