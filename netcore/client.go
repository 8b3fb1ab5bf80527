package netcore

import (
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// DefaultVersion is the version string a ticnet client and server send.
// Peers use it only in messages and to pick the numbering of the
// gameversion byte, so ticnet says what the Debian build says, whose
// numbering it uses.
const DefaultVersion = "Chocolate Doom 3.0.0"

// ClientConfig configures a client. The zero value of a field means its
// default.
type ClientConfig struct {
	Name      string           // player name; default "Player"
	Drone     bool             // watch only: no input, every player's commands received
	Connect   wire.ConnectData // the game: mode, mission, max players, hashes
	Version   string           // default DefaultVersion
	Protocols []string         // offered, preferred first; default ticnet, then the reference
	Timeouts  Timeouts         // default BrowserTimeouts
	// Settings are the game settings this client asks for if it is the
	// controller. TicDup 0 means 1.
	Settings wire.Settings
	// Transfer tunes the bulk streams of late join (the snapshot this copy
	// receives when it joins, or sends when the server asks it for one).
	Transfer transfer.Config
	// CatchUpTics bounds the tics a joining copy holds while its snapshot
	// arrives and it catches up; default DefaultCatchUpTics.
	CatchUpTics int
	// Token is this copy's rejoin token (random; zero for none): a copy
	// that left a game in progress and comes back with it, under any
	// address, within the server's grace period gets its player back.
	Token [wire.RejoinTokenLen]byte
	// Predict makes the client run ahead of the confirmed tics, under the
	// extension, when its game can save and load (client_predict.go), up
	// to PredictTics tics (default DefaultPredictTics, at most
	// MaxPredictTics).
	Predict     bool
	PredictTics int
	// Input is the game's input layout: Doom's ticcmd (zero) or opaque
	// input (ProtocolTicnet only). NewClient panics on a layout that
	// InputLayout.Check refuses.
	Input InputLayout
	// InputDelay, in tics (at most MaxInputDelay), makes the client build
	// each command that many tics before its tic is due at the server,
	// under the extension: the local player's input shows that much later,
	// and arrives that much earlier (GGRS's trade: fewer rollbacks, fewer
	// substituted commands). With prediction the game runs to the tic due
	// now, not to the last built.
	InputDelay int
	// Replay makes the client record its game (Client.Replay).
	Replay ReplayConfig
}

// MaxInputDelay bounds ClientConfig.InputDelay.
const MaxInputDelay = 8

func (c *ClientConfig) fill() {
	if c.PredictTics <= 0 {
		c.PredictTics = DefaultPredictTics
	}
	c.PredictTics = min(c.PredictTics, MaxPredictTics)
	c.InputDelay = max(0, min(c.InputDelay, MaxInputDelay))
	if c.Name == "" {
		c.Name = "Player"
	}
	fillCommon(&c.Version, &c.Protocols, &c.Timeouts)
	fillInput(&c.Input, &c.Protocols)
	if c.Settings.TicDup == 0 {
		c.Settings.TicDup = 1
	}
	c.Replay.fill()
	if c.CatchUpTics <= 0 {
		c.CatchUpTics = DefaultCatchUpTics
	}
	if c.Connect.MaxPlayers == 0 {
		c.Connect.MaxPlayers = MaxPlayers
	}
	if c.Connect.GameMode == 0 && c.Connect.GameMission == 0 {
		c.Connect.GameMode = wire.ModeCommercial
		c.Connect.GameMission = wire.MissionDoom2
	}
}

// ClientState is where a client is in its life.
type ClientState uint8

const (
	ClientConnecting ClientState = iota
	ClientWaitingLaunch
	ClientWaitingStart
	ClientInGame
	ClientDisconnected
)

var clientStateNames = [...]string{"connecting", "waiting-launch", "waiting-start", "in-game", "disconnected"}

func (s ClientState) String() string { return clientStateNames[s] }

// Client is a player's (or drone's) end of a game: it connects to a server,
// sends its commands, receives complete tics and runs them on its Game.
type Client struct {
	cfg    ClientConfig
	tr     Transport
	server Addr
	game   Game
	conn   conn
	state  ClientState
	events []Event
	stats  Counters
	// starting: this Update emitted EventGameStarted. The game is not
	// called before the next, so that its host has the event (the seed,
	// the options, a joiner's place) before the game's first callback.
	starting bool

	synFirstMS, synLastMS int64
	protocol              string
	clock                 clock // the protocol of the game (chooseClock)
	lobby                 Lobby
	settings              wire.Settings
	setup                 wire.GameSetup // the extension's part of the game's start
	player                int            // consoleplayer; -1 for a drone

	send sendSide
	recv recvSide
	loop loopSide
	pred predictSide
	rec  recorder // the replay (replay_record.go)
	sync clockSync
	join joinSide
	mig  migrateSide
	end  endState

	xfer       *transfer.Endpoint
	xferEvents []transfer.Event

	pkt   []byte // scratch for outgoing packets
	inSGD wire.ServerGameData
	inSet wire.TicSet
	outGD wire.ClientGameData

	report wire.ChecksumReport
	nowMS  int64 // the time of the Update in progress
}

// NewClient returns a client of the server at server, talking through tr.
// It sends its first SYN on the first Update.
func NewClient(cfg ClientConfig, tr Transport, server Addr, game Game, now int64) *Client {
	cfg.fill()
	c := &Client{cfg: cfg, tr: tr, server: server, game: game, player: -1, clock: referenceClock{}}
	c.conn = newConn(server, tr, cfg.Timeouts, now, connConnecting, &c.stats)
	c.xfer = transfer.New(cfg.Transfer, tr)
	c.xfer.AcceptFrom(server)
	c.synFirstMS = now
	c.synLastMS = now - SYNResendMS - 1
	return c
}

// State returns the client's state.
func (c *Client) State() ClientState { return c.state }

// Lobby returns the lobby as last reported by the server.
func (c *Client) Lobby() Lobby { return c.lobby }

// Settings returns the settings of the game, once started.
func (c *Client) Settings() wire.Settings { return c.settings }

// Player returns this client's player number (-1 for a drone or before the
// game starts).
func (c *Client) Player() int { return c.player }

// Protocol returns the protocol agreed with the server.
func (c *Client) Protocol() string { return c.protocol }

// Extended reports whether the game runs ticnet's extension protocol.
func (c *Client) Extended() bool {
	_, ext := c.clock.(ticnetClock)
	return ext
}

// GameTic is the number of tics run so far.
func (c *Client) GameTic() uint32 { return c.loop.tl.GameTic() }

// Timeline is the game's confirmed history as this client holds it.
func (c *Client) Timeline() *Timeline { return &c.loop.tl }

// RecvTic is the number of complete tics received so far.
func (c *Client) RecvTic() uint32 { return c.recv.recvtic }

// MakeTic is the number of local commands built so far.
func (c *Client) MakeTic() uint32 { return c.send.maketic }

// LatencyMS is the last measured round trip from building a command to
// receiving its tic back.
func (c *Client) LatencyMS() int { return int(c.sync.lastLatency) }

// Counters returns what the client has counted.
func (c *Client) Counters() Counters { return c.stats }

// Launch asks the server to launch the game. Only the controller may; the
// server ignores anyone else.
func (c *Client) Launch() { c.LaunchWith(0, nil) }

// LaunchWith is Launch with a seed and options (at most
// wire.MaxLaunchOptions bytes, longer ones cut) that every copy receives
// in its Setup, under the extension protocol; a reference server gets a
// plain LAUNCH, and so does any server when both are zero.
func (c *Client) LaunchWith(seed uint32, options []byte) {
	if c.state != ClientWaitingLaunch {
		return
	}
	if c.protocol == wire.ProtocolTicnet && (seed != 0 || len(options) > 0) {
		c.conn.sendReliable(&wire.LaunchOptions{Seed: seed, Options: options[:min(len(options), wire.MaxLaunchOptions)]})
	}
	c.conn.sendReliable(wire.LaunchRequest)
}

// Setup is the game's setup under the extension protocol, once it starts:
// its input layout, tic rate, and the seed and options its controller
// launched it with.
func (c *Client) Setup() wire.GameSetup { return c.setup }

// TicRate is the game's tics per second: its setup's under the extension
// protocol, the reference's (TicRate) otherwise.
func (c *Client) TicRate() int {
	return c.clock.ticRate()
}

// Leave starts a clean disconnect. The client keeps answering until the
// handshake ends, so keep calling Update.
func (c *Client) Leave(now int64) {
	if c.state != ClientDisconnected {
		c.conn.disconnect(now, ReasonLeft)
	}
}

// Update receives what has arrived, does what is due at now, runs the tics
// that are ready, and returns what happened. The slice is valid until the
// next Update. An Update that returns EventGameStarted calls no method of
// the game: the caller sets its game up from the event first.
func (c *Client) Update(now int64) []Event {
	c.events = c.events[:0]
	c.starting = false
	c.nowMS = now
	for {
		from, pkt, ok := c.tr.Recv()
		if !ok {
			break
		}
		c.receive(now, from, pkt)
	}
	c.run(now)
	// Streams last: their chunks queue behind the pass's commands.
	c.xferEvents = c.xfer.Pump(now, c.xferEvents[:0])
	for _, ev := range c.xferEvents {
		c.onTransfer(ev)
	}
	c.joinProgress(now)
	return c.events
}

// Transfers is this client's bulk streams (late join).
func (c *Client) Transfers() *transfer.Endpoint { return c.xfer }

// Joining reports whether this client is joining a game in progress and
// is not in it yet.
func (c *Client) Joining() bool { return c.join.active }

func (c *Client) emit(e Event) {
	c.events = append(c.events, e)
	c.starting = c.starting || e.Kind == EventGameStarted
}

func (c *Client) receive(now int64, from Addr, pkt []byte) {
	if from != c.server {
		c.stats.Unexpected++
		return
	}
	h, body, err := wire.ParseHeader(pkt)
	if err != nil {
		c.stats.Malformed++
		return
	}
	c.stats.PacketsReceived++
	c.stats.BytesReceived += int64(len(pkt))
	if c.state == ClientDisconnected {
		c.lateLeaving(h, body)
		return
	}
	// REJECTED is handled before the connection logic: it comes from a
	// server that has no connection with us.
	if h.Type == wire.TypeRejected {
		var m wire.Rejected
		if m.DecodeBody(body) != nil {
			c.stats.Malformed++
			return
		}
		if c.state == ClientConnecting {
			c.finish(EventRejected, wire.Printable(m.Message))
		}
		return
	}
	kind, resuming := c.resumingKind(h, body)
	if c.conn.state == connConnecting && resuming && tookBack(kind) {
		c.reattached(now) // though the server's reply to its SYN is late
	}
	if c.conn.state == connConnecting && c.mig.resuming && h.Type == wire.TypeDisconnect {
		// A new server that refuses a reattaching copy sends it away in
		// the pass that took its SYN, before its reply to the SYN went
		// out: the DISCONNECT is the refusal (acknowledged, as any).
		c.conn.handle(now, h, body)
		c.finish(EventDisconnected, ReasonReattachRefused)
		return
	}
	if c.conn.state == connConnecting && h.Type != wire.TypeSYN {
		if c.earlyChunk(now, h, body) {
			return
		}
		if resuming && kind == wire.TicnetKindTicSet {
			c.holdTicSet(body) // kept until its Resume
			return
		}
		c.stats.Unexpected++
		return
	}
	if !c.conn.handle(now, h, body) {
		return
	}
	var err2 error
	switch h.Type {
	case wire.TypeSYN:
		err2 = c.onSYNReply(h, body)
	case wire.TypeWaitingData:
		err2 = c.onWaitingData(body)
	case wire.TypeLaunch:
		err2 = c.onLaunch(body)
	case wire.TypeGameStart:
		err2 = c.onGameStart(now, body)
	case wire.TypeGameData:
		err2 = c.clock.gameData(c, now, body)
	case wire.TypeTicnet:
		err2 = c.onTicnet(now, h, body)
	case wire.TypeGameDataResend:
		err2 = c.onResendRequest(now, body)
	case wire.TypeConsoleMessage:
		var m wire.ConsoleMessage
		if err2 = m.DecodeBody(body); err2 == nil {
			c.emit(Event{Kind: EventConsoleMessage, Player: -1, Reason: wire.Printable(m.Text)})
		}
	default:
		c.stats.Unexpected++
	}
	if err2 != nil {
		if _, ok := err2.(*wire.DecodeError); ok {
			c.stats.Malformed++
		} else {
			c.stats.Unexpected++
		}
	}
}

// errUnexpected marks a well-formed packet that is not acceptable now.
type errUnexpected struct{}

func (errUnexpected) Error() string { return "unexpected packet" }

func (c *Client) onSYNReply(h wire.Header, body []byte) error {
	reattaching := c.mig.resuming && c.conn.state == connConnecting
	late := c.mig.reattached && c.state == ClientInGame && c.conn.state == connConnected
	if (c.state != ClientConnecting && !reattaching && !late) || !h.Reliable {
		return errUnexpected{}
	}
	var m wire.SYNReply
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if late {
		return nil // the server's word that it took this client back came first
	}
	if reattaching {
		if m.Protocol != wire.ProtocolTicnet {
			c.finish(EventDisconnected, ReasonReattachRefused)
			return nil
		}
		c.reattached(c.nowMS)
		return nil
	}
	if !wire.Known(m.Protocol, c.cfg.Protocols) {
		c.finish(EventDisconnected, ReasonUnknownProto)
		return nil
	}
	c.protocol = m.Protocol
	if m.Protocol == wire.ProtocolTicnet {
		c.conn.resendMS = ExtReliableResendMS // as the server does with us
		c.conn.sendReliable(&wire.Hello{Token: c.cfg.Token})
	}
	c.conn.state = connConnected
	c.state = ClientWaitingLaunch
	c.emit(Event{Kind: EventConnected, Player: -1, Protocol: m.Protocol, Addr: c.server})
	return nil
}

func (c *Client) onWaitingData(body []byte) error {
	if c.state != ClientWaitingLaunch && c.state != ClientWaitingStart {
		return errUnexpected{}
	}
	var m wire.WaitingData
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	// The reference's sanity checks.
	switch {
	case m.NumPlayers > m.MaxPlayers, m.ReadyPlayers > m.NumPlayers, m.MaxPlayers > MaxPlayers,
		c.cfg.Drone && m.ConsolePlayer >= 0, !c.cfg.Drone && m.ConsolePlayer < 0,
		int(m.ConsolePlayer) >= int(m.NumPlayers):
		return errUnexpected{}
	}
	l := Lobby{NumDrones: int(m.NumDrones), ReadyPlayers: int(m.ReadyPlayers), MaxPlayers: int(m.MaxPlayers),
		IsController: m.IsController, Player: int(m.ConsolePlayer)}
	for _, p := range m.Players {
		if len(p.Name) >= wire.MaxPlayerName || len(p.Addr) >= wire.MaxPlayerName {
			return errUnexpected{}
		}
		l.Players = append(l.Players, LobbyPlayer{Name: wire.Printable(p.Name), Addr: wire.Printable(p.Addr)})
	}
	if !l.equal(&c.lobby) {
		c.lobby = l
		c.emit(Event{Kind: EventLobbyChanged, Player: l.Player})
	}
	return nil
}

func (c *Client) onLaunch(body []byte) error {
	if c.state != ClientWaitingLaunch {
		return errUnexpected{}
	}
	var m wire.Launch
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	c.state = ClientWaitingStart
	s := c.cfg.Settings
	s.NumPlayers, s.ConsolePlayer = 1, 0
	s.PlayerClasses = [MaxPlayers]uint8{c.cfg.Connect.PlayerClass}
	c.conn.sendReliable(&wire.GameStart{Settings: s})
	c.emit(Event{Kind: EventLaunched, Player: -1})
	return nil
}

func (c *Client) onGameStart(now int64, body []byte) error {
	if c.state != ClientWaitingStart {
		return errUnexpected{}
	}
	var m wire.GameStart
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	s := m.Settings
	if s.NumPlayers > MaxPlayers || int(s.ConsolePlayer) >= int(s.NumPlayers) ||
		c.cfg.Drone != (s.ConsolePlayer < 0) || s.TicDup == 0 {
		return errUnexpected{}
	}
	c.settings = s
	c.player = int(s.ConsolePlayer)
	c.state = ClientInGame
	if reason := c.clock.refuses(&c.cfg.Input); reason != "" {
		c.conn.disconnect(now, reason)
		c.finish(EventDisconnected, reason)
		return nil
	}
	c.inSGD.LowResTurn = s.LowResTurn
	c.inSet.LowResTurn = s.LowResTurn
	c.outGD.LowResTurn = s.LowResTurn
	c.clock.encodes(&c.outGD)
	c.inSet.InputSize, c.outGD.InputSize = c.cfg.Input.Size, c.cfg.Input.Size
	c.startGame(now)
	c.emit(Event{Kind: EventGameStarted, Player: c.player, Protocol: c.protocol})
	return nil
}

func (c *Client) onTicnet(now int64, h wire.Header, body []byte) error {
	kind, err := wire.TicnetKind(body)
	if err != nil {
		return err
	}
	switch {
	case kind == wire.TicnetKindMode && h.Reliable:
		var m wire.ModeNotice
		if err := m.DecodeBody(body); err != nil {
			return err
		}
		if c.state != ClientWaitingStart || c.protocol != wire.ProtocolTicnet {
			return errUnexpected{}
		}
		c.clock = chooseClock(m.Extended, m.Setup)
		c.setup = m.Setup
		if m.Setup.Input != c.cfg.Input {
			c.conn.disconnect(now, ReasonInputLayout)
			c.finish(EventDisconnected, ReasonInputLayout)
		}
		return nil
	case kind == wire.TicnetKindTicSet && c.state == ClientWaitingLaunch && c.protocol == wire.ProtocolTicnet:
		c.holdTicSet(body) // a game runs: this copy joins it, and its JoinStart is on the way
		return nil
	case wire.IsTransferKind(kind):
		if ev, ok := c.xfer.Handle(now, c.server, body); ok {
			c.onTransfer(ev)
		}
		return nil
	case kind == wire.TicnetKindJoinStart && h.Reliable:
		return c.onJoinStart(now, body)
	case kind == wire.TicnetKindEndAsked && h.Reliable:
		return c.onEndAsked(body)
	case kind == wire.TicnetKindResume:
		return c.onResume(now, body)
	}
	return c.clock.inGame(c, now, kind, h, body)
}

// finish ends the client with an event.
func (c *Client) finish(kind EventKind, reason string) {
	if c.state == ClientDisconnected {
		return
	}
	c.state = ClientDisconnected
	c.conn.state = connDisconnected
	c.emit(Event{Kind: kind, Player: -1, Reason: reason})
}

func (c *Client) run(now int64) {
	if c.state == ClientDisconnected {
		return
	}
	if c.conn.state == connConnecting && (c.state == ClientConnecting || c.mig.resuming) {
		if now-c.synFirstMS > c.cfg.Timeouts.SYNGiveUpMS {
			c.finish(EventDisconnected, ReasonNoResponse)
			return
		}
		if now-c.synLastMS >= c.synResendMS() {
			c.sendSYN(now)
			if c.mig.resuming {
				c.conn.sendReliableHeadNow(now) // its Reattach
				c.pushNewest(now)
				c.sendBuilt(now, c.recv.start, PushTics)
			}
		}
		if c.mig.resuming {
			c.runGame(now) // the tics it holds, while it reattaches
		}
		return
	}
	c.conn.run(now)
	switch c.conn.state {
	case connDisconnected, connDisconnectedSleep:
		reason := c.conn.reason
		if reason == ReasonLeft && c.conn.disconnectTries == 0 {
			reason = ReasonServerLeft // the server sent DISCONNECT
			switch {
			case c.mig.resuming:
				// A new server that sends a reattaching copy away
				// refuses it (a leaving one says Leaving first).
				reason = ReasonReattachRefused
			case c.protocol == wire.ProtocolTicnet && c.state == ClientWaitingLaunch && c.lobby.MaxPlayers == 0:
				// Sent away after its Hello, before any lobby: only
				// a server taking a game over does that, and it
				// takes joiners once it has resumed.
				reason = ReasonResuming
			}
		}
		c.finish(EventDisconnected, reason)
		return
	case connDisconnecting:
		return
	}
	if c.state == ClientInGame {
		c.runGame(now)
	}
}

// synResendMS is how often a client asks again to connect: as the
// reference does, or, when it offers the extension protocol (a copy in a
// browser, perhaps joining a game in progress under loss), as often as
// that protocol resends reliable packets. A real server ignores the
// repeats.
func (c *Client) synResendMS() int64 {
	if c.mig.resuming {
		return ReattachResendMS
	}
	if wire.Known(wire.ProtocolTicnet, c.cfg.Protocols) {
		return ExtReliableResendMS
	}
	return SYNResendMS
}

func (c *Client) sendSYN(now int64) {
	m := wire.SYN{Magic: wire.Magic, Version: c.cfg.Version, Protocols: c.cfg.Protocols,
		Connect: c.cfg.Connect, PlayerName: c.cfg.Name}
	m.Connect.Drone = c.cfg.Drone
	c.pkt = wire.Encode(c.pkt[:0], &m, false, 0)
	c.conn.send(now, c.pkt)
	c.synLastMS = now
}

// ExtOffsetMS is how far the extension protocol's clock sync has moved this
// client's clock.
func (c *Client) ExtOffsetMS() int64 { return c.sync.extOffsetMS }
