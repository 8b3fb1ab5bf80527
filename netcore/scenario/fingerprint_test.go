package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/internal/fingerprint"
	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fingerprintGame is one seeded game whose fingerprint is kept: its
// options, what happens in it, and the fingerprint it had when it was
// last changed on purpose.
type fingerprintGame struct {
	name string
	o    Options
	play func(t *testing.T, s *Scenario)
	want string
	// check, if set, replaces the check made when the game is over
	// (Scenario.Check).
	check func(t *testing.T, s *Scenario)
}

// near is a quiet channel with a little delay and jitter.
var near = simnet.Link{LatencyMS: 20, JitterMS: 10}

// runTo plays until every playing peer has run tic n.
func runTo(t *testing.T, s *Scenario, n uint32) {
	t.Helper()
	require.NoError(t, s.RunTics(n, int64(n)*200))
}

// played runs the game to tic n.
func played(n uint32) func(*testing.T, *Scenario) {
	return func(t *testing.T, s *Scenario) { runTo(t, s, n) }
}

// leavesAndComesBack: peer 1 goes at tic 300 (cleanly, or silent past the
// timeout), and comes back with its token under a new identity.
func leavesAndComesBack(silent bool) func(*testing.T, *Scenario) {
	return func(t *testing.T, s *Scenario) {
		runTo(t, s, 300)
		gone := s.Peers[1]
		if silent {
			gone.Node.SetSilent(true)
			s.RunFor(netcore.BrowserTimeouts.TimeoutMS + 500)
		} else {
			gone.Client.Leave(s.Now())
			s.RunFor(1000)
		}
		gone.Paused = true
		back := s.JoinWith(gone.Token)
		require.True(t, s.RunUntil(func() bool { return playing(back) }, 30000), "the copy did not come back: %v", back.Events)
		runTo(t, s, s.Peers[0].Client.GameTic()+300)
	}
}

// joinsLate: a copy opens at tic 300 and plays 300 tics more.
func joinsLate(t *testing.T, s *Scenario) {
	runTo(t, s, 300)
	late := s.Join()
	require.True(t, s.RunUntil(func() bool { return playing(late) }, 60000), "the late copy did not enter: %v", late.Events)
	runTo(t, s, s.Peers[0].Client.GameTic()+300)
}

// endsAndPlaysAgain: a player asks to end at tic 200, the controller ends
// the game, and launches a second one that plays 150 tics.
func endsAndPlaysAgain(t *testing.T, s *Scenario) {
	runTo(t, s, 200)
	checked(t, s)
	s.Peers[2].Client.RequestEnd()
	s.RunFor(500)
	s.Peers[0].Client.RequestEnd()
	if !s.RunUntil(func() bool { return s.Server.State() == netcore.ServerWaitingLaunch }, 5000) {
		require.FailNow(t, "the server did not go back to its lobby", s.describe())
	}
	s.RunFor(1000)
	checked(t, s) // (the test game keeps one record per tic: the second game's replace the first's)
	require.NoError(t, s.Start())
	runTo(t, s, 150)
	for _, p := range s.Peers[1:] {
		require.Equal(t, s.Peers[0].Game.Sums()[:150], p.Game.Sums()[:150], "the second game: peer %d's checksums (peer 0's)", p.Index)
	}
}

// checked fails unless every peer ran what the players built, and all
// agree.
func checked(t *testing.T, s *Scenario) {
	t.Helper()
	_, err := s.Check()
	require.NoError(t, err)
}

// leavesAt300 is a reference game whose player 2 leaves at tic 300.
func leavesAt300(t *testing.T, s *Scenario) {
	runTo(t, s, 300)
	s.Peers[2].Client.Leave(s.Now())
	runTo(t, s, 700)
}

// breaksAt300 is a game whose peer 3 breaks at tic 300.
func breaksAt300(t *testing.T, s *Scenario) {
	runTo(t, s, 200)
	s.Peers[3].Game.BreakAt = 300
	runTo(t, s, 500)
}

// brokeAt300 checks breaksAt300: the commands are right, the copies agree
// to tic 300, the server named the desync once, and no copy named it
// again once it was repaired (by the consistency bytes of the diverged
// state, in the commands it sent before).
func brokeAt300(t *testing.T, s *Scenario) {
	_, err := s.CheckCommands()
	require.NoError(t, err)
	n, err := s.CheckSums()
	require.Error(t, err, "the broken copy agreed with the others")
	require.Equal(t, 300, n, "the tics the broken copy agreed up to")
	require.Len(t, desyncs(s, -1), 1, "the server's desyncs")
	require.Len(t, repairsOf(s.Peers[0]), 1, "the repairs the host's copy heard of")
	for _, p := range s.Peers {
		for _, e := range p.Events {
			require.NotEqual(t, netcore.EventDesyncSuspected, e.Kind, "copy %d at tic %d: %s", p.Index, e.Tic, e.Reason)
		}
	}
}

// fingerprintGames are the games the scenario package fingerprints: both
// protocols, quiet and lossy, and every feature a single server carries.
// (election/session fingerprints migrations and hand-offs.)
var fingerprintGames = []fingerprintGame{
	{name: "reference/2/quiet", o: Options{Players: 2, Seed: 101, Strict: true, Link: near}, play: played(700),
		want: "frames 2830 f5ca6ae72c78 events 14 567ba867654d tics 1402 776f8afe9d17"},
	{name: "reference/4/lossy", o: Options{Players: 4, Seed: 102, Strict: true, Link: lossy}, play: played(700),
		want: "frames 6951 4b70d431c903 events 31 3da8d71b2453 tics 2804 8394f85b596f"},
	{name: "reference/leave/lossy", o: Options{Players: 3, Seed: 103, Strict: true, Link: lossy}, play: leavesAt300,
		want: "frames 3941 9b0d0416f661 events 25 3e708326c5a9 tics 1710 78236d849e9c"},
	{name: "ticnet/lowres/lossy", o: Options{Players: 3, Seed: 104, Link: lossy, LowResTurn: true}, play: played(700),
		want: "frames 3641 cd73b47e9b0d events 22 63a1f5d4aef5 tics 2108 2ec19ae2e012"},
	{name: "ticnet/4/quiet", o: Options{Players: 4, Seed: 105, Link: near}, play: played(700),
		want: "frames 4295 7facd0deaef1 events 32 68f6e2d9b3a1 tics 2805 c31c0b97b9e5"},
	{name: "ticnet/8/lossy", o: Options{Players: 8, Seed: 106, Link: lossy}, play: played(700),
		want: "frames 7396 dbbe93876999 events 71 5ce79893acda tics 5629 95185d35f61e"},
	{name: "ticnet/strict-by-one-copy", o: Options{Players: 3, Seed: 107, Link: near,
		Protocols: map[int][]string{2: {wire.ProtocolChocolate}}}, play: played(500),
		want: "frames 3059 938cf7750ae4 events 22 36b4a26c77e4 tics 1504 60509490f611"},
	{name: "ticnet/dedicated/lossy", o: Options{Players: 3, Seed: 108, Dedicated: true, Link: lossy, Tokens: true}, play: joinsLate,
		want: "frames 3169 dff2c78ccecb events 32 1bcbae78cb2f tics 2303 3f5edf6274bd"},
	{name: "ticnet/options", o: Options{Players: 3, Seed: 109, Link: near,
		Launch: wire.LaunchOptions{Seed: 0xc0ffee, Options: []byte(`{"laps":3}`)}, Server: netcore.ServerConfig{TicRate: 20}},
		play: played(400),
		want: "frames 2065 10dddbdc7953 events 23 368889a7f8c9 tics 1203 f31b900d624b"},
	{name: "ticnet/late-join/quiet", o: Options{Players: 4, Seed: 110, Link: near, Tokens: true}, play: joinsLate,
		want: "frames 4065 ce1f7a51c772 events 42 098b86f408a6 tics 2734 b87335d7b69b"},
	{name: "ticnet/late-join/lossy", o: Options{Players: 4, Seed: 111, Link: lossy, Tokens: true, StateBytes: 64 << 10}, play: joinsLate,
		want: "frames 4374 7e3cc08c45d6 events 43 f492e9f83229 tics 2888 979b85d4f045"},
	{name: "ticnet/rejoin/leave", o: Options{Players: 3, Seed: 112, Link: near, Tokens: true,
		Server: netcore.ServerConfig{RejoinGraceMS: 10000}}, play: leavesAndComesBack(false),
		want: "frames 3288 72e34a8f8fe8 events 35 86b8de710f84 tics 1897 aedc3158cdc9"},
	{name: "ticnet/rejoin/timeout", o: Options{Players: 3, Seed: 113, Link: lossy, Tokens: true,
		Server: netcore.ServerConfig{RejoinGraceMS: 10000}}, play: leavesAndComesBack(true),
		want: "frames 4075 78e20940ef4e events 34 d024d7d13062 tics 2246 0f91906e12b6"},
	{name: "ticnet/predict/quiet", o: Options{Players: 4, Seed: 114, Link: simnet.Link{LatencyMS: 50, JitterMS: 20}, Predict: true},
		play: played(700),
		want: "frames 4310 bb3636c8a471 events 32 00d255fb6ff7 tics 2822 65c597e25f0c"},
	{name: "ticnet/predict/lossy", o: Options{Players: 4, Seed: 115, Link: lossy, Predict: true, Tokens: true}, play: joinsLate,
		want: "frames 4331 8dcca7c1569a events 43 966bbec01f79 tics 2899 f49165e35a6e"},
	{name: "ticnet/predict/opaque/lossy", o: Options{Players: 3, Seed: 120, Link: lossy, Predict: true, Input: layout16},
		play: played(700),
		want: "frames 3631 1b1de9a0f0ee events 23 ec05fb91f35e tics 2126 a7f643eb9976"},
	{name: "ticnet/end-and-relaunch", o: Options{Players: 3, Seed: 116, Link: simnet.Link{LatencyMS: 30, JitterMS: 20, Loss: 0.05}},
		play: endsAndPlaysAgain, check: func(*testing.T, *Scenario) {}, // (it checks the first game as it ends)
		want: "frames 1992 da5da1bdc813 events 44 51b66a3b4723 tics 454 dcb6a3a4142e"},
	{name: "ticnet/replay/lossy", o: Options{Players: 4, Seed: 117, Link: lossy, Replay: replay.Config{Record: true}},
		play: played(1200),
		want: "frames 7367 ef3bb1890d3f events 27 8c777bb76fd9 tics 4818 d90f8a41fc28"},
	{name: "ticnet/opaque/lossy", o: Options{Players: 4, Seed: 118, Link: lossy, Input: layout16}, play: played(700),
		want: "frames 4371 61ac74a1ec01 events 31 6a5948c3dec2 tics 2820 5067c3d0a361"},
	{name: "ticnet/desync", o: Options{Players: 4, Seed: 119, Link: near}, play: breaksAt300, check: brokeAt300,
		want: "frames 3142 10ee7f55a5c4 events 41 ecaf303e0995 tics 2005 e4a5b7cd8eb3"},
	{name: "ticnet/watchers/lossy", o: Options{Players: 3, Drones: 2, Seed: 121, Link: lossy}, play: watchedLate,
		want: "frames 4427 40f34a4e50f4 events 46 00694bb76904 tics 4652 63b5e0c6e229"},
}

// watchedLate: two more copies open at tic 200 to watch (fed by the two
// that watch from the start), and the game runs to tic 700.
func watchedLate(t *testing.T, s *Scenario) {
	runTo(t, s, 200)
	for range 2 {
		s.Net.SetLinks(s.Watch().Node, lossy)
	}
	runTo(t, s, 700)
}

// Every fingerprinted game does what it did when its fingerprint was
// kept: the same frames at the same times, the same events, the same tics
// with the same commands and checksums. A change of engine that changes
// nothing observable keeps them all; a commit that changes one says which
// and why. FINGERPRINT_LOG=dir writes each game's hashed lines to a file in
// dir, for two runs to be compared with diff.
func TestWholeGamesKeepTheirFingerprints(t *testing.T) {
	t.Parallel()
	for _, g := range fingerprintGames {
		t.Run(g.name, func(t *testing.T) {
			fp := fingerprint.For(t, g.name)
			o := g.o
			o.Fingerprint = fp
			s := New(o)
			require.NoError(t, s.Start())
			g.play(t, s)
			if g.check != nil {
				g.check(t, s)
			} else {
				checked(t, s)
			}
			assert.Equal(t, g.want, s.Fingerprint(), "fingerprint")
		})
	}
}
