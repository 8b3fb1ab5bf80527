package scenario

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"

	"github.com/stretchr/testify/require"
)

// endingGame is the test game over once it has run tic overAfter
// (tic.Ending), which hears of every confirmed tic (tic.ConfirmAware).
type endingGame struct {
	*testgame.Game
	overAfter uint32
	last      uint32 // the tic the game last ran: its state is after it
	confirmed []uint32
	sums      []uint32 // the checksum the engine gave with each confirmed tic
}

func (g *endingGame) RunTic(t uint32, cmds *[tic.MaxPlayers]tic.Cmd, ingame *[tic.MaxPlayers]bool) {
	g.last = t
	g.Game.RunTic(t, cmds, ingame)
}

func (g *endingGame) Over() bool { return g.last >= g.overAfter }

func (g *endingGame) Confirmed(t, sum uint32) {
	g.confirmed = append(g.confirmed, t)
	g.sums = append(g.sums, sum)
}

// endingGames wraps every peer's game as an endingGame over after tic
// overAfter, and returns them by peer.
func endingGames(o *Options, overAfter uint32) map[*testgame.Game]*endingGame {
	games := map[*testgame.Game]*endingGame{}
	o.WrapGame = func(g *testgame.Game) tic.Game {
		eg := &endingGame{Game: g, overAfter: overAfter}
		games[g] = eg
		return eg
	}
	return games
}

// A game that says it is over after tic 299 ends there on every copy,
// predicting on a lossy channel (with rollbacks), with the server's copy
// or under a dedicated server that runs no game: every copy and the
// server report one end, before tic 300, the game ended itself; no copy
// runs a tic past it, and each game is left at its state after tic 299
// (the tics predicted past it are dropped). The confirmed-tic hook hears
// of tics 0 to 299, each once and in order, with the checksum every copy
// agrees on: never of a predicted tic, though every copy predicted many
// and rolled some back (or, idle, had tics predicted past the end). Each
// copy's replay ends before tic 300 too, and plays back without a
// mismatch.
func TestAGameThatSaysItIsOverEndsThereOnEveryCopy(t *testing.T) {
	const end = 300
	for _, c := range []struct{ dedicated, idle bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		t.Run(fmt.Sprintf("dedicated=%v/idle=%v", c.dedicated, c.idle), func(t *testing.T) {
			o := Options{Players: 3, Seed: 71, Dedicated: c.dedicated, Predict: true,
				Link: simnet.Link{LatencyMS: 40, JitterMS: 20, Loss: 0.05}, Replay: replay.Config{Record: true}}
			games := endingGames(&o, end-1)
			s := build(t, o)
			for _, p := range s.Peers {
				p.Game.Idle = c.idle
			}
			// A client's prediction counters start again with its next
			// game: kept here from the game's last step.
			counters := make([]netcore.PredictCounters, len(s.Peers))
			s.OnStep = func(int64) {
				for i, p := range s.Peers {
					if p.Client.State() == netcore.ClientInGame {
						counters[i] = p.Client.PredictCounters()
					}
				}
			}
			require.NoError(t, s.Start())
			if !s.RunUntil(func() bool { return s.Server.State() == netcore.ServerWaitingLaunch }, 60000) {
				require.FailNow(t, "the server did not go back to its lobby", s.describe())
			}
			s.RunFor(1000)
			n, tics := eventsOf(s, netcore.EventGameEnded)
			want := s.Peers[0].Game.Sums()[:end]
			rollbacks, stood, dropped := int64(0), int64(0), int64(0)
			for i, p := range s.Peers {
				require.Equal(t, 1, n[i], "peer %d: ends", i)
				require.Equal(t, uint32(end), tics[i], "peer %d: the tic it ended before", i)
				e, _ := s.Find(i, netcore.EventGameEnded, 0)
				require.Equal(t, netcore.ReasonGameOver, e.Reason, "peer %d: why it ended", i)
				require.Equal(t, netcore.ClientWaitingLaunch, p.Client.State(), "peer %d: state", i)
				require.Equal(t, uint32(end), p.Client.GameTic(), "peer %d: gametic", i)
				g := games[p.Game]
				require.Equal(t, want[end-1], g.Checksum(), "peer %d: the game's state is not the one after tic %d", i, end-1)
				require.Len(t, g.confirmed, end, "peer %d: confirmed tics heard of", i)
				for k, tc := range g.confirmed {
					require.Equal(t, uint32(k), tc, "peer %d: the confirmed tic heard of %d-th", i, k)
					require.Equal(t, want[k], g.sums[k], "peer %d: the checksum heard of with confirmed tic %d", i, k)
				}
				rp, err := replay.NewPlayer(p.Client.Replay(), &endingGame{Game: testgame.New(1), overAfter: end - 1})
				require.NoError(t, err, "peer %d: its replay", i)
				require.Equal(t, uint32(end), rp.End(), "peer %d: the tic its replay ends before", i)
				_, err = rp.Run(2 * end)
				require.NoError(t, err, "peer %d: playing its replay", i)
				require.True(t, rp.Done(), "peer %d: its replay played to its end", i)
				require.Zero(t, rp.Mismatches(), "peer %d: checksums its replay's playback differs in", i)
				pc := counters[i]
				rollbacks += pc.Rollbacks
				stood += pc.Stood
				dropped += pc.Predicted - pc.Stood - pc.RolledBack
				t.Logf("peer %d: %d tics predicted, %d stood, %d rollbacks undid %d", i, pc.Predicted, pc.Stood, pc.Rollbacks, pc.RolledBack)
			}
			if c.idle {
				// Idle players are predicted exactly: the end's tic is
				// confirmed as it was predicted, with tics predicted past it.
				require.Greater(t, stood, int64(3*(end-10)), "predicted tics that stood")
				require.NotZero(t, dropped, "tics predicted past the end, dropped")
			} else {
				require.NotZero(t, rollbacks, "rollbacks on the lossy channel (the premise: predicted tics were undone)")
			}
			ended := 0
			for _, e := range s.ServerEvents {
				if e.Kind == netcore.EventGameEnded {
					ended++
					require.Equal(t, uint32(end), e.Tic, "the server: the tic the game ended before")
					require.Equal(t, netcore.ReasonGameOver, e.Reason, "the server: why it ended")
				}
			}
			require.Equal(t, 1, ended, "the server's ends")
			require.Zero(t, s.Count(netcore.EventEndAsked), "ends asked")
			check(t, s, end-1)
		})
	}
}

// Under the reference protocol a game that says it is over plays on
// (Chocolate Doom has no such end): the engine ignores the word; the
// confirmed-tic hook still hears of every tic.
func TestAReferenceGameThatSaysItIsOverPlaysOn(t *testing.T) {
	o := Options{Players: 2, Seed: 72, Strict: true, Link: simnet.Link{LatencyMS: 30}}
	games := endingGames(&o, 99)
	s := build(t, o)
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(200, 60000))
	require.Zero(t, s.Count(netcore.EventGameEnded), "ends")
	for i, p := range s.Peers {
		require.Equal(t, netcore.ClientInGame, p.Client.State(), "peer %d: state", i)
		require.Len(t, games[p.Game].confirmed, int(p.Client.GameTic()), "peer %d: confirmed tics heard of", i)
	}
	check(t, s, 190)
}

// hookedSaves is countedSaves with both hooks: it counts the confirmed
// tics it hears of and is never over.
type hookedSaves struct {
	countedSaves
	confirmed *int
}

func (g *hookedSaves) Over() bool               { return false }
func (g *hookedSaves) Confirmed(uint32, uint32) { *g.confirmed++ }

// The hooks cost no allocation: a predicting game that implements both
// allocates, over 2000 steps, its states and no more than the harness's
// stray few (TestPredictionAllocatesOnlyTheGamesStates), and hears of
// every confirmed tic.
func TestTheGamesHooksAllocateNothing(t *testing.T) {
	saves, confirmed := 0, 0
	wrap := func(g *testgame.Game) tic.Game {
		return &hookedSaves{countedSaves: countedSaves{Game: g, saves: &saves}, confirmed: &confirmed}
	}
	s := start(t, Options{Players: 4, Seed: 1, Link: simnet.Link{LatencyMS: 50}, Predict: true, Quiet: true, WrapGame: wrap})
	require.NoError(t, s.RunTics(300, 60000))
	var before, after runtime.MemStats
	saves, confirmed = 0, 0
	from := s.GameTics()
	runtime.ReadMemStats(&before)
	for range 2000 {
		s.Step()
	}
	runtime.ReadMemStats(&after)
	got := after.Mallocs - before.Mallocs
	ran := 0
	for i, g := range s.GameTics() {
		ran += int(g - from[i])
	}
	require.Equal(t, ran, confirmed, "confirmed tics the 4 games heard of in 2000 steps: the tics they confirmed")
	require.NotZero(t, saves, "2000 steps of a predicting 4-player game: the game's states")
	// An allocation per confirmed tic would add more than 1000; the
	// harness's own (its logs growing, the runtime's) come to a dozen.
	require.Greater(t, confirmed, 1000, "confirmed tics in 2000 steps")
	require.LessOrEqual(t, got, uint64(saves)+32, "2000 steps of a predicting 4-player game: allocations, at most 32 beside the game's states")
	t.Logf("%d confirmed tics heard of; %d allocations, %d of them the game's states", confirmed, got, saves)
}

// A copy that joined the game late ends it where the others do: its game,
// loaded from a snapshot, says it is over after the same tic, and it gets
// the same end; its hook heard of the confirmed tics from the one it
// started at.
func TestALateJoinerEndsWhereTheOthersDo(t *testing.T) {
	const end = 400
	o := Options{Players: 3, Seed: 73, Predict: true, Link: simnet.Link{LatencyMS: 30, JitterMS: 10, Loss: 0.02}}
	games := endingGames(&o, end-1)
	s := build(t, o)
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(100, 60000))
	j := s.Join()
	require.True(t, s.RunUntil(func() bool { return playing(j) }, 30000), "the joiner did not enter the game: %v", j.Events)
	started, ok := s.Find(j.Index, netcore.EventGameStarted, 0)
	require.True(t, ok && started.Start != nil && started.Start.Joined, "the joiner's start: %v", started)
	from := started.Tic
	if !s.RunUntil(func() bool { return s.Server.State() == netcore.ServerWaitingLaunch }, 60000) {
		require.FailNow(t, "the server did not go back to its lobby", s.describe())
	}
	s.RunFor(1000)
	n, tics := eventsOf(s, netcore.EventGameEnded)
	for i, p := range s.Peers {
		require.Equal(t, 1, n[i], "peer %d: ends", i)
		require.Equal(t, uint32(end), tics[i], "peer %d: the tic it ended before", i)
		e, _ := s.Find(i, netcore.EventGameEnded, 0)
		require.True(t, e.Over, "peer %d: its end's Over", i)
		require.Equal(t, netcore.ClientWaitingLaunch, p.Client.State(), "peer %d: state", i)
	}
	g := games[j.Game]
	require.Len(t, g.confirmed, int(end-from), "the joiner: confirmed tics heard of, from tic %d", from)
	require.Equal(t, from, g.confirmed[0], "the joiner: the first confirmed tic heard of")
	t.Logf("the joiner started at tic %d; every copy ended before tic %d", from, end)
	check(t, s, end-1)
}
