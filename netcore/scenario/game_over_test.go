package scenario

import (
	"fmt"
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
