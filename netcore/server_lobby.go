package netcore

import (
	"github.com/ticnet/ticnet/internal/text"
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// serverLobby is the server before its game starts: it admits clients as
// the reference does (onSYN), follows the controller's launch, and starts
// the game once every client is ready.
type serverLobby struct {
	s       *Server
	modeSet bool
	mode    uint8 // gamemode adopted from the first player
	mission uint8
	// launchOpts is what the controller said it launches with.
	launchOpts wire.LaunchOptions
}

func (lb *serverLobby) reject(from link.Addr, msg string) {
	s := lb.s
	s.pkt = wire.Encode(s.pkt[:0], &wire.Rejected{Message: msg}, false, 0)
	s.tr.Send(from, s.pkt)
	s.stats.PacketsSent++
	s.stats.BytesSent += int64(len(s.pkt))
	s.stats.Rejected++
	s.emit(Event{Kind: EventRejected, Player: -1, Addr: from, Reason: msg})
}

// onSYN handles a connection request, checking as the reference does and in
// its order (spec §6.2).
func (lb *serverLobby) onSYN(now int64, from link.Addr, body []byte) error {
	s := lb.s
	var m wire.SYN
	err := m.DecodeBody(body)
	if m.Magic == wire.OldMagic {
		lb.reject(from, "You are using an old client version that is not supported by this server. "+
			"This server is running "+s.cfg.Version+".")
		return nil
	}
	if m.Magic != wire.Magic {
		return errUnexpected{}
	}
	if err != nil {
		return err
	}
	offered, conn, key := offeredProtocols(from, m.Protocols)
	proto, ok := wire.ChooseProtocol(offered, s.cfg.Protocols)
	if proto != wire.ProtocolTicnet {
		conn, key = 0, nil
	}
	if !ok {
		lb.reject(from, "Version mismatch: server version is: "+s.cfg.Version+"; client is: "+wire.Printable(m.Version)+". "+
			"No common compatible protocol could be negotiated.")
		return nil
	}
	if !wire.ValidGameMode(m.Connect.GameMission, m.Connect.GameMode) || m.Connect.MaxPlayers > tic.MaxPlayers {
		return errUnexpected{}
	}
	if s.retired.has(from, conn) {
		s.stats.Stale++ // a late copy of a connection that ended
		return nil
	}
	if sc := s.slots.find(from); sc != nil {
		ended := sc.conn.State() == reliable.Disconnected || sc.conn.State() == reliable.Disconnecting
		switch {
		case conn != 0 && conn == sc.conn.Ident().Conn:
			if sc.conn.State() == reliable.Disconnecting {
				// A copy sent away asks again: it missed the DISCONNECT,
				// which goes again now rather than at its next retry.
				sc.conn.SendMessage(now, wire.Disconnect)
			}
			return nil // a duplicate, whatever became of its connection
		case ended:
		case conn == 0:
			return nil // a duplicate: the reliable layer resends our reply
		case !lb.mayReplace(now, sc, key):
			s.stats.Forged++
			return nil
		default:
			lb.replace(now, sc) // the copy gave that connection up
		}
	}
	// (One from a copy this server is sending away, refused say, is that
	// copy trying again: it gets a new slot.)
	if proto == wire.ProtocolTicnet && (s.mig.resume != nil || s.mig.awaitingAny()) {
		// A copy that reattaches, most likely: it says so next (one that
		// says Hello instead joins: onPendingHello).
		if lb.newSlot(now, from, &m, proto, conn, key) == nil {
			return errUnexpected{}
		}
		return nil
	}
	if s.state == ServerInGame && s.relay.admitLate(now, from, &m, proto, conn, key) {
		return nil
	}
	if s.state != ServerWaitingLaunch {
		lb.reject(from, "Server is not currently accepting connections")
		return nil
	}
	players := 0
	for _, sc := range s.slots {
		if sc.connected() && !sc.drone() {
			players++
		}
	}
	if (!m.Connect.Drone && players >= s.slots.maxPlayers(s.cfg.MaxPlayers)) || !s.slots.hasRoom(m.Connect.Drone, proto) {
		lb.reject(from, "Server is full!")
		return nil
	}
	if players == 0 && !m.Connect.Drone {
		lb.modeSet, lb.mode, lb.mission = true, m.Connect.GameMode, m.Connect.GameMission
	}
	if !lb.modeSet || lb.mode != m.Connect.GameMode || lb.mission != m.Connect.GameMission {
		srvMission, srvMode := "none", "unknown"
		if lb.modeSet {
			srvMission, srvMode = missionName(lb.mission), modeName(lb.mode)
		}
		lb.reject(from, "Game mismatch: server is "+srvMission+" ("+srvMode+"), client is "+missionName(m.Connect.GameMission)+" ("+modeName(m.Connect.GameMode)+")")
		return nil
	}
	sc := lb.newSlot(now, from, &m, proto, conn, key)
	if sc == nil {
		return errUnexpected{}
	}
	s.slots.assignPlayers()
	s.emit(Event{Kind: EventPlayerJoined, Player: sc.player, Addr: from, Name: sc.name, Protocol: proto})
	return nil
}

// offeredProtocols reads the protocols a SYN from addr offers: the
// extension's with the identity of the client's connection and its key
// taken off (wire.OfferName), the others as they are. The extension's
// bare name is not an offer of it, nor one without a key from the channel
// (only a host's own client, at LocalClientAddr, offers none): a client
// that offers either is of an older ticnet.
func offeredProtocols(addr link.Addr, names []string) (offered []string, conn uint32, key *wire.PublicKey) {
	offered = make([]string, 0, len(names))
	for _, name := range names {
		proto, c, k := wire.ParseOffer(name)
		switch {
		case c != 0 && (k != nil || addr == LocalClientAddr):
			conn, key = c, k
		case proto == wire.ProtocolTicnet:
			continue
		}
		offered = append(offered, proto)
	}
	return offered, conn, key
}

// ReplaceQuietMS is how long a connection that said Hello must have been
// silent for a new connection of its copy, from its address, to take its
// place: a copy gives its connection up after hearing nothing for
// seconds, and sends nothing on it meanwhile, while a live one sends
// every tic. A SYN is not authenticated: without the silence, a member
// could end any player's connection with one, under the player's UID and
// key. (A connection that has not said Hello yet is its copy's handshake,
// which a member can disturb anyway, by racing it.)
const ReplaceQuietMS = 1000

// mayReplace reports whether a SYN with key may replace sc's live
// connection: the key must be sc's (its copy's), and sc must not have
// said Hello or be silent.
func (lb *serverLobby) mayReplace(now int64, sc *serverClient, key *wire.PublicKey) bool {
	switch {
	case sc.key == nil:
		return true // the reference's, or a host's own client
	case key == nil || *key != *sc.key:
		return false
	}
	return !sc.hello || now-sc.conn.HeardMS() >= ReplaceQuietMS
}

// replace ends a slot whose copy connects afresh from its address (a new
// connection's identity): it gave the old connection up, which goes as
// one that left, its player held for the copy's token.
func (lb *serverLobby) replace(now int64, sc *serverClient) {
	s := lb.s
	if sc.phase == slotJoining && !sc.join.started {
		s.joins.dropJoiner(now, sc)
		return
	}
	sc.conn.Drop(ReasonReconnected)
	if sc.live {
		sc.live = false
		s.clientGone(now, sc)
	}
}

// newSlot connects a client in a free slot and sends its SYN reply; nil if
// no slot is free, or the client's key gives no secret. conn is the
// identity the client chose for the connection under the extension (0:
// none, the reference), key its copy's key (nil: a host's own client,
// whose copy's key is the server's, or the reference).
func (lb *serverLobby) newSlot(now int64, from link.Addr, m *wire.SYN, proto string, conn uint32, key *wire.PublicKey) *serverClient {
	s := lb.s
	slot := -1
	var old *serverClient
	for i, sc := range s.slots {
		if sc != nil && sc.addr == from { // reconnecting from a slot that ended
			old, s.slots[i] = sc, nil
		}
		if s.slots[i] == nil && slot < 0 {
			slot = i
		}
	}
	if slot < 0 && len(s.slots) < slotCount {
		slot = len(s.slots) // a slot never taken yet
	}
	if slot < 0 {
		return nil
	}
	var keys auth.Keys
	if key != nil {
		var err error
		if keys, err = auth.Agree(s.cfg.Key, *key, conn, false); err != nil {
			s.stats.Forged++
			return nil
		}
	}
	sc := &serverClient{addr: from, connectMS: now, name: wire.Printable(m.PlayerName),
		version: m.Version, protocol: proto, data: m.Connect, player: -1,
		lastWaitingMS: now - WaitingDataPeriodMS - 1}
	if old != nil {
		s.retired.retire(old)
	}
	sc.conn = reliable.NewConn(from, s.tr, s.cfg.Timeouts.timers(), now, reliable.Connected, &s.stats.Counters)
	switch {
	case proto == wire.ProtocolTicnet && s.mig.resume != nil:
		sc.conn.SetResendMS(ReattachResendMS) // until its Resume is acknowledged
	case proto == wire.ProtocolTicnet:
		sc.conn.SetResendMS(ExtReliableResendMS)
	}
	sc.live = true
	s.slots.put(slot, sc)
	reply := wire.SYNReply{Version: s.cfg.Version, Protocol: proto}
	switch {
	case key != nil:
		sc.key = key
		sc.conn.Frame(wire.Ident{Conn: conn, Term: s.cfg.Term})
		sc.conn.Secure(auth.NewConn(keys, false, now))
		sc.conn.SealedFor(s.mig.ownPlayer()) // a copy that reattaches seals its first words for it among others
		reply.Protocol = wire.ReplyName(conn, s.cfg.Term, &s.pub)
	case conn != 0:
		sc.key = &s.pub // a host's own client: its copy's key is the server's
		sc.conn.Frame(wire.Ident{Conn: conn, Term: s.cfg.Term})
		reply.Protocol = wire.ReplyName(conn, s.cfg.Term, nil)
	}
	sc.conn.SendReply(&reply, key != nil)
	return sc
}

func (lb *serverLobby) sendQueryResponse(to link.Addr) {
	s := lb.s
	state := s.state
	mode := uint8(wire.ModeIndetermined)
	if lb.modeSet {
		mode = lb.mode
	}
	m := wire.QueryResponse{Version: s.cfg.Version, State: uint8(state), NumPlayers: uint8(len(s.players())),
		MaxPlayers: uint8(s.slots.maxPlayers(s.cfg.MaxPlayers)), GameMode: mode, GameMission: lb.mission,
		Description: s.cfg.Description, HasProtocols: true, Protocols: s.cfg.Protocols}
	s.pkt = wire.Encode(s.pkt[:0], &m, false, 0)
	s.tr.Send(to, s.pkt)
	s.stats.Queries++
}

func (lb *serverLobby) addrString(a link.Addr) string {
	s := lb.s
	if n, ok := s.tr.(AddrNamer); ok {
		return n.AddrString(a)
	}
	return defaultAddrString(a)
}

func (lb *serverLobby) sendWaitingData(now int64, to *serverClient) {
	s := lb.s
	ctrl := s.slots.controller()
	players := s.players()
	m := wire.WaitingData{MaxPlayers: uint8(s.slots.maxPlayers(s.cfg.MaxPlayers)), IsController: to == ctrl,
		ConsolePlayer: int8(to.player)}
	for _, sc := range s.slots {
		if sc.connected() {
			if sc.drone() {
				m.NumDrones++
			} else if sc.phase == slotReady {
				m.ReadyPlayers++
			}
		}
	}
	m.NumPlayers = uint8(len(players))
	for _, p := range players {
		m.Players = append(m.Players, wire.WaitingPlayer{Name: wire.Truncate(p.name), Addr: wire.Truncate(lb.addrString(p.addr))})
	}
	src := to
	if ctrl != nil {
		src = ctrl
	}
	m.WADSHA1, m.DEHSHA1, m.IsFreedoom = src.data.WADSHA1, src.data.DEHSHA1, src.data.IsFreedoom
	to.conn.SendMessage(now, &m)
	to.lastWaitingMS = now
}

// launch moves the lobby to waiting for every client's GAMESTART.
func (lb *serverLobby) launch(now int64) {
	s := lb.s
	s.slots.assignPlayers()
	n := uint8(len(s.players()))
	// The mode is decided now, from who is here: after LAUNCH nobody can
	// join, so it can only stay right. The notice follows LAUNCH on the
	// reliable channel, so the client has it before its GAMESTART.
	s.relay = s.chooseRelay()
	ticnet := s.relay == &s.ext
	s.setup = wire.GameSetup{Input: s.cfg.Input, TicRate: uint8(s.cfg.TicRate), Seed: lb.launchOpts.Seed, Options: lb.launchOpts.Options}
	if !ticnet {
		s.setup = wire.GameSetup{Input: s.cfg.Input, TicRate: TicRate} // the reference's game has none of it
	}
	for _, sc := range s.slots {
		if sc.connected() {
			sc.conn.SendReliable(&wire.Launch{NumPlayers: n})
			if sc.protocol == wire.ProtocolTicnet {
				sc.conn.SendReliable(&wire.ModeNotice{Extended: ticnet, Setup: s.setup, Cast: uint32(s.cast.Sent())})
				if ticnet {
					s.ext.attest.tell(sc)
				}
			}
		}
	}
	s.state = ServerWaitingStart
	s.emit(Event{Kind: EventLaunched, Player: -1})
}

func (lb *serverLobby) onGameStart(now int64, sc *serverClient, body []byte) error {
	s := lb.s
	if s.state != ServerWaitingStart {
		return errUnexpected{}
	}
	if sc == s.slots.controller() {
		var m wire.GameStart
		if err := m.DecodeBody(body); err != nil {
			return err
		}
		if !validSettings(&m.Settings, lb.mission) {
			return errUnexpected{}
		}
		s.settings = m.Settings
	}
	sc.to(slotReady)
	for _, o := range s.slots {
		if o.connected() && o.phase == slotReady {
			lb.sendWaitingData(now, o)
		}
	}
	lb.checkStart(now)
	return nil
}

// checkStart starts the game once every connected client is ready.
func (lb *serverLobby) checkStart(now int64) {
	s := lb.s
	if s.state != ServerWaitingStart {
		return
	}
	any := false
	for _, sc := range s.slots {
		if sc.connected() {
			if sc.phase != slotReady {
				return
			}
			any = true
		}
	}
	if !any {
		return
	}
	s.slots.assignPlayers()
	players := s.players()
	st := s.settings
	st.NumPlayers = uint8(len(players))
	st.PlayerClasses = [tic.MaxPlayers]uint8{}
	for i, p := range players {
		st.LowResTurn = st.LowResTurn || p.data.LowResTurn
		st.PlayerClasses[i] = p.data.PlayerClass
	}
	s.settings = st
	s.ref.leavers = departures{}
	s.cmds = commandStore{}
	s.ext.reset()
	s.inGD.LowResTurn = st.LowResTurn
	s.out.LowResTurn = st.LowResTurn
	s.inGD.InputSize = s.cfg.Input.Size
	for _, sc := range s.slots {
		if !sc.connected() {
			continue
		}
		sc.startGame(now)
		personal := st
		personal.ConsolePlayer = int8(sc.player)
		sc.conn.SendReliable(&wire.GameStart{Settings: personal})
	}
	s.state = ServerInGame
	s.rec.Start(0, nil)
	s.emit(Event{Kind: EventGameStarted, Player: -1, Protocol: s.relay.protocol()})
}

// AddrNamer is implemented by transports that can show a peer's address as
// text, for the lobby list.
type AddrNamer interface {
	AddrString(link.Addr) string
}

// defaultAddrString shows a channel UID.
func defaultAddrString(a link.Addr) string { return "uid:" + text.Hex(uint64(a), 8) }

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

var missionNames = [...]string{"doom", "doom2", "tnt", "plutonia", "chex", "hacx", "heretic", "hexen", "strife"}

var modeNames = [...]string{"shareware", "registered", "commercial", "retail", "unknown"}

func missionName(m uint8) string {
	if int(m) < len(missionNames) {
		return missionNames[m]
	}
	return "none"
}

func modeName(m uint8) string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "unknown"
}
