package scenario

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain fails the run if any test leaves a goroutine behind: the engine
// is sans-IO and starts none. The tests' own workers (the fault runs') and
// the testing package's end after their test returns, not before: the guard
// waits up to leakGraceMS for the count to come back down.
func TestMain(m *testing.M) {
	before := runtime.NumGoroutine()
	code := m.Run()
	if code == 0 {
		if after := settledGoroutines(before, leakGraceMS*time.Millisecond); after > before {
			fmt.Fprintf(os.Stderr, "goroutines leaked: %d before the tests, %d after %d ms\n%s\n",
				before, after, leakGraceMS, allStacks())
			code = 1
		}
	}
	os.Exit(code)
}

// leakGraceMS is how long a goroutine may take to end after the tests.
const leakGraceMS = 2000

// settledGoroutines polls the goroutine count until it is at most want or
// grace has passed, and returns the last count.
func settledGoroutines(want int, grace time.Duration) int {
	deadline := time.Now().Add(grace)
	for {
		n := runtime.NumGoroutine()
		if n <= want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// allStacks is every goroutine's stack, to name a leak.
func allStacks() string {
	buf := make([]byte, 1<<16)
	return string(buf[:runtime.Stack(buf, true)])
}

// lossy is the hostile channel of the acceptance scenarios: 20 % loss,
// 50-150 ms delay, 2 % duplication, and 5 % of frames held back 80 ms.
var lossy = simnet.Link{LatencyMS: 50, JitterMS: 100, Loss: 0.2, Duplicate: 0.02, Reorder: 0.05, ReorderMS: 80}

// build builds a scenario whose commands are checked when the test ends:
// every scenario proves that every peer ran what the players built, not
// only that the peers agree, and, in a Doom-ticcmd game under the
// extension, that no event ran that its player did not build.
func build(t *testing.T, o Options) *Scenario {
	t.Helper()
	s := New(o)
	if !o.Quiet {
		t.Cleanup(func() {
			if t.Failed() {
				return // the check that failed has said it
			}
			_, err := s.CheckCommands()
			assert.NoError(t, err, "commands")
			if s.Server.Extended() && !s.Peers[0].Game.Input.Opaque() && s.Peers[0].Client.Settings().TicDup <= 1 {
				_, err := s.CheckDoomEvents()
				assert.NoError(t, err, "events")
			}
		})
	}
	return s
}

// start builds a scenario and starts its game.
func start(t *testing.T, o Options) *Scenario {
	t.Helper()
	s := build(t, o)
	require.NoError(t, s.Start())
	return s
}

// check fails unless every peer ran what the players built and every tic
// that two peers ran has equal checksums everywhere, and at least want
// tics were compared.
func check(t *testing.T, s *Scenario, want int) Checked {
	t.Helper()
	c, err := s.Check()
	require.NoError(t, err)
	require.GreaterOrEqual(t, c.Tics, want, "tics compared")
	return c
}

// protocols are the two a game can run: the reference (every client
// offers only CHOCOLATE_DOOM_0) and the extension.
var protocols = []struct {
	name   string
	strict bool
}{{"chocolate", true}, {"ticnet", false}}

func TestGameWithoutLossAgreesEverywhereAndNeverResendsNorSubstitutes(t *testing.T) {
	t.Parallel()
	for _, proto := range protocols {
		for _, n := range []int{2, 4, 8} {
			t.Run(fmt.Sprintf("%s/players=%d", proto.name, n), func(t *testing.T) {
				s := start(t, Options{Players: n, Seed: uint64(n), Strict: proto.strict, Link: simnet.Link{LatencyMS: 20}})
				require.Equal(t, !proto.strict, s.Server.Extended(), "extension")
				require.NoError(t, s.RunTics(10000, 400000))
				c := check(t, s, 10000)
				require.GreaterOrEqual(t, c.Commands, 10000*n*n, "commands checked") // every peer, every player
				requests := s.Server.Counters().ResendRequests
				for _, p := range s.Peers {
					requests += p.Client.Counters().ResendRequests
				}
				require.Equal(t, int64(0), requests, "resend requests on a lossless channel")
				require.Equal(t, 0, c.Substituted, "commands run substituted on a lossless channel")
				require.Equal(t, int64(0), s.Server.Counters().Substituted, "commands substituted by the server on a lossless channel")
				t.Logf("%+v", c)
			})
		}
	}
}

func TestReferenceGameOnLossyChannelAgreesAndEndsOnlyWhenTold(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 8, Seed: 7, Strict: true, Link: lossy})
	require.NoError(t, s.RunTics(10000, 3000000))
	check(t, s, 10000)
	for _, kind := range []netcore.EventKind{netcore.EventPlayerLeft, netcore.EventDisconnected} {
		require.Equal(t, 0, s.Count(kind), "%v events before anyone was told to leave", kind)
	}
	t.Logf("virtual time %d s for 10000 tics (%.1f tics/s); server %+v",
		s.Now()/1000, 10000*1000/float64(s.Now()), s.Server.Counters())
	// Told to: everyone leaves, and the server is back in its lobby.
	for _, p := range s.Peers {
		p.Client.Leave(s.Now())
	}
	require.True(t, s.RunUntil(func() bool { return s.Server.State() == netcore.ServerWaitingLaunch }, 10000),
		"server still %v after everyone left", s.Server.State())
}

func TestReferenceStallsWhileAPlayerIsSilentAndResumes(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 4, Seed: 3, Strict: true, Link: simnet.Link{LatencyMS: 20}})
	require.NoError(t, s.RunTics(300, 60000))
	silent := s.Peers[2]
	before := s.GameTics()
	silent.Node.SetSilent(true)
	s.RunFor(3000)
	during := s.GameTics()
	for i, p := range s.Peers {
		if p == silent {
			continue
		}
		// What was in flight, and the silent player's lead, run; then
		// nothing does: the reference waits for everyone.
		require.LessOrEqual(t, during[i]-before[i], uint32(2*netcore.MaxClientLeadTics), "peer %d: tics run while player 2 was silent", i)
	}
	silent.Node.SetSilent(false)
	require.NoError(t, s.RunTics(during[0]+300, 30000))
	require.Equal(t, 0, s.Count(netcore.EventPlayerLeft), "players left after a 3 s silence under a 4 s timeout")
	check(t, s, int(during[0])+300)
}

func TestReferenceDropsAPlayerSilentPastTheTimeoutAndPlaysOn(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 4, Seed: 4, Strict: true, Link: simnet.Link{LatencyMS: 20}})
	require.NoError(t, s.RunTics(300, 60000))
	silent := s.Peers[3]
	silentAt := s.Now()
	silent.Node.SetSilent(true)
	s.RunFor(netcore.BrowserTimeouts.TimeoutMS + 3000)
	who := silent.Client.Player()
	left, ok := s.Find(-1, netcore.EventPlayerLeft, silentAt)
	require.True(t, ok, "server did not report player %d left", who)
	require.Equal(t, who, left.Player, "server: the player that left")
	require.Equal(t, netcore.ReasonTimeout, left.Reason, "server: why player %d left", who)
	timeoutAt := silentAt + netcore.BrowserTimeouts.TimeoutMS
	for _, p := range s.Peers[:3] {
		l, ok := s.Find(p.Index, netcore.EventPlayerLeft, silentAt)
		require.True(t, ok, "peer %d did not report player %d left", p.Index, who)
		require.Equal(t, who, l.Player, "peer %d: the player that left", p.Index)
		require.LessOrEqual(t, l.At, timeoutAt+1000, "peer %d: when it reported player %d left, ms", p.Index, who)
		t.Logf("peer %d: player %d left %d ms after the timeout", p.Index, who, l.At-timeoutAt)
	}
	// The others play on.
	silent.Paused = true
	was := s.Peers[0].Client.GameTic()
	require.NoError(t, s.RunTics(was+350, 15000))
	check(t, s, int(was)+350)
}

func TestCleanLeaveIsReportedByEveryPeerWithinASecond(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 4, Seed: 5, Strict: true, Link: simnet.Link{LatencyMS: 30, JitterMS: 20}})
	require.NoError(t, s.RunTics(200, 60000))
	leaver := s.Peers[1]
	at := s.Now()
	leaver.Client.Leave(at)
	s.RunFor(2000)
	l, ok := s.Find(leaver.Index, netcore.EventDisconnected, at)
	require.True(t, ok, "the leaver did not end its connection")
	require.Equal(t, netcore.ReasonLeft, l.Reason, "why the leaver ended its connection")
	require.Equal(t, netcore.CauseLeft, l.Cause, "why the leaver ended its connection")
	player := leaver.Client.Player()
	for _, who := range []int{-1, 0, 2, 3} {
		l, ok := s.Find(who, netcore.EventPlayerLeft, at)
		require.True(t, ok, "peer %d did not report player %d left", who, player)
		require.Equal(t, player, l.Player, "peer %d: the player that left", who)
		require.LessOrEqual(t, l.At-at, int64(1000), "peer %d: when it reported the leave, ms", who)
	}
	leaver.Paused = true
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+100, 10000))
	check(t, s, 300)
}

func TestServerLeavingDisconnectsEveryClient(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 6, Strict: true, Link: simnet.Link{LatencyMS: 30}})
	require.NoError(t, s.RunTics(100, 60000))
	at := s.Now()
	s.Server.Shutdown(at)
	s.RunFor(2000)
	for _, p := range s.Peers {
		l, ok := s.Find(p.Index, netcore.EventDisconnected, at)
		require.True(t, ok, "peer %d not disconnected", p.Index)
		require.Equal(t, netcore.ReasonServerLeft, l.Reason, "peer %d: why it disconnected", p.Index)
		require.Equal(t, netcore.CauseServerLeft, l.Cause, "peer %d: why it disconnected", p.Index)
	}
}

func TestServerThatVanishesTimesOutEveryClient(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 6, Strict: true, Link: simnet.Link{LatencyMS: 30}})
	require.NoError(t, s.RunTics(100, 60000))
	at := s.Now()
	s.StopHost()
	s.RunFor(netcore.BrowserTimeouts.TimeoutMS + 1000)
	for _, p := range s.Peers[1:] {
		l, ok := s.Find(p.Index, netcore.EventDisconnected, at)
		require.True(t, ok, "peer %d not disconnected", p.Index)
		require.Equal(t, netcore.ReasonTimeout, l.Reason, "peer %d: why it disconnected", p.Index)
		require.Equal(t, netcore.CauseTimeout, l.Cause, "peer %d: why it disconnected", p.Index)
	}
}

// Under the reference, the server tells the other players of a client
// that fell silent, once its connection timed out, as Chocolate Doom does,
// and of none that left cleanly.
func TestTheServerTellsTheOthersOfAClientThatTimedOut(t *testing.T) {
	for _, how := range []string{"silent", "leave"} {
		t.Run(how, func(t *testing.T) {
			s := start(t, Options{Players: 3, Seed: 10, Strict: true, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}})
			require.NoError(t, s.RunTics(100, 60000))
			gone := s.Peers[1]
			if how == "silent" {
				gone.Node.SetSilent(true)
			} else {
				gone.Client.Leave(s.Now())
			}
			s.RunFor(netcore.BrowserTimeouts.TimeoutMS + 1000)
			l, ok := s.Find(-1, netcore.EventPlayerLeft, 0)
			require.True(t, ok, "the server's player left")
			want := []string{"Client 'player1' timed out and disconnected"}
			if how == "leave" {
				want = nil
			}
			for _, p := range []*Peer{s.Peers[0], s.Peers[2]} {
				var told []string
				for _, e := range p.Events {
					if e.Kind == netcore.EventConsoleMessage {
						told = append(told, e.Reason)
					}
				}
				require.Equal(t, want, told, "peer %d: what the server told it (the player left: %s)", p.Index, l.Reason)
			}
		})
	}
}

// A client whose clock runs 2 % fast stays in step: under the reference
// the lockstep holds it back, under the extension its clock follows the
// server's reports. The spread is the largest difference between two
// peers' gametics after any step of 5 ms, over 10 000 tics: at most 2
// under the reference (a tic that reaches one peer in the step before it
// reaches another, behind the host's 1 MB/s uplink), 1 under the
// extension.
func TestFastClockStaysInStep(t *testing.T) {
	t.Parallel()
	bound := map[string]int{"chocolate": 2, "ticnet": 1}
	for _, proto := range protocols {
		t.Run(proto.name, func(t *testing.T) {
			s := build(t, Options{Players: 4, Seed: 8, Strict: proto.strict, Link: simnet.Link{LatencyMS: 10}})
			s.Peers[2].ClockRate = 1.02
			require.NoError(t, s.Start())
			worst := 0
			s.OnStep = func(int64) {
				g := s.GameTics()
				lo, hi := g[0], g[0]
				for _, v := range g {
					lo, hi = min(lo, v), max(hi, v)
				}
				worst = max(worst, int(hi-lo))
			}
			require.NoError(t, s.RunTics(10000, 400000))
			check(t, s, 10000)
			noDesync(t, s)
			t.Logf("largest gametic spread over 10000 tics: %d", worst)
			require.LessOrEqual(t, worst, bound[proto.name], "largest gametic spread, tics")
		})
	}
}

// A server that hands its game off (its page was hidden) names the
// extension client that acknowledged the most tics, of those it may
// (ServerConfig.MaySucceed), tells every client that the stream stopped
// there and that its own player stays, and sends them away; a reference
// game has no successor.
func TestHandOffNamesTheClientThatHoldsTheMostOfTheGame(t *testing.T) {
	t.Parallel()
	var notPeer1 link.Addr
	s := start(t, Options{Players: 4, Seed: 8, Link: simnet.Link{LatencyMS: 30},
		Server: netcore.ServerConfig{MaySucceed: func(a link.Addr) bool { return a != notPeer1 }}})
	notPeer1 = s.Peers[1].UID
	require.NoError(t, s.RunTics(100, 60000))
	s.Peers[2].Paused = true // its acknowledgements stop: it holds less
	s.RunFor(500)
	s.Peers[2].Paused = false
	succ, ok := s.Server.Successor()
	require.True(t, ok, "no successor")
	require.Equal(t, s.Peers[3].UID, succ, "successor (peer 3's)")
	at := s.Now()
	handed, ok := s.Server.HandOff(at)
	require.True(t, ok, "handed off")
	require.Equal(t, succ, handed, "the successor handed to")
	s.RunFor(200)
	for _, p := range s.Peers[1:] {
		l, ok := s.Find(p.Index, netcore.EventDisconnected, at)
		require.True(t, ok, "peer %d not disconnected", p.Index)
		require.Equal(t, netcore.ReasonServerLeft, l.Reason, "peer %d: why it disconnected", p.Index)
		require.Equal(t, netcore.CauseServerLeft, l.Cause, "peer %d: why it disconnected", p.Index)
		said, ok := s.Find(p.Index, netcore.EventServerLeaving, at)
		require.True(t, ok, "peer %d heard no leaving message", p.Index)
		require.LessOrEqual(t, said.At, l.At, "peer %d: its leaving message came after its end", p.Index)
		m := said.Leaving()
		require.Equal(t, uint32(succ), m.Successor, "peer %d: the successor it heard", p.Index)
		require.Equal(t, wire.NoPlayer, m.Player, "peer %d: the player it heard stays", p.Index)
		require.GreaterOrEqual(t, m.Tic, uint32(100), "peer %d: the tic the stream stopped at", p.Index)
	}
	ref := start(t, Options{Players: 2, Seed: 8, Strict: true, Link: simnet.Link{LatencyMS: 30}})
	require.NoError(t, ref.RunTics(50, 60000))
	a, ok := ref.Server.Successor()
	require.False(t, ok, "a reference game names successor %x", a)
	a, ok = ref.Server.HandOff(ref.Now())
	require.False(t, ok, "a reference game handed off to %x", a)
	ref.RunFor(200)
	for _, p := range ref.Peers {
		require.Equal(t, netcore.ClientInGame, p.Client.State(), "peer %d of a reference game that could not hand off", p.Index)
	}
}

// A server's Leaving goes with its DISCONNECT and may come after it: the
// client, already disconnected (the server left), still reports it, once,
// though the server says it three times: where the stream stopped and
// whom the game was handed to still count.
func TestALeavingThatComesAfterTheDisconnectIsReported(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 9, Link: simnet.Link{LatencyMS: 30}})
	require.NoError(t, s.RunTics(100, 60000))
	late := s.Peers[2]
	succ, ok := s.Server.Successor()
	require.True(t, ok, "no successor")
	late.Paused = true // what the server sends it waits in its inbox
	at := s.Now()
	handed, ok := s.Server.HandOff(at)
	require.True(t, ok, "handed off")
	require.Equal(t, succ, handed, "the successor handed to")
	s.RunFor(100)
	// The frames it was sent come again from a relay, the Leavings 50 ms
	// after the rest.
	relay := s.Net.AddNode()
	var leavings [][]byte
	for f, ok := late.Node.Receive(); ok; f, ok = late.Node.Receive() {
		if IsLeaving(f) {
			leavings = append(leavings, bytes.Clone(f))
			continue
		}
		relay.Broadcast(f)
	}
	require.Len(t, leavings, 3, "the Leavings the server sent the late copy")
	late.Paused = false
	s.RunFor(50)
	for _, f := range leavings {
		relay.Broadcast(f)
	}
	s.RunFor(200)
	end, ok := s.Find(late.Index, netcore.EventDisconnected, at)
	require.True(t, ok, "the late copy did not disconnect: %v", late.Events)
	require.Equal(t, netcore.CauseServerLeft, end.Cause, "why the late copy disconnected")
	var said []Logged
	for _, l := range s.Log {
		if l.Peer == late.Index && l.Kind == netcore.EventServerLeaving {
			said = append(said, l)
		}
	}
	require.Len(t, said, 1, "the late copy's reports of the Leaving")
	require.GreaterOrEqual(t, said[0].At, end.At+50, "when the Leaving was reported: after the end, ms")
	m := said[0].Leaving()
	require.Equal(t, uint32(succ), m.Successor, "the successor the late copy heard")
	require.Equal(t, wire.NoPlayer, m.Player, "the player the late copy heard leaves")
	require.GreaterOrEqual(t, m.Tic, uint32(100), "the tic the stream stopped at")
}

// Under the reference protocol clients stand at different tics, so a
// player who leaves must leave at one tic for all of them: the server
// keeps it in every tic some other client was already sent with it. On
// the lossy channel, over 20 games whose player 2 leaves (cleanly, or by
// falling silent until it times out), every copy that stays runs the same
// tics with the same players, sees the player leave at one tic, and ran
// the commands the players built (without it, 18 of 30 such games
// desynced).
func TestALeavingPlayerLeavesAtOneTicEverywhereUnderTheReference(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 20; seed++ {
		s := start(t, Options{Players: 4, Seed: seed, Strict: true, Link: lossy})
		require.NoError(t, s.RunTics(300, 300000))
		leaver := s.Peers[2]
		if seed%2 == 0 {
			leaver.Client.Leave(s.Now())
		} else {
			leaver.Node.SetSilent(true)
		}
		s.RunFor(6000)
		leaver.Paused = true
		require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+300, 300000))
		check(t, s, 550)
		var at []uint32
		for _, p := range s.Peers {
			if p == leaver {
				continue
			}
			for _, e := range p.Events {
				if e.Kind == netcore.EventPlayerLeft && e.Player == leaver.Client.Player() {
					at = append(at, e.Tic)
				}
			}
		}
		require.Len(t, at, 3, "seed %d: the copies that stayed that saw player %d leave", seed, leaver.Client.Player())
		require.Equal(t, at[0], at[1], "seed %d: the tics at which copies 0 and 1 saw player %d leave", seed, leaver.Client.Player())
		require.Equal(t, at[1], at[2], "seed %d: the tics at which copies 1 and 2 saw player %d leave", seed, leaver.Client.Player())
	}
}
