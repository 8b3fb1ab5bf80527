package scenario

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// desyncs returns the desync events peer saw (-1: the server).
func desyncs(s *Scenario, peer int) []Logged { return logged(s, peer, netcore.EventDesyncSuspected) }

// logged returns the events of kind that peer saw (-1: the server).
func logged(s *Scenario, peer int, kind netcore.EventKind) []Logged {
	var found []Logged
	for _, l := range s.Log {
		if l.Kind == kind && l.Peer == peer {
			found = append(found, l)
		}
	}
	return found
}

// everyClientHeardTheVerdict fails unless every peer's client heard the
// server's verdict on tic once, naming players (sorted).
func everyClientHeardTheVerdict(t *testing.T, s *Scenario, tic uint32, players []int) {
	t.Helper()
	for _, p := range s.Peers {
		got := logged(s, p.Index, netcore.EventDesyncVerdict)
		require.Len(t, got, 1, "peer %d: verdicts heard", p.Index)
		named := slices.Clone(got[0].Players)
		slices.Sort(named)
		require.Equal(t, tic, got[0].Tic, "peer %d: the verdict's tic", p.Index)
		require.Equal(t, players, named, "peer %d: the verdict's players", p.Index)
	}
}

// Under the reference protocol a broken copy shows in the consistency byte
// its commands carry, BackupTics tics after it broke: every other copy
// names its player, once, at the tic whose result differs; the broken copy
// names every other player.
func TestReferenceBrokenPeerFailsTheConsistencyCheckAtTheTicItBroke(t *testing.T) {
	t.Parallel()
	const breakAt = 600
	s := build(t, Options{Players: 4, Seed: 21, Strict: true, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}})
	broken := s.Peers[2]
	broken.Game.BreakAt = breakAt
	require.NoError(t, s.Start())
	// The first command whose byte differs is built for tic
	// breakAt+BackupTics+1; nothing may be said before it runs.
	require.NoError(t, s.RunTics(breakAt+netcore.BackupTics+1, 120000))
	require.Zero(t, s.Count(netcore.EventDesyncSuspected), "desync events before the first differing byte ran")
	require.NoError(t, s.RunTics(breakAt+netcore.BackupTics+200, 120000))
	bp := broken.Client.Player()
	for _, p := range s.Peers {
		got := desyncs(s, p.Index)
		var players []int
		for _, l := range got {
			assert.Equal(t, uint32(breakAt), l.Tic, "peer %d: the tic of its %v", p.Index, l.Event)
			players = append(players, l.Player)
		}
		slices.Sort(players)
		var want []int
		for _, q := range s.Peers {
			if (p == broken) != (q == broken) {
				want = append(want, q.Client.Player())
			}
		}
		slices.Sort(want)
		assert.Equal(t, want, players, "peer %d: the players it named", p.Index)
		assert.NotZero(t, p.Client.Counters().ConsistencyFailures, "peer %d counted no consistency failure", p.Index)
	}
	_, err := s.CheckSums()
	require.Error(t, err, "the broken copy's checksums agree with the others'")
	t.Logf("every copy named the other side at tic %d (player %d broke)", breakAt, bp)
}

// Under the extension, a two-player game where one copy breaks has no
// majority: the server names the tic and both players.
func TestTwoPlayerExtensionDesyncNamesTheTicAndBothPlayers(t *testing.T) {
	t.Parallel()
	const breakAt = 700
	s := build(t, Options{Players: 2, Seed: 22, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}})
	s.Peers[1].Game.BreakAt = breakAt
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(breakAt+200, 120000))
	found := desyncs(s, -1)
	require.Len(t, found, 1, "server desync events")
	e := found[0]
	players := slices.Clone(e.Players)
	slices.Sort(players)
	require.Equal(t, uint32(breakAt), e.Tic, "the desync's tic")
	require.Equal(t, []int{0, 1}, players, "the desync's players")
	require.Contains(t, []string{"player0, player1", "player1, player0"}, e.Name, "the desync's names")
	everyClientHeardTheVerdict(t, s, breakAt, []int{0, 1})
	t.Logf("server: %v at tic %d, %s", e.Event, e.Tic, e.Name)
}

// An eight-player extension game where one copy breaks: the server names
// the tic and that player, and tells every copy, the broken one too.
func TestBrokenPeerIsNamedByTheServerAtTheTicItDiverged(t *testing.T) {
	t.Parallel()
	s := build(t, Options{Players: 8, Seed: 14, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}})
	broken := s.Peers[6]
	broken.Game.BreakAt = 5000
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(5200, 300000))
	found := desyncs(s, -1)
	require.Len(t, found, 1, "server desync events")
	e := found[0]
	require.Equal(t, uint32(5000), e.Tic, "the desync's tic")
	require.Equal(t, []int{broken.Client.Player()}, e.Players, "the desync's players")
	require.Equal(t, fmt.Sprintf("player%d", broken.Index), e.Name, "the desync's name")
	everyClientHeardTheVerdict(t, s, 5000, []int{broken.Client.Player()})
	t.Logf("server: %v at tic %d, %s", e.Event, e.Tic, e.Name)
}
