package netcore

import (
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// DefaultVersion is the version string a ticnet client and server send.
// Peers use it only in messages and to pick the numbering of the
// gameversion byte, so ticnet says what the Debian build says, whose
// numbering it uses.
const DefaultVersion = "Chocolate Doom 3.0.0"

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
// It is its components (the handshake, the send and receive sides, the
// runner, the replay, join, migration and the end of a game, each a type
// with the methods that change its state) with Update and the dispatch
// of what arrives; the protocol's part is its clock. A component reaches
// what the client shares (the connection, the configuration, the game's
// settings, the events) through its c.
type Client struct {
	cfg    ClientConfig
	tr     link.Transport
	server link.Addr
	game   tic.Game
	conn   reliable.Conn
	phase  phase // where it is in its life (client_phase.go)
	events []Event
	// reattachable is what the last EventReattachable said (a game's end
	// clears migrateSide, not what the code above was told).
	reattachable bool
	stats        Counters
	// starting: this Update emitted EventGameStarted. The game is not
	// called before the next, so that its host has the event (the seed,
	// the options, a joiner's place) before the game's first callback.
	starting bool

	protocol string
	clock    clock // the protocol of the game (chooseClock)
	lobby    Lobby
	settings wire.Settings
	setup    wire.GameSetup // the extension's part of the game's start
	player   int            // consoleplayer; -1 for a drone

	hs   handshake // connecting, the lobby, the game's start
	send sendSide
	recv recvSide
	loop runner          // the one caller of the game (runner.go)
	rec  replay.Recorder // the replay (replay.go)
	sync clockSync
	join joinSide
	mig  migrateSide
	end  clientEnd
	// peers: every player's network, as the server reports it
	peers  peerBook
	repair repairSide // a desync's repair (client_repair.go)
	// forensic keeps the states a desync's forensics compare
	// (forensics.go).
	forensic forensics
	feeds    feedSide    // the watchers this copy streams its state to (client_feed.go)
	src      sourceSide  // who sends the tics this copy misses, and whom it sends them (client_source.go)
	watchers watcherBook // the watchers' names (client_watchers.go)
	check    ticCheck    // a watcher's check of the tics it runs (client_check.go)

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
func NewClient(cfg ClientConfig, tr link.Transport, server link.Addr, game tic.Game, now int64) *Client {
	cfg.fill()
	c := &Client{cfg: cfg, tr: tr, server: server, game: game, player: -1, clock: referenceClock{}}
	c.conn = reliable.NewConn(server, tr, cfg.Timeouts.timers(), now, reliable.Connecting, &c.stats.Counters)
	c.conn.Name(wire.Ident{Conn: connID(&c.cfg, now, c.cfg.ConnSeq)})
	c.xfer = transfer.New(cfg.Transfer, clientFramer{c})
	c.xfer.AcceptFrom(server)
	c.hs = handshake{c: c, firstMS: now, lastMS: now - SYNResendMS - 1, pub: wire.PublicKey(c.cfg.Key.PublicKey().Bytes())}
	_, c.hs.local = tr.(*Loopback)
	c.send.c, c.recv.c, c.loop.c, c.join.c, c.mig.c, c.end.c, c.repair.c, c.feeds.c, c.src.c, c.check.c = c, c, c, c, c, c, c, c, c, c
	c.rec = replay.NewRecorder(c.cfg.Replay, c.hs.replayHeader)
	return c
}

// State returns the client's state.
func (c *Client) State() ClientState { return c.phase.state() }

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
func (c *Client) Timeline() *tic.Timeline { return &c.loop.tl }

// RecvTic is the number of complete tics received so far.
func (c *Client) RecvTic() uint32 { return c.recv.recvtic }

// MakeTic is the number of local commands built so far.
func (c *Client) MakeTic() uint32 { return c.send.maketic }

// InputDelay is how many tics before its tic the client builds its
// commands now: its ClientConfig's, or the server's choice (AutoDelay).
func (c *Client) InputDelay() int { return c.send.delay }

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
	if c.phase.state() != ClientWaitingLaunch {
		return
	}
	if c.protocol == wire.ProtocolTicnet && (seed != 0 || len(options) > 0) {
		c.conn.SendReliable(&wire.LaunchOptions{Seed: seed, Options: options[:min(len(options), wire.MaxLaunchOptions)]})
	}
	c.conn.SendReliable(wire.LaunchRequest)
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
	if c.phase.state() != ClientDisconnected {
		c.conn.Disconnect(now, ReasonLeft)
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
		c.hs.flushUnsure(now)
	}
	c.run(now)
	// Streams last: their chunks queue behind the pass's commands.
	c.xferEvents = c.xfer.Pump(now, c.xferEvents[:0])
	for _, ev := range c.xferEvents {
		if !c.feeds.onTransfer(ev) {
			c.join.onTransfer(ev)
		}
	}
	c.join.joinProgress(now)
	c.mig.tellReattachable()
	return c.events
}

// Transfers is this client's bulk streams (late join).
func (c *Client) Transfers() *transfer.Endpoint { return c.xfer }

// Joining reports whether this client is joining a game in progress and
// is not in it yet.
func (c *Client) Joining() bool { return c.phase.joining() }

func (c *Client) emit(e Event) {
	c.events = append(c.events, e)
	c.starting = c.starting || e.Kind == EventGameStarted
	if e.Kind == EventGameStarted {
		c.peers = peerBook{out: c.peers.out[:0]} // a game counts its own
		c.repair = repairSide{c: c}
		c.feeds.feeds = c.feeds.feeds[:0]
		c.src.reset()
		c.watchers = watcherBook{}
		c.forensic.reset(c.cfg.keptStates())
	}
}

func (c *Client) receive(now int64, from link.Addr, pkt []byte) {
	if from != c.server {
		if !c.src.take(now, from, pkt) && !c.feeds.take(now, from, pkt) && !c.join.takeFeed(now, from, pkt) {
			c.stats.Unexpected++
		}
		return
	}
	h, body, err := wire.ParseHeader(pkt)
	if err != nil {
		c.stats.Malformed++
		return
	}
	var ok bool
	c.stats.PacketsReceived++
	c.stats.BytesReceived += int64(len(pkt))
	// REJECTED is handled before the connection logic: it comes from a
	// server that has no connection with us.
	if h.Type == wire.TypeRejected {
		var m wire.Rejected
		if m.DecodeBody(body) != nil {
			c.stats.Malformed++
			return
		}
		if c.phase.state() == ClientConnecting {
			c.finish(CauseRejected, wire.Printable(m.Message))
		}
		return
	}
	if pkt, ok = c.hs.admit(now, pkt); !ok {
		return
	}
	h, body, _ = wire.ParseHeader(pkt) // its tag cleared
	if c.phase.state() == ClientDisconnected {
		c.mig.lateLeaving(h, body)
		return
	}
	kind, resuming := c.mig.resumingKind(h, body)
	if c.conn.State() == reliable.Connecting && resuming && tookBack(kind) {
		c.mig.connect(now) // though the server's reply to its SYN is late
	}
	if c.conn.State() == reliable.Connecting && c.phase.reattaching() && h.Type == wire.TypeDisconnect {
		// A new server that refuses a reattaching copy sends it away in
		// the pass that took its SYN, before its reply to the SYN went
		// out: the DISCONNECT is the refusal (acknowledged, as any).
		c.conn.Handle(now, h, body)
		c.finish(CauseReattachRefused, ReasonReattachRefused)
		return
	}
	if c.conn.State() == reliable.Connecting && h.Type != wire.TypeSYN {
		if c.join.earlyChunk(now, h, body) {
			return
		}
		if resuming && kind == wire.TicnetKindTicSet {
			c.join.holdTicSet(body) // kept until its Resume
			return
		}
		c.stats.Unexpected++
		return
	}
	if !c.conn.Handle(now, h, body) {
		return
	}
	var err2 error
	switch h.Type {
	case wire.TypeSYN:
		err2 = c.hs.onSYNReply(h, body)
	case wire.TypeWaitingData:
		err2 = c.hs.onWaitingData(body)
	case wire.TypeLaunch:
		err2 = c.hs.onLaunch(body)
	case wire.TypeGameStart:
		err2 = c.hs.onGameStart(now, body)
	case wire.TypeGameData:
		err2 = c.clock.gameData(c, now, body)
	case wire.TypeTicnet:
		err2 = c.onTicnet(now, h, body)
	case wire.TypeGameDataResend:
		err2 = c.send.onResendRequest(now, body)
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
		if c.phase.state() != ClientWaitingStart || c.protocol != wire.ProtocolTicnet {
			return errUnexpected{}
		}
		c.clock = chooseClock(m.Extended, m.Setup)
		c.setup = m.Setup
		c.conn.SyncBroadcasts(uint64(m.Cast), now)
		if m.Setup.Input != c.cfg.Input {
			c.conn.Disconnect(now, ReasonInputLayout)
			c.finish(CauseIncompatible, ReasonInputLayout)
		}
		return nil
	case kind == wire.TicnetKindTicSet && c.phase.state() == ClientWaitingLaunch && c.protocol == wire.ProtocolTicnet:
		c.join.holdTicSet(body) // a game runs: this copy joins it, and its JoinStart is on the way
		return nil
	case wire.IsTransferKind(kind):
		if ev, ok := c.xfer.Handle(now, c.server, body); ok {
			c.join.onTransfer(ev)
		}
		return nil
	case kind == wire.TicnetKindJoinStart && h.Reliable:
		return c.join.onJoinStart(now, body)
	case kind == wire.TicnetKindStateFeed && h.Reliable:
		return c.feeds.onStateFeed(body)
	case kind == wire.TicnetKindTicSource && h.Reliable:
		return c.src.onTicSource(now, body)
	case kind == wire.TicnetKindEndAsked && h.Reliable:
		return c.end.onEndAsked(body)
	case kind == wire.TicnetKindResume:
		return c.mig.onResume(now, body)
	case kind == wire.TicnetKindSigner && h.Reliable:
		return c.check.onSigner(body)
	case kind == wire.TicnetKindAttest && !h.Reliable:
		return c.check.onAttest(body)
	}
	return c.clock.inGame(c, now, kind, h, body)
}

// finish ends the client with an event: EventRejected for a refusal,
// EventDisconnected otherwise; cause is why, reason says it to people.
func (c *Client) finish(cause Cause, reason string) {
	if c.phase.state() == ClientDisconnected {
		return
	}
	c.phase.move(stepGone)
	c.conn.Drop("")
	c.join.dropHeldFeed()
	kind := EventDisconnected
	if cause == CauseRejected {
		kind = EventRejected
	}
	c.emit(Event{Kind: kind, Player: -1, Reason: reason, Cause: cause})
}

func (c *Client) run(now int64) {
	if c.phase.state() == ClientDisconnected {
		return
	}
	if c.conn.State() == reliable.Connecting && (c.phase.state() == ClientConnecting || c.phase.reattaching()) {
		if now-c.hs.firstMS > c.cfg.Timeouts.SYNGiveUpMS {
			c.finish(CauseNoResponse, ReasonNoResponse)
			return
		}
		if now-c.hs.lastMS >= c.hs.synResendMS() {
			c.hs.sendSYN(now)
			if c.phase.reattaching() {
				c.conn.SendReliableHeadNow(now) // its Reattach
				c.mig.pushNewest(now)
				c.send.sendBuilt(now, c.recv.start, PushTics)
			}
		}
		if c.phase.reattaching() {
			c.loop.runGame(now) // the tics it holds, while it reattaches
		}
		return
	}
	c.conn.Run(now)
	switch c.conn.State() {
	case reliable.Disconnected, reliable.DisconnectedSleep:
		cause, reason := CauseLeft, c.conn.Reason()
		switch {
		case c.conn.PeerLeft(): // the server's DISCONNECT, before this client sent its own
			cause, reason = CauseServerLeft, ReasonServerLeft
			switch {
			case c.phase.reattaching():
				// A new server that sends a reattaching copy away
				// refuses it (a leaving one says Leaving first).
				cause, reason = CauseReattachRefused, ReasonReattachRefused
			case c.protocol == wire.ProtocolTicnet && c.phase.state() == ClientWaitingLaunch && c.lobby.MaxPlayers == 0:
				// Sent away after its Hello, before any lobby: only
				// a server taking a game over does that, and it
				// takes joiners once it has resumed.
				cause, reason = CauseResuming, ReasonResuming
			}
		case c.conn.TimedOut():
			cause = CauseTimeout
		}
		c.finish(cause, reason)
		return
	case reliable.Disconnecting:
		return
	}
	if c.phase.state() == ClientInGame {
		c.loop.runGame(now)
	}
}
