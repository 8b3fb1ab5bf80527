package scenario

import (
	"bytes"
	"testing"

	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A predicting 4-player game (three players idle, so that the fourth
// copy's predictions stand), recorded with a snapshot every 100 tics:
// every snapshot of every copy's replay, loaded into a new game, is the
// state before its tic, so the recorded tics from it give every recorded
// checksum. A snapshot taken at a predicted tic that stands must be the
// state saved before that tic, not the state the game predicted ahead to;
// a playback from the first snapshot (replay.Verify) never loads the later
// ones, so only seeking to each shows one that is wrong.
func TestEverySnapshotOfAPredictingGamesReplayIsTheStateBeforeItsTic(t *testing.T) {
	t.Parallel()
	const tics, every = 750, 100
	s := build(t, Options{Players: 4, Seed: 43, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}, Predict: true,
		Replay: replay.Config{Record: true, SnapshotEvery: every}})
	for _, p := range s.Peers[:3] {
		p.Game.Idle = true // so that the fourth copy's predictions stand: its snapshots are taken at predicted tics
	}
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(tics, 60000))
	check(t, s, tics-10)
	var stood int64
	checked, wrong, sums := 0, 0, 0
	for _, p := range s.Peers {
		stood += p.Client.PredictCounters().Stood
		res, err := replay.VerifySnapshots(bytes.Clone(p.Client.Replay()), testgame.New(99))
		require.NoError(t, err, "peer %d", p.Index)
		for _, r := range res {
			if r.Tic == 0 {
				continue // the game's first state: replay.Verify checks it already
			}
			checked++
			sums += r.Checked
			ok := assert.Equal(t, r.Tics, r.Checked, "peer %d, the snapshot of tic %d: checksums compared, one a tic run from it", p.Index, r.Tic)
			ok = assert.NotZero(t, r.Tics, "peer %d, the snapshot of tic %d: tics run from it", p.Index, r.Tic) && ok
			ok = assert.Zero(t, r.Mismatches, "peer %d, the snapshot of tic %d: checksums that differ (first: %v)", p.Index, r.Tic, r.Mismatch) && ok
			if !ok {
				wrong++
			}
		}
	}
	t.Logf("%d mid-game snapshots checked, %d wrong; %d checksums compared from them; %d predicted tics stood", checked, wrong, sums, stood)
	require.Zero(t, wrong, "mid-game snapshots, of %d, that are not the state before their tic", checked)
	// Four copies, each with a snapshot at tics 100 to 700 of a game of
	// 750-odd tics: 28 seeks, every one checked.
	require.Equal(t, 28, checked, "mid-game snapshots checked")
	// The fourth copy's, beside three idle players: nearly every tic.
	require.GreaterOrEqual(t, stood, int64(tics-10), "predicted tics that stood: enough for snapshots at predicted tics")
}

// One byte changed in the state of a replay's third snapshot: a playback
// from the first (replay.Verify) never loads it and finds every checksum;
// seeking to every snapshot finds that one, at its own tic, and no other.
func TestAChangedMidGameSnapshotIsFoundOnlyBySeekingToIt(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 2, Seed: 44, Link: simnet.Link{LatencyMS: 20},
		Replay: replay.Config{Record: true, SnapshotEvery: 100}})
	require.NoError(t, s.RunTics(450, 60000))
	data := bytes.Clone(s.Peers[0].Client.Replay())
	r, err := wire.NewReplayReader(data)
	require.NoError(t, err)
	var rec wire.ReplayRecord
	for snaps := 0; snaps < 3; {
		require.NoError(t, r.Next(&rec))
		if rec.IsSnapshot() {
			snaps++
		}
	}
	rec.State[4] ^= 1 // the game's hash: the checksum after every tic from it differs
	changed := rec.Tic.Tic

	res, err := replay.Verify(bytes.Clone(data), testgame.New(1))
	require.NoError(t, err, "played from the first snapshot")
	require.Zero(t, res.Mismatches, "played from the first snapshot: checksums that differ (%v)", res.Mismatch)
	require.Equal(t, res.Tics, res.Checked, "played from the first snapshot: checksums compared, one a tic")
	all, err := replay.VerifySnapshots(data, testgame.New(1))
	require.NoError(t, err)
	require.Len(t, all, 5, "snapshots verified (tics 0 to 400)")
	for _, sr := range all {
		require.NotZero(t, sr.Tics, "the snapshot of tic %d: tics run from it", sr.Tic)
		require.Equal(t, sr.Tics, sr.Checked, "the snapshot of tic %d: checksums compared, one a tic", sr.Tic)
		if sr.Tic == changed {
			require.Equal(t, sr.Checked, sr.Mismatches, "the changed snapshot, of tic %d: checksums that differ, all", sr.Tic)
			require.NotZero(t, sr.Mismatches, "the changed snapshot, of tic %d: checksums that differ", sr.Tic)
			require.NotNil(t, sr.Mismatch, "the changed snapshot, of tic %d: its first mismatch", sr.Tic)
			require.Equal(t, changed, sr.Mismatch.Tic, "the changed snapshot: its first mismatch's tic")
		} else {
			require.NotEqual(t, sr.Checked, sr.Mismatches, "the snapshot of tic %d (the changed one: %d): checksums that differ, all", sr.Tic, changed)
			require.Zero(t, sr.Mismatches, "the snapshot of tic %d (the changed one: %d): checksums that differ (%v)", sr.Tic, changed, sr.Mismatch)
		}
	}
}
