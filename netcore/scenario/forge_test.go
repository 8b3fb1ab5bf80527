package scenario

import (
	"math/rand/v2"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// member is a member of the chat who plays as others: it reads every
// frame on the channel (the simulated channel's tap), and sends
// well-formed frames under the players' UIDs and the server's, each with
// the connection's tag and a trailer of its own making: commands,
// keepalives, checksum votes, end requests and rejoins to the server as a
// player, a player's own frames again, a player's key with a new
// connection, and tic sets to a player as the server. Its links are
// perfect: every frame arrives once.
type member struct {
	s    *Scenario
	node *simnet.Node
	rng  *rand.Rand
	// Of each player's connection (by peer index), as overheard: its tag,
	// the last counter byte it sent, its frames to the server lately, and
	// the server's last counter bytes to it, unicast and broadcast.
	tag      map[int]uint8
	last     map[int]byte
	lately   map[int][][]byte
	toLast   map[int]byte
	termTag  uint8
	castLast byte
	// sent: frames sent in all, to the server and to each player;
	// replays: of those to the server, the frames replayed.
	sent, toServer, replays int
	toPeer                  map[int]int
	out                     []byte
}

func newMember(s *Scenario, seed uint64) *member {
	m := &member{s: s, node: s.Net.AddNode(), rng: rand.New(rand.NewPCG(seed, 38)), tag: map[int]uint8{}, last: map[int]byte{},
		lately: map[int][][]byte{}, toLast: map[int]byte{}, toPeer: map[int]int{}}
	s.Net.SetLinks(m.node, simnet.Link{})
	s.Net.SetBandwidth(m.node, -1)
	s.Net.Tap = m.overhear
	return m
}

// overhear notes what it reads of a frame sent on the channel.
func (m *member) overhear(_ int64, node int, frame []byte) {
	to, from, p, ok := link.ParseFrame(frame)
	if !ok || len(p) < 2+auth.Overhead || node == m.node.ID() {
		return
	}
	for _, q := range m.s.Peers[1:] {
		switch {
		case from == q.UID && to == ServerUID:
			m.tag[q.Index], m.last[q.Index] = wire.TagOf(p), p[len(p)-1]
			l := append(m.lately[q.Index], append([]byte(nil), p...))
			m.lately[q.Index] = l[max(0, len(l)-128):]
		case node == m.s.HostNode.ID() && to == q.UID:
			m.toLast[q.Index] = p[len(p)-1]
		}
	}
	if node == m.s.HostNode.ID() && to == link.Broadcast && wire.TagOf(p) >= 128 {
		m.termTag, m.castLast = wire.TagOf(p), p[len(p)-2]
	}
}

// seal gives pkt tag and a trailer: a tag guessed, and a counter byte
// 20 past the last the receiver was sent, fresh to it.
func (m *member) seal(pkt []byte, tag uint8, last byte) []byte {
	wire.SetTag(pkt, tag)
	var guess [auth.TagLen]byte
	for i := range guess {
		guess[i] = byte(m.rng.Uint32())
	}
	return append(append(pkt, guess[:]...), last+20)
}

func (m *member) send(to, from link.Addr, payload []byte) {
	m.out = link.AppendFrame(m.out[:0], to, from, payload)
	m.node.Broadcast(m.out)
	m.sent++
}

// forge sends one frame under a player's UID or, every fourth, the
// server's.
func (m *member) forge() {
	s := m.s
	q := s.Peers[1+m.rng.IntN(len(s.Peers)-1)]
	tag, ok := m.tag[q.Index]
	if !ok {
		return
	}
	if m.rng.IntN(4) == 0 {
		m.forgeServer(q, tag)
		return
	}
	next := s.Server.SendSeq()
	var pkt []byte
	switch k := m.rng.IntN(9); k {
	case 0, 1: // commands, and a jump for every tic
		cmd := wire.Diff(&tic.Cmd{}, &tic.Cmd{ForwardMove: 50, SideMove: -50, Buttons: 2})
		pkt = wire.Encode(nil, &wire.ClientGameData{Ext: true, Ack: uint8(next), Start: uint8(next + 1),
			Tics: []wire.ClientTic{{Diff: cmd}, {Diff: cmd}}}, false, 0)
	case 2:
		pkt = wire.Encode(nil, wire.Keepalive, false, 0)
	case 3:
		pkt = wire.Encode(nil, &wire.ChecksumReport{Start: next - 10, Sums: []uint16{1, 2, 3, 4, 5, 6, 7, 8}}, false, 0)
	case 4:
		pkt = wire.Encode(nil, &wire.EndRequest{}, true, uint8(m.rng.Uint32()))
	case 5:
		pkt = wire.Encode(nil, &wire.Hello{Rejoinable: true}, true, uint8(m.rng.Uint32()))
	case 6:
		pkt = wire.Encode(nil, &wire.Reattach{Game: 1, Player: int8(q.Client.Player()), Confirmed: next, Conn: 7}, true, 0)
	case 7: // its own frame again, old enough to fall out of the window
		l := m.lately[q.Index]
		if len(l) < 128 {
			return
		}
		m.send(ServerUID, q.UID, l[m.rng.IntN(20)])
		m.toServer++
		m.replays++
		return
	default: // a new connection, with its key, or another
		key := wire.PublicKey(auth.Public(q.Key))
		if m.rng.IntN(2) == 0 {
			key = wire.PublicKey(auth.Public(auth.KeyFromSecret([]byte("member"))))
		}
		syn := wire.SYN{Magic: wire.Magic, Version: netcore.DefaultVersion, Protocols: []string{wire.OfferName(0x10000+m.rng.Uint32N(1<<20), &key)},
			Connect: q.Client.Connect(), PlayerName: "impostor"}
		m.send(ServerUID, q.UID, wire.Encode(nil, &syn, false, 0))
		m.toServer++
		return
	}
	m.send(ServerUID, q.UID, m.seal(pkt, tag, m.last[q.Index]))
	m.toServer++
}

// forgeServer sends player q a tic set in which every player jumps, as
// the server: its own, or as one to everyone, with q's tag among others.
func (m *member) forgeServer(q *Peer, tag uint8) {
	cmd := wire.Diff(&tic.Cmd{}, &tic.Cmd{ForwardMove: 50, Buttons: 2})
	set := wire.TicSet{Start: m.s.Server.SendSeq(), Tics: []wire.SetTic{{ServerTic: wire.ServerTic{InGame: 0xff,
		Cmds: [wire.MaxPlayers]wire.TicDiff{cmd, cmd, cmd, cmd, cmd, cmd, cmd, cmd}}}}}
	pkt := wire.Encode(nil, &set, false, 0)
	last, unicast := m.toLast[q.Index]
	switch {
	case unicast && (m.termTag == 0 || m.rng.IntN(2) == 0):
		pkt = m.seal(pkt, tag, last)
	case m.termTag == 0:
		return // nothing overheard of the server's counters yet
	default:
		wire.SetTag(pkt, m.termTag)
		for range 7 { // a tag for each player but the server's
			pkt = append(pkt, byte(m.rng.Uint32()), byte(m.rng.Uint32()), byte(m.rng.Uint32()), byte(m.rng.Uint32()))
		}
		pkt = append(pkt, m.castLast+20, 0xfe)
	}
	m.send(q.UID, ServerUID, pkt)
	m.toPeer[q.Index]++
}

// forgeChannels are the channels of the tests of a hostile member: quiet,
// and lossy without duplicates (a frame the channel duplicates is dropped
// as replayed too, and would blur the count).
func forgeChannels() []struct {
	name string
	link simnet.Link
} {
	lossyOnce := lossy
	lossyOnce.Duplicate = 0
	return []struct {
		name string
		link simnet.Link
	}{{"quiet", simnet.Link{LatencyMS: 20}}, {"lossy", lossyOnce}}
}

// dropped is what an endpoint dropped as forged and replayed.
func dropped(c netcore.Counters) (forged, replayed int64) { return c.Forged, c.Replayed }

// A member of the chat who plays as others changes nothing: 100 000
// well-formed frames under the players' UIDs and the server's, on a quiet
// channel and a lossy one, 8 players. Every one is dropped, and counted,
// where it arrives: as forged, or, a player's own frame again, as
// replayed; every copy runs the commands the players built, and no one
// leaves. (The lossy channel here duplicates nothing: a frame the
// channel duplicates is dropped as replayed too, and would blur the
// count.)
func TestAMemberCannotPlayAsAnotherPlayer(t *testing.T) {
	t.Parallel()
	for _, tc := range forgeChannels() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const frames = 100000
			s := start(t, Options{Players: 8, Seed: 38, Link: tc.link})
			require.NoError(t, s.RunTics(100, 60000))
			m := newMember(s, 38)
			var srv0, srvReplayed0 int64
			srv0, srvReplayed0 = dropped(s.Server.Counters())
			peer0 := map[int]int64{}
			for _, q := range s.Peers[1:] {
				peer0[q.Index], _ = dropped(q.Client.Counters())
			}
			s.OnStep = func(int64) {
				for range 8 { // 1 600 a second: all within 63 s
					if m.sent < frames {
						m.forge()
					}
				}
			}
			end := uint32(100 + 35*70)
			require.NoError(t, s.RunTics(end, 3000000))
			require.Equal(t, frames, m.sent, "frames the member sent")
			s.OnStep = nil
			s.Net.AdvanceTo(s.Now() + 1)
			s.Step()
			forged, replayed := dropped(s.Server.Counters())
			t.Logf("%s: %d frames to the server (%d replayed), %d to players; the server dropped %d as forged, %d as replayed",
				tc.name, m.toServer, m.replays, frames-m.toServer, forged-srv0, replayed-srvReplayed0)
			require.Equal(t, int64(m.toServer-m.replays), forged-srv0, "forged frames the server counted")
			require.Equal(t, int64(m.replays), replayed-srvReplayed0, "replayed frames the server counted")
			for _, q := range s.Peers[1:] {
				f, _ := dropped(q.Client.Counters())
				require.Equal(t, int64(m.toPeer[q.Index]), f-peer0[q.Index], "peer %d: forged tic sets it counted", q.Index)
			}
			require.Zero(t, s.Count(netcore.EventPlayerLeft)+s.Count(netcore.EventDisconnected), "players who left")
			check(t, s, int(end))
			noDesync(t, s)
		})
	}
}
