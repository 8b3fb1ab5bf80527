package scenario

import (
	"bytes"
	"fmt"
	"math/bits"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// serverRecording is a dedicated server that records its games.
var serverRecording = netcore.ServerConfig{Replay: replay.ServerConfig{Record: true}}

// checkServerReplay plays the server's replay into a new game and checks
// that it ran every recorded tic as every peer that ran it did: the same
// commands, the same players, from the same state. It returns the replay's
// tics.
func checkServerReplay(t *testing.T, s *Scenario, data []byte) []wire.ReplayTic {
	t.Helper()
	var tics []wire.ReplayTic
	for _, r := range readAll(t, data) {
		require.False(t, r.IsSnapshot(), "a server's replay holds a snapshot at tic %d", r.Tic.Tic)
		require.False(t, r.Tic.HasSum, "a server's replay holds a checksum at tic %d", r.Tic.Tic)
		tics = append(tics, r.Tic)
	}
	g := testgame.New(99)
	res, err := replay.Verify(data, g)
	require.NoError(t, err)
	require.Equal(t, len(tics), res.Tics, "tics the replay ran")
	require.Zero(t, res.Checked, "checksums the replay compared")
	for _, p := range s.Peers {
		ran := p.Game.Ran()
		for _, rt := range tics {
			want := ran.At(rt.Tic)
			if !want.OK {
				continue // the peer had left, or not run it yet
			}
			got := g.Ran().At(rt.Tic)
			require.Equal(t, want.InGame, got.InGame, "tic %d: the players the server's replay ran (peer %d's)", rt.Tic, p.Index)
			require.Equal(t, want.Before, got.Before, "tic %d: the state the server's replay ran from (peer %d's)", rt.Tic, p.Index)
			for q := range got.Cmds {
				require.Equal(t, want.Cmds[q], got.Cmds[q], "tic %d: player %d's command the server's replay ran (peer %d's)", rt.Tic, q, p.Index)
			}
		}
	}
	return tics
}

// A dedicated server's replay of a game on the lossy channel, under either
// protocol, (under the extension) a player leaving half way: it holds
// every tic the server let go, and plays back, tic by tic, exactly what
// every copy ran; under the extension protocol it names the commands the
// server substituted. (Under the reference, copies on a lossy channel may
// see a player leave at different tics, each relayed its own stream: that
// game is played to its end without a leave.)
func TestTheServersReplayPlaysBackWhatEveryCopyRan(t *testing.T) {
	t.Parallel()
	for _, proto := range protocols {
		t.Run(proto.name, func(t *testing.T) {
			s := start(t, Options{Players: 4, Seed: 61, Link: lossy, Strict: proto.strict, Dedicated: true,
				Server: serverRecording})
			require.NoError(t, s.RunTics(800, 300000))
			all, remain := uint8(0b1111), uint8(0b1111)
			if !proto.strict {
				leaver := s.Peers[3]
				remain &^= 1 << leaver.Client.Player()
				leaver.Client.Leave(s.Now())
				s.RunFor(1000)
				leaver.Paused = true
			}
			require.NoError(t, s.RunTics(1500, 300000))
			check(t, s, 1400)

			data := bytes.Clone(s.Server.Replay())
			r, err := wire.NewReplayReader(data)
			require.NoError(t, err)
			h := r.Header
			require.Equal(t, s.Peers[0].Client.Protocol(), h.Protocol, "the header's protocol")
			require.Zero(t, h.Start, "the header's first tic")
			require.Zero(t, h.SumEvery, "the header's checksum period")
			require.Len(t, h.Names, 4, "the header's names")
			require.Equal(t, uint8(4), h.Settings.NumPlayers, "the header's players")
			for _, p := range s.Peers {
				require.Equal(t, fmt.Sprintf("player%d", p.Index), h.Names[p.Client.Player()], "player %d's name in the replay", p.Client.Player())
			}
			tics := checkServerReplay(t, s, data)
			require.GreaterOrEqual(t, len(tics), 1400, "tics recorded")
			require.Equal(t, len(tics)-1, int(tics[len(tics)-1].Tic), "the last tic recorded")
			left := uint32(len(tics))
			substituted, cmds := 0, 0
			for _, rt := range tics {
				if rt.InGame != all && left == uint32(len(tics)) {
					left = rt.Tic
				}
				substituted += bits.OnesCount8(rt.Substituted)
				cmds += bits.OnesCount8(rt.InGame)
			}
			require.Equal(t, remain, tics[len(tics)-1].InGame, "the last tic's players")
			require.GreaterOrEqual(t, left, uint32(800), "the first tic without all four")
			want := int(s.Server.Counters().Substituted)
			require.Equal(t, want, substituted, "substitutes the replay names (the server's)")
			require.Equal(t, proto.strict, want == 0, "the server made no substitute")
			t.Logf("%d tics, all four players until tic %d, %d substitutes; %d bytes, %.2f bytes per tic per player",
				len(tics), left, substituted, len(data), float64(len(data))/float64(cmds))
		})
	}
}

// Recording changes nothing on the wire: the same game with and without
// it sends and receives the same packets and bytes everywhere, and runs
// the same tics. Without it, the server has no replay.
func TestRecordingAtTheServerChangesNoTraffic(t *testing.T) {
	t.Parallel()
	for _, proto := range protocols {
		t.Run(proto.name, func(t *testing.T) {
			var runs [2]*Scenario
			for i, cfg := range []netcore.ServerConfig{{}, serverRecording} {
				s := start(t, Options{Players: 3, Seed: 62, Link: lossy, Strict: proto.strict, Dedicated: true, Server: cfg})
				require.NoError(t, s.RunTics(600, 300000))
				runs[i] = s
			}
			off, on := runs[0], runs[1]
			require.Nil(t, off.Server.Replay(), "the unrecorded game's replay")
			require.Zero(t, off.Server.ReplayGame(), "the unrecorded game's replay game")
			require.Equal(t, 1, on.Server.ReplayGame(), "the recorded game's replay game")
			require.Equal(t, off.Server.Counters(), on.Server.Counters(), "server counters, without recording and with")
			for i := range off.Peers {
				require.Equal(t, off.Peers[i].Client.Counters(), on.Peers[i].Client.Counters(), "peer %d: counters, without recording and with", i)
				require.Equal(t, off.Peers[i].Client.GameTic(), on.Peers[i].Client.GameTic(), "peer %d: gametic, without recording and with", i)
			}
			require.Equal(t, off.Now(), on.Now(), "the games' time, ms, without recording and with")
			require.NotEmpty(t, on.Server.Replay(), "the recorded game's replay")
		})
	}
}

// Each game the server plays has its own replay, numbered, each from tic 0.
func TestTheServerRecordsEachGameInItsOwnReplay(t *testing.T) {
	t.Parallel()
	// (Not build: the test game keeps the first game's tics, which the
	// second builds again.)
	s := New(Options{Players: 2, Seed: 63, Link: lossy, Dedicated: true, Server: serverRecording})
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(300, 60000))
	s.Peers[0].Client.RequestEnd()
	if !s.RunUntil(func() bool { return s.Server.State() == netcore.ServerWaitingLaunch }, 10000) {
		require.FailNow(t, "the game did not end", s.describe())
	}
	first := bytes.Clone(s.Server.Replay())
	end := s.Peers[0].Client.GameTic()
	require.Equal(t, 1, s.Server.ReplayGame(), "the first game's number")
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(200, 60000))
	require.Equal(t, 2, s.Server.ReplayGame(), "the second game's number")
	require.Len(t, readAll(t, first), int(end), "tics the first game's replay holds: it ended at tic %d", end)
	// The test game goes on from the first game's state: compare the
	// second game's commands, not its states.
	second := readAll(t, s.Server.Replay())
	require.GreaterOrEqual(t, len(second), 150, "tics the second game's replay holds")
	require.Zero(t, second[0].Tic.Tic, "the second game's replay's first tic")
	for _, p := range s.Peers {
		for _, r := range second {
			if r.Tic.Tic >= p.Client.GameTic() {
				break // not run yet
			}
			ran := p.Game.Ran().At(r.Tic.Tic)
			require.Equal(t, r.Tic.Cmds, ran.Cmds, "second game, tic %d: the commands peer %d ran (the replay's)", r.Tic.Tic, p.Index)
			require.Equal(t, r.Tic.InGame, ran.InGame, "second game, tic %d: the players peer %d ran (the replay's)", r.Tic.Tic, p.Index)
		}
	}
}

// A replay stops at its size bound, whole up to its last tic.
func TestTheServersReplayStopsWholeAtItsSizeBound(t *testing.T) {
	t.Parallel()
	const bound = 2000
	s := start(t, Options{Players: 2, Seed: 64, Dedicated: true,
		Server: netcore.ServerConfig{Replay: replay.ServerConfig{Record: true, MaxBytes: bound}}})
	require.NoError(t, s.RunTics(400, 60000))
	data := s.Server.Replay()
	recs := readAll(t, data)
	require.True(t, s.Server.ReplayStopped(), "the replay did not stop")
	require.Greater(t, len(data), bound, "replay bytes")
	require.LessOrEqual(t, len(data), bound+100, "replay bytes")
	require.Less(t, len(recs), 400, "tics recorded")
	checkServerReplay(t, s, data)
}
