package netcore

import (
	"crypto/ecdh"
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// ServerConfig configures a server. The zero value of a field means its
// default.
type ServerConfig struct {
	// Key is the server's key pair, its copy's (ClientConfig.Key): the
	// keys of its clients' connections are agreed from it, and a server
	// that takes a game over answers its players with it, as the roster
	// names it. Nil: one is drawn from crypto/rand.
	Key         *ecdh.PrivateKey
	Version     string   // default DefaultVersion
	Protocols   []string // spoken, preferred first; default ticnet, then the reference
	Timeouts    Timeouts // default BrowserTimeouts
	MaxPlayers  int      // at most this many players (drones aside); default 8
	Description string   // for QUERY_RESPONSE; default "Unnamed server"
	// SubstituteAfterMS is the extension protocol's deadline: once any
	// player's command for a tic has arrived, the others have this long
	// before the server substitutes theirs. Default DefaultSubstituteAfterMS.
	SubstituteAfterMS int64
	// BroadcastTics sends each complete tic once, to every client (UID 0),
	// under the extension protocol: right on a broadcast channel, where one
	// frame reaches everyone. Off, each client gets its own copy (UDP).
	BroadcastTics bool
	// RecordTics makes the server note, for every tic it lets go, which
	// players' commands it had (TicRecords): for logs and tests.
	RecordTics bool
	// Replay makes the server record each game as a replay file
	// (Server.Replay). Off, nothing is recorded.
	Replay replay.ServerConfig
	// Transfer tunes the bulk streams that carry snapshots to copies
	// joining a game in progress.
	Transfer transfer.Config
	// RejoinGraceMS is how long the player of a copy that left a game in
	// progress is kept for it: a copy that presents its rejoin token
	// meanwhile gets it back. Default DefaultRejoinGraceMS.
	RejoinGraceMS int64
	// Game is the game's id, which its clients are told (wire.Roster)
	// and a copy that reattaches to the server taking the game over
	// names (wire.Reattach): two games on one channel never mix.
	Game uint32
	// Term is this server's term of the game (wire.Ident), which every
	// migration or hand-off increments (NewResumedServer: the old
	// server's plus one); default 1. Its clients drop a frame of another.
	Term uint16
	// Input is the game's input layout, which every client's must match:
	// Doom's ticcmd (zero) or opaque input (ProtocolTicnet only: a peer
	// that speaks only the reference is refused). NewServer panics on a
	// layout that InputLayout.Check refuses.
	Input tic.InputLayout
	// TicRate is how many tics a second a game under the extension
	// protocol runs, wire.MinTicRate to wire.MaxTicRate (default 35, which
	// a game under the reference protocol always runs); NewServer panics
	// on another.
	TicRate int
	// MaySucceed says which clients may take the game over when this
	// server leaves or hands it off (Successor); nil: any.
	MaySucceed func(link.Addr) bool
	// AutoDelay makes the server choose every player's input delay under
	// the extension protocol (relay_ticnet_delay.go).
	AutoDelay AutoDelay
	// NoTicSources makes the server send the watchers every tic they
	// miss itself, naming them no tic source (watch_sources.go): for
	// measurements beside the default, where they get them from one
	// another.
	NoTicSources bool
}

// DefaultRejoinGraceMS is how long a departed player is held for its copy
// to come back: long enough for a reload, or for a messenger to bring a
// backgrounded app back.
const DefaultRejoinGraceMS = 60000

// TicRecord says which players' commands the server had for a tic when it
// let the tic go: under the reference protocol when every player's command
// was in and every client had acknowledged the tic, under the extension
// protocol when the tic was sent.
type TicRecord struct {
	Tic uint32
	// Players has bit p set if player p was in the game.
	Players uint8
	// Received has bit p set if player p's own command arrived; under the
	// extension protocol the other players' were substituted.
	Received uint8
}

// DefaultSubstituteAfterMS is the default deadline for late commands: the
// longest that keeps the stall the others see, when a player goes silent,
// under the 150 ms players notice. BenchmarkSubstituteDeadline measured, on
// 8 players over 15 seeds (share of commands substituted on a 50-150 ms,
// 20 %-loss channel; longest stall when one player falls silent): 50 ms:
// 4.1 %, 90 ms; 100 ms: 3.5 %, 135 ms; 150 ms: 3.1 %, 185 ms; 250 ms:
// 1.9 %, 290 ms.
const DefaultSubstituteAfterMS = 100

func (c *ServerConfig) fill() {
	c.Key = fillKey(c.Key)
	fillCommon(&c.Version, &c.Protocols, &c.Timeouts)
	fillInput(&c.Input, &c.Protocols)
	fillTicRate(&c.TicRate)
	if c.MaxPlayers <= 0 || c.MaxPlayers > tic.MaxPlayers {
		c.MaxPlayers = tic.MaxPlayers
	}
	if c.Description == "" {
		c.Description = "Unnamed server"
	}
	if c.SubstituteAfterMS <= 0 {
		c.SubstituteAfterMS = DefaultSubstituteAfterMS
	}
	if c.RejoinGraceMS <= 0 {
		c.RejoinGraceMS = DefaultRejoinGraceMS
	}
	if c.Term == 0 {
		c.Term = 1
	}
}

// ServerState is where a server is in a game's life (spec §10.1).
type ServerState uint8

const (
	ServerWaitingLaunch ServerState = wire.ServerWaitingLaunch
	ServerWaitingStart  ServerState = wire.ServerWaitingStart
	ServerInGame        ServerState = wire.ServerInGame
)

// Server runs a game for its clients: the lobby, the launch, and in game
// the relay of complete tics, by the reference's rules or, when every
// client speaks it, by the extension protocol's.
type Server struct {
	cfg      ServerConfig
	tr       link.Transport
	state    ServerState
	slots    slotTable
	events   []Event
	stats    Counters
	lobby    serverLobby // admission, the controller, launch and start (server_lobby.go)
	settings wire.Settings
	// setup is what the game started with (its extension protocol's part).
	setup wire.GameSetup

	// In game: the protocol's relay (chosen at launch: chooseRelay), one
	// of ref and ext.
	relay relay
	ref   referenceRelay
	ext   ticnetRelay
	cmds  commandStore // the players' commands held (server_commands.go)

	records []TicRecord
	rec     replay.Recorder // the replay of each game (replay.go)
	relayed relayedCmds     // the reference relay's commands, for rec

	// Late join: bulk streams (snapshots), the joins, and the players
	// held for their copies to come back.
	xfer       *transfer.Endpoint
	xferEvents []transfer.Event
	joins      lateJoins
	rj         rejoins

	mig migration // host migration: taking a game over (server_migrate.go)
	// retired: connections that ended, whose late SYNs are stale (ident.go)
	retired retiredConns
	pub     wire.PublicKey // cfg.Key's public key
	cast    auth.Broadcast // what it broadcast, for each broadcast's tags

	pkt   []byte
	plist []*serverClient // players' scratch
	inGD  wire.ClientGameData
	out   wire.ServerGameData
}

// NewServer returns a server that talks through tr.
func NewServer(cfg ServerConfig, tr link.Transport) *Server {
	cfg.fill()
	s := &Server{cfg: cfg, tr: tr, pub: wire.PublicKey(cfg.Key.PublicKey().Bytes())}
	s.xfer = transfer.New(cfg.Transfer, serverFramer{s})
	s.ref.s, s.ext.s, s.ext.delays.s, s.ext.sources.s, s.ext.watchList.s, s.ext.attest.s, s.mig.s, s.joins.s, s.rj.s, s.lobby.s = s, s, s, s, s, s, s, s, s, s
	s.mig.self = -1
	s.relay = &s.ref // until a game launches
	s.rec = replay.NewServerRecorder(cfg.Replay, s.replayHeader)
	return s
}

// State returns the server's state.
func (s *Server) State() ServerState { return s.state }

// Counters returns what the server has counted.
func (s *Server) Counters() Counters { return s.stats }

// Extended reports whether the running game uses the extension protocol.
func (s *Server) Extended() bool { return s.relay.protocol() == wire.ProtocolTicnet }

// Settings returns the settings of the running game.
func (s *Server) Settings() wire.Settings { return s.settings }

// SendSeq is the next tic the server will send (under the extension
// protocol; under the reference, the lowest of the clients').
func (s *Server) SendSeq() uint32 { return s.relay.next() }

// Players returns the names of the connected players, by player number.
func (s *Server) Players() []string {
	var names []string
	for _, sc := range s.players() {
		names = append(names, sc.name)
	}
	return names
}

// Shutdown tells every client that the server is going away. It names no
// successor, unlike HandOff: the clients elect the next server among
// themselves (on the lossy channel of the migration tests, a named
// successor that took over at once made 95 of 4 200 survivors join their
// game again, against 1 with the election).
func (s *Server) Shutdown(now int64) {
	s.relay.leaving(now, 0, false)
	s.slots.disconnectAll(now)
}

// HandOff hands the game over to the client that would serve it best
// (Successor), for a server whose copy must stop serving but stays in the
// game (its page was hidden): every client hears where the stream stopped
// and who serves next, and is sent away; the server's own player stays in
// the game, and its copy reattaches to the successor like any client. It
// returns the successor, and false, doing nothing, when no client can
// take the game over.
func (s *Server) HandOff(now int64) (link.Addr, bool) {
	succ, ok := s.Successor()
	if !ok {
		return 0, false
	}
	s.relay.leaving(now, succ, true)
	s.slots.disconnectAll(now)
	return succ, true
}

// Successor is the client that would serve the game best after this
// server, of those ServerConfig.MaySucceed allows: an extension player in
// the game that acknowledged the most tics (it holds the most of the
// timeline), the first such slot on a tie. It reports false when no
// client can take the game over (not an extension game in progress, or no
// extension client in it that may).
func (s *Server) Successor() (link.Addr, bool) { return s.relay.successor() }

// Clients is the number of client slots in use: connected clients, and
// those still in a disconnect handshake or lingering after one.
func (s *Server) Clients() int {
	n := 0
	for _, sc := range s.slots {
		if sc != nil {
			n++
		}
	}
	return n
}

// Transfers is the server's bulk streams (snapshots for late joiners).
func (s *Server) Transfers() *transfer.Endpoint { return s.xfer }

// TicRecords returns the tics the last Update let go, with ServerConfig
// RecordTics set. The slice is valid until the next Update.
func (s *Server) TicRecords() []TicRecord { return s.records }

func (s *Server) emit(e Event) { s.events = append(s.events, e) }

// Update receives what has arrived, does what is due at now, and returns
// what happened. The slice is valid until the next Update.
func (s *Server) Update(now int64) []Event {
	s.events = s.events[:0]
	s.records = s.records[:0]
	for {
		from, pkt, ok := s.tr.Recv()
		if !ok {
			break
		}
		s.receive(now, from, pkt)
	}
	s.run(now)
	return s.events
}

func (s *Server) receive(now int64, from link.Addr, pkt []byte) {
	h, body, err := wire.ParseHeader(pkt)
	if err != nil {
		s.stats.Malformed++
		return
	}
	s.stats.PacketsReceived++
	s.stats.BytesReceived += int64(len(pkt))
	switch {
	case h.Type == wire.TypeSYN && !h.Reliable:
		s.stats.tally(s.lobby.onSYN(now, from, body))
		return
	case h.Type == wire.TypeQuery:
		s.lobby.sendQueryResponse(from)
		return
	}
	sc := s.slots.find(from)
	switch {
	case sc == nil:
		var forged bool
		if sc, pkt, forged = s.mig.reattachFirst(now, from, pkt); sc != nil {
			break
		}
		if forged {
			s.stats.Forged++
		} else {
			s.stats.Unexpected++
		}
		return
	case sc.conn.Framed():
		var ok bool
		if pkt, ok = sc.conn.Untag(now, pkt, false, -1); !ok {
			return
		}
	}
	h, body, _ = wire.ParseHeader(pkt) // its tag cleared
	if !sc.conn.Handle(now, h, body) {
		return
	}
	switch h.Type {
	case wire.TypeLaunch:
		if s.state != ServerWaitingLaunch || sc != s.slots.controller() {
			s.stats.Unexpected++
			return
		}
		s.lobby.launch(now)
	case wire.TypeGameStart:
		s.stats.tally(s.lobby.onGameStart(now, sc, body))
	case wire.TypeGameData:
		s.stats.tally(s.onGameData(now, sc, body))
	case wire.TypeGameDataAck:
		var m wire.GameDataAck
		if err := m.DecodeBody(body); err != nil {
			s.stats.tally(err)
			return
		}
		if s.state != ServerInGame {
			s.stats.Unexpected++
			return
		}
		s.takeAck(now, sc, m.Ack)
		s.relay.acked(now, sc) // a joiner acknowledges this way only
	case wire.TypeGameDataResend:
		s.stats.tally(s.onResendRequest(now, sc, body))
	case wire.TypeTicnet:
		s.stats.tally(s.onTicnet(now, sc, body))
	default:
		s.stats.Unexpected++
	}
}

// players returns the connected players by player number. The slice is
// reused by the next call.
func (s *Server) players() []*serverClient {
	s.plist = s.plist[:0]
	for _, sc := range s.slots {
		if sc.connected() && !sc.drone() && sc.player >= 0 && (s.state != ServerInGame || sc.inGame()) {
			s.plist = append(s.plist, sc)
		}
	}
	for _, ph := range s.mig.awaiting {
		if ph != nil {
			s.plist = append(s.plist, ph)
		}
	}
	return s.plist
}

func (s *Server) run(now int64) {
	for i, sc := range s.slots {
		if sc == nil {
			continue
		}
		sc.conn.Run(now)
		if sc.resumeCopyMS != 0 {
			sc.resendResumeCopy(now, s.ext.resumedAt)
		}
		if sc.conn.ResendMS() == ReattachResendMS && s.mig.resume == nil && sc.conn.Acked() {
			sc.conn.SetResendMS(ExtReliableResendMS) // its Resume came through
		}
		if sc.live && !sc.connected() {
			sc.live = false
			s.clientGone(now, sc)
		}
		if sc.conn.State() == reliable.Disconnected {
			s.retired.retire(sc)
			s.slots[i] = nil
			s.maybeEndGame(now)
			continue
		}
		if !sc.connected() {
			continue
		}
		switch s.state {
		case ServerWaitingLaunch:
			if now-sc.lastWaitingMS > WaitingDataPeriodMS {
				s.lobby.sendWaitingData(now, sc)
			}
		case ServerInGame:
			s.relay.pumpClient(now, sc)
			if j := sc.join; j != nil && j.waitFeedMS != 0 {
				s.joins.waited(now, sc)
			}
			if j := sc.join; j != nil && !j.started && sc.conn.Acked() && sc.hello {
				s.joins.startJoin(now, sc)
			}
			s.joins.maybeEnter(now, sc)
			s.breakDeadlock(now, sc)
		}
	}
	switch s.state {
	case ServerWaitingStart:
		s.lobby.checkStart(now)
	case ServerInGame:
		s.mig.runAwaiting(now)
		if s.mig.resume != nil {
			s.mig.resumeStep(now) // the game's first tic goes out in the pass it resumes
		}
		if s.mig.resume == nil {
			s.relay.pass(now)
		}
		s.requestMissing(now)
	}
	// Streams last: their chunks queue behind the pass's tics.
	s.xferEvents = s.xfer.Pump(now, s.xferEvents[:0])
	for _, ev := range s.xferEvents {
		s.joins.onTransfer(now, ev)
		s.ext.repair.onTransfer(now, &s.ext, ev)
	}
}

// clientGone handles a connection that stopped being connected: it timed
// out, left, or was told to go.
func (s *Server) clientGone(now int64, sc *serverClient) {
	s.xfer.DropPeer(now, sc.addr)
	if sc.conn.TimedOut() {
		for _, o := range s.slots {
			if o.connected() {
				o.conn.SendReliable(&wire.ConsoleMessage{Text: "Client '" + sc.name + "' timed out and disconnected"})
			}
		}
	}
	s.relay.hold(now, sc)
	s.joins.release(sc)
	s.emit(Event{Kind: EventPlayerLeft, Player: sc.player, Addr: sc.addr, Name: sc.name, Reason: sc.conn.Reason()})
	if s.state == ServerWaitingStart && !sc.drone() {
		for _, o := range s.slots {
			if o.connected() {
				o.conn.SendReliable(&wire.ConsoleMessage{Text: "Game startup aborted because player '" + sc.name + "' disconnected."})
			}
		}
		s.endGame(now, CauseGameAborted, ReasonGameAborted)
		return
	}
	if s.state == ServerWaitingLaunch {
		s.slots.assignPlayers()
	}
}

// maybeEndGame ends the game once no player is left.
func (s *Server) maybeEndGame(now int64) {
	if len(s.players()) == 0 && (s.state != ServerWaitingLaunch || s.lobby.modeSet) {
		s.endGame(now, CauseGameEnded, ReasonGameEnded)
	}
}

// endGame returns to the lobby and sends every remaining client away, as
// the reference does; cause is why, reason says it to people.
func (s *Server) endGame(now int64, cause Cause, reason string) {
	wasPlaying := s.state != ServerWaitingLaunch
	s.state = ServerWaitingLaunch
	s.lobby.modeSet = false
	s.relay = &s.ref
	for _, sc := range s.slots {
		if sc.connected() {
			sc.conn.Disconnect(now, reason)
		}
		if sc != nil && sc.phase == slotReady {
			sc.to(slotWaiting)
		}
	}
	if wasPlaying {
		s.emit(Event{Kind: EventDisconnected, Player: -1, Reason: reason, Cause: cause})
	}
}

// Setup is the running game's setup under the extension protocol: the
// input layout, tic rate, seed and options it started with.
func (s *Server) Setup() wire.GameSetup { return s.setup }
