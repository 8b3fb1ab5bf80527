package scenario

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"
)

// idleInputs are the two kinds of command an idle player repeats: Doom's
// ticcmd, which carries a consistency byte, and opaque input, which
// carries none.
var idleInputs = []struct {
	name  string
	input netcore.InputLayout
}{{"ticcmd", netcore.InputLayout{}}, {"opaque", netcore.InputLayout{Size: 4, Events: [netcore.MaxInputBytes]byte{1: 0x80}}}}

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
	for _, in := range idleInputs {
		for _, players := range []int{2, 3} {
			t.Run(fmt.Sprintf("%s/%d-players", in.name, players), func(t *testing.T) {
				s := build(t, Options{Players: players, Seed: 31, Link: simnet.Link{LatencyMS: 50}, Predict: true, Input: in.input})
				for _, p := range s.Peers {
					p.Game.Idle = true
				}
				if err := s.Start(); err != nil {
					t.Fatal(err)
				}
				if err := s.RunTics(350, 60000); err != nil {
					t.Fatal(err)
				}
				checksumChangesEveryTic(t, s.Peers[0].Game, 350)
				for i, p := range s.Peers {
					c, ran := p.Client.PredictCounters(), int64(p.Client.GameTic())
					t.Logf("peer %d: %d tics confirmed, %d predicted, %d stood, %d rollbacks", i, ran, c.Predicted, c.Stood, c.Rollbacks)
					if c.Rollbacks != 0 || c.RolledBack != 0 || c.Stood != ran-1 {
						t.Fatalf("peer %d of idle players rolled back %d times (undoing %d tics), %d of its %d confirmed tics stood as predicted; want 0, 0 and %d",
							i, c.Rollbacks, c.RolledBack, c.Stood, ran, ran-1)
					}
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
	if len(sums) < tics {
		t.Fatalf("the game ran %d tics, want %d", len(sums), tics)
	}
	for tic := 1; tic < tics; tic++ {
		if sums[tic] == sums[tic-1] {
			t.Fatalf("the game's checksum after tic %d is the one after tic %d: %08x", tic, tic-1, sums[tic])
		}
	}
}

// blindGame is the test game blind to the consistency byte, as every game
// of the JS API is (netcore.ConsistencyBlind): it runs the commands with
// the byte cleared.
type blindGame struct {
	*testgame.Game
	cmds [netcore.MaxPlayers]netcore.TicCmd
}

func (*blindGame) IgnoresConsistency() {}

func (g *blindGame) RunTic(tic uint32, cmds *[netcore.MaxPlayers]netcore.TicCmd, ingame *[netcore.MaxPlayers]bool) {
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
	for _, players := range []int{2, 3} {
		for _, blind := range []bool{true, false} {
			t.Run(fmt.Sprintf("%d-players/blind=%v", players, blind), func(t *testing.T) {
				o := Options{Players: players, Seed: 32, Link: simnet.Link{LatencyMS: 50}, Predict: true,
					Replay: netcore.ReplayConfig{Record: true}}
				var s *Scenario
				if blind {
					// New, not build: the blind game's commands cannot be
					// checked against the ones built (their byte is gone).
					o.WrapGame = func(g *testgame.Game) netcore.Game { return &blindGame{Game: g} }
					s = New(o)
				} else {
					s = build(t, o)
				}
				for _, p := range s.Peers {
					p.Game.Idle = true
				}
				if err := s.Start(); err != nil {
					t.Fatal(err)
				}
				if err := s.RunTics(300, 60000); err != nil {
					t.Fatal(err)
				}
				late := s.Peers[players-1]
				for range 5 {
					late.Paused = true
					s.RunFor(150)
					late.Paused = false
					s.RunFor(1000)
				}
				subs := s.Server.Counters().Substituted
				if subs < 5 {
					t.Fatalf("the server substituted %d commands in 5 stalls, want at least one a stall", subs)
				}
				rollbacks := int64(0)
				for i, p := range s.Peers {
					c := p.Client.PredictCounters()
					t.Logf("peer %d: %d predicted tics stood, %d rollbacks undid %d", i, c.Stood, c.Rollbacks, c.RolledBack)
					rollbacks += c.Rollbacks
				}
				t.Logf("%d commands substituted, %d rollbacks in all", subs, rollbacks)
				switch {
				case blind && rollbacks != 0:
					t.Fatalf("a game blind to the consistency byte rolled back %d times for %d substitutes of an idle player, want 0", rollbacks, subs)
				case !blind && rollbacks == 0:
					t.Fatalf("the test game, which reads the consistency byte, never rolled back for %d substitutes", subs)
				}
				checksumChangesEveryTic(t, s.Peers[0].Game, 500)
				if n := substitutesRecorded(t, s); n != int(subs)*players {
					t.Fatalf("the copies' replays hold %d substitutes, want the server's %d on each of %d copies", n, subs, players)
				}
				if blind {
					// The blind game runs commands without their byte: only
					// the checksums can be compared, not the commands.
					if n, err := s.CheckSums(); err != nil || n < 490 {
						t.Fatalf("compared %d tics: %v", n, err)
					}
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
		if err != nil {
			t.Fatalf("peer %d's replay: %v", i, err)
		}
		var rec wire.ReplayRecord
		var prev wire.ReplayTic
		for {
			if err := rr.Next(&rec); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("peer %d's replay: %v", i, err)
			}
			if rec.IsSnapshot() {
				continue
			}
			tic := rec.Tic
			for pl := range netcore.MaxPlayers {
				if tic.Substituted&(1<<pl) == 0 {
					continue
				}
				found++
				want := (&netcore.InputLayout{}).ClearEvents(prev.Cmds[pl])
				if prev.Tic+1 != tic.Tic || tic.Cmds[pl] != want {
					t.Fatalf("peer %d's replay records player %d's substitute at tic %d as %+v, the command of tic %d as %+v",
						i, pl, tic.Tic, tic.Cmds[pl], prev.Tic, want)
				}
			}
			prev = tic
		}
	}
	return found
}
