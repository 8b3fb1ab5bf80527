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
