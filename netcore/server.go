package netcore

import (
	"github.com/ticnet/ticnet/internal/text"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// ServerConfig configures a server. The zero value of a field means its
// default.
type ServerConfig struct {
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
	Replay ServerReplayConfig
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
	// Input is the game's input layout, which every client's must match:
	// Doom's ticcmd (zero) or opaque input (ProtocolTicnet only: a peer
	// that speaks only the reference is refused). NewServer panics on a
	// layout that InputLayout.Check refuses.
	Input InputLayout
	// TicRate is how many tics a second a game under the extension
	// protocol runs, wire.MinTicRate to wire.MaxTicRate (default 35, which
	// a game under the reference protocol always runs); NewServer panics
	// on another.
	TicRate int
	// MaySucceed says which clients may take the game over when this
	// server leaves or hands it off (Successor); nil: any.
	MaySucceed func(Addr) bool
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
	fillCommon(&c.Version, &c.Protocols, &c.Timeouts)
	fillInput(&c.Input, &c.Protocols)
	fillTicRate(&c.TicRate)
	if c.MaxPlayers <= 0 || c.MaxPlayers > MaxPlayers {
		c.MaxPlayers = MaxPlayers
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
	c.Replay.fill()
}

// ServerState is where a server is in a game's life (spec §10.1).
type ServerState uint8

const (
	ServerWaitingLaunch ServerState = wire.ServerWaitingLaunch
	ServerWaitingStart  ServerState = wire.ServerWaitingStart
	ServerInGame        ServerState = wire.ServerInGame
)

// AddrNamer is implemented by transports that can show a peer's address as
// text, for the lobby list.
type AddrNamer interface {
	AddrString(Addr) string
}

// recvCmd is one player's command for one tic in the server's window.
type recvCmd struct {
	latency int16
	diff    wire.TicDiff
	from    *serverClient // the connection it came from
}

type serverClient struct {
	addr      Addr
	conn      conn
	connectMS int64
	name      string
	version   string
	protocol  string
	data      wire.ConnectData
	player    int // -1 for a drone
	ready     bool
	inGame    bool // was a player or drone when the game started
	announced bool // PlayerLeft has been emitted
	live      bool // connected at the last look: a change means it just left
	// heldUntilMS: a copy that got its player back by its token, until
	// when the player was held for it: it is held again, as long, if the
	// copy leaves before it is in the game.
	heldUntilMS int64

	lastWaitingMS  int64
	sendSeq        uint32
	acked          uint32
	queue          [BackupTics]sentServerTic
	lastGameDataMS int64
	pushFromMS     int64 // extension: no tic is pushed again (pushMissing) for a timeout after it
	lastPushMS     int64 // extension: when tics were last pushed again
	// repairing: the sets to everyone carry tics from its acknowledgement
	// on (repairFrom) while it stays at repairTic, the tic it was pushed.
	repairing bool
	repairTic uint32
	// The client's round trip (from acknowledgements: see takeAck), and
	// the jitter of its commands' arrival (from the
	// newest of each packet, jitterTic): when to send or ask again, and
	// how long a gap may be reordering.
	rtt         rttEstimate
	jit         jitter
	jitterTic   uint32
	resentEnd   uint32                  // one past the last tic sent it again: their acks time no round trip
	loss        lossEstimate            // the share of its packets lost
	join        *joiner                 // joined mid-game, not in the game yet
	placeholder bool                    // the place of a player whose copy has not reattached
	readyDue    bool                    // it entered on its commands; its JoinReady is still to come
	hello       bool                    // its Hello (token) arrived
	hash        [wire.TokenHashLen]byte // of its rejoin token
	hashed      bool                    // it has a token (hash is set)
	roster      wire.Roster             // the roster it was last sent
	rostered    bool                    // it was sent one
	// Its Resume's reliable sequence number, and when an unreliable copy
	// last went (0: none is due).
	resumeSeq    uint8
	resumeCopyMS int64
}

// setToken takes a client's rejoin token (zero: none).
func (sc *serverClient) setToken(token [wire.RejoinTokenLen]byte) {
	sc.hashed = token != [wire.RejoinTokenLen]byte{}
	sc.hash = [wire.TokenHashLen]byte{}
	if sc.hashed {
		sc.hash = TokenHash(token)
	}
}

func (sc *serverClient) connected() bool { return sc != nil && sc.conn.connected() }

func (sc *serverClient) drone() bool { return sc.data.Drone }

// Server runs a game for its clients: the lobby, the launch, and in game
// the relay of complete tics, by the reference's rules or, when every
// client speaks it, by the extension protocol's.
type Server struct {
	cfg      ServerConfig
	tr       Transport
	state    ServerState
	slots    [wire.MaxNodes]*serverClient
	events   []Event
	stats    Counters
	modeSet  bool
	mode     uint8 // gamemode adopted from the first player
	mission  uint8
	settings wire.Settings
	// launchOpts is what the controller said it launches with; setup is
	// what the game started with (its extension protocol's part).
	launchOpts wire.LaunchOptions
	setup      wire.GameSetup

	// In game: the protocol's relay (chosen at launch: chooseRelay), one
	// of ref and ext.
	relay     relay
	ref       referenceRelay
	ext       ticnetRelay
	recvStart uint32
	cmdWin    [MaxPlayers]ticWindow           // which of each player's commands arrived
	recvWin   [BackupTics][MaxPlayers]recvCmd // the commands cmdWin says arrived

	records []TicRecord
	rec     serverRecorder

	// Late join: bulk streams (snapshots), the joins, and the players
	// held for their copies to come back.
	xfer       *transfer.Endpoint
	xferEvents []transfer.Event
	joins      lateJoins
	rj         rejoins

	mig migration // host migration: taking a game over (server_migrate.go)

	pkt   []byte
	plist []*serverClient // players' scratch
	inGD  wire.ClientGameData
	out   wire.ServerGameData
}

// NewServer returns a server that talks through tr.
func NewServer(cfg ServerConfig, tr Transport) *Server {
	cfg.fill()
	s := &Server{cfg: cfg, tr: tr, xfer: transfer.New(cfg.Transfer, tr)}
	s.ref.s, s.ext.s, s.mig.s, s.joins.s, s.rj.s = s, s, s, s, s
	s.relay = &s.ref // until a game launches
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
	s.disconnectAll(now)
}

// HandOff hands the game over to succ (Successor), for a server whose
// copy must stop serving but stays in the game (its page was hidden):
// every client hears where the stream stopped and who serves next, and is
// sent away; the server's own player stays in the game, and its copy
// reattaches to the successor like any client.
func (s *Server) HandOff(now int64, succ Addr) {
	s.relay.leaving(now, succ, true)
	s.disconnectAll(now)
}

// Successor is the client that would serve the game best after this
// server, of those ServerConfig.MaySucceed allows: an extension player in
// the game that acknowledged the most tics (it holds the most of the
// timeline), the first such slot on a tie. It reports false when no
// client can take the game over (not an extension game in progress, or no
// extension client in it that may).
func (s *Server) Successor() (Addr, bool) { return s.relay.successor() }

// disconnectAll sends every client away.
func (s *Server) disconnectAll(now int64) {
	for _, sc := range s.slots {
		if sc != nil {
			sc.conn.disconnect(now, ReasonServerLeft)
		}
	}
}

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

func (s *Server) slotOf(a Addr) *serverClient {
	for _, sc := range s.slots {
		if sc != nil && sc.addr == a {
			return sc
		}
	}
	return nil
}

func (s *Server) receive(now int64, from Addr, pkt []byte) {
	h, body, err := wire.ParseHeader(pkt)
	if err != nil {
		s.stats.Malformed++
		return
	}
	s.stats.PacketsReceived++
	s.stats.BytesReceived += int64(len(pkt))
	switch {
	case h.Type == wire.TypeSYN && !h.Reliable:
		s.count(s.onSYN(now, from, body))
		return
	case h.Type == wire.TypeQuery:
		s.sendQueryResponse(from)
		return
	}
	sc := s.slotOf(from)
	if sc == nil {
		sc = s.mig.reattachFirst(now, from, h, body)
	}
	if sc == nil {
		s.stats.Unexpected++
		return
	}
	if !sc.conn.handle(now, h, body) {
		return
	}
	switch h.Type {
	case wire.TypeLaunch:
		if s.state != ServerWaitingLaunch || sc != s.controller() {
			s.stats.Unexpected++
			return
		}
		s.launch(now)
	case wire.TypeGameStart:
		s.count(s.onGameStart(now, sc, body))
	case wire.TypeGameData:
		s.count(s.onGameData(now, sc, body))
	case wire.TypeGameDataAck:
		var m wire.GameDataAck
		if err := m.DecodeBody(body); err != nil {
			s.count(err)
			return
		}
		if s.state != ServerInGame {
			s.stats.Unexpected++
			return
		}
		s.takeAck(now, sc, m.Ack)
		s.relay.acked(now, sc) // a joiner acknowledges this way only
	case wire.TypeGameDataResend:
		s.count(s.onResendRequest(now, sc, body))
	case wire.TypeTicnet:
		s.count(s.onTicnet(now, sc, body))
	default:
		s.stats.Unexpected++
	}
}

// count tallies a handler's verdict on a packet.
func (s *Server) count(err error) {
	if err == nil {
		return
	}
	if _, ok := err.(*wire.DecodeError); ok {
		s.stats.Malformed++
	} else {
		s.stats.Unexpected++
	}
}

func (s *Server) reject(from Addr, msg string) {
	s.pkt = wire.Encode(s.pkt[:0], &wire.Rejected{Message: msg}, false, 0)
	s.tr.Send(from, s.pkt)
	s.stats.PacketsSent++
	s.stats.BytesSent += int64(len(s.pkt))
	s.stats.Rejected++
	s.emit(Event{Kind: EventRejected, Player: -1, Addr: from, Reason: msg})
}

// onSYN handles a connection request, checking as the reference does and in
// its order (spec §6.2).
func (s *Server) onSYN(now int64, from Addr, body []byte) error {
	var m wire.SYN
	err := m.DecodeBody(body)
	if m.Magic == wire.OldMagic {
		s.reject(from, "You are using an old client version that is not supported by this server. "+
			"This server is running "+s.cfg.Version+".")
		return nil
	}
	if m.Magic != wire.Magic {
		return errUnexpected{}
	}
	if err != nil {
		return err
	}
	proto, ok := wire.ChooseProtocol(m.Protocols, s.cfg.Protocols)
	if !ok {
		s.reject(from, "Version mismatch: server version is: "+s.cfg.Version+"; client is: "+wire.Printable(m.Version)+". "+
			"No common compatible protocol could be negotiated.")
		return nil
	}
	if !wire.ValidGameMode(m.Connect.GameMission, m.Connect.GameMode) || m.Connect.MaxPlayers > MaxPlayers {
		return errUnexpected{}
	}
	if sc := s.slotOf(from); sc != nil && sc.conn.state != connDisconnected && sc.conn.state != connDisconnecting {
		if !sc.connectsAfresh(now) {
			return nil // a duplicate: the reliable layer resends our reply
		}
		s.joins.dropJoiner(now, sc)
	}
	// (One from a copy this server is sending away, refused say, is that
	// copy trying again: it gets a new slot.)
	if proto == wire.ProtocolTicnet && (s.mig.resume != nil || s.mig.awaitingAny()) {
		// A copy that reattaches, most likely: it says so next (one that
		// says Hello instead joins: onPendingHello).
		if s.newSlot(now, from, &m, proto) == nil {
			return errUnexpected{}
		}
		return nil
	}
	if s.state == ServerInGame && s.relay.admitLate(now, from, &m, proto) {
		return nil
	}
	if s.state != ServerWaitingLaunch {
		s.reject(from, "Server is not currently accepting connections")
		return nil
	}
	players, clients := 0, 0
	for _, sc := range s.slots {
		if sc.connected() {
			clients++
			if !sc.drone() {
				players++
			}
		}
	}
	if (!m.Connect.Drone && players >= s.maxPlayers()) || clients >= wire.MaxNodes {
		s.reject(from, "Server is full!")
		return nil
	}
	if players == 0 && !m.Connect.Drone {
		s.modeSet, s.mode, s.mission = true, m.Connect.GameMode, m.Connect.GameMission
	}
	if !s.modeSet || s.mode != m.Connect.GameMode || s.mission != m.Connect.GameMission {
		srvMission, srvMode := "none", "unknown"
		if s.modeSet {
			srvMission, srvMode = missionName(s.mission), modeName(s.mode)
		}
		s.reject(from, "Game mismatch: server is "+srvMission+" ("+srvMode+"), client is "+missionName(m.Connect.GameMission)+" ("+modeName(m.Connect.GameMode)+")")
		return nil
	}
	sc := s.newSlot(now, from, &m, proto)
	if sc == nil {
		return errUnexpected{}
	}
	s.assignPlayers()
	s.emit(Event{Kind: EventPlayerJoined, Player: sc.player, Addr: from, Name: sc.name, Protocol: proto})
	return nil
}

// newSlot connects a client in a free slot and sends its SYN reply; nil if
// no slot is free.
func (s *Server) newSlot(now int64, from Addr, m *wire.SYN, proto string) *serverClient {
	slot := -1
	for i, sc := range s.slots {
		if sc != nil && sc.addr == from { // reconnecting from a slot that ended
			s.slots[i] = nil
		}
		if s.slots[i] == nil && slot < 0 {
			slot = i
		}
	}
	if slot < 0 {
		return nil
	}
	sc := &serverClient{addr: from, connectMS: now, name: wire.Printable(m.PlayerName),
		version: m.Version, protocol: proto, data: m.Connect, player: -1,
		lastWaitingMS: now - WaitingDataPeriodMS - 1}
	sc.conn = newConn(from, s.tr, s.cfg.Timeouts, now, connConnected, &s.stats)
	switch {
	case proto == wire.ProtocolTicnet && s.mig.resume != nil:
		sc.conn.resendMS = ReattachResendMS // until its Resume is acknowledged
	case proto == wire.ProtocolTicnet:
		sc.conn.resendMS = ExtReliableResendMS
	}
	sc.live = true
	s.slots[slot] = sc
	sc.conn.sendReliable(&wire.SYNReply{Version: s.cfg.Version, Protocol: proto})
	return sc
}

// maxPlayers is the reference's NET_SV_MaxPlayers: the first connected
// client's game decides, within the configured limit.
func (s *Server) maxPlayers() int {
	for _, sc := range s.slots {
		if sc.connected() {
			return min(int(sc.data.MaxPlayers), s.cfg.MaxPlayers)
		}
	}
	return s.cfg.MaxPlayers
}

// controller is the oldest connected player: it may launch and its settings
// are the game's.
func (s *Server) controller() *serverClient {
	var best *serverClient
	for _, sc := range s.slots {
		if sc.connected() && !sc.drone() && (best == nil || sc.connectMS < best.connectMS) {
			best = sc
		}
	}
	return best
}

// assignPlayers numbers the connected players in slot order.
func (s *Server) assignPlayers() {
	n := 0
	for _, sc := range s.slots {
		if sc.connected() && !sc.drone() {
			sc.player = n
			n++
		} else if sc != nil {
			sc.player = -1
		}
	}
}

// players returns the connected players by player number. The slice is
// reused by the next call.
func (s *Server) players() []*serverClient {
	s.plist = s.plist[:0]
	for _, sc := range s.slots {
		if sc.connected() && !sc.drone() && sc.player >= 0 && (s.state != ServerInGame || sc.inGame) {
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

func (s *Server) sendQueryResponse(to Addr) {
	state := s.state
	mode := uint8(wire.ModeIndetermined)
	if s.modeSet {
		mode = s.mode
	}
	m := wire.QueryResponse{Version: s.cfg.Version, State: uint8(state), NumPlayers: uint8(len(s.players())),
		MaxPlayers: uint8(s.maxPlayers()), GameMode: mode, GameMission: s.mission,
		Description: s.cfg.Description, HasProtocols: true, Protocols: s.cfg.Protocols}
	s.pkt = wire.Encode(s.pkt[:0], &m, false, 0)
	s.tr.Send(to, s.pkt)
	s.stats.Queries++
}

func (s *Server) addrString(a Addr) string {
	if n, ok := s.tr.(AddrNamer); ok {
		return n.AddrString(a)
	}
	return defaultAddrString(a)
}

// defaultAddrString shows a channel UID.
func defaultAddrString(a Addr) string { return "uid:" + text.Hex(uint64(a), 8) }

func (s *Server) sendWaitingData(now int64, to *serverClient) {
	ctrl := s.controller()
	players := s.players()
	m := wire.WaitingData{MaxPlayers: uint8(s.maxPlayers()), IsController: to == ctrl,
		ConsolePlayer: int8(to.player)}
	for _, sc := range s.slots {
		if sc.connected() {
			if sc.drone() {
				m.NumDrones++
			} else if sc.ready {
				m.ReadyPlayers++
			}
		}
	}
	m.NumPlayers = uint8(len(players))
	for _, p := range players {
		m.Players = append(m.Players, wire.WaitingPlayer{Name: wire.Truncate(p.name), Addr: wire.Truncate(s.addrString(p.addr))})
	}
	src := to
	if ctrl != nil {
		src = ctrl
	}
	m.WADSHA1, m.DEHSHA1, m.IsFreedoom = src.data.WADSHA1, src.data.DEHSHA1, src.data.IsFreedoom
	to.conn.sendMessage(now, &m)
	to.lastWaitingMS = now
}

// launch moves the lobby to waiting for every client's GAMESTART.
func (s *Server) launch(now int64) {
	s.assignPlayers()
	n := uint8(len(s.players()))
	// The mode is decided now, from who is here: after LAUNCH nobody can
	// join, so it can only stay right. The notice follows LAUNCH on the
	// reliable channel, so the client has it before its GAMESTART.
	s.relay = s.chooseRelay()
	ticnet := s.relay == &s.ext
	s.setup = wire.GameSetup{Input: s.cfg.Input, TicRate: uint8(s.cfg.TicRate), Seed: s.launchOpts.Seed, Options: s.launchOpts.Options}
	if !ticnet {
		s.setup = wire.GameSetup{Input: s.cfg.Input, TicRate: TicRate} // the reference's game has none of it
	}
	for _, sc := range s.slots {
		if sc.connected() {
			sc.conn.sendReliable(&wire.Launch{NumPlayers: n})
			if sc.protocol == wire.ProtocolTicnet {
				sc.conn.sendReliable(&wire.ModeNotice{Extended: ticnet, Setup: s.setup})
			}
		}
	}
	s.state = ServerWaitingStart
	s.emit(Event{Kind: EventLaunched, Player: -1})
}

func (s *Server) onGameStart(now int64, sc *serverClient, body []byte) error {
	if s.state != ServerWaitingStart {
		return errUnexpected{}
	}
	if sc == s.controller() {
		var m wire.GameStart
		if err := m.DecodeBody(body); err != nil {
			return err
		}
		if !validSettings(&m.Settings, s.mission) {
			return errUnexpected{}
		}
		s.settings = m.Settings
	}
	sc.ready = true
	for _, o := range s.slots {
		if o.connected() && o.ready {
			s.sendWaitingData(now, o)
		}
	}
	s.checkStart(now)
	return nil
}

// validSettings checks the controller's settings as the reference does.
func validSettings(st *wire.Settings, mission uint8) bool {
	if st.TicDup == 0 || st.Deathmatch > 2 || st.Skill < -1 || st.Skill > 4 {
		return false
	}
	if st.Episode == 0 && mission != wire.MissionDoom2 && mission != wire.MissionPackTNT &&
		mission != wire.MissionPackPlut && mission != wire.MissionHexen && mission != wire.MissionStrife {
		return false
	}
	return st.Map > 0
}

// checkStart starts the game once every connected client is ready.
func (s *Server) checkStart(now int64) {
	if s.state != ServerWaitingStart {
		return
	}
	any := false
	for _, sc := range s.slots {
		if sc.connected() {
			if !sc.ready {
				return
			}
			any = true
		}
	}
	if !any {
		return
	}
	s.assignPlayers()
	players := s.players()
	st := s.settings
	st.NumPlayers = uint8(len(players))
	st.PlayerClasses = [MaxPlayers]uint8{}
	for i, p := range players {
		st.LowResTurn = st.LowResTurn || p.data.LowResTurn
		st.PlayerClasses[i] = p.data.PlayerClass
	}
	s.settings = st
	s.recvStart = 0
	s.ref.leavers = departures{}
	s.recvWin = [BackupTics][MaxPlayers]recvCmd{}
	s.cmdWin = [MaxPlayers]ticWindow{}
	s.ext.reset()
	s.inGD.LowResTurn = st.LowResTurn
	s.out.LowResTurn = st.LowResTurn
	s.inGD.InputSize = s.cfg.Input.Size
	for _, sc := range s.slots {
		if !sc.connected() {
			continue
		}
		sc.inGame = true
		sc.sendSeq, sc.acked = 0, 0
		sc.queue = [BackupTics]sentServerTic{}
		sc.lastGameDataMS = now
		personal := st
		personal.ConsolePlayer = int8(sc.player)
		sc.conn.sendReliable(&wire.GameStart{Settings: personal})
	}
	s.state = ServerInGame
	s.recordStart(0)
	s.emit(Event{Kind: EventGameStarted, Player: -1, Protocol: s.relay.protocol()})
}

func (s *Server) run(now int64) {
	for i, sc := range s.slots {
		if sc == nil {
			continue
		}
		sc.conn.run(now)
		if sc.resumeCopyMS != 0 {
			s.mig.resendResumeCopy(now, sc)
		}
		if sc.conn.resendMS == ReattachResendMS && s.mig.resume == nil && len(sc.conn.reliable) == 0 {
			sc.conn.resendMS = ExtReliableResendMS // its Resume came through
		}
		if sc.live && !sc.connected() {
			sc.live = false
			s.clientGone(now, sc)
		}
		if sc.conn.state == connDisconnected {
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
				s.sendWaitingData(now, sc)
			}
		case ServerInGame:
			s.relay.pumpClient(now, sc)
			if j := sc.join; j != nil && !j.started && len(sc.conn.reliable) == 0 && sc.hello {
				s.joins.startJoin(now, sc)
			}
			s.joins.maybeEnter(now, sc)
			s.breakDeadlock(now, sc)
		}
	}
	switch s.state {
	case ServerWaitingStart:
		s.checkStart(now)
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
	}
}

// clientGone handles a connection that stopped being connected: it timed
// out, left, or was told to go.
func (s *Server) clientGone(now int64, sc *serverClient) {
	s.xfer.DropPeer(now, sc.addr)
	if sc.conn.reason == ReasonTimeout {
		for _, o := range s.slots {
			if o.connected() {
				o.conn.sendReliable(&wire.ConsoleMessage{Text: "Client '" + sc.name + "' timed out and disconnected"})
			}
		}
	}
	s.relay.hold(now, sc)
	if !sc.announced {
		sc.announced = true
		s.emit(Event{Kind: EventPlayerLeft, Player: sc.player, Addr: sc.addr, Name: sc.name, Reason: sc.conn.reason})
	}
	if s.state == ServerWaitingStart && !sc.drone() {
		for _, o := range s.slots {
			if o.connected() {
				o.conn.sendReliable(&wire.ConsoleMessage{Text: "Game startup aborted because player '" + sc.name + "' disconnected."})
			}
		}
		s.endGame(now, ReasonGameAborted)
		return
	}
	if s.state == ServerWaitingLaunch {
		s.assignPlayers()
	}
}

// maybeEndGame ends the game once no player is left.
func (s *Server) maybeEndGame(now int64) {
	if len(s.players()) == 0 && (s.state != ServerWaitingLaunch || s.modeSet) {
		s.endGame(now, ReasonGameEnded)
	}
}

// endGame returns to the lobby and sends every remaining client away, as
// the reference does.
func (s *Server) endGame(now int64, reason string) {
	wasPlaying := s.state != ServerWaitingLaunch
	s.state = ServerWaitingLaunch
	s.modeSet = false
	s.relay = &s.ref
	for _, sc := range s.slots {
		if sc.connected() {
			sc.conn.disconnect(now, reason)
		}
		if sc != nil {
			sc.ready = false
		}
	}
	if wasPlaying {
		s.emit(Event{Kind: EventDisconnected, Player: -1, Reason: reason})
	}
}

// ticRate is the running game's tics per second: the setup's under the
// extension protocol, the reference's otherwise.
func (s *Server) ticRate() int64 { return s.relay.ticRate() }

// Setup is the running game's setup under the extension protocol: the
// input layout, tic rate, seed and options it started with.
func (s *Server) Setup() wire.GameSetup { return s.setup }
