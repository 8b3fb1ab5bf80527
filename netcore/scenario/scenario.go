// Package scenario runs whole games of the reference test game over the
// simulated channel, under virtual time: a host (server plus its own client,
// UID 1) and remote clients, each on its own node. Tests and benchmarks
// describe a scenario, run it, and check what every peer saw.
package scenario

import (
	"crypto/ecdh"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/ticnet/ticnet/internal/fingerprint"
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// ServerUID is the host's UID on the channel, as VectorDoom has it.
const ServerUID link.Addr = 1

// Options describe a scenario. Zero values mean defaults.
type Options struct {
	Players  int    // players, the host's own included; default 2
	Seed     uint64 // everything random derives from it
	Link     simnet.Link
	Timeouts netcore.Timeouts // default BrowserTimeouts
	StepMS   int64            // how often every peer is updated; default 5
	// Protocols offered by each remote client (index i is peer i+1); nil
	// means the default (ticnet first).
	Protocols map[int][]string
	// Server overrides the server's configuration (Timeouts is set from
	// Timeouts when zero).
	Server netcore.ServerConfig
	// Strict makes every client offer only the reference protocol.
	Strict bool
	// Drones adds drones after the players.
	Drones int
	// Quiet games record no checksums, commands or tic records (for
	// benchmarks); they cannot be checked.
	Quiet bool
	// StateBytes is the size of each game's world (testgame.NewSized):
	// what a snapshot carries. Default testgame.DefaultWorldBytes.
	StateBytes int
	// Tokens gives every copy a rejoin token (Peer.Token).
	Tokens bool
	// Dedicated runs the server alone on its node, as ticnet-server does:
	// every player is a remote client, Peers[0] included.
	Dedicated bool
	// Predict makes every client predict (ClientConfig.Predict), with a
	// window of PredictTics (0: the default).
	Predict     bool
	PredictTics int
	// InputDelay is every client's input delay in tics
	// (ClientConfig.InputDelay).
	InputDelay int
	// WrapGame, if set, wraps every peer's game as its client sees it
	// (benchmarks time the game's callbacks with it).
	WrapGame func(*testgame.Game) tic.Game
	// Input is the game's input layout, every copy's and the server's
	// (Server.Input is set from it): opaque input makes every test game
	// build opaque commands with that layout.
	Input tic.InputLayout
	// Launch is what the controller launches the game with: a seed and
	// options (netcore.Client.LaunchWith).
	Launch wire.LaunchOptions
	// UplinkBytesPerSec is every node's uplink (simnet.SetDefaultBandwidth):
	// default DefaultUplinkBytesPerSec; negative for no limit.
	UplinkBytesPerSec int64
	// Replay makes every client record its game (ClientConfig.Replay).
	Replay replay.Config
	// KeepStates makes every client keep its states for a desync's
	// forensics (ClientConfig.KeepStates).
	KeepStates bool
	// LowResTurn asks for a game whose turning travels in one byte.
	LowResTurn bool
	// Fingerprint, if set, sees every frame sent, on the channel and
	// between the server and its host's client; Scenario.Fingerprint adds
	// the events and the tics.
	Fingerprint *fingerprint.Print
}

// DefaultUplinkBytesPerSec is a scenario's uplink: about what webxdc-dev's
// realtime channel carried on this project's machines.
const DefaultUplinkBytesPerSec = 1_000_000

// Peer is one copy of the game.
type Peer struct {
	Index  int
	UID    link.Addr
	Node   *simnet.Node // nil for the host's own client, which is on the host's node
	Client *netcore.Client
	Game   *testgame.Game
	Events []netcore.Event
	// LoadedAt is when the game loaded each state it loaded (ms).
	LoadedAt []int64
	// ClockRate scales the time this peer's client sees (1.02: its clock
	// runs 2 % fast).
	ClockRate float64
	// Paused peers are not updated: their process is stopped.
	Paused bool
	// Token is the copy's rejoin token (Options.Tokens, JoinWith).
	Token [wire.RejoinTokenLen]byte
	// Key is the copy's key pair: from its token, or from the seed and
	// its index (reproducible); the host's is the server's.
	Key   *ecdh.PrivateKey
	Frame *simnet.FrameTransport // nil for the host's own client
	// Until, if not 0, is the first tic of this copy's game that the
	// checks do not count: a copy that stopped while a new server took
	// its game over may hold tics the new server decided afresh.
	Until uint32
	// delay is the client's input delay, as its events told it.
	delay int
}

// Scenario is a running game.
type Scenario struct {
	Net          *simnet.Network
	Server       *netcore.Server
	HostNode     *simnet.Node
	Peers        []*Peer // Peers[0] is the host's own client, unless Dedicated
	ServerEvents []netcore.Event
	// Log is every event with its time; Peer is -1 for the server's.
	Log    []Logged
	StepMS int64
	// OnStep, if set, runs before every step.
	OnStep func(now int64)

	hostFrame  *simnet.FrameTransport
	serverDown bool
	// calledAtStart notes each Update that called its peer's game and
	// returned EventGameStarted: the host would have run the game
	// before it knew the game's seed, options or place (Check fails).
	calledAtStart []string
	numPlayers    int
	quiet         bool
	opts          Options
	records       []netcore.TicRecord // the server's, by tic
}

// Logged is an event as it happened.
type Logged struct {
	At   int64
	Peer int
	netcore.Event
}

// New builds a scenario: every client has sent its first SYN.
func New(o Options) *Scenario {
	if o.Players == 0 {
		o.Players = 2
	}
	if o.StepMS == 0 {
		o.StepMS = 5
	}
	if o.Timeouts.TimeoutMS == 0 {
		o.Timeouts = netcore.BrowserTimeouts
	}
	if o.Server.Timeouts.TimeoutMS == 0 {
		o.Server.Timeouts = o.Timeouts
	}
	o.Server.BroadcastTics = true
	o.Server.Input = o.Input
	// The server's records say which commands it substituted: what
	// CheckCommands needs to tell a substitute from a wrong command.
	o.Server.RecordTics = !o.Quiet
	n := simnet.New(o.Seed, o.Link)
	switch {
	case o.UplinkBytesPerSec == 0:
		n.SetDefaultBandwidth(DefaultUplinkBytesPerSec)
	case o.UplinkBytesPerSec > 0:
		n.SetDefaultBandwidth(o.UplinkBytesPerSec)
	}
	s := &Scenario{Net: n, StepMS: o.StepMS, numPlayers: o.Players, quiet: o.Quiet}
	s.HostNode = n.AddNode()
	s.hostFrame = simnet.NewFrameTransport(s.HostNode, ServerUID)
	srvEnd, cliEnd := netcore.NewLoopback(ServerUID)
	var srvTr, cliTr link.Transport = &netcore.HostTransport{Channel: s.hostFrame, Local: srvEnd}, cliEnd
	if o.Dedicated {
		srvTr = s.hostFrame
	}
	if fp := o.Fingerprint; fp != nil {
		n.Tap = fp.Frame
		if !o.Dedicated {
			srvTr = &tapped{Transport: srvTr, net: n.Now, node: -1, fp: fp}
			cliTr = &tapped{Transport: cliTr, net: n.Now, node: -2, fp: fp}
		}
	}
	if o.Server.Key == nil {
		o.Server.Key = s.keyFor(o.Seed, 0, [wire.RejoinTokenLen]byte{})
	}
	s.Server = netcore.NewServer(o.Server, srvTr)

	if o.StateBytes == 0 {
		o.StateBytes = testgame.DefaultWorldBytes
	}
	s.opts = o
	// The host's client hands its snapshots to the server in the same
	// process: nothing to pace.
	first := 0
	if !o.Dedicated {
		host := s.newPeer(0, cliTr, false, transfer.Loopback)
		host.UID = netcore.LocalClientAddr
		s.Peers = append(s.Peers, host)
		first = 1
	}
	for i := first; i < o.Players+o.Drones; i++ {
		nd := n.AddNode()
		uid := link.Addr(0x1000 + i)
		ft := simnet.NewFrameTransport(nd, uid)
		p := s.newPeer(i, ft, i >= o.Players, transfer.Config{})
		p.Node, p.UID, p.Frame = nd, uid, ft
		s.Peers = append(s.Peers, p)
	}
	return s
}

// settings are what the host's client asks for as controller.
var settings = wire.Settings{TicDup: 1, ExtraTics: 1, Deathmatch: 1, Episode: 1, Map: 1, Skill: 3,
	GameVersion: 4, NewSync: true, LoadGame: -1}

// newPeer makes peer i's game and client.
func (s *Scenario) newPeer(i int, tr link.Transport, drone bool, xfer transfer.Config) *Peer {
	var token [wire.RejoinTokenLen]byte
	if s.opts.Tokens {
		binary.LittleEndian.PutUint64(token[:], s.opts.Seed)
		binary.LittleEndian.PutUint64(token[8:], uint64(i)+1)
	}
	return s.newPeerWith(i, tr, drone, xfer, token)
}

func (s *Scenario) newPeerWith(i int, tr link.Transport, drone bool, xfer transfer.Config, token [wire.RejoinTokenLen]byte) *Peer {
	o := s.opts
	g := testgame.NewSized(o.Seed*1000+uint64(i), o.StateBytes)
	g.Quiet = o.Quiet
	g.Input = o.Input
	protos := o.Protocols[i]
	if o.Strict {
		protos = []string{wire.ProtocolChocolate}
	}
	st := settings
	st.LowResTurn = o.LowResTurn
	key := s.keyFor(o.Seed, i, token)
	if i == 0 && !o.Dedicated {
		key = o.Server.Key // the host's copy's
	}
	cfg := netcore.ClientConfig{Name: fmt.Sprintf("player%d", i), Drone: drone, Timeouts: o.Timeouts,
		Settings: st, Protocols: protos, Transfer: xfer, Token: token, Key: key, Predict: o.Predict, PredictTics: o.PredictTics, InputDelay: o.InputDelay, Input: o.Input, KeepStates: o.KeepStates,
		Replay: o.Replay}
	var game tic.Game = g
	if o.WrapGame != nil {
		game = o.WrapGame(g)
	}
	return &Peer{Index: i, Game: g, ClockRate: 1, Token: token, Key: key, Client: netcore.NewClient(cfg, tr, ServerUID, game, s.Now())}
}

// keyFor is the key pair of copy i: its token's, as the client derives
// it, or one from the seed and i.
func (s *Scenario) keyFor(seed uint64, i int, token [wire.RejoinTokenLen]byte) *ecdh.PrivateKey {
	if token != ([wire.RejoinTokenLen]byte{}) {
		return auth.KeyFromSecret(token[:])
	}
	return auth.KeyFromSecret(fmt.Appendf(nil, "scenario %d copy %d", seed, i))
}

// Join opens a new copy of the game on its own node now, as a tab opened
// while the game runs; it connects on its next step.
func (s *Scenario) Join() *Peer { return s.JoinWith([wire.RejoinTokenLen]byte{}) }

// JoinWith is Join for a copy that presents a rejoin token: a copy that
// left coming back, say, under a new channel identity.
func (s *Scenario) JoinWith(token [wire.RejoinTokenLen]byte) *Peer { return s.open(token, false) }

// Watch opens a new copy that watches the game (a drone: it builds no
// commands and is no player), on its own node now; it connects on its next
// step.
func (s *Scenario) Watch() *Peer { return s.open([wire.RejoinTokenLen]byte{}, true) }

// open adds a copy on its own node now.
func (s *Scenario) open(token [wire.RejoinTokenLen]byte, drone bool) *Peer {
	i := len(s.Peers)
	nd := s.Net.AddNode()
	uid := link.Addr(0x1000 + i)
	ft := simnet.NewFrameTransport(nd, uid)
	p := s.newPeerWith(i, ft, drone, transfer.Config{}, token)
	p.Node, p.UID, p.Frame = nd, uid, ft
	s.Peers = append(s.Peers, p)
	return p
}

// Now is the virtual time.
func (s *Scenario) Now() int64 { return s.Net.Now() }

// Step advances time by one step and updates every peer.
func (s *Scenario) Step() {
	now := s.Net.Now() + s.StepMS
	if s.OnStep != nil {
		s.OnStep(now)
	}
	s.Net.AdvanceTo(now)
	if !s.serverDown {
		evs := s.Server.Update(now)
		s.keepRecords()
		s.ServerEvents = append(s.ServerEvents, evs...)
		for _, e := range evs {
			s.Log = append(s.Log, Logged{At: now, Peer: -1, Event: e})
		}
	}
	for _, p := range s.Peers {
		if p.Paused || (p.Node == nil && s.serverDown) {
			continue
		}
		t := now
		if p.ClockRate != 1 {
			t = int64(float64(now) * p.ClockRate)
		}
		calls, loads := p.Game.Calls(), p.Game.Loads()
		evs := p.Client.Update(t)
		if p.Game.Loads() != loads {
			p.LoadedAt = append(p.LoadedAt, now)
		}
		if p.Game.Calls() != calls && slices.ContainsFunc(evs, func(e netcore.Event) bool { return e.Kind == netcore.EventGameStarted }) {
			s.calledAtStart = append(s.calledAtStart, fmt.Sprintf("peer %d at %d ms", p.Index, now))
		}
		p.Events = append(p.Events, evs...)
		for _, e := range evs {
			s.Log = append(s.Log, Logged{At: now, Peer: p.Index, Event: e})
			p.followDelay(e, s.opts.InputDelay)
		}
	}
}

// followDelay tells the game the commands its engine built itself when
// its input delay grew (netcore.EventInputDelay), for the checks; start is
// the delay a game starts with.
func (p *Peer) followDelay(e netcore.Event, start int) {
	switch e.Kind {
	case netcore.EventGameStarted:
		p.delay = start
	case netcore.EventInputDelay:
		if k := e.Delay - p.delay; k > 0 {
			p.Game.Repeated(e.Tic-uint32(k), k)
		}
		p.delay = e.Delay
	}
}

// StopHost takes the host away at once, as a closed tab: its server and its
// own client stop running and its node goes silent.
func (s *Scenario) StopHost() {
	s.serverDown = true
	s.HostNode.SetSilent(true)
}

// RunUntil steps until done returns true or maxMS of virtual time pass. It
// reports whether done became true.
func (s *Scenario) RunUntil(done func() bool, maxMS int64) bool {
	end := s.Now() + maxMS
	for s.Now() < end {
		if done() {
			return true
		}
		s.Step()
	}
	return done()
}

// RunFor steps for ms of virtual time.
func (s *Scenario) RunFor(ms int64) {
	end := s.Now() + ms
	for s.Now() < end {
		s.Step()
	}
}

// Start connects everyone, has the controller launch, and runs until
// every client is in the game.
func (s *Scenario) Start() error {
	if !s.RunUntil(func() bool {
		controller := false
		for _, p := range s.Peers {
			if p.Client.State() != netcore.ClientWaitingLaunch {
				return false
			}
			controller = controller || p.Client.Lobby().IsController
		}
		return len(s.Server.Players()) == s.numPlayers && controller
	}, 30000) {
		return fmt.Errorf("not every client reached the lobby: %s", s.describe())
	}
	for _, p := range s.Peers {
		if p.Client.Lobby().IsController {
			p.Client.LaunchWith(s.opts.Launch.Seed, s.opts.Launch.Options)
		}
	}
	if !s.RunUntil(func() bool {
		for _, p := range s.Peers {
			if p.Client.State() != netcore.ClientInGame {
				return false
			}
		}
		return true
	}, 30000) {
		return fmt.Errorf("the game did not start everywhere: %s", s.describe())
	}
	return nil
}

func (s *Scenario) describe() string {
	d := fmt.Sprintf("t=%d server=%v", s.Now(), s.Server.State())
	for _, p := range s.Peers {
		d += fmt.Sprintf(" [%d %v gametic=%d]", p.Index, p.Client.State(), p.Client.GameTic())
	}
	return d
}

// RunTics runs until every running, in-game peer has run n tics, or maxMS
// pass.
func (s *Scenario) RunTics(n uint32, maxMS int64) error {
	if !s.RunUntil(func() bool {
		for _, p := range s.Peers {
			if !p.Paused && p.Client.State() == netcore.ClientInGame && p.Client.GameTic() < n {
				return false
			}
		}
		return true
	}, maxMS) {
		return fmt.Errorf("not every peer reached tic %d: %s", n, s.describe())
	}
	return nil
}

// Count returns how many events of kind the peers and the server saw.
func (s *Scenario) Count(kind netcore.EventKind) int {
	n := 0
	for _, e := range s.ServerEvents {
		if e.Kind == kind {
			n++
		}
	}
	for _, p := range s.Peers {
		for _, e := range p.Events {
			if e.Kind == kind {
				n++
			}
		}
	}
	return n
}

// Find returns the first logged event of kind seen by peer (-1: the server)
// at or after from, and whether there is one.
func (s *Scenario) Find(peer int, kind netcore.EventKind, from int64) (Logged, bool) {
	for _, l := range s.Log {
		if l.Peer == peer && l.Kind == kind && l.At >= from {
			return l, true
		}
	}
	return Logged{}, false
}

// GameTics returns every peer's gametic.
func (s *Scenario) GameTics() []uint32 {
	var g []uint32
	for _, p := range s.Peers {
		g = append(g, p.Client.GameTic())
	}
	return g
}
