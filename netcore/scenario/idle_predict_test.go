package scenario

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// idleInputs are the two kinds of command an idle player repeats: Doom's
// ticcmd, which carries a consistency byte, and opaque input, which
// carries none.
var idleInputs = []struct {
	name  string
	input tic.InputLayout
}{{"ticcmd", tic.InputLayout{}}, {"opaque", tic.InputLayout{Size: 4, Events: [tic.MaxInputBytes]byte{1: 0x80}}}}

// Players who build the same command every tic are predicted exactly,
// whatever the game's checksum does: the test game's changes every tic,
// and over 350 tics (past BackupTics, from where the consistency bytes
// recorded are the checksum's) no copy rolls back once, and every
// confirmed tic but the first, which nothing confirmed came before to
// predict from, ran predicted and stood. Before the fix, a predicted
// opaque command carried the consistency byte this copy recorded, which
// an opaque command never has: from tic 129 on every tic rolled back
// (222 of 350 tics on every copy, with 2 players and with 3).
func TestIdlePlayersArePredictedExactlyWhateverTheChecksum(t *testing.T) {
	t.Parallel()
	for _, in := range idleInputs {
		for _, players := range []int{2, 3} {
			t.Run(fmt.Sprintf("%s/%d-players", in.name, players), func(t *testing.T) {
				s := build(t, Options{Players: players, Seed: 31, Link: simnet.Link{LatencyMS: 50}, Predict: true, Input: in.input})
				for _, p := range s.Peers {
					p.Game.Idle = true
				}
				require.NoError(t, s.Start())
				require.NoError(t, s.RunTics(350, 60000))
				checksumChangesEveryTic(t, s.Peers[0].Game, 350)
				for i, p := range s.Peers {
					c, ran := p.Client.PredictCounters(), int64(p.Client.GameTic())
					t.Logf("peer %d: %d tics confirmed, %d predicted, %d stood, %d rollbacks", i, ran, c.Predicted, c.Stood, c.Rollbacks)
					require.Zero(t, c.Rollbacks, "peer %d of idle players: rollbacks", i)
					require.Zero(t, c.RolledBack, "peer %d of idle players: tics rolled back", i)
					require.Equal(t, ran-1, c.Stood, "peer %d of idle players: confirmed tics that stood as predicted, of %d", i, ran)
				}
				check(t, s, 340)
			})
		}
	}
}

// checksumChangesEveryTic fails unless g's checksum after each of its
// first tics differs from the one before: the premise of the tests here.
func checksumChangesEveryTic(t *testing.T, g *testgame.Game, tics int) {
	t.Helper()
	sums := g.Sums()
	require.GreaterOrEqual(t, len(sums), tics, "tics the game ran")
	for tic := 1; tic < tics; tic++ {
		require.NotEqual(t, sums[tic-1], sums[tic], "the game's checksum after tic %d is the one after tic %d", tic, tic-1)
	}
}

// blindGame is the test game blind to the consistency byte, as every game
// of the JS API is (tic.ConsistencyBlind): it runs the commands with
// the byte cleared.
type blindGame struct {
	*testgame.Game
	cmds [tic.MaxPlayers]tic.Cmd
}

func (*blindGame) IgnoresConsistency() {}

func (g *blindGame) RunTic(tic uint32, cmds *[tic.MaxPlayers]tic.Cmd, ingame *[tic.MaxPlayers]bool) {
	g.cmds = *cmds
	for p := range g.cmds {
		g.cmds[p].Consistency = 0
	}
	g.Game.RunTic(tic, &g.cmds, ingame)
}

// An idle player whose copy stalls 150 ms, five times, has its commands
// substituted (its last one again, the consistency byte of an earlier
// tic), then sends them on time again (the byte of this tic): a game
// blind to the byte, whose checksum changes every tic, rolls back for
// none of it, the copies agree at every tic, and every copy's replay
// records each substitute as the server decided it (the confirmed
// command, not the predicted one that stood for it). The test game, which
// mixes the byte into its state, must roll back for them: there the
// substitutes differ from the prediction.
func TestALateIdlePlayerCostsAGameBlindToTheConsistencyByteNoRollback(t *testing.T) {
	t.Parallel()
	for _, players := range []int{2, 3} {
		for _, blind := range []bool{true, false} {
			t.Run(fmt.Sprintf("%d-players/blind=%v", players, blind), func(t *testing.T) {
				o := Options{Players: players, Seed: 32, Link: simnet.Link{LatencyMS: 50}, Predict: true,
					Replay: replay.Config{Record: true}}
				var s *Scenario
				if blind {
					// New, not build: the blind game's commands cannot be
					// checked against the ones built (their byte is gone).
					o.WrapGame = func(g *testgame.Game) tic.Game { return &blindGame{Game: g} }
					s = New(o)
				} else {
					s = build(t, o)
				}
				for _, p := range s.Peers {
					p.Game.Idle = true
				}
				require.NoError(t, s.Start())
				require.NoError(t, s.RunTics(300, 60000))
				late := s.Peers[players-1]
				for range 5 {
					late.Paused = true
					s.RunFor(150)
					late.Paused = false
					s.RunFor(1000)
				}
				subs := s.Server.Counters().Substituted
				require.GreaterOrEqual(t, subs, int64(5), "commands the server substituted in 5 stalls (at least one a stall)")
				rollbacks := int64(0)
				for i, p := range s.Peers {
					c := p.Client.PredictCounters()
					t.Logf("peer %d: %d predicted tics stood, %d rollbacks undid %d", i, c.Stood, c.Rollbacks, c.RolledBack)
					rollbacks += c.Rollbacks
				}
				t.Logf("%d commands substituted, %d rollbacks in all", subs, rollbacks)
				if blind {
					require.Zero(t, rollbacks, "rollbacks of a game blind to the consistency byte, for %d substitutes of an idle player", subs)
				} else {
					require.NotZero(t, rollbacks, "the test game, which reads the consistency byte, never rolled back for %d substitutes", subs)
				}
				checksumChangesEveryTic(t, s.Peers[0].Game, 500)
				require.Equal(t, int(subs)*players, substitutesRecorded(t, s), "substitutes the copies' replays hold (the server's %d on each of %d copies)", subs, players)
				if blind {
					// The blind game runs commands without their byte: only
					// the checksums can be compared, not the commands.
					n, err := s.CheckSums()
					require.NoError(t, err)
					require.GreaterOrEqual(t, n, 490, "tics compared")
				} else {
					check(t, s, 490)
				}
			})
		}
	}
}

// substitutesRecorded fails unless every copy's replay records each
// substitute as the server decided it: the command of the tic before,
// events cleared, its consistency byte included (a copy whose predicted
// tic stood records the confirmed commands, not the predicted ones). It
// returns the substitutes it found in all the replays.
func substitutesRecorded(t *testing.T, s *Scenario) int {
	t.Helper()
	found := 0
	for i, p := range s.Peers {
		rr, err := wire.NewReplayReader(p.Client.Replay())
		require.NoError(t, err, "peer %d's replay", i)
		var rec wire.ReplayRecord
		var prev wire.ReplayTic
		for {
			if err := rr.Next(&rec); errors.Is(err, io.EOF) {
				break
			} else {
				require.NoError(t, err, "peer %d's replay", i)
			}
			if rec.IsSnapshot() {
				continue
			}
			rt := rec.Tic
			for pl := range tic.MaxPlayers {
				if rt.Substituted&(1<<pl) == 0 {
					continue
				}
				found++
				want := (&tic.InputLayout{}).ClearEvents(prev.Cmds[pl])
				require.Equal(t, prev.Tic+1, rt.Tic, "peer %d's replay: the tic after player %d's substitute's", i, pl)
				require.Equal(t, want, rt.Cmds[pl], "peer %d's replay: player %d's substitute at tic %d (the command of tic %d)", i, pl, rt.Tic, prev.Tic)
			}
			prev = rt
		}
	}
	return found
}
