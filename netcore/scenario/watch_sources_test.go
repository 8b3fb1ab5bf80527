package scenario

import (
	"encoding/binary"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// Watchers on a lossier link than the players' get the tics they miss
// from one another, not from the server (wire.TicSource): 4 players on
// the quiet channel, 16 watchers on the lossy one (20 % loss), opened a
// second apart from tic 200, watched for 10 s from 150 tics after the
// last opened. The server sends the watchers alone 978 bytes a second
// (the tics they still ask it for, two at a time when their source is
// slow, PushSourcedTics, and a watcher's 32 at a time once it is half a
// window behind, FallingBehindTics), where it sent them 6 174 with
// every missed tic its own to send (measured with the same seed and no
// source named); the watchers send one another 581 tics; every watcher
// watches, none plays, their checksums agree with the players', and
// every copy runs the commands the players built.
func TestLossyWatchersGetTheTicsTheyMissFromOneAnother(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 4, Seed: 1, Link: watchQuietLink, StateBytes: 16 << 10})
	require.NoError(t, s.RunTics(200, 60000))
	for range 16 {
		p := s.Watch()
		s.Net.SetLinks(p.Node, lossy)
		for range 37 {
			s.Step()
		}
	}
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+150, 60000))
	var toWatchers int64
	s.Net.Tap = func(_ int64, node int, frame []byte) {
		if node != s.HostNode.ID() {
			return
		}
		to := link.Addr(binary.LittleEndian.Uint32(frame))
		for _, p := range s.Peers[4:] {
			if p.UID == to {
				toWatchers += int64(len(frame))
			}
		}
	}
	served0 := int64(0)
	for _, p := range s.Peers[4:] {
		served0 += p.Client.Counters().TicsServed
	}
	t0 := s.Now()
	for s.Now() < t0+10000 {
		s.Step()
	}
	var served, fetches int64
	for _, p := range s.Peers[4:] {
		require.Equal(t, netcore.ClientInGame, p.Client.State(), "watcher %d", p.Index)
		require.Equal(t, -1, p.Client.Player(), "watcher %d's player", p.Index)
		served += p.Client.Counters().TicsServed
		fetches += p.Client.Counters().TicFetches
	}
	served -= served0
	perSec := float64(toWatchers) / 10
	t.Logf("the server sent the watchers alone %.0f bytes a second; the watchers sent one another %d tics, asked %d times in all", perSec, served, fetches)
	require.LessOrEqual(t, perSec, 978.0, "bytes a second the server sent the watchers alone")
	require.GreaterOrEqual(t, served, int64(581), "tics the watchers sent one another")
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+100, 60000))
	check(t, s, 300)
	noDesync(t, s)
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
