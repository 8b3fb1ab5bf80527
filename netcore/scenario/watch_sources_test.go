package scenario

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// Watchers on a lossier link than the players' get the tics they miss
// from one another, not from the server (wire.TicSource): 4 players on
// the quiet channel, 16 watchers on the lossy one (20 % loss), opened
// 185 ms apart from tic 200, watched for 30 s from 2 s after the last
// watched, 8 seeds, with tic sources and without
// (ServerConfig.NoTicSources: every missed tic the server's to send).
// The server sends the watchers alone 1 852 bytes a second on average
// where it sent 9 027: 4.87 times less (asserted: at most 1 852, at
// least 4.87). Before the attests it sent 1 397 against 8 645, 6.19
// times less (1 259 against 8 185, 6.49 times, before the frames were
// authenticated): a watcher on the lossy link that lost the attests
// that vouch for the tics it holds asks the server for one
// (wire.AttestFetch, 106 bytes an answer) when its source has not
// passed one on with its tics. What it still sends is the tics they ask it for, two at a
// time when their source is slow (PushSourcedTics), and 32 at a time
// once one is half a window behind (FallingBehindTics): it comes in
// bursts, 450 to 2 600 bytes a second by 3 s, so that a window of 10 s
// measures half as much again or less by chance. The watchers send one
// another 1 600-1 740 tics a game; every watcher watches, none plays, their
// checksums agree with the players', and every copy runs the commands
// the players built.
func TestLossyWatchersGetTheTicsTheyMissFromOneAnother(t *testing.T) {
	t.Parallel()
	var with, without float64
	for seed := uint64(1); seed <= 8; seed++ {
		perSec, served := lossyWatchersSteady(t, seed, false)
		require.Positive(t, served, "seed %d: tics the watchers sent one another", seed)
		alone, _ := lossyWatchersSteady(t, seed, true)
		t.Logf("seed %d: the server sent the watchers alone %.0f bytes a second, %.0f with every missed tic its own; the watchers sent one another %d tics", seed, perSec, alone, served)
		with, without = with+perSec/8, without+alone/8
	}
	t.Logf("the server sent the watchers alone %.0f bytes a second on average, %.0f with every missed tic its own: %.2f times less", with, without, without/with)
	require.LessOrEqual(t, with, 1852.0, "bytes a second the server sent the watchers alone, on average")
	require.GreaterOrEqual(t, without/with, 4.87, "times fewer bytes with tic sources than without")
}

// lossyWatchersSteady runs TestLossyWatchersGetTheTicsTheyMissFromOneAnother's
// game of one seed, with tic sources or without (alone): it returns what
// the server sent the watchers alone a second over the 30 s measured,
// and the tics the watchers sent one another then.
func lossyWatchersSteady(t *testing.T, seed uint64, alone bool) (perSec float64, served int64) {
	s := start(t, Options{Players: 4, Seed: seed, Link: watchQuietLink, StateBytes: 16 << 10, Server: netcore.ServerConfig{NoTicSources: alone}})
	require.NoError(t, s.RunTics(200, 60000))
	for range 16 {
		p := s.Watch()
		s.Net.SetLinks(p.Node, lossy)
		for range 37 {
			s.Step()
		}
	}
	watchers := s.Peers[4:]
	require.True(t, s.RunUntil(func() bool {
		return !slices.ContainsFunc(watchers, func(p *Peer) bool { return p.Client.State() != netcore.ClientInGame || p.Client.Joining() })
	}, 30000), "seed %d: every watcher watches", seed)
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+70, 60000))
	var toWatchers int64
	s.Net.Tap = func(_ int64, node int, frame []byte) {
		if node != s.HostNode.ID() {
			return
		}
		to := link.Addr(binary.LittleEndian.Uint32(frame))
		if slices.ContainsFunc(watchers, func(p *Peer) bool { return p.UID == to }) {
			toWatchers += int64(len(frame))
		}
	}
	for _, p := range watchers {
		served -= p.Client.Counters().TicsServed
	}
	t0 := s.Now()
	for s.Now() < t0+30000 {
		s.Step()
	}
	for _, p := range watchers {
		require.Equal(t, netcore.ClientInGame, p.Client.State(), "seed %d: watcher %d", seed, p.Index)
		require.Equal(t, -1, p.Client.Player(), "seed %d: watcher %d's player", seed, p.Index)
		served += p.Client.Counters().TicsServed
	}
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+100, 60000))
	check(t, s, 300)
	noDesync(t, s)
	return float64(toWatchers) / 30, served
}

// A tic set sent to a watcher by a copy other than its tic source, with
// the watcher's connection tag and commands no player built, changes
// nothing: the watcher drops each, counted as unexpected, exactly once,
// and runs the players' commands, in step with them.
func TestTicSetsFromACopyNotTheSourceChangeNothing(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 4, Drones: 2, Seed: 53, Link: watchQuietLink})
	w := s.Peers[4]
	tag := playedWatching(t, s, w)
	const forged = 200
	before := w.Client.Counters().Unexpected
	cmd := wire.Diff(&tic.Cmd{}, &tic.Cmd{ForwardMove: 50, SideMove: -50})
	for range forged {
		next := s.Server.SendSeq()
		set := wire.TicSet{Start: next, Tics: []wire.SetTic{{ServerTic: wire.ServerTic{InGame: 0xf, Cmds: [wire.MaxPlayers]wire.TicDiff{cmd, cmd, cmd, cmd}}}}}
		pkt := wire.Encode(nil, &set, false, 0)
		wire.SetTag(pkt, tag)
		s.Peers[1].Frame.Send(w.UID, pkt) // a player's copy: never a source
		for range 2 {
			s.Step()
		}
	}
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+100, 60000))
	require.Equal(t, int64(forged), w.Client.Counters().Unexpected-before, "the forged sets the watcher counted")
	check(t, s, 450)
	noDesync(t, s)
}
