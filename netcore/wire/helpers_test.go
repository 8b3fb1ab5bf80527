package wire

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// gen makes random values that the wire format can represent exactly, so
// that decode(encode(m)) must give m back.
type gen struct {
	r *rand.Rand
}

func newGen(seed uint64) gen { return gen{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))} }

func (g gen) u8() uint8   { return uint8(g.r.Uint32()) }
func (g gen) u16() uint16 { return uint16(g.r.Uint32()) }
func (g gen) bool() bool  { return g.r.IntN(2) == 0 }

// oneIn is true with probability 1/n.
func (g gen) oneIn(n int) bool { return g.r.IntN(n) == 0 }

// str is a string of fewer than max bytes, none of them NUL (a C string
// cannot hold one). Mostly printable, sometimes any byte.
func (g gen) str(max int) string {
	b := make([]byte, g.r.IntN(max))
	raw := g.oneIn(4)
	for i := range b {
		if raw {
			b[i] = byte(1 + g.r.IntN(255))
		} else {
			b[i] = byte(0x20 + g.r.IntN(0x5f))
		}
	}
	return string(b)
}

func (g gen) sha() (s [20]byte) {
	for i := range s {
		s[i] = g.u8()
	}
	return s
}

// cmd is a random command. Each field is often left at a small set of
// values, so that consecutive commands share fields and diffs are sparse.
func (g gen) cmd() TicCmd {
	pick8 := func() uint8 {
		if g.bool() {
			return uint8(g.r.IntN(2))
		}
		return g.u8()
	}
	c := TicCmd{
		ForwardMove: int8(pick8()),
		SideMove:    int8(pick8()),
		AngleTurn:   int16(g.u16()),
		Buttons:     pick8(),
		Consistency: pick8(),
		Buttons2:    pick8(),
		LookFly:     pick8(),
	}
	if g.bool() {
		c.AngleTurn = int16(g.r.IntN(2)) * 256
	}
	if g.oneIn(3) {
		c.ChatChar = g.u8()
	}
	if g.oneIn(3) {
		c.Arti = g.u8()
	}
	if g.oneIn(3) {
		c.Inventory = g.u16()
	}
	return c
}

// diff is a random diff: random flags, values only in the flagged fields.
// In lowres mode turning is a multiple of 256, as only those travel.
func (g gen) diff(lowres bool) TicDiff {
	d := TicDiff{Flags: g.u8()}
	if g.oneIn(4) {
		d.Flags = 0
	}
	c := g.cmd()
	f := d.Flags
	if f&DiffForward != 0 {
		d.Cmd.ForwardMove = c.ForwardMove
	}
	if f&DiffSide != 0 {
		d.Cmd.SideMove = c.SideMove
	}
	if f&DiffTurn != 0 {
		d.Cmd.AngleTurn = int16(g.u16())
		if lowres {
			d.Cmd.AngleTurn = int16(int8(g.u8())) * 256
		}
	}
	if f&DiffButtons != 0 {
		d.Cmd.Buttons = g.u8()
	}
	if f&DiffConsistency != 0 {
		d.Cmd.Consistency = g.u8()
	}
	if f&DiffChatChar != 0 {
		d.Cmd.ChatChar = g.u8()
	}
	if f&DiffRaven != 0 {
		d.Cmd.LookFly, d.Cmd.Arti = g.u8(), g.u8()
	}
	if f&DiffStrife != 0 {
		d.Cmd.Buttons2, d.Cmd.Inventory = g.u8(), g.u16()
	}
	return d
}

// count is a random count in [0, max], mostly small, sometimes the maximum.
func (g gen) count(max int) int {
	switch {
	case g.oneIn(20):
		return max
	case g.oneIn(5):
		return g.r.IntN(max + 1)
	}
	return g.r.IntN(min(max, 4) + 1)
}

func (g gen) protocols() []string {
	var ps []string
	for range g.count(MaxProtocols) {
		ps = append(ps, g.str(24))
	}
	return ps
}

func (g gen) syn() *SYN {
	return &SYN{Magic: g.r.Uint32(), Version: g.str(40), Protocols: g.protocols(), PlayerName: g.str(MaxPlayerName),
		Connect: ConnectData{GameMode: g.u8(), GameMission: g.u8(), LowResTurn: g.bool(), Drone: g.bool(),
			MaxPlayers: g.u8(), IsFreedoom: g.u8(), WADSHA1: g.sha(), DEHSHA1: g.sha(), PlayerClass: g.u8()}}
}

func (g gen) waitingData() *WaitingData {
	m := &WaitingData{NumPlayers: uint8(g.count(12)), NumDrones: g.u8(), ReadyPlayers: g.u8(), MaxPlayers: g.u8(),
		IsController: g.bool(), ConsolePlayer: int8(g.u8()), WADSHA1: g.sha(), DEHSHA1: g.sha(), IsFreedoom: g.u8()}
	if g.oneIn(10) {
		m.NumPlayers = g.u8() // the list stops at 8 whatever the count says
	}
	for range m.listed() {
		m.Players = append(m.Players, WaitingPlayer{Name: g.str(MaxPlayerName), Addr: g.str(MaxPlayerName)})
	}
	return m
}

func (g gen) gameStart() *GameStart {
	s := Settings{TicDup: g.u8(), ExtraTics: g.u8(), Deathmatch: g.u8(), NoMonsters: g.u8(), FastMonsters: g.u8(),
		RespawnMonsters: g.u8(), Episode: g.u8(), Map: g.u8(), Skill: int8(g.u8()), GameVersion: g.u8(),
		LowResTurn: g.bool(), NewSync: g.bool(), TimeLimit: g.r.Uint32(), LoadGame: int8(g.u8()), Random: g.u8(),
		NumPlayers: uint8(g.count(MaxPlayers)), ConsolePlayer: int8(g.u8())}
	for i := range int(s.NumPlayers) {
		s.PlayerClasses[i] = g.u8()
	}
	return &GameStart{Settings: s}
}

func (g gen) clientGameData(lowres bool) *ClientGameData {
	m := &ClientGameData{LowResTurn: lowres, Ext: g.bool(), Ack: g.u8(), Start: g.u8()}
	for range g.count(MaxTicsPerPacket) {
		t := ClientTic{Diff: g.diff(lowres)}
		if !m.Ext {
			t.Latency = int16(g.u16())
		}
		m.Tics = append(m.Tics, t)
	}
	if m.Ext && g.bool() {
		m.Report = *g.checksums()
		if len(m.Report.Sums) == 0 {
			m.Report.Sums = append(m.Report.Sums, g.u16())
		}
		m.Near = g.near(m.Report.Start)
	}
	return m
}

// near returns a tic that ExpandTic16 expands tic's low bits near to tic.
func (g gen) near(tic uint32) uint32 { return tic + uint32(g.r.IntN(65535)-32767) }

func (g gen) serverTic(lowres bool) ServerTic {
	t := ServerTic{Latency: int16(g.u16()), InGame: g.u8()}
	for p := range MaxPlayers {
		if t.Has(p) {
			t.Cmds[p] = g.diff(lowres)
		}
	}
	return t
}

func (g gen) serverGameData(lowres bool) *ServerGameData {
	m := &ServerGameData{LowResTurn: lowres, Start: g.u8()}
	for range g.count(MaxTicsPerPacket) {
		m.Tics = append(m.Tics, g.serverTic(lowres))
	}
	return m
}

func (g gen) ticSet(lowres bool) *TicSet {
	m := &TicSet{LowResTurn: lowres, Start: g.r.Uint32()}
	m.Near = g.near(m.Start)
	if g.bool() {
		m.LeavesOutRecipient, m.Recipient = true, uint8(g.r.IntN(MaxPlayers))
	}
	for range g.count(MaxTicsPerPacket) {
		t := SetTic{ServerTic: g.serverTic(lowres)}
		t.Latency = 0 // not in a tic set
		t.Substituted = g.u8() & t.InGame
		if p := m.Recipient; m.LeavesOutRecipient && t.Substituted&(1<<p) == 0 {
			t.Cmds[p] = TicDiff{} // left out: it decodes as zero
		}
		m.Tics = append(m.Tics, t)
	}
	for range g.count(MaxPlayers) {
		m.Timing = append(m.Timing, PlayerTiming{Player: uint8(g.r.IntN(MaxPlayers)), MarginMS: int16(g.u16())})
	}
	for range g.count(MaxPlayers) {
		m.Figures = append(m.Figures, PlayerFigures{Player: uint8(g.r.IntN(MaxPlayers)), RTTMS: g.u16(), Loss: g.u8(),
			InputDelay: uint8(g.r.IntN(MaxInputDelay + 1)), Ahead: int8(g.u8())})
	}
	if g.bool() {
		m.Watchers = 1 + uint16(g.r.IntN(1000))
	}
	return m
}

func (g gen) checksums() *ChecksumReport {
	m := &ChecksumReport{Start: g.r.Uint32()}
	for range g.count(MaxChecksums) {
		m.Sums = append(m.Sums, g.u16())
	}
	return m
}

// transferChunk is a chunk of a random stream: small sizes mostly, now and
// then the largest chunk or the last chunk of a stream.
func (g gen) transferChunk() *TransferChunk {
	m := &TransferChunk{Stream: g.r.Uint32(), Total: 1 + uint32(g.r.IntN(5000)), ChunkSize: 1 + uint32(g.r.IntN(300))}
	switch {
	case g.oneIn(20):
		m.ChunkSize = MaxTransferChunkSize
	case g.oneIn(10):
		m.Total = g.r.Uint32() | 1<<31
	}
	m.Index = uint32(g.r.IntN(int(min(m.Count(), 1<<20))))
	if g.oneIn(4) {
		m.Index = m.Count() - 1
	}
	for i := range m.Hash {
		m.Hash[i] = g.u8()
	}
	m.Data = make([]byte, m.chunkLen())
	for i := range m.Data {
		m.Data[i] = g.u8()
	}
	return m
}

func (g gen) transferAck() *TransferAck {
	m := &TransferAck{Stream: g.r.Uint32(), Base: g.r.Uint32()}
	for range g.count(MaxTransferAckBitmap) {
		m.Bitmap = append(m.Bitmap, g.u8())
	}
	return m
}

func (g gen) queryResponse() *QueryResponse {
	m := &QueryResponse{Version: g.str(40), State: g.u8(), NumPlayers: g.u8(), MaxPlayers: g.u8(),
		GameMode: g.u8(), GameMission: g.u8(), Description: g.str(60), HasProtocols: g.bool()}
	if m.HasProtocols {
		m.Protocols = g.protocols()
	}
	return m
}

// emptyKinds are the packet types whose message is Empty.
var emptyKinds = []Type{TypeACK, TypeKeepalive, TypeDisconnect, TypeDisconnectAck, TypeQuery, TypeNATHolePunch, TypeLaunch}

// player is a player number or NoPlayer.
func (g gen) player() int8 { return int8(g.r.IntN(MaxPlayers+1)) - 1 }

func (g gen) roster() *Roster {
	m := &Roster{Game: g.r.Uint32(), ServerPlayer: g.player(), Present: g.u8()}
	m.Rejoinable = g.u8() & m.Present
	m.Held = g.u8() & m.Rejoinable
	for p := range MaxPlayers {
		if m.Present&(1<<p) != 0 {
			for i := range m.Keys[p] {
				m.Keys[p][i] = g.u8()
			}
		}
	}
	return m
}

func (g gen) reattach() *Reattach {
	return &Reattach{Game: g.r.Uint32(), Player: g.player(), Confirmed: g.r.Uint32(), Conn: g.r.Uint32()}
}

// messages returns one random message of every type.
func (g gen) attest() *Attest {
	m := &Attest{Tic: g.r.Uint32()}
	for i := range m.Chain {
		m.Chain[i] = g.u8()
	}
	for i := range m.Sig {
		m.Sig[i] = g.u8()
	}
	return m
}

func (g gen) signer() *Signer {
	m := &Signer{Game: g.r.Uint32()}
	for i := range m.Key {
		m.Key[i] = g.u8()
	}
	return m
}

func (g gen) messages() []Message {
	lowres := g.bool()
	ms := []Message{
		g.syn(),
		&SYNReply{Version: g.str(40), Protocol: g.str(24)},
		&Rejected{Message: g.str(200)},
		g.waitingData(),
		g.gameStart(),
		g.clientGameData(lowres),
		g.serverGameData(lowres),
		&GameDataAck{Ack: g.u8()},
		&GameDataResend{Start: g.r.Uint32(), Count: g.u8()},
		&ReliableAck{Ack: g.u8()},
		&ConsoleMessage{Text: g.str(1024)},
		g.queryResponse(),
		&Launch{NumPlayers: g.u8()},
		g.ticSet(lowres),
		g.checksums(),
		&ModeNotice{Extended: g.bool(), Setup: g.setup(), Cast: g.r.Uint32()},
		&LaunchOptions{Seed: g.r.Uint32(), Options: g.options()},
		&EndRequest{},
		&EndAsked{Player: int8(g.r.IntN(MaxPlayers))},
		&GameEnd{Tic: g.r.Uint32()},
		g.transferChunk(),
		g.transferAck(),
		&TransferAbort{Stream: g.r.Uint32(), FromReceiver: g.bool(), Reason: TransferReason(g.u8())},
		g.roster(),
		&Leaving{Tic: g.r.Uint32(), Player: g.player(), Successor: g.r.Uint32()},
		g.reattach(),
		&Resume{Tic: g.r.Uint32(), Term: uint16(g.r.Uint32())},
		&TicFetch{Start: g.r.Uint32(), Count: max(1, g.u8())},
		&GameOver{Tic: g.r.Uint32()},
		&Desync{Tic: g.r.Uint32(), Players: uint8(1 + g.r.IntN(255))},
		&Repair{Stream: g.r.Uint32()},
		&RepairDone{Tic: g.r.Uint32(), Bytes: g.r.Uint32(), From: g.r.Uint32()},
		&Repaired{Player: uint8(g.r.IntN(MaxPlayers)), Tic: g.r.Uint32(), Bytes: g.r.Uint32(), MS: g.r.Uint32()},
		g.attest(),
		g.signer(),
		&AttestFetch{From: g.r.Uint32(), Tic: g.r.Uint32()},
	}
	for _, k := range emptyKinds {
		ms = append(ms, &Empty{Kind: k})
	}
	return ms
}

// fresh returns a zero message of m's kind with the same options that are
// not on the wire (turning resolution, Empty's kind).
func fresh(m Message) Message {
	n := reflect.New(reflect.TypeOf(m).Elem()).Interface().(Message)
	switch v := n.(type) {
	case *ClientGameData:
		o := m.(*ClientGameData)
		v.LowResTurn, v.InputSize, v.Ext, v.Near = o.LowResTurn, o.InputSize, o.Ext, o.Near
	case *ServerGameData:
		v.LowResTurn, v.InputSize = m.(*ServerGameData).LowResTurn, m.(*ServerGameData).InputSize
	case *TicSet:
		o := m.(*TicSet)
		v.LowResTurn, v.InputSize, v.Near = o.LowResTurn, o.InputSize, o.Near
	case *Empty:
		v.Kind = m.(*Empty).Kind
	}
	return n
}

// sameMessage is deep equality where an empty slice equals a nil one (a
// decoder reuses slices, so it may leave either).
func sameMessage(a, b Message) bool {
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	return reflect.DeepEqual(normal(a), normal(b))
}

// normal returns a copy of m with its empty slices set to nil: those at the
// top level and those of its struct fields (ClientGameData's Report).
func normal(m Message) any {
	v := reflect.New(reflect.TypeOf(m).Elem()).Elem()
	v.Set(reflect.ValueOf(m).Elem())
	nilEmpty(v)
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Struct {
			nilEmpty(f)
		}
	}
	return v.Interface()
}

// nilEmpty sets the empty slice fields of struct v to nil.
func nilEmpty(v reflect.Value) {
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Slice && f.Len() == 0 && f.CanSet() {
			f.Set(reflect.Zero(f.Type()))
		}
	}
}

// decodeError checks that err is a *DecodeError (errors.As) whose offset
// lies inside a packet of n bytes, and returns it.
func decodeError(t testing.TB, err error, n int) *DecodeError {
	t.Helper()
	var de *DecodeError
	require.ErrorAs(t, err, &de, "error %v (%T) is not a *DecodeError", err, err)
	require.GreaterOrEqual(t, de.Offset, 0, "error offset %d outside a %d-byte packet: %v", de.Offset, n, err)
	require.LessOrEqual(t, de.Offset, n, "error offset %d outside a %d-byte packet: %v", de.Offset, n, err)
	require.NotEqual(t, "", de.Field, "error without a field or reason: %+v", de)
	require.NotEqual(t, "", de.Reason, "error without a field or reason: %+v", de)
	require.Contains(t, err.Error(), "offset", "error without a field or reason: %+v", de)
	return de
}

// wantDecodeErrorAt decodes pkt into m and checks it fails at offset off, in
// the named field, for a reason containing reason.
func wantDecodeErrorAt(t testing.TB, pkt []byte, m Message, off int, field, reason string) {
	t.Helper()
	_, err := Decode(pkt, m)
	require.Error(t, err, "% x decoded into %T: %+v", pkt, m, m)
	de := decodeError(t, err, len(pkt))
	require.Equal(t, off, de.Offset, "% x: got %v (field %q); want offset %d, field %q, reason containing %q", pkt, err, de.Field, off, field, reason)
	require.Equal(t, field, de.Field, "% x: got %v (field %q); want offset %d, field %q, reason containing %q", pkt, err, de.Field, off, field, reason)
	require.Contains(t, de.Reason, reason, "% x: got %v (field %q); want offset %d, field %q, reason containing %q", pkt, err, de.Field, off, field, reason)
}

// checkTruncations decodes every proper prefix of m's encoding: each must
// fail with a DecodeError inside the prefix, without a panic, except the
// prefixes for which valid(n) says a shorter packet is well formed. It
// returns the offsets of the errors, by prefix length (-1: decoded).
func checkTruncations(t testing.TB, m Message, reliable bool, valid func(n int) bool) []int {
	t.Helper()
	pkt := Encode(nil, m, reliable, 7)
	offs := make([]int, len(pkt))
	for n := range len(pkt) {
		cut := pkt[:n:n] // no capacity past the cut: a read beyond it would panic
		_, err := Decode(cut, fresh(m))
		if err == nil {
			require.True(t, valid != nil && valid(n), "%T cut to %d of %d bytes decoded", m, n, len(pkt))
			offs[n] = -1
			continue
		}
		offs[n] = decodeError(t, err, n).Offset
		// The any-type decoder must not panic either, and fails the same way.
		if _, _, err2 := DecodePacketIn(cut, directionOf(m), contextOf(m)); err2 != nil {
			decodeError(t, err2, n)
		}
	}
	return offs
}

func directionOf(m Message) Direction {
	switch m.(type) {
	case *ServerGameData, *Launch:
		return ServerToClient
	}
	return ClientToServer
}

// contextOf returns the session context m is encoded in: its fields that
// are not on the wire.
func contextOf(m Message) Context {
	switch v := m.(type) {
	case *ClientGameData:
		return Context{LowResTurn: v.LowResTurn, InputSize: v.InputSize, Ext: v.Ext, Near: v.Near}
	case *ServerGameData:
		return Context{LowResTurn: v.LowResTurn, InputSize: v.InputSize}
	case *TicSet:
		return Context{LowResTurn: v.LowResTurn, InputSize: v.InputSize, Near: v.Near}
	}
	return Context{}
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b := make([]byte, 0, len(s)/2)
	s = strings.ReplaceAll(s, " ", "")
	for i := 0; i+1 < len(s); i += 2 {
		var v byte
		for _, c := range s[i : i+2] {
			v <<= 4
			switch {
			case c >= '0' && c <= '9':
				v |= byte(c - '0')
			case c >= 'a' && c <= 'f':
				v |= byte(c-'a') + 10
			default:
				t.Fatalf("bad hex %q", s)
			}
		}
		b = append(b, v)
	}
	require.Equal(t, 0, len(s)%2, "odd hex %q", s)
	return b
}

// layout is a random input layout: Doom's ticcmd half the time.
func (g gen) layout() InputLayout {
	var l InputLayout
	if g.bool() {
		return l
	}
	l.Size = uint8(1 + g.r.IntN(MaxInputBytes))
	for i := range l.Size {
		if g.oneIn(3) {
			l.Events[i] = g.u8()
		}
	}
	return l
}

// setup is a random game setup.
func (g gen) setup() GameSetup {
	return GameSetup{Input: g.layout(), TicRate: uint8(MinTicRate + g.r.IntN(MaxTicRate-MinTicRate+1)),
		Seed: g.r.Uint32(), Options: g.options()}
}

// options are random launch options, nil when empty (as decoded).
func (g gen) options() []byte {
	if s := g.str(MaxLaunchOptions); s != "" {
		return []byte(s)
	}
	return nil
}
