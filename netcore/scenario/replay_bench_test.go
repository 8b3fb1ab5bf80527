package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/replay"

	"github.com/stretchr/testify/require"
)

// BenchmarkReplayBytes plays the replay tests' game (8 players, 10 000
// tics on the lossy channel, every copy recording) and reports the size of
// one copy's replay per tic per player, beside what the channel carried
// per tic (all peers together, TICNET_1).
func BenchmarkReplayBytes(b *testing.B) {
	var replayBytes, wireBytes float64
	for range b.N {
		s := New(Options{Players: 8, Seed: 21, Link: lossy, Quiet: true, Replay: replay.Config{Record: true}})
		require.NoError(b, s.Start())
		require.NoError(b, s.RunTics(replayTics, replayTics*1000))
		replayBytes += replayBytesPerTic(s, 0) / 8
		wireBytes += float64(s.Net.Stats.Bytes) / float64(s.Peers[0].Client.GameTic())
	}
	b.ReportMetric(replayBytes/float64(b.N), "replay-bytes/tic/player")
	b.ReportMetric(wireBytes/float64(b.N), "wire-bytes/tic")
}
