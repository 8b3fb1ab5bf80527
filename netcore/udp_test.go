//go:build !js

package netcore

import (
	"bytes"
	"fmt"
	"net"
	"net/netip"
	"runtime"
	"testing"
	"time"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readers counts the goroutines newUDP started that still run: the UDP
// transports' readers. It reads their stacks rather than trusting
// runtime.NumGoroutine, which also counts whatever an earlier test or the
// runtime is still winding down.
func readers() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return bytes.Count(buf[:n], []byte("created by github.com/ticnet/ticnet/netcore.newUDP"))
		}
		buf = make([]byte, 2*len(buf))
	}
}

// readersWithin waits up to 2 s for the readers to fall to at most n and
// returns how many there are then. Close waits for each reader to say it is
// done; the goroutine ends just after, so it gets a moment.
func readersWithin(n int) int {
	deadline := time.Now().Add(2 * time.Second)
	got := readers()
	for got > n && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		got = readers()
	}
	return got
}

// checkNoLeak fails the test if it ends with more UDP readers than it began
// with: each transport's reader must be gone once it is closed.
func checkNoLeak(t *testing.T) {
	t.Helper()
	before := readers()
	t.Cleanup(func() {
		assert.LessOrEqual(t, readersWithin(before), before, "UDP readers leaked: the count after the test, then before it")
	})
}

func listen(t *testing.T) *UDP {
	t.Helper()
	u, err := ListenUDP("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { u.Close() })
	return u
}

// recvWithin polls u until a datagram arrives or the limit passes.
func recvWithin(t *testing.T, u *UDP, limit time.Duration) (link.Addr, []byte) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if from, p, ok := u.Recv(); ok {
			return from, p
		}
		time.Sleep(time.Millisecond)
	}
	require.FailNowf(t, "nothing received", "nothing received within %v", limit)
	return 0, nil
}

func TestUDPNamesAddressesAsTheReference(t *testing.T) {
	checkNoLeak(t)
	u := listen(t)
	def, _ := u.Peer(netip.MustParseAddrPort("127.0.0.1:2342"))
	other, _ := u.Peer(netip.MustParseAddrPort("127.0.0.1:40123"))
	assert.Equal(t, "127.0.0.1", u.AddrString(def), "default port shown as")
	assert.Equal(t, "127.0.0.1:40123", u.AddrString(other), "other port shown as")
	var _ AddrNamer = u
}

func TestUDPGivesEachAddressOneStableAddr(t *testing.T) {
	checkNoLeak(t)
	a, b, c := listen(t), listen(t), listen(t)
	toA, _ := b.Peer(a.LocalAddr())
	again, _ := b.Peer(a.LocalAddr())
	require.Equal(t, toA, again, "the same address, asked again")
	b.Send(toA, []byte("one"))
	fromB, p := recvWithin(t, a, 2*time.Second)
	require.Equal(t, "one", string(p))
	c.Send(mustPeer(t, c, a.LocalAddr()), []byte("two"))
	fromC, _ := recvWithin(t, a, 2*time.Second)
	b.Send(toA, []byte("three"))
	fromB2, p := recvWithin(t, a, 2*time.Second)
	require.NotEqual(t, fromB, fromC, "b and c got one Addr")
	require.Equal(t, fromB, fromB2, "b's Addr the second time")
	require.Equal(t, "three", string(p))
	// netip.AddrPort compared as Go compares it: Equal's DeepEqual would
	// follow the interned zone's pointer.
	ap, _ := a.AddrPort(fromB)
	require.True(t, ap == b.LocalAddr(), "b's Addr stands for %v, b is %v", ap, b.LocalAddr())
	a.Send(fromB, []byte("back"))
	from, p := recvWithin(t, b, 2*time.Second)
	require.Equal(t, toA, from, "b's answer came from")
	require.Equal(t, "back", string(p))
}

func mustPeer(t *testing.T, u *UDP, ap netip.AddrPort) link.Addr {
	t.Helper()
	a, ok := u.Peer(ap)
	require.True(t, ok, "address table full")
	return a
}

func TestUDPReceivesDatagramsUpTo64KiB(t *testing.T) {
	checkNoLeak(t)
	a, b := listen(t), listen(t)
	big := bytes.Repeat([]byte{0xa5, 0x5a, 0x01}, 65000/3)
	b.Send(mustPeer(t, b, a.LocalAddr()), big)
	// bytes.Equal under True: Equal's diff of 65 000 bytes would bury the lengths.
	_, p := recvWithin(t, a, 2*time.Second)
	require.True(t, bytes.Equal(p, big), "received %d bytes, sent %d", len(p), len(big))
	s := b.Stats()
	require.Equal(t, int64(1), s.Oversize, "a %d-byte datagram not counted as oversize: %+v", len(big), s)
}

func TestUDPCountsDatagramsDroppedWhenItsQueueIsFull(t *testing.T) {
	checkNoLeak(t)
	conn, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:0")))
	require.NoError(t, err)
	a := newUDP(conn, 4)
	t.Cleanup(func() { a.Close() })
	b := listen(t)
	to := mustPeer(t, b, a.LocalAddr())
	const n = 20
	for i := range n {
		b.Send(to, []byte{byte(i)})
	}
	deadline := time.Now().Add(2 * time.Second)
	for a.Stats().Dropped < n-4 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	got := 0
	for {
		_, p, ok := a.Recv()
		if !ok {
			break
		}
		require.Equal(t, got, int(p[0]), "datagram arrived as number %d", got)
		got++
	}
	s := a.Stats()
	require.Equal(t, 4, got, "datagrams received, stats %+v", s)
	require.Equal(t, int64(n-4), s.Dropped, "datagrams dropped, stats %+v", s)
	require.Equal(t, int64(4), s.Received, "datagrams received as counted, stats %+v", s)
}

func TestUDPSendsNothingToAnUnknownAddr(t *testing.T) {
	checkNoLeak(t)
	u := listen(t)
	u.Send(link.Broadcast, []byte("x"))
	u.Send(7, []byte("x"))
	s := u.Stats()
	require.Equal(t, int64(2), s.Unroutable, "unroutable sends, stats %+v", s)
	require.Zero(t, s.Sent, "sends, stats %+v", s)
}

func TestUDPCloseStopsItsReader(t *testing.T) {
	before := readers()
	var us []*UDP
	for range 5 {
		u, err := ListenUDP("127.0.0.1:0")
		require.NoError(t, err)
		us = append(us, u)
	}
	require.Equal(t, before+5, readers(), "UDP readers with 5 transports open, %d before", before)
	for _, u := range us {
		require.NoError(t, u.Close())
		u.Close() // twice is harmless
	}
	require.Equal(t, before, readersWithin(before), "UDP readers 2 s after Close")
}

// walker is a small deterministic game for games over real sockets.
type walker struct {
	me   int
	x    [tic.MaxPlayers]int32
	sum  uint32
	sums []uint32
}

func (w *walker) BuildTiccmd(t uint32) tic.Cmd {
	return tic.Cmd{ForwardMove: int8(t%7) - 3, AngleTurn: int16(w.me*100 + int(t%5)), Buttons: uint8(t % 3)}
}

func (w *walker) RunTic(_ uint32, cmds *[tic.MaxPlayers]tic.Cmd, ingame *[tic.MaxPlayers]bool) {
	for p := range tic.MaxPlayers {
		if ingame[p] {
			w.x[p] += int32(cmds[p].ForwardMove) + int32(cmds[p].AngleTurn)
			w.sum = w.sum*31 + uint32(w.x[p]) + uint32(cmds[p].Buttons)
		}
	}
	w.sums = append(w.sums, w.sum)
}

func (w *walker) Checksum() uint32 { return w.sum }

// TestEngineOverUDPPlaysInStep plays a game on 127.0.0.1 under a real clock:
// a server and two clients, each on its own socket, driven as the native
// tools drive them. It asserts no timing, only that the game gets to tic
// 105 and every copy ran the same tics.
func TestEngineOverUDPPlaysInStep(t *testing.T) {
	for _, protos := range [][]string{{wire.ProtocolChocolate}, nil} {
		name := "proto=chocolate"
		if protos == nil {
			name = "proto=ticnet"
		}
		t.Run(name, func(t *testing.T) {
			checkNoLeak(t)
			srvT := listen(t)
			srv := NewServer(ServerConfig{Timeouts: ReferenceTimeouts}, srvT)
			settings := wire.Settings{TicDup: 1, ExtraTics: 1, Episode: 1, Map: 1, Skill: 2, GameVersion: 4,
				NewSync: true, LoadGame: -1}
			var clients []*Client
			var games []*walker
			start := time.Now()
			now := func() int64 { return time.Since(start).Milliseconds() }
			for i := range 2 {
				ct := listen(t)
				g := &walker{me: i}
				c := NewClient(ClientConfig{Name: fmt.Sprintf("p%d", i), Protocols: protos, Timeouts: ReferenceTimeouts,
					Settings: settings}, ct, mustPeer(t, ct, srvT.LocalAddr()), g, now())
				clients, games = append(clients, c), append(games, g)
			}
			launched := false
			deadline := time.Now().Add(20 * time.Second)
			for time.Now().Before(deadline) {
				n := now()
				srv.Update(n)
				for _, c := range clients {
					c.Update(n)
				}
				if !launched && len(srv.Players()) == 2 && clients[0].State() == ClientWaitingLaunch {
					clients[0].Launch()
					launched = true
				}
				if clients[0].GameTic() >= 105 && clients[1].GameTic() >= 105 {
					break
				}
				time.Sleep(2 * time.Millisecond)
			}
			for i, c := range clients {
				require.GreaterOrEqual(t, c.GameTic(), uint32(105), "client %d's tic (%v), server %v", i, c.State(), srv.State())
				require.Equal(t, protos == nil, c.Extended(), "client %d: extended with protocols %v", i, protos)
			}
			for tic := range 105 {
				require.Equal(t, games[0].sums[tic], games[1].sums[tic], "tic %d: checksums %08x and %08x", tic, games[0].sums[tic], games[1].sums[tic])
			}
		})
	}
}
