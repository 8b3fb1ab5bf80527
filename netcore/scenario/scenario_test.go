package scenario

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTwoPlayersNoLoss(t *testing.T) {
	t.Parallel()
	s := build(t, Options{Players: 2, Seed: 1})
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(1000, 60000))
	n := check(t, s, 1000)
	t.Logf("compared %+v; server %+v", n, s.Server.Counters())
	for _, p := range s.Peers {
		t.Logf("peer %d: %v %+v", p.Index, p.Client.GameTic(), p.Client.Counters())
	}
}
