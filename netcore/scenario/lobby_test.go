package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// lobby runs a scenario until every client is in the lobby.
func lobby(t *testing.T, o Options) *Scenario {
	t.Helper()
	s := New(o)
	if !s.RunUntil(func() bool {
		for _, p := range s.Peers {
			if p.Client.State() != netcore.ClientWaitingLaunch || len(p.Client.Lobby().Players) != o.Players {
				return false
			}
		}
		return true
	}, 5000) {
		require.FailNow(t, "lobby not reached", s.describe())
	}
	return s
}

func TestFirstClientIsControllerAndOnlyItCanLaunch(t *testing.T) {
	t.Parallel()
	s := lobby(t, Options{Players: 3, Seed: 1, Strict: true, Link: simnet.Link{LatencyMS: 10}})
	require.True(t, s.Peers[0].Client.Lobby().IsController, "the first client is not the controller")
	for _, p := range s.Peers[1:] {
		require.False(t, p.Client.Lobby().IsController, "peer %d also thinks it is the controller", p.Index)
	}
	before := s.Server.Counters().Unexpected
	s.Peers[1].Client.Launch()
	s.RunFor(2000)
	require.Equal(t, netcore.ServerWaitingLaunch, s.Server.State(), "a non-controller launched the game")
	require.NotEqual(t, before, s.Server.Counters().Unexpected, "the refused LAUNCH was not counted")
	s.Peers[0].Client.Launch()
	require.True(t, s.RunUntil(func() bool { return s.Server.State() == netcore.ServerInGame }, 3000), "the controller could not launch")
}

// rawPeer is a bare endpoint on the channel, for sending hand-made packets.
func rawPeer(s *Scenario, uid link.Addr) *simnet.FrameTransport {
	return simnet.NewFrameTransport(s.Net.AddNode(), uid)
}

// rejection returns the text of the first REJECTED that reached tr.
func rejection(t *testing.T, s *Scenario, tr *simnet.FrameTransport) string {
	t.Helper()
	var text string
	s.RunUntil(func() bool {
		for {
			from, pkt, ok := tr.Recv()
			if !ok {
				return text != ""
			}
			var m wire.Rejected
			if _, err := wire.Decode(pkt, &m); err == nil && from == ServerUID {
				text = m.Message
			}
		}
	}, 2000)
	return text
}

func syn(magic uint32) []byte {
	m := wire.SYN{Magic: magic, Version: "Chocolate Doom 3.0.0", Protocols: []string{wire.ProtocolChocolate},
		Connect:    wire.ConnectData{GameMode: wire.ModeCommercial, GameMission: wire.MissionDoom2, MaxPlayers: 4},
		PlayerName: "late"}
	return wire.Encode(nil, &m, false, 0)
}

func TestOldMagicIsRejectedWithTheReferenceText(t *testing.T) {
	t.Parallel()
	s := lobby(t, Options{Players: 2, Seed: 2, Strict: true})
	raw := rawPeer(s, 0x7777)
	raw.Send(ServerUID, syn(wire.OldMagic))
	want := "You are using an old client version that is not supported by this server. " +
		"This server is running Chocolate Doom 3.0.0."
	require.Equal(t, want, rejection(t, s, raw))
}

func TestFullServerRejectsWithTheReferenceText(t *testing.T) {
	t.Parallel()
	s := build(t, Options{Players: 3, Seed: 3, Strict: true, Server: netcore.ServerConfig{MaxPlayers: 2}})
	s.RunFor(3000)
	var rejected []string
	for _, p := range s.Peers {
		for _, e := range p.Events {
			if e.Kind == netcore.EventRejected {
				rejected = append(rejected, e.Reason)
			}
		}
	}
	require.Equal(t, []string{"Server is full!"}, rejected, "rejections")
	require.Len(t, s.Server.Players(), 2, "players on a 2-player server")
}

func TestGameInProgressRejectsWithTheReferenceText(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 2, Seed: 4, Strict: true})
	raw := rawPeer(s, 0x7778)
	raw.Send(ServerUID, syn(wire.Magic))
	require.Equal(t, "Server is not currently accepting connections", rejection(t, s, raw))
}

func TestClientWithoutACommonProtocolIsRejected(t *testing.T) {
	t.Parallel()
	s := lobby(t, Options{Players: 1, Seed: 5})
	c := netcore.NewClient(netcore.ClientConfig{Protocols: []string{"SOMETHING_ELSE"}},
		rawPeer(s, 0x7779), ServerUID, testgame.New(1), s.Now())
	var got netcore.Event
	s.RunUntil(func() bool {
		for _, e := range c.Update(s.Now()) {
			got = e
		}
		return got.Kind == netcore.EventRejected
	}, 3000)
	want := "Version mismatch: server version is: Chocolate Doom 3.0.0; client is: Chocolate Doom 3.0.0. " +
		"No common compatible protocol could be negotiated."
	require.Equal(t, netcore.EventRejected, got.Kind, "got %+v", got)
	require.Equal(t, netcore.CauseRejected, got.Cause, "got %+v", got)
	require.Equal(t, want, got.Reason)
}

// A client asks once a second, as the reference; one that offers the
// extension four times a second (the extension's reliable resend period),
// so that a copy joining under loss is not held up for seconds. Both give
// up after SYNGiveUpMS.
func TestClientGivesUpWhenNoServerAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		protocols []string
		want      int64
	}{{[]string{wire.ProtocolChocolate}, 6}, {nil, 21}} {
		n := simnet.New(1, simnet.Link{})
		c := netcore.NewClient(netcore.ClientConfig{Protocols: tc.protocols}, simnet.NewFrameTransport(n.AddNode(), 9), ServerUID,
			testgame.New(1), 0)
		var last netcore.Event
		for now := int64(0); now <= 6000; now += 10 {
			n.AdvanceTo(now)
			for _, e := range c.Update(now) {
				last = e
			}
		}
		require.Equal(t, netcore.EventDisconnected, last.Kind, "%v: got %+v", tc.protocols, last)
		require.Equal(t, netcore.ReasonNoResponse, last.Reason, "%v: why it disconnected", tc.protocols)
		require.Equal(t, netcore.CauseNoResponse, last.Cause, "%v: why it disconnected", tc.protocols)
		require.Equal(t, tc.want, c.Counters().PacketsSent, "%v: SYNs in 5 s", tc.protocols)
	}
}
