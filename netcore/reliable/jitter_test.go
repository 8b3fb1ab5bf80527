package reliable

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The jitter is RFC 3550's: transit differences smoothed by 1/16. A steady
// stream has none and waits the least for a gap; one whose transit swings
// by 100 ms waits about four times its jitter, at most MaxReorderMS.
func TestJitterFollowsRFC3550AndSetsTheReorderWindow(t *testing.T) {
	var j Jitter
	for range 100 {
		j.Add(40)
	}
	require.Equal(t, 0.0, j.j, "steady: jitter")
	require.Equal(t, int64(MinReorderMS), j.ReorderMS(), "steady: window")
	j.Add(56) // |56-40| = 16: j = 16/16 = 1
	require.Equal(t, 1.0, j.j, "jitter")
	var swing Jitter
	for i := range 2000 {
		swing.Add(int64(50 + 100*(i%2))) // every difference is 100 ms
	}
	require.Equal(t, int64(MaxReorderMS), swing.ReorderMS(), "a 100 ms swing: window, want the ceiling (4 × ~100)")
}

// After a pause (a new server takes the stream over), the next packet's
// transit is a new baseline: the pause's length is no jitter, and the
// jitter measured before it stands.
func TestJitterRestartTakesTheNextTransitAsItsBaseline(t *testing.T) {
	var j Jitter
	j.Add(40)
	j.Add(56) // j = 1
	j.Restart()
	j.Add(3056) // 3 s later than its schedule: the pause
	require.Equal(t, 1.0, j.j, "the first transit after a restart: jitter")
	j.Add(3072) // |3072-3056| = 16: j = 1 + (16-1)/16
	require.Equal(t, 1.0+15.0/16, j.j, "the second transit after a restart: jitter")
	var kept Jitter
	kept.Add(56)
	kept.Add(3056)
	require.Equal(t, int64(MaxReorderMS), kept.ReorderMS(), "without a restart, the pause is jitter: window")
}
