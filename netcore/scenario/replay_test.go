package scenario

import (
	"bytes"
	"io"
	"testing"

	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// replayTics is the length of the recorded game of the replay tests.
const replayTics = 10000

// recordLossyGame plays an 8-player game of n tics on the lossy channel,
// every copy recording, and checks it as every scenario is checked.
func recordLossyGame(t *testing.T, n int) *Scenario {
	t.Helper()
	s := start(t, Options{Players: 8, Seed: 21, Link: lossy, Replay: replay.Config{Record: true}})
	require.NoError(t, s.RunTics(uint32(n), int64(n)*1000))
	check(t, s, n-100)
	noDesync(t, s)
	return s
}

// A 10 000-tic, 8-player game on the lossy channel: each copy's replay
// holds every tic it ran, with the commands it ran, and plays back into a
// new game to the recorded checksum at every tic; a seek through a
// snapshot lands on the same states.
func TestAReplayOfALossyGamePlaysBackToEveryChecksum(t *testing.T) {
	t.Parallel()
	s := recordLossyGame(t, replayTics)
	for _, p := range s.Peers {
		checkReplay(t, p)
	}

	// What the replay costs, to the byte, beside what the channel carried:
	// 1 080 321 bytes over 10 005 tics, 13.50 bytes per tic per player, where
	// the channel carried 13 107 622 bytes, 1 310.1 per tic, its frames
	// authenticated (the README's figures; BenchmarkReplayBytes prints the
	// same game's).
	const wantReplayBytes, wantWireBytes = 1080321, 13107622
	ran := s.Peers[0].Client.GameTic()
	size, wireBytes := len(s.Peers[0].Client.Replay()), s.Net.Stats.Bytes
	t.Logf("replay of %d tics, 8 players: %d bytes, %.2f per tic per player; the channel carried %d bytes, %.1f per tic",
		ran, size, float64(size)/float64(ran)/8, wireBytes, float64(wireBytes)/float64(ran))
	require.Equal(t, uint32(replayTics+5), ran, "tics run")
	require.Equal(t, wantReplayBytes, size, "replay bytes")
	require.Equal(t, int64(wantWireBytes), wireBytes, "bytes on the channel")

	data := s.Peers[3].Client.Replay()
	g := testgame.New(5)
	pl := mustPlayer(t, data, g)
	require.Len(t, pl.Snapshots(), replayTics/replay.DefaultSnapshotTics+1, "snapshots in %d tics", replayTics)
	sums := s.Peers[3].Game.Sums()
	for _, tic := range []uint32{7000, 2500, 2101, 9999} {
		require.NoError(t, pl.Seek(tic), "seek %d", tic)
		require.Equal(t, tic, pl.Tic(), "seek %d: the tic it is at", tic)
		_, err := pl.Run(1)
		require.NoError(t, err, "run tic %d", tic)
		require.NotZero(t, pl.Checked(), "after seeking to %d and running it: checksums compared", tic)
		require.Zero(t, pl.Mismatches(), "after seeking to %d and running it: checksums that differ", tic)
		require.Equal(t, sums[tic], g.Checksum(), "after seeking to %d and running it: checksum", tic)
	}
}

// checkReplay plays peer p's replay into a new copy of the game: it must
// run every tic p ran from its first, with the commands p ran (which the
// scenario checks against the ones the players built), to the checksum p
// had after each.
func checkReplay(t *testing.T, p *Peer) {
	t.Helper()
	data := bytes.Clone(p.Client.Replay())
	g := testgame.New(99) // another copy: only its input differs, and a replay builds none
	pl := mustPlayer(t, data, g)
	first := pl.Start()
	ran := p.Client.GameTic()
	res, err := replay.Verify(data, g)
	require.NoError(t, err, "peer %d", p.Index)
	require.Equal(t, int(ran-first), res.Tics, "peer %d ran tics %d to %d: tics its replay ran", p.Index, first, ran)
	require.Equal(t, res.Tics, res.Checked, "peer %d: checksums its replay compared", p.Index)
	require.Zero(t, res.Mismatches, "peer %d: checksums that differ (%v)", p.Index, res.Mismatch)
	want, got := p.Game.Ran(), g.Ran()
	for tic := first; tic < ran; tic++ {
		require.Equal(t, want.At(tic), got.At(tic), "peer %d, tic %d: what the replay ran (the game's)", p.Index, tic)
	}
}

// Replays of games where players leave and join: each copy's covers its
// own part of the game, a late joiner's from the snapshot it loaded, a
// leaver's to its last tic, with tics predicted and rolled back; under the
// reference protocol too.
func TestReplaysFollowPlayersWhoLeaveAndJoin(t *testing.T) {
	t.Parallel()
	link := simnet.Link{LatencyMS: 20, JitterMS: 10}
	s := build(t, Options{Players: 4, Seed: 41, Link: link, Predict: true,
		Replay: replay.Config{Record: true, SnapshotEvery: 200}})
	for _, p := range s.Peers[:3] {
		p.Game.Idle = true // so that predictions of them stand, and of player 3 are rolled back
	}
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(400, 60000))
	leaver := s.Peers[2]
	leaver.Client.Leave(s.Now())
	s.RunFor(1000)
	leaver.Paused = true
	j := joinAndPlay(t, s, 1600)
	check(t, s, 1000)
	var stood, rollbacks int64
	for _, p := range s.Peers {
		checkReplay(t, p)
		pc := p.Client.PredictCounters()
		stood, rollbacks = stood+pc.Stood, rollbacks+pc.Rollbacks
	}
	require.GreaterOrEqual(t, stood, int64(400), "predicted tics that stood: enough to test the replays")
	require.GreaterOrEqual(t, rollbacks, int64(1000), "rollbacks: enough to test the replays")
	// The joiner's replay starts from the snapshot it loaded, then one
	// every 200 tics of its own.
	jp := mustPlayer(t, j.Client.Replay(), testgame.New(1))
	snaps := jp.Snapshots()
	require.GreaterOrEqual(t, jp.Start(), uint32(400), "the tic the joiner's replay starts at")
	require.NotEmpty(t, snaps, "the joiner's replay's snapshots")
	require.Equal(t, jp.Start(), snaps[0], "the joiner's replay's first snapshot")
	require.Len(t, snaps, int(1600-jp.Start()+199)/200, "the joiner's replay's snapshots (from tic %d)", jp.Start())

	ref := start(t, Options{Players: 3, Seed: 42, Strict: true, Link: link, Replay: replay.Config{Record: true}})
	require.NoError(t, ref.RunTics(600, 60000))
	ref.Peers[1].Client.Leave(ref.Now())
	ref.RunFor(1000)
	ref.Peers[1].Paused = true
	require.NoError(t, ref.RunTics(1000, 60000))
	check(t, ref, 900)
	for _, p := range ref.Peers {
		checkReplay(t, p)
	}
}

// replayBytesPerTic is the size of peer i's replay per tic it ran.
func replayBytesPerTic(s *Scenario, i int) float64 {
	p := s.Peers[i]
	return float64(len(p.Client.Replay())) / float64(p.Client.GameTic())
}

func mustPlayer(t *testing.T, data []byte, g tic.Game) *replay.Player {
	t.Helper()
	p, err := replay.NewPlayer(data, g)
	require.NoError(t, err)
	return p
}

// One flipped byte in one command of a replay: the playback reports the
// tic of that command, and its player.
func TestAReplayNamesTheTicAndPlayerOfAChangedCommand(t *testing.T) {
	t.Parallel()
	s := recordLossyGame(t, 3000)
	data := s.Peers[2].Client.Replay()
	for _, target := range []struct {
		tic    uint32
		player int
	}{{2500, 6}, {1234, 0}, {2999, 3}} {
		bad, field := flipOneCommandByte(t, data, target.tic, target.player)
		res, err := replay.Verify(bad, testgame.New(1))
		require.NoError(t, err)
		m := res.Mismatch
		require.NotNil(t, m, "flipped %s of player %d at tic %d: no mismatch reported", field, target.player, target.tic)
		require.Equal(t, target.tic, m.Tic, "flipped %s of player %d at tic %d: the mismatch's tic", field, target.player, target.tic)
		require.Equal(t, []int{target.player}, m.Players, "flipped %s of player %d at tic %d: the mismatch's players", field, target.player, target.tic)
		t.Logf("flipped %s of player %d at tic %d: %v", field, target.player, target.tic, m)
	}
}

// flipOneCommandByte returns a copy of replay data with one byte of the
// command of player at tic flipped, such that that command, and no other
// record, reads differently; and what it changed.
func flipOneCommandByte(t *testing.T, data []byte, tic uint32, player int) ([]byte, string) {
	t.Helper()
	orig := readAll(t, data)
	var at, next int
	for i, r := range orig {
		if !r.IsSnapshot() && r.Tic.Tic == tic {
			at, next = r.Offset, len(data)
			if i+1 < len(orig) {
				next = orig[i+1].Offset
			}
		}
	}
	for off := at + 1; off < next; off++ {
		bad := bytes.Clone(data)
		bad[off] ^= 0x04
		recs, err := readAllErr(bad)
		if err != nil || len(recs) != len(orig) {
			continue
		}
		changed, field := 0, ""
		for i := range recs {
			a, b := &orig[i].Tic, &recs[i].Tic
			if orig[i].IsSnapshot() != recs[i].IsSnapshot() || a.InGame != b.InGame || a.Substituted != b.Substituted ||
				a.Sum != b.Sum || a.PlayerSums != b.PlayerSums {
				changed = 99
				break
			}
			for q := range a.Cmds {
				if a.Cmds[q] != b.Cmds[q] {
					changed++
					if a.Tic == tic && q == player {
						field = describeChange(&a.Cmds[q], &b.Cmds[q])
					}
				}
			}
		}
		if changed == 1 && field != "" {
			return bad, field
		}
	}
	require.Failf(t, "nothing to flip", "no byte of player %d's command at tic %d can be flipped alone", player, tic)
	return nil, ""
}

func describeChange(a, b *wire.TicCmd) string {
	switch {
	case a.ForwardMove != b.ForwardMove:
		return "forwardmove"
	case a.SideMove != b.SideMove:
		return "sidemove"
	case a.AngleTurn != b.AngleTurn:
		return "angleturn"
	case a.Buttons != b.Buttons:
		return "buttons"
	}
	return "a field"
}

func readAll(t *testing.T, data []byte) []wire.ReplayRecord {
	t.Helper()
	recs, err := readAllErr(data)
	require.NoError(t, err)
	return recs
}

func readAllErr(data []byte) ([]wire.ReplayRecord, error) {
	r, err := wire.NewReplayReader(data)
	if err != nil {
		return nil, err
	}
	var recs []wire.ReplayRecord
	for {
		var rec wire.ReplayRecord
		switch err := r.Next(&rec); err {
		case nil:
			recs = append(recs, rec)
		case io.EOF:
			return recs, nil
		default:
			return nil, err
		}
	}
}
