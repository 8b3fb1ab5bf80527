package scenario

import (
	"bytes"
	"fmt"
	"math/bits"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"
)

// serverRecording is a dedicated server that records its games.
var serverRecording = netcore.ServerConfig{Replay: netcore.ServerReplayConfig{Record: true}}

// checkServerReplay plays the server's replay into a new game and checks
// that it ran every recorded tic as every peer that ran it did: the same
// commands, the same players, from the same state. It returns the replay's
// tics.
func checkServerReplay(t *testing.T, s *Scenario, data []byte) []wire.ReplayTic {
	t.Helper()
	var tics []wire.ReplayTic
	for _, r := range readAll(t, data) {
		if r.IsSnapshot() || r.Tic.HasSum {
			t.Fatalf("a server's replay holds a snapshot or a checksum at tic %d", r.Tic.Tic)
		}
		tics = append(tics, r.Tic)
	}
	g := testgame.New(99)
	res, err := netcore.VerifyReplay(data, g)
	if err != nil {
		t.Fatal(err)
	}
	if res.Tics != len(tics) || res.Checked != 0 {
		t.Fatalf("the replay of %d tics ran %d and compared %d checksums", len(tics), res.Tics, res.Checked)
	}
	for _, p := range s.Peers {
		ran := p.Game.Ran()
		for _, rt := range tics {
			if int(rt.Tic) >= len(ran) || !ran[rt.Tic].OK {
				continue // the peer had left, or not run it yet
			}
			got, want := g.Ran()[rt.Tic], ran[rt.Tic]
			if got.InGame != want.InGame || got.Before != want.Before {
				t.Fatalf("tic %d: the server's replay ran players %08b from state %08x, peer %d players %08b from %08x",
					rt.Tic, got.InGame, got.Before, p.Index, want.InGame, want.Before)
			}
			for q := range got.Cmds {
				if got.Cmds[q] != want.Cmds[q] {
					t.Fatalf("tic %d: the server's replay ran player %d's command %+v, peer %d %+v",
						rt.Tic, q, got.Cmds[q], p.Index, want.Cmds[q])
				}
			}
		}
	}
	return tics
}

// A dedicated server's replay of a game on the lossy channel, under either
// protocol, (under the extension) a player leaving half way: it holds
// every tic the server let go, and plays back, tic by tic, exactly what
// every copy ran; under the extension protocol it names the commands the
// server substituted. (Under the reference, copies on a lossy channel may
// see a player leave at different tics, each relayed its own stream: that
// game is played to its end without a leave.)
func TestTheServersReplayPlaysBackWhatEveryCopyRan(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto.name, func(t *testing.T) {
			s := start(t, Options{Players: 4, Seed: 61, Link: lossy, Strict: proto.strict, Dedicated: true,
				Server: serverRecording})
			if err := s.RunTics(800, 300000); err != nil {
				t.Fatal(err)
			}
			all, remain := uint8(0b1111), uint8(0b1111)
			if !proto.strict {
				leaver := s.Peers[3]
				remain &^= 1 << leaver.Client.Player()
				leaver.Client.Leave(s.Now())
				s.RunFor(1000)
				leaver.Paused = true
			}
			if err := s.RunTics(1500, 300000); err != nil {
				t.Fatal(err)
			}
			check(t, s, 1400)

			data := bytes.Clone(s.Server.Replay())
			r, err := wire.NewReplayReader(data)
			if err != nil {
				t.Fatal(err)
			}
			h := r.Header
			if h.Protocol != s.Peers[0].Client.Protocol() || h.Start != 0 || h.SumEvery != 0 || len(h.Names) != 4 ||
				h.Settings.NumPlayers != 4 {
				t.Fatalf("header %+v", h)
			}
			for _, p := range s.Peers {
				if name := h.Names[p.Client.Player()]; name != fmt.Sprintf("player%d", p.Index) {
					t.Fatalf("player %d is named %q in the replay; it is peer %d", p.Client.Player(), name, p.Index)
				}
			}
			tics := checkServerReplay(t, s, data)
			if len(tics) < 1400 || int(tics[len(tics)-1].Tic) != len(tics)-1 {
				t.Fatalf("%d tics recorded, the last %d", len(tics), tics[len(tics)-1].Tic)
			}
			left := uint32(len(tics))
			substituted, cmds := 0, 0
			for _, rt := range tics {
				if rt.InGame != all && left == uint32(len(tics)) {
					left = rt.Tic
				}
				substituted += bits.OnesCount8(rt.Substituted)
				cmds += bits.OnesCount8(rt.InGame)
			}
			if tics[len(tics)-1].InGame != remain || left < 800 {
				t.Fatalf("the last tic's players %04b, want %04b; the first tic without all four: %d",
					tics[len(tics)-1].InGame, remain, left)
			}
			if want := int(s.Server.Counters().Substituted); substituted != want || proto.strict != (want == 0) {
				t.Fatalf("the replay names %d substitutes, the server made %d", substituted, want)
			}
			t.Logf("%d tics, all four players until tic %d, %d substitutes; %d bytes, %.2f bytes per tic per player",
				len(tics), left, substituted, len(data), float64(len(data))/float64(cmds))
		})
	}
}

// Recording changes nothing on the wire: the same game with and without
// it sends and receives the same packets and bytes everywhere, and runs
// the same tics. Without it, the server has no replay.
func TestRecordingAtTheServerChangesNoTraffic(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto.name, func(t *testing.T) {
			var runs [2]*Scenario
			for i, cfg := range []netcore.ServerConfig{{}, serverRecording} {
				s := start(t, Options{Players: 3, Seed: 62, Link: lossy, Strict: proto.strict, Dedicated: true, Server: cfg})
				if err := s.RunTics(600, 300000); err != nil {
					t.Fatal(err)
				}
				runs[i] = s
			}
			off, on := runs[0], runs[1]
			if off.Server.Replay() != nil || off.Server.ReplayGame() != 0 || on.Server.ReplayGame() != 1 {
				t.Fatalf("replays: %d bytes, game %d unrecorded; game %d recorded", len(off.Server.Replay()),
					off.Server.ReplayGame(), on.Server.ReplayGame())
			}
			if a, b := off.Server.Counters(), on.Server.Counters(); a != b {
				t.Fatalf("server counters without recording %+v, with %+v", a, b)
			}
			for i := range off.Peers {
				a, b := off.Peers[i].Client.Counters(), on.Peers[i].Client.Counters()
				if a != b || off.Peers[i].Client.GameTic() != on.Peers[i].Client.GameTic() {
					t.Fatalf("peer %d: counters without recording %+v, with %+v", i, a, b)
				}
			}
			if off.Now() != on.Now() || len(on.Server.Replay()) == 0 {
				t.Fatalf("the games took %d and %d ms; the recorded one's replay has %d bytes", off.Now(), on.Now(),
					len(on.Server.Replay()))
			}
		})
	}
}

// Each game the server plays has its own replay, numbered, each from tic 0.
func TestTheServerRecordsEachGameInItsOwnReplay(t *testing.T) {
	// (Not build: the test game keeps the first game's tics, which the
	// second builds again.)
	s := New(Options{Players: 2, Seed: 63, Link: lossy, Dedicated: true, Server: serverRecording})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTics(300, 60000); err != nil {
		t.Fatal(err)
	}
	s.Peers[0].Client.RequestEnd()
	if !s.RunUntil(func() bool { return s.Server.State() == netcore.ServerWaitingLaunch }, 10000) {
		t.Fatalf("the game did not end: %s", s.describe())
	}
	first := bytes.Clone(s.Server.Replay())
	end := s.Peers[0].Client.GameTic()
	if s.Server.ReplayGame() != 1 {
		t.Fatalf("the first game is game %d", s.Server.ReplayGame())
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTics(200, 60000); err != nil {
		t.Fatal(err)
	}
	if s.Server.ReplayGame() != 2 {
		t.Fatalf("the second game is game %d", s.Server.ReplayGame())
	}
	if tics := readAll(t, first); len(tics) != int(end) {
		t.Fatalf("the first game ended at tic %d; its replay holds %d tics", end, len(tics))
	}
	// The test game goes on from the first game's state: compare the
	// second game's commands, not its states.
	second := readAll(t, s.Server.Replay())
	if len(second) < 150 || second[0].Tic.Tic != 0 {
		t.Fatalf("the second game's replay holds %d tics from %d", len(second), second[0].Tic.Tic)
	}
	for _, p := range s.Peers {
		for _, r := range second {
			if r.Tic.Tic >= p.Client.GameTic() {
				break // not run yet
			}
			ran := p.Game.Ran()[r.Tic.Tic]
			if ran.Cmds != r.Tic.Cmds || ran.InGame != r.Tic.InGame {
				t.Fatalf("second game, tic %d: replay %+v, peer %d ran %+v", r.Tic.Tic, r.Tic, p.Index, ran)
			}
		}
	}
}

// A replay stops at its size bound, whole up to its last tic.
func TestTheServersReplayStopsWholeAtItsSizeBound(t *testing.T) {
	const bound = 2000
	s := start(t, Options{Players: 2, Seed: 64, Dedicated: true,
		Server: netcore.ServerConfig{Replay: netcore.ServerReplayConfig{Record: true, MaxBytes: bound}}})
	if err := s.RunTics(400, 60000); err != nil {
		t.Fatal(err)
	}
	data := s.Server.Replay()
	recs := readAll(t, data)
	if !s.Server.ReplayStopped() || len(data) <= bound || len(data) > bound+100 || len(recs) >= 400 {
		t.Fatalf("stopped %v with %d bytes, %d tics, bound %d", s.Server.ReplayStopped(), len(data), len(recs), bound)
	}
	checkServerReplay(t, s, data)
}
