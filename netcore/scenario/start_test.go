package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// firstTicDelay runs a game to its start and returns, for each peer, how
// long after its GAMESTART it built its first command.
func firstTicDelay(t *testing.T, o Options) []int64 {
	t.Helper()
	s := New(o)
	started := make([]int64, len(s.Peers))
	first := make([]int64, len(s.Peers))
	s.OnStep = func(now int64) {
		for i, p := range s.Peers {
			if started[i] == 0 && p.Client.State() == netcore.ClientInGame {
				started[i] = now - s.StepMS // it started during the step before
			}
			if first[i] == 0 && p.Client.MakeTic() > 0 {
				first[i] = now - s.StepMS
			}
		}
	}
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(10, 10000))
	d := make([]int64, len(s.Peers))
	for i := range d {
		d[i] = first[i] - started[i]
	}
	return d
}

// A real Chocolate Doom client drops player 0's command from any tic that
// reaches it in the network pass that brings its GAMESTART (see
// netcore.ReferenceStartDelayMS): in a reference game a ticnet client
// waits before its first tic, as a real one does while its level loads.
func TestReferenceClientWaitsBeforeItsFirstTic(t *testing.T) {
	t.Parallel()
	for i, d := range firstTicDelay(t, Options{Players: 3, Seed: 3, Strict: true, Link: simnet.Link{LatencyMS: 10}}) {
		assert.GreaterOrEqual(t, d, int64(netcore.ReferenceStartDelayMS), "peer %d: its first tic after GAMESTART, ms", i)
		assert.LessOrEqual(t, d, int64(netcore.ReferenceStartDelayMS+20), "peer %d: its first tic after GAMESTART, ms", i)
	}
	for i, d := range firstTicDelay(t, Options{Players: 3, Seed: 3, Link: simnet.Link{LatencyMS: 10}}) {
		assert.LessOrEqual(t, d, int64(20), "extension game: peer %d: its first tic after GAMESTART, ms", i)
	}
}
