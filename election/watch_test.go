package election

import (
	"math/rand/v2"
	"testing"

	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// A copy that watches never serves, though it came first: the copies that
// may serve elect one of themselves, without waiting for it, and every
// watcher follows that one; when it leaves, a copy that may serve takes
// its place, never a watcher. Copies that all watch elect no one.
func TestACopyThatWatchesNeverServes(t *testing.T) {
	for seed := range uint64(100) {
		s := newElectionSim(seed, simnet.Link{LatencyMS: 2, JitterMS: 8, Loss: 0.2})
		r := rand.New(rand.NewPCG(seed, 16))
		// The two earliest copies watch.
		var watchers []*instance
		for i := range 5 {
			in := s.addWith(Config{Cadence: Local, StartMS: 1000 + float64(i), Rand: r.Uint32, Watch: i < 2})
			if i < 2 {
				watchers = append(watchers, in)
			}
		}
		for range 300 {
			s.tick()
		}
		require.True(t, s.agreed(), "seed %d: one server, followed by every copy", seed)
		for _, w := range watchers {
			require.Equal(t, Client, w.r.Election.Role(), "seed %d: a watcher's role", seed)
		}
		require.Equal(t, 1000+2.0, s.server().r.Election.Self().StartMS, "seed %d: the earliest copy that may serve serves", seed)
		// It did not wait for the watchers that came before it: it
		// served when its wait was over.
		require.LessOrEqual(t, s.insts[2].decidedAt, Local.WaitMS+s.step, "seed %d: the first copy that may serve decided after %d ms", seed, s.insts[2].decidedAt)
		for range 2 { // the server leaves, then the next
			srv := s.server()
			srv.open = false
			srv.node.SetSilent(true)
			gone := s.net.Now()
			for !s.agreed() {
				require.LessOrEqual(t, s.net.Now()-gone, Local.ServerTimeoutMS+1000, "seed %d: no agreement after the server left", seed)
				s.tick()
			}
			require.False(t, s.server().r.Election.cfg.Watch, "seed %d: a watcher serves", seed)
		}
		// Only watchers remain with the last copy that may serve: it
		// leaves, and no one serves.
		srv := s.server()
		srv.open = false
		srv.node.SetSilent(true)
		for range 1000 {
			s.tick()
			require.Zero(t, s.servers(), "seed %d: a server among copies that all watch", seed)
		}
	}
}

// The watcher's announcement says so (flag 16), and Visible names no
// watcher as a copy that may take a hidden server's game over.
func TestAWatchersAnnouncementSaysItWatches(t *testing.T) {
	s := newElectionSim(1, simnet.Link{LatencyMS: 1})
	r := rand.New(rand.NewPCG(1, 1))
	w := s.addWith(Config{Cadence: Local, StartMS: 1000, Rand: r.Uint32, Watch: true})
	p := s.addWith(Config{Cadence: Local, StartMS: 2000, Rand: r.Uint32})
	for range 100 {
		s.tick()
	}
	_, _, flags, _, err := parseCandidate(w.r.Election.candidate()[8:])
	require.NoError(t, err)
	require.Equal(t, byte(candidateWatching), flags, "the watcher's flags")
	require.False(t, p.r.Election.Visible(w.r.Election.UID()), "a watcher is a copy that may take a game over")
	require.True(t, w.r.Election.Visible(p.r.Election.UID()), "a copy that may serve is not one that may take a game over")
}
