package scenario

import (
	"bytes"
	"io"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"
)

// replayTics is the length of the recorded game of the replay tests.
const replayTics = 10000

// recordLossyGame plays an 8-player game of n tics on the lossy channel,
// every copy recording, and checks it as every scenario is checked.
func recordLossyGame(t *testing.T, n int) *Scenario {
	t.Helper()
	s := start(t, Options{Players: 8, Seed: 21, Link: lossy, Replay: netcore.ReplayConfig{Record: true}})
	if err := s.RunTics(uint32(n), int64(n)*1000); err != nil {
		t.Fatal(err)
	}
	check(t, s, n-100)
	noDesync(t, s)
	return s
}

// A 10 000-tic, 8-player game on the lossy channel: each copy's replay
// holds every tic it ran, with the commands it ran, and plays back into a
// new game to the recorded checksum at every tic; a seek through a
// snapshot lands on the same states.
func TestAReplayOfALossyGamePlaysBackToEveryChecksum(t *testing.T) {
	s := recordLossyGame(t, replayTics)
	for _, p := range s.Peers {
		checkReplay(t, p)
	}

	// What the replay costs, to the byte, beside what the channel carried:
	// 1 080 191 bytes over 10 004 tics, 13.50 bytes per tic per player, where
	// the channel carried 12 421 991 bytes, 1 241.7 per tic (the README's
	// figures; BenchmarkReplayBytes prints the same game's).
	const wantReplayBytes, wantWireBytes = 1080191, 12421991
	ran := s.Peers[0].Client.GameTic()
	size, wireBytes := len(s.Peers[0].Client.Replay()), s.Net.Stats.Bytes
	t.Logf("replay of %d tics, 8 players: %d bytes, %.2f per tic per player; the channel carried %d bytes, %.1f per tic",
		ran, size, float64(size)/float64(ran)/8, wireBytes, float64(wireBytes)/float64(ran))
	if ran != replayTics+4 || size != wantReplayBytes || wireBytes != wantWireBytes {
		t.Fatalf("%d tics, a replay of %d bytes, %d bytes on the channel; want %d tics, %d and %d bytes",
			ran, size, wireBytes, replayTics+4, wantReplayBytes, wantWireBytes)
	}

	data := s.Peers[3].Client.Replay()
	g := testgame.New(5)
	pl := mustPlayer(t, data, g)
	if n := len(pl.Snapshots()); n != replayTics/netcore.DefaultReplaySnapshotTics+1 {
		t.Fatalf("%d snapshots in %d tics", n, replayTics)
	}
	sums := s.Peers[3].Game.Sums()
	for _, tic := range []uint32{7000, 2500, 2101, 9999} {
		if err := pl.Seek(tic); err != nil {
			t.Fatalf("seek %d: %v", tic, err)
		}
		if got := pl.Tic(); got != tic {
			t.Fatalf("seek %d: at tic %d", tic, got)
		}
		if _, err := pl.Run(1); err != nil {
			t.Fatal(err)
		}
		if got := pl.Checked(); got == 0 || pl.Mismatches() != 0 || g.Checksum() != sums[tic] {
			t.Fatalf("after seeking to %d and running it: checksum %08x, want %08x (%d compared, %d differ)",
				tic, g.Checksum(), sums[tic], got, pl.Mismatches())
		}
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
	res, err := netcore.VerifyReplay(data, g)
	if err != nil {
		t.Fatalf("peer %d: %v", p.Index, err)
	}
	if res.Tics != int(ran-first) || res.Checked != res.Tics || res.Mismatches != 0 {
		t.Fatalf("peer %d ran tics %d to %d; its replay ran %d, compared %d checksums, %d differ (%v)",
			p.Index, first, ran, res.Tics, res.Checked, res.Mismatches, res.Mismatch)
	}
	want, got := p.Game.Ran(), g.Ran()
	for tic := first; tic < ran; tic++ {
		if got[tic] != want[tic] {
			t.Fatalf("peer %d, tic %d: the replay ran %+v, the game %+v", p.Index, tic, got[tic], want[tic])
		}
	}
}

// Replays of games where players leave and join: each copy's covers its
// own part of the game, a late joiner's from the snapshot it loaded, a
// leaver's to its last tic, with tics predicted and rolled back; under the
// reference protocol too.
func TestReplaysFollowPlayersWhoLeaveAndJoin(t *testing.T) {
	link := simnet.Link{LatencyMS: 20, JitterMS: 10}
	s := build(t, Options{Players: 4, Seed: 41, Link: link, Predict: true,
		Replay: netcore.ReplayConfig{Record: true, SnapshotEvery: 200}})
	for _, p := range s.Peers[:3] {
		p.Game.Idle = true // so that predictions of them stand, and of player 3 are rolled back
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTics(400, 60000); err != nil {
		t.Fatal(err)
	}
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
	if stood < 400 || rollbacks < 1000 {
		t.Fatalf("too little predicted to test the replays: %d tics stood, %d rollbacks", stood, rollbacks)
	}
	// The joiner's replay starts from the snapshot it loaded, then one
	// every 200 tics of its own.
	jp := mustPlayer(t, j.Client.Replay(), testgame.New(1))
	if snaps := jp.Snapshots(); jp.Start() < 400 || snaps[0] != jp.Start() || len(snaps) != int(1600-jp.Start()+199)/200 {
		t.Fatalf("the joiner's replay starts at tic %d with snapshots at %v", jp.Start(), snaps)
	}

	ref := start(t, Options{Players: 3, Seed: 42, Strict: true, Link: link, Replay: netcore.ReplayConfig{Record: true}})
	if err := ref.RunTics(600, 60000); err != nil {
		t.Fatal(err)
	}
	ref.Peers[1].Client.Leave(ref.Now())
	ref.RunFor(1000)
	ref.Peers[1].Paused = true
	if err := ref.RunTics(1000, 60000); err != nil {
		t.Fatal(err)
	}
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

func mustPlayer(t *testing.T, data []byte, g netcore.Game) *netcore.ReplayPlayer {
	t.Helper()
	p, err := netcore.NewReplayPlayer(data, g)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// One flipped byte in one command of a replay: the playback reports the
// tic of that command, and its player.
func TestAReplayNamesTheTicAndPlayerOfAChangedCommand(t *testing.T) {
	s := recordLossyGame(t, 3000)
	data := s.Peers[2].Client.Replay()
	for _, target := range []struct {
		tic    uint32
		player int
	}{{2500, 6}, {1234, 0}, {2999, 3}} {
		bad, field := flipOneCommandByte(t, data, target.tic, target.player)
		res, err := netcore.VerifyReplay(bad, testgame.New(1))
		if err != nil {
			t.Fatal(err)
		}
		m := res.Mismatch
		if m == nil || m.Tic != target.tic || len(m.Players) != 1 || m.Players[0] != target.player {
			t.Fatalf("flipped %s of player %d at tic %d: reported %v", field, target.player, target.tic, m)
		}
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
	t.Fatalf("no byte of player %d's command at tic %d can be flipped alone", player, tic)
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
	if err != nil {
		t.Fatal(err)
	}
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
