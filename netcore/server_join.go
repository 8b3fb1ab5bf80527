package netcore

import (
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Late join, under the extension protocol: a copy that connects while the
// game runs gets a free player number (or a spectator's place when the game
// is full), is told the tic C it starts from, and receives the game state
// before C. The state comes from a copy that has it: the server asks one
// of its clients (its own, in a browser, where it runs beside a player) to
// save the state before C and stream it to the server, which relays it to
// the joiner as it arrives (transfer.Endpoint.Relay). The joiner runs the tics
// from C, says when it has caught up, and enters the game at the next tic
// the server sends: every copy sees it enter at that tic, in the tic's
// in-game bits.
//
// C is the next tic when the joiner's SYN arrives, and the state is asked
// for and streamed at once, while the rest of the handshake (the SYN
// reply's acknowledgement, the joiner's Hello) goes on beside it: the
// handshake took 0.5 s of a 3 s join of 1 MB on the lossy channel when the
// state waited for it. JoinStart, once the handshake is done, names C and
// the stream, and the tics from C on are sent again from the history.

// lateJoins is the server's part in late joins: it asks a copy for the
// game state and relays it to the joiner, starts the join and puts the
// joiner in the game.
type lateJoins struct {
	s          *Server
	nextStream uint32 // the last stream id used
}

// joiner is the server's state of a client that joined mid-game and is not
// in the game yet.
type joiner struct {
	started bool   // JoinStart is sent
	start   uint32 // C: the snapshot is the state before it
	// base is the commands of the tic before C, which the diffs of tic C
	// are against (JoinStart.Base).
	base   wire.ServerTic
	chain  tic.Chain // of the tics before C (JoinStart.Chain)
	stream uint32    // the snapshot's stream, from the source and to the joiner
	source link.Addr // the client asked for the snapshot
	// feeder is the copy asked to stream the snapshot straight to a
	// watcher (wire.StateFeed; nil: the source streams it through the
	// server).
	feeder *serverClient
	// waitFeedMS: a watcher waits, since then, for a watcher that can
	// feed it (lateJoins.wait); 0: it does not.
	waitFeedMS int64
	ready      bool // it has caught up: its JoinReady or its first commands came
	said       bool // its JoinReady came
}

// ReasonNoSnapshot is why a joiner is sent away when no copy can give it
// the game state.
const ReasonNoSnapshot = "no copy can send the game state"

// admitLate takes a copy that connects to a running extension game. It
// returns false when the copy cannot join (the caller then refuses it as
// the reference does).
func (x *ticnetRelay) admitLate(now int64, from link.Addr, m *wire.SYN, proto string, conn uint32, key *wire.PublicKey) bool {
	s := x.s
	if proto != wire.ProtocolTicnet || !x.started {
		return false
	}
	source := s.joins.snapshotSource()
	if source == nil {
		return false
	}
	watch := !s.slots.hasRoom(m.Connect.Drone, proto)
	if watch && !s.slots.hasRoom(true, proto) {
		return false
	}
	sc := s.lobby.newSlot(now, from, m, proto, conn, key)
	if sc == nil {
		return false
	}
	if watch {
		sc.data.Drone = true // no node is free: it watches
	}
	// Its player is decided when it starts, once its Hello came.
	sc.player = -1
	sc.to(slotJoining)
	sc.lastGameDataMS = now
	s.joins.requestSnapshot(now, sc, source)
	return true
}

// JoinSnapshotMaxAgeTics is how far the game may have moved past a
// joiner's snapshot when its handshake ends for the snapshot still to be
// used: the joiner is sent the tics since, and they must stay in the
// history (BackupTics) until it has them. Past it (a handshake of more
// than 1.8 s) the joiner is given a new snapshot.
const JoinSnapshotMaxAgeTics = BackupTics / 2

// JoinEntryLagTics is how far behind the stream a joiner that said it is
// ready may be, by its acknowledgements, to enter the game: its ready may
// have taken a while to arrive, and a joiner that entered far behind would
// have its first commands substituted, or be dropped as one that fell
// behind.
const JoinEntryLagTics = TicRate

// requestSnapshot makes the next tic a joiner's start: the server notes
// the commands that tic's diffs are against and asks source for the state
// before it, which it relays to the joiner as it arrives.
func (lj *lateJoins) requestSnapshot(now int64, sc *serverClient, source *serverClient) {
	s := lj.s
	x := &s.ext
	lj.nextStream++
	j := sc.join
	j.start, j.stream, j.source, j.base, j.chain = x.sendSeq, lj.nextStream, source.addr, wire.ServerTic{}, x.attest.chain
	if x.sendSeq > 0 {
		prev := &x.history[(x.sendSeq-1)%BackupTics].tic
		j.base.InGame = prev.InGame
		for p := range tic.MaxPlayers {
			if prev.Has(p) {
				j.base.Cmds[p] = wire.Diff(&tic.Cmd{}, &x.auth[p])
			}
		}
	}
	switch {
	case lj.feed(now, sc):
		j.waitFeedMS = 0
	case lj.wait(now, sc):
	case lj.relay(now, sc, source):
		j.waitFeedMS = 0
	case sc.watcher():
		// The server relays all the states it can at once: a watcher
		// waits for room, or for a watcher that can feed it.
		j.waitFeedMS = now
	default:
		sc.conn.Disconnect(now, ReasonNoSnapshot)
	}
}

// relay asks source for the state before the joiner's start, streamed to
// the server, which relays it to the joiner as it arrives.
func (lj *lateJoins) relay(now int64, sc *serverClient, source *serverClient) bool {
	s := lj.s
	j := sc.join
	j.source = source.addr
	if err := s.xfer.Relay(now, source.addr, j.stream, sc.addr, j.stream); err != nil {
		return false
	}
	source.conn.SendReliable(&wire.SnapshotRequest{Tic: j.start, Stream: j.stream})
	s.xfer.AcceptFrom(source.addr)
	return true
}

// startJoin tells a joiner where it starts, once it has our SYN reply (its
// acknowledgement has emptied the reliable queue) and we have its Hello:
// its token, if it has one, decides its player. An extension client says
// Hello as soon as it has our reply, token or none; a slot that a late
// copy of an old SYN made hears none (its copy moved on) and times out as
// any silent connection, so it never starts a join without the token.
func (lj *lateJoins) startJoin(now int64, sc *serverClient) {
	s := lj.s
	j := sc.join
	x := &s.ext
	if j.waitFeedMS != 0 {
		return // its state is not asked for yet (lateJoins.wait)
	}
	if x.sendSeq-j.start > JoinSnapshotMaxAgeTics {
		source := lj.snapshotSource()
		if source == nil {
			sc.conn.Disconnect(now, ReasonNoSnapshot)
			return
		}
		lj.cancelSnapshot(now, sc)
		if lj.requestSnapshot(now, sc, source); !sc.connected() {
			return
		}
	}
	rejoined := !sc.watcher() && s.rj.rejoin(now, sc) // a player who comes back to watch leaves its place
	if !rejoined {
		sc.player = lj.freePlayer(now, sc)
		if sc.player < 0 {
			sc.data.Drone = true // a spectator: the game is full
		}
		s.emit(Event{Kind: EventPlayerJoined, Player: sc.player, Addr: sc.addr, Name: sc.name, Protocol: sc.protocol})
	}
	j.started = true
	sc.acked = j.start
	sc.restream(now, x.sendSeq)
	st := s.settings
	st.ConsolePlayer = int8(sc.player)
	st.NumPlayers = max(st.NumPlayers, uint8(sc.player+1))
	// JoinStart leaves now, ahead of the tics since C (the joiner keeps
	// those that overtake it all the same).
	sc.conn.SendReliable(&wire.JoinStart{Settings: st, Setup: s.setup, Start: j.start, Stream: j.stream, Rejoined: rejoined, Base: j.base,
		Cast: uint32(s.cast.Sent()), Chain: j.chain})
	sc.conn.SendReliableHead(now)
	x.attest.tell(sc)
	if j.start < x.sendSeq {
		s.resendTics(now, sc, j.start, x.sendSeq-1)
	}
}

// dropJoiner ends a joiner's slot before its join started, for newSlot
// to take its place.
func (lj *lateJoins) dropJoiner(now int64, sc *serverClient) {
	lj.cancelSnapshot(now, sc)
	sc.to(slotWaiting)
	sc.conn.Drop("")
}

// cancelSnapshot stops the state asked for a joiner: its relay from the
// source, and to the joiner.
func (lj *lateJoins) cancelSnapshot(now int64, sc *serverClient) {
	s := lj.s
	j := sc.join
	lj.release(sc)
	s.xfer.CancelSend(now, sc.addr, j.stream, wire.TransferReasonCancelled)
	s.xfer.CancelReceive(now, j.source, j.stream, wire.TransferReasonCancelled)
}

// snapshotSource picks the client to ask for the game state: the server's
// own (no traffic on the channel), else the longest connected player.
func (lj *lateJoins) snapshotSource() *serverClient {
	return lj.s.slots.stateSource(func(*serverClient) bool { return true })
}

// onTransfer handles the end of a stream.
func (lj *lateJoins) onTransfer(now int64, ev transfer.Event) {
	s := lj.s
	for _, sc := range s.slots {
		j := sc.joining()
		if j == nil || j.stream != ev.Stream {
			continue
		}
		// The snapshot is relayed as it arrives: only its loss matters here.
		if ev.Kind == transfer.Dropped {
			s.stats.Unexpected++
			sc.conn.Disconnect(now, ReasonNoSnapshot)
		}
		return
	}
}

// onJoinReady takes a joiner's word that it has caught up.
func (lj *lateJoins) onJoinReady(now int64, sc *serverClient, body []byte) error {
	s := lj.s
	var m wire.JoinReady
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if sc.readyDue && sc.phase != slotJoining {
		sc.readyDue = false // it entered when its commands came first
		return nil
	}
	if j := sc.joining(); j == nil || !j.started || s.state != ServerInGame {
		return errUnexpected{}
	}
	sc.join.ready, sc.join.said = true, true
	lj.maybeEnter(now, sc)
	return nil
}

// maybeEnter puts a ready joiner in the game, from the next tic sent, once
// its acknowledgements are close enough to the stream.
func (lj *lateJoins) maybeEnter(now int64, sc *serverClient) {
	s := lj.s
	x := &s.ext
	j := sc.joining()
	if j == nil || !j.ready || x.sendSeq-sc.acked > JoinEntryLagTics {
		return
	}
	sc.readyDue = !j.said
	lj.release(sc)
	sc.to(slotPlaying)
	sc.lastGameDataMS = now
	if p := sc.player; p >= 0 {
		x.enter(p)
		s.cmds.forgetPlayer(p)
	}
	s.emit(Event{Kind: EventPlayerEntered, Player: sc.player, Addr: sc.addr, Name: sc.name, Tic: x.sendSeq})
}

// onJoinerGameData takes the commands of a joiner that is not in the game
// yet. A joiner builds commands only once it has caught up, and sends them
// every tic: the first to arrive says what its JoinReady says, which a
// lost frame delays by a reliable resend (250 ms). It enters at once if
// it may; the caller then stores the commands from the tic it enters at.
func (lj *lateJoins) onJoinerGameData(now int64, sc *serverClient) {
	s := lj.s
	s.takeAck(now, sc, s.inGD.Ack)
	s.relay.acked(now, sc)
	sc.join.ready = true
	lj.maybeEnter(now, sc)
}

// freePlayer is the lowest player number no one has, nor is held for a
// departed copy or awaited from a copy of the game this server took
// over; -1 if there is none (or sc watches by choice).
func (lj *lateJoins) freePlayer(now int64, sc *serverClient) int {
	s := lj.s
	if sc.data.Drone {
		return -1
	}
	taken := s.rj.held(now)
	for _, o := range s.slots {
		if o != sc && o.connected() && o.player >= 0 {
			taken[o.player] = true
		}
	}
	for p, ph := range s.mig.awaiting {
		if ph != nil {
			taken[p] = true
		}
	}
	for p := range s.slots.maxPlayers(s.cfg.MaxPlayers) {
		if !taken[p] {
			return p
		}
	}
	return -1
}
