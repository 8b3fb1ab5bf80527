package netcore_test

import (
	"fmt"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// hub is a lossless unicast network for a few endpoints that notes the
// longest packet anyone sent.
type hub struct {
	inbox   map[link.Addr][]hubPacket
	cut     link.Addr // packets to it are lost
	longest int
	sizes   map[wire.Type]int // the longest packet of each type
	// burst is the GAMEDATA bytes sent to each address since the last
	// step; biggestBurst the most of them in one step.
	burst        map[link.Addr]int
	biggestBurst int
}

type hubPacket struct {
	from link.Addr
	b    []byte
}

type hubEnd struct {
	h    *hub
	addr link.Addr
}

func (e *hubEnd) Send(to link.Addr, p []byte) {
	h := e.h
	h.longest = max(h.longest, len(p))
	if hd, _, err := wire.ParseHeader(p); err == nil {
		h.sizes[hd.Type] = max(h.sizes[hd.Type], len(p))
		if hd.Type == wire.TypeGameData {
			h.burst[to] += len(p)
			h.biggestBurst = max(h.biggestBurst, h.burst[to])
		}
	}
	if to != h.cut {
		h.inbox[to] = append(h.inbox[to], hubPacket{from: e.addr, b: append([]byte(nil), p...)})
	}
}

func (e *hubEnd) Recv() (link.Addr, []byte, bool) {
	q := e.h.inbox[e.addr]
	if len(q) == 0 {
		return 0, nil, false
	}
	e.h.inbox[e.addr] = q[1:]
	return q[0].from, q[0].b, true
}

// TestReferenceGameDataFitsARealPeersReceiveBuffer plays an 8-player
// reference game whose commands use every field, with a drone that loses
// every packet for two seconds while the game runs forty tics ahead of it,
// so that the server then resends it forty tics of eight players at once;
// and it asks a client for every tic it holds. No packet may exceed the
// 1500 bytes a real Chocolate Doom reads, and the game must go on in step.
func TestReferenceGameDataFitsARealPeersReceiveBuffer(t *testing.T) {
	h := &hub{inbox: map[link.Addr][]hubPacket{}, sizes: map[wire.Type]int{}, burst: map[link.Addr]int{}}
	const srvAddr, droneAddr = 1, 30
	srv := netcore.NewServer(netcore.ServerConfig{Timeouts: netcore.ReferenceTimeouts}, &hubEnd{h, srvAddr})
	settings := wire.Settings{TicDup: 1, ExtraTics: 1, Episode: 1, Map: 1, Skill: 2, GameVersion: 4,
		NewSync: true, LoadGame: -1}
	var clients []*netcore.Client
	var games []*testgame.Game
	for i := range 9 {
		g := testgame.New(uint64(i + 1))
		addr := link.Addr(10 + i)
		if i == 8 {
			addr = droneAddr
		}
		c := netcore.NewClient(netcore.ClientConfig{Name: fmt.Sprintf("p%d", i), Timeouts: netcore.ReferenceTimeouts,
			Protocols: []string{wire.ProtocolChocolate}, Settings: settings, Drone: i == 8},
			&hubEnd{h, addr}, srvAddr, g, 0)
		clients, games = append(clients, c), append(games, g)
	}
	drone := clients[8]
	var now int64
	step := func() {
		now += 5
		clear(h.burst)
		srv.Update(now)
		for i, c := range clients {
			if i < 8 || len(srv.Players()) == 8 { // the drone joins after the players
				c.Update(now)
			}
		}
	}
	runUntil := func(what string, done func() bool) {
		t.Helper()
		for end := now + 60000; !done(); step() {
			require.LessOrEqual(t, now, end, "%s: not by t=%d ms", what, end)
		}
	}
	runUntil("lobby", func() bool { return drone.State() == netcore.ClientWaitingLaunch })
	clients[0].Launch()
	runUntil("tic 300", func() bool { return drone.GameTic() >= 300 })

	h.cut = droneAddr
	for end := now + 2000; now < end; {
		step()
	}
	h.cut = 0
	behind := clients[0].GameTic() - drone.GameTic()
	runUntil("the drone catches up", func() bool { return drone.GameTic() >= clients[0].GameTic() })
	require.GreaterOrEqual(t, behind, uint32(30), "tics the drone fell behind: no big resend")
	require.GreaterOrEqual(t, srv.Counters().TicsResent, int64(30), "tics the server resent: no big resend")

	// The server asks player 3 for the last 128 tics it built.
	c := clients[3]
	h.inbox[13] = append(h.inbox[13], hubPacket{from: srvAddr,
		b: wire.Encode(nil, &wire.GameDataResend{Start: c.MakeTic() - 128, Count: 128}, false, 0)})
	step()
	require.Equal(t, int64(128), c.Counters().TicsResent, "tics the client resent")

	runUntil("tic 600", func() bool {
		for _, c := range clients {
			if c.GameTic() < 600 {
				return false
			}
		}
		return true
	})
	require.LessOrEqual(t, h.longest, netcore.MaxDatagram, "longest packet's bytes (by type: %v)", h.sizes)
	require.Greater(t, h.biggestBurst, 2*netcore.MaxDatagram, "most bytes of GAMEDATA sent at once: the test did not exercise splitting")
	for tic := range 600 {
		for i := 1; i < 9; i++ {
			require.Equal(t, games[0].Sums()[tic], games[i].Sums()[tic], "tic %d: peer %d differs", tic, i)
		}
	}
}
