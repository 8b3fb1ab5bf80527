package scenario

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// watchResult is what a game with watchers measured: 4 players, and
// watchers opened at random times over 10 s of the game.
type watchResult struct {
	watchers int
	// Per tic of the measured stretch (from the first watcher's opening
	// to the end): the frames and bytes the players' nodes sent (each
	// player's own), and the server's node's bytes per second.
	playerFramesPerTic, playerBytesPerTic float64
	serverBytesPerSec                     float64
	ticsPerSec                            float64 // the host's game's rate over the stretch
	worstStallMS                          int64   // the longest a player's game went without a tic
	// watchMS is each watcher's time from its opening to the server
	// putting it in the game's stream (EventPlayerEntered).
	watchMS []int64
	checked Checked
	err     error
}

// watchQuietLink is the quiet channel of the watcher runs.
var watchQuietLink = simnet.Link{LatencyMS: 20, JitterMS: 10}

// watchRun plays a 4-player game to tic 200, opens watchers at random
// times over the next 10 s (on links as lossy as the players', if lossy),
// plays on until 15 s after the first could open, and checks every copy.
func watchRun(seed uint64, watchers int, lossyLinks bool) (r watchResult) {
	r.watchers = watchers
	rng := rand.New(rand.NewPCG(seed, 0x3a7c4))
	s := New(Options{Players: 4, Seed: seed, Link: watchQuietLink, StateBytes: 16 << 10})
	if r.err = s.Start(); r.err != nil {
		return r
	}
	link := watchQuietLink
	if lossyLinks {
		link = lossy
		for _, nd := range s.Net.Nodes() {
			s.Net.SetLinks(nd, link)
		}
	}
	if r.err = s.RunTics(200, 60000); r.err != nil {
		return r
	}
	t0 := s.Now()
	opens := make([]int64, watchers)
	for i := range opens {
		opens[i] = t0 + rng.Int64N(10000)
	}
	slices.Sort(opens)
	players := slices.Clone(s.Peers[:4])
	sent := func() (frames, bytes int64) {
		for _, p := range players[1:] {
			frames += p.Node.FramesSent()
			bytes += p.Node.BytesSent()
		}
		return frames, bytes
	}
	frames0, bytes0 := sent()
	server0, tic0 := s.HostNode.BytesSent(), s.Peers[0].Client.GameTic()
	var watching []*Peer
	openedAt := map[int]int64{}
	w := watchStalls(s)
	end := t0 + 15000
	for s.Now() < end {
		for len(opens) > 0 && opens[0] <= s.Now() {
			opens = opens[1:]
			p := s.Watch()
			if lossyLinks {
				s.Net.SetLinks(p.Node, link)
			}
			watching = append(watching, p)
			openedAt[p.Index] = s.Now()
			w.lastTic, w.lastAt, w.worst = append(w.lastTic, 0), append(w.lastAt, s.Now()), append(w.worst, 0)
		}
		s.Step()
		w.observe(s.Now())
	}
	secs := float64(s.Now()-t0) / 1000
	tics := float64(s.Peers[0].Client.GameTic() - tic0)
	frames1, bytes1 := sent()
	r.playerFramesPerTic = float64(frames1-frames0) / tics / 3
	r.playerBytesPerTic = float64(bytes1-bytes0) / tics / 3
	r.serverBytesPerSec = float64(s.HostNode.BytesSent()-server0) / secs
	r.ticsPerSec = tics / secs
	for i := range players {
		r.worstStallMS = max(r.worstStallMS, w.worst[i])
	}
	for _, p := range watching {
		if p.Client.Player() >= 0 {
			r.err = fmt.Errorf("watcher %d plays as player %d", p.Index, p.Client.Player())
			return r
		}
		at := int64(-1)
		for _, l := range s.Log {
			if l.Peer == -1 && l.Kind == netcore.EventPlayerEntered && l.Addr == p.UID {
				at = l.At - openedAt[p.Index]
				break
			}
		}
		r.watchMS = append(r.watchMS, at)
	}
	for _, l := range s.Log {
		if l.Peer == -1 && l.Kind == netcore.EventPlayerJoined && l.Player >= 0 && slices.ContainsFunc(watching, func(p *Peer) bool { return p.UID == l.Addr }) {
			r.err = fmt.Errorf("the server took a watcher (%v) for player %d", l.Addr, l.Player)
			return r
		}
	}
	if n := s.Count(netcore.EventDesyncSuspected); n > 0 {
		r.err = fmt.Errorf("%d desync events", n)
		return r
	}
	r.checked, r.err = s.Check()
	return r
}

// Watchers cost the players nothing: 4 players, and 0, 16 or 64
// watchers opened at random times over 10 s, four seeds each, on the
// quiet and the lossy channel. Against the same seed without watchers,
// each player sends as many frames a tic (within 0.002) and as many bytes
// (within 0.5 %: the channel's random draws differ with the number of
// nodes), the game runs at 35 tics a second, and the longest a player's
// game went without a tic is within 10 ms of the worst without watchers
// (quiet 40 ms, lossy 260 ms). Every watcher watches, none plays, and
// every copy runs the commands the players built (watchRun's Check).
func TestWatchersCostThePlayersNothing(t *testing.T) {
	t.Parallel()
	for _, lossyLinks := range []bool{false, true} {
		var worst0, worstW int64
		var watchMS []int64
		for seed := uint64(1); seed <= 4; seed++ {
			var base watchResult
			for _, n := range []int{0, 16, 64} {
				r := watchRun(seed, n, lossyLinks)
				require.NoError(t, r.err, "lossy %v seed %d watchers %d", lossyLinks, seed, n)
				require.Len(t, r.watchMS, n, "watchers")
				t.Logf("lossy %v seed %d, %d watchers: a player sends %.4f frames, %.2f bytes a tic; the server %.0f bytes a second; %.3f tics a second; longest stall %d ms",
					lossyLinks, seed, n, r.playerFramesPerTic, r.playerBytesPerTic, r.serverBytesPerSec, r.ticsPerSec, r.worstStallMS)
				require.InDelta(t, 35, r.ticsPerSec, 0.001, "tics a second")
				if n == 0 {
					base, worst0 = r, max(worst0, r.worstStallMS)
					continue
				}
				require.InDelta(t, base.playerFramesPerTic, r.playerFramesPerTic, 0.002, "a player's frames a tic, %d watchers against none", n)
				require.InEpsilon(t, base.playerBytesPerTic, r.playerBytesPerTic, 0.005, "a player's bytes a tic, %d watchers against none", n)
				worstW = max(worstW, r.worstStallMS)
				for _, ms := range r.watchMS {
					require.GreaterOrEqual(t, ms, int64(0), "a watcher that never watched")
				}
				watchMS = append(watchMS, r.watchMS...)
			}
		}
		slices.Sort(watchMS)
		t.Logf("lossy %v: longest stall %d ms with watchers, %d without; %d watchers from opening to watching: median %d ms, p90 %d, worst %d",
			lossyLinks, worstW, worst0, len(watchMS), watchMS[len(watchMS)/2], watchMS[len(watchMS)*9/10], watchMS[len(watchMS)-1])
		require.LessOrEqual(t, worstW, worst0+10, "longest stall with watchers against without")
	}
}

// Watchers on the lossy channel, 200 seeds of 4 players and 16 watchers:
// no desync, no watcher ever a player, every copy running the commands
// the players built.
func TestWatchersOnTheLossyChannelNeverDesyncNorPlay(t *testing.T) {
	t.Parallel()
	var watchMS []int64
	for seed := uint64(100); seed < 300; seed++ {
		r := watchRun(seed, 16, true)
		require.NoError(t, r.err, "seed %d", seed)
		for _, ms := range r.watchMS {
			require.GreaterOrEqual(t, ms, int64(0), "seed %d: a watcher that never watched", seed)
		}
		watchMS = append(watchMS, r.watchMS...)
	}
	slices.Sort(watchMS)
	t.Logf("%d watchers from opening to watching: median %d ms, p90 %d, worst %d",
		len(watchMS), watchMS[len(watchMS)/2], watchMS[len(watchMS)*9/10], watchMS[len(watchMS)-1])
}

// A watcher that sends commands, or checksums that disagree with every
// player's, changes nothing: the server drops each, counted as
// unexpected, exactly once, and every copy runs the commands the players
// built, without a desync.
func TestAWatchersCommandsAndChecksumsChangeNothing(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 4, Drones: 1, Seed: 37, Link: watchQuietLink})
	w := s.Peers[4]
	var tag uint8
	s.Net.Tap = func(_ int64, node int, frame []byte) {
		if node == w.Node.ID() && len(frame) > link.FrameHeaderLen {
			tag = wire.TagOf(frame[link.FrameHeaderLen:])
		}
	}
	require.NoError(t, s.RunTics(300, 60000))
	require.NotZero(t, tag, "the watcher's frames carry its connection's tag")
	require.Equal(t, -1, w.Client.Player(), "the watcher's player")
	const forged = 200
	before := s.Server.Counters().Unexpected
	for i := range forged {
		g := s.Peers[0].Client.GameTic() + 2
		var pkt []byte
		if i%2 == 0 {
			cmd := wire.Diff(&tic.Cmd{}, &tic.Cmd{ForwardMove: 50, SideMove: -50})
			pkt = wire.Encode(nil, &wire.ClientGameData{Ext: true, Ack: uint8(g), Start: uint8(g),
				Tics: []wire.ClientTic{{Diff: cmd}, {Diff: cmd}}}, false, 0)
		} else {
			pkt = wire.Encode(nil, &wire.ChecksumReport{Start: g - 20, Sums: []uint16{1, 2, 3, 4, 5, 6, 7, 8}}, false, 0)
		}
		wire.SetTag(pkt, tag)
		w.Frame.Send(ServerUID, pkt)
		for range 2 {
			s.Step()
		}
	}
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+100, 60000))
	require.Equal(t, int64(forged), s.Server.Counters().Unexpected-before, "the watcher's forged frames the server counted")
	check(t, s, 450)
	noDesync(t, s)
}
