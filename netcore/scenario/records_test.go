package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

func TestServerRecordsEveryPlayersCommandForEveryReferenceTic(t *testing.T) {
	t.Parallel()
	s := build(t, Options{Players: 3, Seed: 5, Strict: true, Link: simnet.Link{LatencyMS: 10}})
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(300, 60000))
	recs := s.Records()
	require.GreaterOrEqual(t, len(recs), 250, "tics recorded")
	for i, r := range recs {
		require.Equal(t, uint32(i), r.Tic, "record %d: its tic", i)
		require.Equal(t, uint8(0b111), r.Players, "record %d: players", i)
		require.Equal(t, uint8(0b111), r.Received, "record %d: commands received", i)
	}
}

func TestServerRecordsWhichCommandsItSubstituted(t *testing.T) {
	t.Parallel()
	s := build(t, Options{Players: 3, Seed: 6, Link: simnet.Link{LatencyMS: 10}})
	require.NoError(t, s.Start())
	require.NoError(t, s.RunTics(100, 60000))
	s.Peers[2].Node.SetSilent(true)
	s.RunFor(1000)
	substituted := 0
	recs := s.Records()
	for i, r := range recs {
		require.Equal(t, uint32(i), r.Tic, "record %d: its tic", i)
		require.Equal(t, uint8(0b111), r.Players, "record %d: players", i)
		require.Equal(t, uint8(0b011), r.Received&0b011, "record %d: commands received from players 0 and 1", i)
		if r.Received&0b100 == 0 {
			substituted++
		}
	}
	require.GreaterOrEqual(t, substituted, 20, "tics recorded without the silent player's command, of %d", len(recs))
}
