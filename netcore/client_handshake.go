package netcore

import (
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// handshake is a client's way into a game: its SYN until the server
// answers, the lobby, the launch and the game's start.
type handshake struct {
	c               *Client
	firstMS, lastMS int64 // the first SYN, the last
	// connections: how many the client made (a reattach makes another);
	// names: scratch for the SYN's protocols.
	connections int
	names       []string
	// unsure: frames the client cannot check yet, kept until it can
	// (ident.go); serverKey: the key of its server's reply.
	unsure    [][]byte
	serverKey wire.PublicKey
	// pub is the client's public key, as its SYN offers it; local: the
	// client reaches its server through a Loopback, in its own process,
	// which nothing on the channel reaches: it offers no key, and its
	// connection is not authenticated.
	pub   wire.PublicKey
	local bool
}

func (hs *handshake) onSYNReply(h wire.Header, body []byte) error {
	c := hs.c
	reattaching := c.phase.reattaching() && c.conn.State() == reliable.Connecting
	late := c.mig.reattached && c.phase.state() == ClientInGame && c.conn.Connected()
	if (c.phase.state() != ClientConnecting && !reattaching && !late) || !h.Reliable {
		return errUnexpected{}
	}
	var m wire.SYNReply
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if late {
		return nil // the server's word that it took this client back came first
	}
	proto := m.Protocol
	if _, _, ok := wire.ParseReply(m.Protocol); ok {
		proto = wire.ProtocolTicnet // of this connection: admit saw to it
	} else if proto == wire.ProtocolTicnet {
		proto = "" // an extension server that names no connection: of an older ticnet
	}
	if reattaching {
		if proto != wire.ProtocolTicnet {
			c.finish(CauseReattachRefused, ReasonReattachRefused)
			return nil
		}
		c.mig.connect(c.nowMS)
		return nil
	}
	if !wire.Known(proto, c.cfg.Protocols) {
		c.finish(CauseUnknownProtocol, ReasonUnknownProto)
		return nil
	}
	c.protocol = proto
	if proto == wire.ProtocolTicnet {
		c.conn.SetResendMS(ExtReliableResendMS) // as the server does with us
		c.conn.SendReliable(&wire.Hello{Rejoinable: c.cfg.Token != [wire.RejoinTokenLen]byte{}})
	}
	c.conn.Establish()
	c.phase.move(stepConnected)
	c.emit(Event{Kind: EventConnected, Player: -1, Protocol: proto, Addr: c.server})
	return nil
}

func (hs *handshake) onWaitingData(body []byte) error {
	c := hs.c
	// A copy still running the last tics of a game that ended keeps the
	// lobby the server went back to: the next would come a period later.
	ending := c.phase.state() == ClientInGame && c.end.active
	if c.phase.state() != ClientWaitingLaunch && c.phase.state() != ClientWaitingStart && !ending {
		return errUnexpected{}
	}
	var m wire.WaitingData
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	// The reference's sanity checks.
	switch {
	case m.NumPlayers > m.MaxPlayers, m.ReadyPlayers > m.NumPlayers, m.MaxPlayers > tic.MaxPlayers,
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
		c.emit(Event{Kind: EventLobbyChanged, Player: l.Player, Lobby: &l})
	}
	return nil
}

func (hs *handshake) onLaunch(body []byte) error {
	c := hs.c
	if c.phase.state() != ClientWaitingLaunch {
		return errUnexpected{}
	}
	var m wire.Launch
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	c.phase.move(stepLaunched)
	s := c.cfg.Settings
	s.NumPlayers, s.ConsolePlayer = 1, 0
	s.PlayerClasses = [tic.MaxPlayers]uint8{c.cfg.Connect.PlayerClass}
	c.conn.SendReliable(&wire.GameStart{Settings: s})
	c.emit(Event{Kind: EventLaunched, Player: -1})
	return nil
}

func (hs *handshake) onGameStart(now int64, body []byte) error {
	c := hs.c
	if c.phase.state() != ClientWaitingStart {
		return errUnexpected{}
	}
	var m wire.GameStart
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	s := m.Settings
	if s.NumPlayers > tic.MaxPlayers || int(s.ConsolePlayer) >= int(s.NumPlayers) ||
		c.cfg.Drone != (s.ConsolePlayer < 0) || s.TicDup == 0 {
		return errUnexpected{}
	}
	c.settings = s
	c.player = int(s.ConsolePlayer)
	c.phase.move(stepStarted)
	if reason := c.clock.refuses(&c.cfg.Input); reason != "" {
		c.conn.Disconnect(now, reason)
		c.finish(CauseIncompatible, reason)
		return nil
	}
	c.inSGD.LowResTurn = s.LowResTurn
	c.inSet.LowResTurn = s.LowResTurn
	c.outGD.LowResTurn = s.LowResTurn
	c.clock.encodes(&c.outGD)
	c.inSet.InputSize, c.outGD.InputSize = c.cfg.Input.Size, c.cfg.Input.Size
	hs.startGame(now)
	c.clock.tellDelay(c, true)
	c.emit(Event{Kind: EventGameStarted, Player: c.player, Protocol: c.protocol,
		Start: &Start{Setup: c.setup, TicRate: c.clock.ticRate()}})
	return nil
}

// synResendMS is how often a client asks again to connect: as the
// reference does, or, when it offers the extension protocol (a copy in a
// browser, perhaps joining a game in progress under loss), as often as
// that protocol resends reliable packets. A real server ignores the
// repeats.
func (hs *handshake) synResendMS() int64 {
	c := hs.c
	if c.phase.reattaching() {
		return ReattachResendMS
	}
	if hs.offersTicnet() {
		return ExtReliableResendMS
	}
	return SYNResendMS
}

func (hs *handshake) sendSYN(now int64) {
	c := hs.c
	m := wire.SYN{Magic: wire.Magic, Version: c.cfg.Version, Protocols: hs.offers(),
		Connect: c.cfg.Connect, PlayerName: c.cfg.Name}
	m.Connect.Drone = c.cfg.Drone
	c.pkt = wire.Encode(c.pkt[:0], &m, false, 0)
	c.conn.SendBare(now, c.pkt)
	hs.lastMS = now
}

// offers is the protocol list of the client's SYN: its protocols, the
// extension's with the identity of the connection and the copy's key
// (wire.OfferName; a host's own client offers none).
func (hs *handshake) offers() []string {
	c := hs.c
	hs.names = hs.names[:0]
	key := &hs.pub
	if hs.local {
		key = nil
	}
	for _, p := range c.cfg.Protocols {
		if p == wire.ProtocolTicnet {
			p = wire.OfferName(c.conn.Ident().Conn, key)
		}
		hs.names = append(hs.names, p)
	}
	return hs.names
}

func (hs *handshake) startGame(now int64) {
	c := hs.c
	c.send = sendSide{c: c, delay: c.cfg.InputDelay, want: c.cfg.InputDelay}
	c.mig = migrateSide{c: c, played: true}
	c.report.Sums = c.report.Sums[:0]
	c.recv = recvSide{c: c, lastGameDataMS: now}
	c.loop.reset()
	c.loop.pred = predictSide{}
	c.rec.Reset()
	c.send.firstMS = now + c.clock.startDelayMS()
	c.send.lastClock = c.send.clockTic(now) - 1 // build tic 0 on the first pass
}

// replayHeader describes the game that started, for a replay of it.
func (hs *handshake) replayHeader() wire.ReplayHeader {
	c := hs.c
	h := wire.ReplayHeader{Protocol: c.protocol, Settings: c.settings, Setup: c.setup}
	for _, p := range c.lobby.Players {
		h.Names = append(h.Names, p.Name)
	}
	return h
}
