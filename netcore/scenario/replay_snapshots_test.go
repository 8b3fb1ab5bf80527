package scenario

import (
	"bytes"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"
)

// A predicting 4-player game (three players idle, so that the fourth
// copy's predictions stand), recorded with a snapshot every 100 tics:
// every snapshot of every copy's replay, loaded into a new game, is the
// state before its tic, so the recorded tics from it give every recorded
// checksum. A snapshot taken at a predicted tic that stands must be the
// state saved before that tic, not the state the game predicted ahead to;
// a playback from the first snapshot (VerifyReplay) never loads the later
// ones, so only seeking to each shows one that is wrong.
func TestEverySnapshotOfAPredictingGamesReplayIsTheStateBeforeItsTic(t *testing.T) {
	const tics, every = 750, 100
	s := build(t, Options{Players: 4, Seed: 43, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}, Predict: true,
		Replay: netcore.ReplayConfig{Record: true, SnapshotEvery: every}})
	for _, p := range s.Peers[:3] {
		p.Game.Idle = true // so that the fourth copy's predictions stand: its snapshots are taken at predicted tics
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTics(tics, 60000); err != nil {
		t.Fatal(err)
	}
	check(t, s, tics-10)
	var stood int64
	checked, wrong, sums := 0, 0, 0
	for _, p := range s.Peers {
		stood += p.Client.PredictCounters().Stood
		res, err := netcore.VerifyReplaySnapshots(bytes.Clone(p.Client.Replay()), testgame.New(99))
		if err != nil {
			t.Fatalf("peer %d: %v", p.Index, err)
		}
		for _, r := range res {
			if r.Tic == 0 {
				continue // the game's first state: VerifyReplay checks it already
			}
			checked++
			sums += r.Checked
			if r.Checked != r.Tics || r.Tics == 0 || r.Mismatches != 0 {
				wrong++
				t.Errorf("peer %d, the snapshot of tic %d: %d tics run from it, %d checksums compared, %d differ (first: %v)",
					p.Index, r.Tic, r.Tics, r.Checked, r.Mismatches, r.Mismatch)
			}
		}
	}
	t.Logf("%d mid-game snapshots checked, %d wrong; %d checksums compared from them; %d predicted tics stood", checked, wrong, sums, stood)
	if wrong != 0 {
		t.Fatalf("%d of %d mid-game snapshots are not the state before their tic", wrong, checked)
	}
	// Four copies, each with a snapshot at tics 100 to 700 of a game of
	// 750-odd tics: 28 seeks, every one checked.
	if checked != 28 {
		t.Fatalf("%d mid-game snapshots checked, want 28", checked)
	}
	if stood < tics-10 { // the fourth copy's, beside three idle players: nearly every tic
		t.Fatalf("only %d predicted tics stood: too few for snapshots at predicted tics", stood)
	}
}

// One byte changed in the state of a replay's third snapshot: a playback
// from the first (VerifyReplay) never loads it and finds every checksum;
// seeking to every snapshot finds that one, at its own tic, and no other.
func TestAChangedMidGameSnapshotIsFoundOnlyBySeekingToIt(t *testing.T) {
	s := start(t, Options{Players: 2, Seed: 44, Link: simnet.Link{LatencyMS: 20},
		Replay: netcore.ReplayConfig{Record: true, SnapshotEvery: 100}})
	if err := s.RunTics(450, 60000); err != nil {
		t.Fatal(err)
	}
	data := bytes.Clone(s.Peers[0].Client.Replay())
	r, err := wire.NewReplayReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var rec wire.ReplayRecord
	for snaps := 0; snaps < 3; {
		if err := r.Next(&rec); err != nil {
			t.Fatal(err)
		}
		if rec.IsSnapshot() {
			snaps++
		}
	}
	rec.State[4] ^= 1 // the game's hash: the checksum after every tic from it differs
	changed := rec.Tic.Tic

	res, err := netcore.VerifyReplay(bytes.Clone(data), testgame.New(1))
	if err != nil || res.Mismatches != 0 || res.Checked != res.Tics {
		t.Fatalf("played from the first snapshot: %+v, %v; want every checksum equal", res, err)
	}
	all, err := netcore.VerifyReplaySnapshots(data, testgame.New(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 5 {
		t.Fatalf("%d snapshots verified, want 5 (tics 0 to 400)", len(all))
	}
	for _, sr := range all {
		wrong := sr.Tic == changed
		if sr.Tics == 0 || sr.Checked != sr.Tics || (sr.Mismatches == sr.Checked) != wrong || (sr.Mismatches == 0) == wrong ||
			wrong && (sr.Mismatch == nil || sr.Mismatch.Tic != changed) {
			t.Fatalf("the snapshot of tic %d (the changed one: %d): %d tics, %d checksums compared, %d differ, first %v",
				sr.Tic, changed, sr.Tics, sr.Checked, sr.Mismatches, sr.Mismatch)
		}
	}
}
