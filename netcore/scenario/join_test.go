package scenario

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entered returns, for every peer, the tic at which it saw player enter
// the game, or -1.
func entered(s *Scenario, player int) []int64 {
	var at []int64
	for _, p := range s.Peers {
		tic := int64(-1)
		for _, e := range p.Events {
			if e.Kind == netcore.EventPlayerEntered && e.Player == player {
				tic = int64(e.Tic)
			}
		}
		at = append(at, tic)
	}
	return at
}

// playing reports whether a joiner has run the tic it entered the game at:
// it plays.
// rejoins says of each start of j's game, a join of a game in progress,
// whether j got its player back (its Start), and checks that its Reason
// says so to people.
func rejoins(t *testing.T, j *Peer) []bool {
	t.Helper()
	var r []bool
	for _, e := range j.Events {
		if e.Kind == netcore.EventGameStarted {
			require.True(t, e.Start.Joined, "a joiner's start: joined")
			require.Equal(t, e.Start.Rejoined, e.Reason == netcore.ReasonRejoined, "a joiner's start: rejoined, and its reason %q", e.Reason)
			r = append(r, e.Start.Rejoined)
		}
	}
	return r
}

func playing(j *Peer) bool {
	for _, e := range j.Events {
		if e.Kind == netcore.EventPlayerEntered && e.Player == j.Client.Player() && j.Client.Player() >= 0 {
			return true
		}
	}
	return false
}

// joinAndPlay opens a copy while the game runs, waits for it to enter, and
// plays on to tic end; it returns the joiner.
func joinAndPlay(t *testing.T, s *Scenario, end uint32) *Peer {
	t.Helper()
	j := s.Join()
	require.True(t, s.RunUntil(func() bool { return playing(j) }, 30000),
		"the joiner did not enter the game: %v, events %v", j.Client.State(), j.Events)
	require.NoError(t, s.RunTics(end, 600000))
	return j
}

func TestLateJoinerEntersTheGameAtOneTicEverywhereAndAgrees(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 31, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}, StateBytes: 64 << 10})
	require.NoError(t, s.RunTics(300, 60000))
	j := joinAndPlay(t, s, 2000)
	p := j.Client.Player()
	require.Equal(t, 3, p, "the joiner's player (the first free)")
	at := entered(s, p)
	for _, tic := range at {
		require.Equal(t, at[0], tic, "the tics at which the peers saw player %d enter: %v", p, at)
		require.GreaterOrEqual(t, tic, int64(300), "the tics at which the peers saw player %d enter: %v", p, at)
	}
	first := -1
	for tic, r := range j.Game.Ran().All() {
		if r.OK {
			first = tic
			break
		}
	}
	c := check(t, s, 2000)
	noDesync(t, s)
	xc := j.Client.Transfers().Counters()
	t.Logf("joined from tic %d, entered at tic %d; %+v; the joiner took %d chunks, %d bytes", first, at[0], c,
		xc.ChunksReceived, xc.ChunkBytesReceived)
}

// The joiner's state is on its way from its SYN on, and its JoinStart
// names the tic the state is of; the tics since follow JoinStart in the
// same pass, and those that overtake it (20-30 ms each way, which never
// reorders tics a tic apart) are kept, not asked for again.
func TestLateJoinerKeepsTheTicsThatOvertakeItsJoinStart(t *testing.T) {
	t.Parallel()
	for seed := uint64(40); seed < 50; seed++ {
		s := start(t, Options{Players: 3, Seed: seed, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}, StateBytes: 16 << 10})
		require.NoError(t, s.RunTics(300, 60000))
		j := s.Join()
		require.True(t, s.RunUntil(func() bool { return playing(j) }, 30000), "seed %d: the joiner did not enter: %v", seed, j.Events)
		require.Zero(t, j.Client.Counters().ResendRequests, "seed %d: times the joiner asked for tics again on a channel that loses none", seed)
	}
}

// joinRun plays a 6-player game on the lossy channel, opens a copy at a
// random tic near 3000, with a burst of loss on its links while its
// snapshot travels, and plays to tic 10 000.
type joinResult struct {
	start, entered uint32 // the snapshot's tic, the tic it entered at
	joinMS         int64  // from its first SYN to in the game
	states         int64  // states the host's client sent for it
	checked        Checked
	err            error
}

func joinRun(seed uint64, stateBytes int, ticks uint32) (r joinResult) {
	rng := rand.New(rand.NewPCG(seed, 0x10e))
	// The game starts on a quiet channel (a start under loss is another
	// test's), then everything turns lossy.
	s := New(Options{Players: 6, Seed: seed, Link: simnet.Link{LatencyMS: 50, JitterMS: 100}, StateBytes: stateBytes})
	if r.err = s.Start(); r.err != nil {
		return r
	}
	for _, nd := range s.Net.Nodes() {
		s.Net.SetLinks(nd, lossy)
	}
	at := uint32(2500 + rng.IntN(1000))
	if r.err = s.RunTics(at, 600000); r.err != nil {
		return r
	}
	j := s.Join()
	s.Net.SetLinks(j.Node, lossy)
	synAt := s.Now()
	burst := lossy
	burst.Loss = 0.5
	burstFrom, burstTo := synAt+int64(rng.IntN(500)), synAt+500+int64(rng.IntN(1500))
	bursting := false
	s.OnStep = func(now int64) {
		if in := now >= burstFrom && now < burstTo; in != bursting {
			bursting = in
			if in {
				s.Net.SetLinks(j.Node, burst)
			} else {
				s.Net.SetLinks(j.Node, lossy)
			}
		}
	}
	if !s.RunUntil(func() bool { return playing(j) }, 60000) {
		hc := s.Peers[0].Client
		r.err = fmt.Errorf("the joiner did not enter: %v %v; joiner gametic %d recvtic %d xfer %+v; server xfer %+v; host gametic %d xfer %+v",
			j.Client.State(), j.Events, j.Client.GameTic(), j.Client.RecvTic(), j.Client.Transfers().Counters(),
			s.Server.Transfers().Counters(), hc.GameTic(), hc.Transfers().Counters())
		return r
	}
	r.joinMS = s.Now() - synAt
	r.states = s.Peers[0].Client.Transfers().Counters().StreamsStarted
	if r.err = s.RunTics(ticks, 3000000); r.err != nil {
		return r
	}
	for _, e := range j.Events {
		switch e.Kind {
		case netcore.EventGameStarted:
			r.start = e.Tic
		case netcore.EventPlayerEntered:
			if e.Player == j.Client.Player() {
				r.entered = e.Tic
			}
		}
	}
	at2 := entered(s, j.Client.Player())
	for i, tic := range at2 {
		if tic != int64(r.entered) {
			r.err = fmt.Errorf("peer %d saw the joiner enter at tic %d, the joiner at %d", i, tic, r.entered)
			return r
		}
	}
	if r.checked, r.err = s.Check(); r.err != nil {
		return r
	}
	if n := s.Count(netcore.EventDesyncSuspected); n != 0 {
		r.err = fmt.Errorf("%d desync events", n)
	}
	return r
}

// Acceptance: 200 seeds per state size, 6 players on the lossy channel,
// a copy joining at a random tic from 2500 to 3500 with a burst of 50 %
// loss on its links while its state travels: it enters at one tic on every
// copy, every copy runs the players' commands and agrees at every tic to
// 10 000, and nobody desyncs. The runs are seeded, so the median time from
// the joiner's first SYN to playing is asserted to the millisecond (the
// README's figures, with 200 seeds).
func TestLateJoinOnTheLossyChannelAgreesFromItsEntryOn(t *testing.T) {
	t.Parallel()
	seeds := 200
	wantMedianMS := map[int]int64{64 << 10: 1515, 1 << 20: 2585}
	if testing.Short() {
		seeds = 20
		wantMedianMS = map[int]int64{64 << 10: 1470, 1 << 20: 2650}
	}
	for _, size := range []int{64 << 10, 1 << 20} {
		results := make([]joinResult, seeds)
		inParallel(seeds, func(i int) { results[i] = joinRun(uint64(500+i), size, 10000) })
		var ms []int64
		var states int64
		for i, r := range results {
			require.NoError(t, r.err, "%d bytes, seed %d", size, 500+i)
			ms = append(ms, r.joinMS)
			states += r.states
		}
		slices.Sort(ms)
		t.Logf("%d bytes: %d joins, all agree to tic 10000; first SYN to playing: median %d ms, p90 %d ms, max %d ms; %d states sent",
			size, seeds, ms[len(ms)/2], ms[len(ms)*9/10], ms[len(ms)-1], states)
		assert.Equal(t, wantMedianMS[size], ms[len(ms)/2], "%d bytes, %d seeds: median first SYN to playing, ms", size, seeds)
	}
}

// Under a dedicated server, as ticnet-server, the state comes from the
// longest connected client.
func TestLateJoinUnderADedicatedServerTakesTheStateFromAClient(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 32, Dedicated: true, Link: simnet.Link{LatencyMS: 20, JitterMS: 10},
		StateBytes: 256 << 10})
	require.NoError(t, s.RunTics(200, 60000))
	j := joinAndPlay(t, s, 1500)
	require.Equal(t, 3, j.Client.Player(), "the joiner's player")
	sent := int64(0)
	for _, p := range s.Peers[:3] {
		sent += p.Client.Transfers().Counters().ChunkBytesSent
	}
	require.GreaterOrEqual(t, sent, int64(256<<10), "bytes of state the clients sent: the 256 KB snapshot")
	check(t, s, 1500)
	noDesync(t, s)
}

// A copy that joins a full game watches: a spectator's place, every tic
// run, no player of its own.
func TestLateJoinerOfAFullGameWatches(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 33, Link: simnet.Link{LatencyMS: 20}, Server: netcore.ServerConfig{MaxPlayers: 3}})
	require.NoError(t, s.RunTics(200, 60000))
	j := s.Join()
	require.True(t, s.RunUntil(func() bool { return j.Client.State() == netcore.ClientInGame && j.Client.GameTic() > 400 }, 30000),
		"the spectator does not follow the game: %v at tic %d", j.Client.State(), j.Client.GameTic())
	require.Equal(t, -1, j.Client.Player(), "the player of the joiner of a full game")
	require.NoError(t, s.RunTics(1000, 60000))
	check(t, s, 1000)
	noDesync(t, s)
}

// A reference peer gets what real Chocolate Doom gives it: REJECTED; and so
// does a ticnet copy when the game runs the reference protocol.
func TestLateJoinIsRefusedWhereTheReferenceRules(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 2, Seed: 34})
	raw := rawPeer(s, 0x7779)
	raw.Send(ServerUID, syn(wire.Magic)) // offers CHOCOLATE_DOOM_0 only
	require.Equal(t, "Server is not currently accepting connections", rejection(t, s, raw), "a reference peer joining a ticnet game")
	strict := start(t, Options{Players: 2, Seed: 35, Strict: true})
	j := strict.Join() // offers TICNET_1 first
	require.True(t, strict.RunUntil(func() bool { return j.Client.State() == netcore.ClientDisconnected }, 5000),
		"a ticnet copy joining a reference game is %v", j.Client.State())
	e := j.Events[len(j.Events)-1]
	require.Equal(t, netcore.EventRejected, e.Kind, "a ticnet copy joining a reference game: its last event")
	require.Equal(t, "Server is not currently accepting connections", e.Reason, "a ticnet copy joining a reference game: why it was rejected")
}

// A player that leaves, by a clean leave or by going silent past the
// timeout, and whose copy comes back under a new identity with its token
// within the grace period, gets its player number and name back; a copy
// without the token meanwhile gets another number; after the grace period
// the number is anyone's.
func TestRejoinWithTheTokenGetsThePlayerBack(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"leave", "timeout"} {
		t.Run(how, func(t *testing.T) {
			s := start(t, Options{Players: 3, Seed: 36, Tokens: true, Link: simnet.Link{LatencyMS: 20, JitterMS: 10},
				Server: netcore.ServerConfig{RejoinGraceMS: 10000}})
			require.NoError(t, s.RunTics(300, 60000))
			gone := s.Peers[1]
			if how == "leave" {
				gone.Client.Leave(s.Now())
				s.RunFor(1000)
			} else {
				gone.Node.SetSilent(true)
				s.RunFor(netcore.BrowserTimeouts.TimeoutMS + 500)
			}
			gone.Paused = true
			other := s.Join() // no token: not player 1, which is held
			back := s.JoinWith(gone.Token)
			require.True(t, s.RunUntil(func() bool { return playing(other) && playing(back) }, 30000),
				"the joiners did not enter: %v / %v", other.Events, back.Events)
			require.Equal(t, 1, back.Client.Player(), "the player of the copy that came back")
			require.Equal(t, 3, other.Client.Player(), "the player a new copy took while 1 was held")
			require.Equal(t, []bool{true}, rejoins(t, back), "the copy that came back: its starts rejoined")
			require.Equal(t, []bool{false}, rejoins(t, other), "the new copy: its starts rejoined")
			require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+300, 60000))
			check(t, s, 600)
			noDesync(t, s)
		})
	}
}

func TestRejoinAfterTheGraceOrWhileTheOwnerPlaysIsANewPlayer(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 37, Tokens: true, Link: simnet.Link{LatencyMS: 20},
		Server: netcore.ServerConfig{RejoinGraceMS: 2000}})
	require.NoError(t, s.RunTics(300, 60000))
	// The owner of player 2's token is still playing: a copy presenting
	// it is refused the player, counted, and plays as a new one.
	twin := s.JoinWith(s.Peers[2].Token)
	require.True(t, s.RunUntil(func() bool { return playing(twin) }, 30000), "the twin did not enter: %v", twin.Events)
	require.Equal(t, 3, twin.Client.Player(), "the twin's player")
	require.Equal(t, int64(1), s.Server.Counters().RejoinRefused, "refused rejoins counted")
	// Past the grace, a departed player's token gets nothing back.
	gone := s.Peers[1]
	gone.Client.Leave(s.Now())
	s.RunFor(1000)
	gone.Paused = true
	s.RunFor(2000)
	late := s.JoinWith(gone.Token)
	require.True(t, s.RunUntil(func() bool { return playing(late) }, 30000), "the late copy did not enter: %v", late.Events)
	require.Equal(t, []bool{false}, rejoins(t, late), "a token past its grace: its starts rejoined")
	require.Equal(t, []bool{false}, rejoins(t, twin), "a token whose owner plays: its starts rejoined")
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+200, 60000))
	check(t, s, 500)
}

// badStreamPackets are bulk-stream packets that do not decode: a chunk, an
// ack and an abort cut short.
var badStreamPackets = [][]byte{{0x00, 0x70, 4, 1, 2}, {0x00, 0x70, 5, 0}, {0x00, 0x70, 6}, {0x00, 0x70, 4}}

// Junk during a join: strangers' random and mutated packets (the stream's
// chunks and acks among them, overheard), and bulk-stream packets that do
// not decode under real UIDs, 100 000 frames while a 1 MB state travels.
// The join completes, every copy agrees and ran the players' commands,
// every junk frame is counted once where it arrives, and the joiner never
// holds more stream memory than the state's.
func TestLateJoinUnderJunkCompletesAndCountsEveryFrame(t *testing.T) {
	t.Parallel()
	const junk = 100000
	s := start(t, Options{Players: 4, Seed: 38, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}, StateBytes: 1 << 20})
	require.NoError(t, s.RunTics(300, 60000))
	j := s.Join()
	// The junk starts with the transfer: before it, the joiner drops the
	// tics it hears while it connects, which are not junk.
	require.True(t, s.RunUntil(func() bool { return j.Client.State() == netcore.ClientInGame }, 10000), "the joiner was not admitted: %v", j.Events)
	baseline := junkCounted(s)
	h := &hostile{node: s.Net.AddNode(), rng: rand.New(rand.NewPCG(38, 38)), real: []link.Addr{ServerUID},
		bad: append(slices.Clone(undecodable), badStreamPackets...)}
	s.Net.SetLinks(h.node, simnet.Link{})
	s.Net.SetBandwidth(h.node, -1)
	for _, p := range s.Peers[1:] {
		h.real = append(h.real, p.UID)
	}
	endpoints := len(s.Peers) // the server's channel endpoint and every remote client, the joiner included
	var peak int64
	s.OnStep = func(int64) {
		h.overhear()
		for h.sent < junk && h.rng.IntN(64) != 0 { // about 60 a step: all sent while the state travels
			h.send(endpoints)
		}
		peak = max(peak, j.Client.Transfers().BytesHeld())
	}
	require.True(t, s.RunUntil(func() bool { return playing(j) }, 60000), "the joiner did not enter under junk: %v", j.Events)
	for h.sent < junk {
		s.Step()
	}
	s.OnStep = nil
	s.Net.AdvanceTo(s.Now() + 1) // every junk frame delivered
	s.Step()
	counted := junkCounted(s) - baseline
	t.Logf("%d junk frames, %d receptions to drop, %d counted; the joiner held %d bytes at most", h.sent, h.expected, counted, peak)
	require.Equal(t, int64(h.expected), counted, "drops counted for the junk receptions")
	require.Equal(t, 249953, h.expected, "junk receptions")
	// The state as the test game saves it (its 1 MB world and a 144-byte
	// header) and the bitset of the chunks received (66 chunks: 16 bytes),
	// nothing more, not even for a junk stream.
	require.Equal(t, int64(1<<20)+144+16, peak,
		"bytes of stream the joiner held at most: the 1 MB world, the state's header (144) and the bitset of its chunks (16)")
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+300, 60000))
	check(t, s, 600)
	noDesync(t, s)
}

// A joiner that vanishes half way through its state (its tab closed): the
// server frees the stream's memory at the transfer deadline, StallMS
// (4 000 ms) after the last acknowledgement it got, which was on its way
// (20 ms) when the joiner vanished: 4 020 ms after, to the step.
func TestAbandonedJoinFreesTheServersStreamWithinTheDeadline(t *testing.T) {
	t.Parallel()
	const latencyMS = 20
	s := start(t, Options{Players: 3, Seed: 39, Link: simnet.Link{LatencyMS: latencyMS}, StateBytes: 2 << 20})
	require.NoError(t, s.RunTics(200, 60000))
	j := s.Join()
	x := s.Server.Transfers()
	if !s.RunUntil(func() bool {
		got, total, ok := j.Client.Transfers().ReceiveProgress(ServerUID, 1)
		return ok && got > total/2
	}, 30000) {
		require.FailNow(t, "the state did not get half way")
	}
	j.Node.SetSilent(true)
	j.Paused = true
	gone := s.Now()
	require.NotZero(t, x.BytesReferenced(), "the server holds nothing for the stream it is sending")
	deadline := x.Config().StallMS
	require.True(t, s.RunUntil(func() bool { return x.BytesReferenced() == 0 && x.BytesHeld() == 0 }, deadline+1000),
		"the server still holds %d bytes %d ms after the joiner vanished", x.BytesReferenced()+x.BytesHeld(), s.Now()-gone)
	freed := s.Now() - gone
	t.Logf("freed %d ms after the joiner vanished (deadline %d ms)", freed, deadline)
	require.Equal(t, deadline+latencyMS, freed,
		"ms after the joiner vanished that the server freed its stream: the deadline, %d ms, after its last acknowledgement arrived", deadline)
}

// A copy that comes back with its token gets its player back although
// its connection took long: the server's SYN replies were lost for 1.5 s,
// the copy sent its SYN again, and its Hello (the token) came more than a
// second after its first SYN. A join starts with the Hello, however long
// it takes. (The server used to wait a second for it, then start the
// copy as a new player; on a lossy channel, where a late copy of an
// earlier SYN made such a slot, copies that came back after a partition
// healed came back as new players.)
func TestARejoinWhoseSYNRepliesWereLostGetsThePlayerBack(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 10; seed++ {
		s := start(t, Options{Players: 3, Seed: seed, Tokens: true, Link: simnet.Link{LatencyMS: 20, JitterMS: 10},
			Server: netcore.ServerConfig{RejoinGraceMS: 10000}})
		require.NoError(t, s.RunTics(200, 60000))
		gone := s.Peers[1]
		own := gone.Client.Player()
		gone.Client.Leave(s.Now())
		s.RunFor(1000)
		gone.Paused = true
		back := s.JoinWith(gone.Token)
		s.Net.SetLink(s.HostNode, back.Node, simnet.Link{LatencyMS: 20, JitterMS: 10, Loss: 1})
		s.RunFor(1500)
		s.Net.SetLink(s.HostNode, back.Node, simnet.Link{LatencyMS: 20, JitterMS: 10})
		require.True(t, s.RunUntil(func() bool { return playing(back) }, 30000), "seed %d: the copy did not come back: %v", seed, back.Events)
		require.Equal(t, own, back.Client.Player(), "seed %d: the player the copy came back as (its own)", seed)
		end := s.Peers[0].Client.GameTic() + 100
		require.NoError(t, s.RunTics(end, 60000))
		check(t, s, int(end))
	}
}

// A copy that comes back with its token and vanishes before it is in the
// game (its page closed, or its join failed while the game changed
// servers) leaves its player held for it as long as it was: the next copy
// with the token gets it back within the grace, and not after it. (The
// server gave the player to the joiner and, when the joiner left before
// entering, held it no more: in the partition test on the lossy channel,
// copies came back as new players, or watched a full game.)
func TestARejoinThatVanishesLeavesThePlayerHeldForTheGrace(t *testing.T) {
	t.Parallel()
	const grace = 20000
	for _, when := range []string{"within", "past"} {
		t.Run(when, func(t *testing.T) {
			s := start(t, Options{Players: 3, Seed: 40, Tokens: true, Link: simnet.Link{LatencyMS: 20, JitterMS: 10},
				StateBytes: 2 << 20, Server: netcore.ServerConfig{RejoinGraceMS: grace}})
			require.NoError(t, s.RunTics(200, 60000))
			gone := s.Peers[1]
			own := gone.Client.Player()
			gone.Client.Leave(s.Now())
			left := s.Now()
			s.RunFor(1000)
			gone.Paused = true
			first := s.JoinWith(gone.Token)
			if !s.RunUntil(func() bool {
				got, total, ok := first.Client.Transfers().ReceiveProgress(ServerUID, 1)
				return ok && got > total/2
			}, 30000) {
				require.FailNow(t, "the first copy's state did not get half way")
			}
			require.Equal(t, own, first.Client.Player(), "the player the first copy back was given")
			first.Node.SetSilent(true)
			first.Paused = true
			vanished := s.Now()
			if !s.RunUntil(func() bool {
				l, ok := s.Find(-1, netcore.EventPlayerLeft, vanished)
				return ok && l.Addr == first.UID
			}, netcore.BrowserTimeouts.TimeoutMS+1000) {
				require.FailNow(t, "the server did not let the vanished copy go")
			}
			if when == "past" {
				s.RunFor(left + grace + 100 - s.Now())
			}
			again := s.JoinWith(gone.Token)
			require.True(t, s.RunUntil(func() bool { return playing(again) }, 30000), "the copy did not come back: %v", again.Events)
			require.Equal(t, []bool{when == "within"}, rejoins(t, again), "%s the grace: the copy that came back: its starts rejoined", when)
			rejoined := when == "within"
			if rejoined {
				require.Equal(t, own, again.Client.Player(), "%s the grace: the player the copy came back as (its own)", when)
			}
			end := s.Peers[0].Client.GameTic() + 100
			require.NoError(t, s.RunTics(end, 60000))
			check(t, s, int(end))
			noDesync(t, s)
		})
	}
}

// synCapture keeps what a client sends.
type synCapture struct{ sent [][]byte }

func (c *synCapture) Send(_ link.Addr, p []byte)      { c.sent = append(c.sent, slices.Clone(p)) }
func (c *synCapture) Recv() (link.Addr, []byte, bool) { return 0, nil, false }

// A copy's old connection, lingering after the server sent it away, can
// acknowledge the reply to a late copy of its old SYN: the server then
// holds a slot for the copy that never says Hello. Connections have an
// identity (netcore/ident.go): the copy's new connection's SYN is no
// duplicate of that slot's, which goes at once, and the copy joins; a
// late copy of the old connection's SYN is stale and leaves the new one
// alone. (Before identities the server took the new SYNs for duplicates
// until StaleHandshakeMS had passed, a timer this replaced; before that
// timer the copy gave up after 5 s: the longest heals of
// TestAPartitionThatHealsLeavesOneGame.)
func TestAFreshSYNReplacesASlotThatNeverSaidHello(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 41, Link: simnet.Link{LatencyMS: 20}})
	require.NoError(t, s.RunTics(200, 60000))
	// The copy's old connection, on the UID the copy will have.
	uid := link.Addr(0x1000 + len(s.Peers))
	old := simnet.NewFrameTransport(s.Net.AddNode(), uid)
	var capture synCapture
	key := s.keyFor(s.opts.Seed, len(s.Peers), [wire.RejoinTokenLen]byte{}) // the copy's, as Join gives it
	netcore.NewClient(netcore.ClientConfig{Name: "old", Settings: settings, Key: key}, &capture, ServerUID, testgame.New(1), s.Now()).Update(s.Now())
	require.Len(t, capture.sent, 1, "packets a new client sent: its SYN")
	var syn wire.SYN
	_, err := wire.Decode(capture.sent[0], &syn)
	require.NoError(t, err)
	_, oldConn, _ := wire.ParseOffer(syn.Protocols[0])
	require.NotZero(t, oldConn, "the old connection's identity, offered in %q", syn.Protocols)
	old.Send(ServerUID, capture.sent[0])
	var reply wire.SYNReply
	s.RunUntil(func() bool {
		for {
			from, pkt, ok := old.Recv()
			if !ok {
				return reply.Protocol != ""
			}
			if h, body, err := wire.ParseHeader(pkt); err == nil && from == ServerUID && h.Type == wire.TypeSYN {
				require.NoError(t, reply.DecodeBody(body))
			}
		}
	}, 1000)
	id, srvKey, ok := wire.ParseReply(reply.Protocol)
	require.True(t, ok, "the server's reply %q names no connection", reply.Protocol)
	require.Equal(t, oldConn, id.Conn, "the connection the reply names")
	keys, err := auth.Agree(key, *srvKey, id.Conn, true)
	require.NoError(t, err)
	ack := wire.Encode(nil, &wire.ReliableAck{Ack: 1}, false, 0)
	wire.SetTag(ack, wire.ConnTag(id.Conn))
	old.Send(ServerUID, auth.NewConn(keys, true, s.Now()).Seal(ack))
	states := func() int64 { return s.Peers[0].Client.Transfers().Counters().StreamsStarted }
	s.RunFor(100)
	// A late copy of the SYN, as if the copy's Hello were lost on its
	// way: a duplicate, and the join the slot began (the state asked
	// for) goes on.
	old.Send(ServerUID, capture.sent[0])
	s.RunFor(100)
	require.Equal(t, int64(1), states(), "states the host's copy sent (more: a duplicate SYN restarted the join)")
	j := s.Join() // at once: a new connection
	require.Equal(t, uid, j.UID, "the copy's UID")
	joined := s.Now()
	require.True(t, s.RunUntil(func() bool { return playing(j) }, 500),
		"the copy did not join in 500 ms (the old slot times out after %d): %v", netcore.BrowserTimeouts.TimeoutMS, j.Events)
	t.Logf("the copy joined in %d ms", s.Now()-joined)
	require.Equal(t, int64(2), states(), "states the host's copy sent")
	// The old connection's SYN, late again: stale, dropped and counted.
	stale := s.Server.Counters().Stale
	old.Send(ServerUID, capture.sent[0])
	end := s.Peers[0].Client.GameTic() + 100
	require.NoError(t, s.RunTics(end, 60000))
	require.Equal(t, stale+1, s.Server.Counters().Stale, "stale frames the server dropped: the old connection's SYN")
	require.True(t, playing(j), "the new connection plays on")
	check(t, s, int(end))
}
