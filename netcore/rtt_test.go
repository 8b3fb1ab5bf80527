package netcore

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The estimate follows RFC 6298: the first sample sets srtt and half of it
// as rttvar; later ones move them by 1/8 and 1/4.
func TestRTTEstimateFollowsRFC6298(t *testing.T) {
	var e rttEstimate
	require.Equal(t, int64(250), e.Timeout(250), "before any sample: want the default")
	e.add(100) // srtt 100, rttvar 50
	require.Equal(t, int64(300), e.Timeout(250), "after 100 ms: want 100 + 4·50")
	e.add(200) // rttvar 50 + (100-50)/4 = 62.5; srtt 100 + 100/8 = 112.5
	require.Equal(t, int64(363), e.Timeout(300), "after 100 and 200 ms: want 112.5 + 4·62.5 = 362.5, rounded")
	e.backOff()
	require.Equal(t, int64(726), e.Timeout(300), "backed off once: want twice 363")
	e.backOff() // at most maxBackoff doublings
	require.Equal(t, int64(726), e.Timeout(300), "backed off twice: want 726 still")
	e.add(112) // a sample ends the backing off
	require.Less(t, e.Timeout(300), int64(726), "a sample did not end the backing off")
	var fast rttEstimate
	fast.add(1)
	require.Equal(t, int64(MinResendMS), fast.Timeout(300), "a 1 ms round trip: want the floor")
	var slow rttEstimate
	slow.add(5000)
	require.Equal(t, int64(MaxResendMS), slow.Timeout(300), "a 5 s round trip: want the ceiling")
}

// The jitter is RFC 3550's: transit differences smoothed by 1/16. A steady
// stream has none and waits the least for a gap; one whose transit swings
// by 100 ms waits about four times its jitter, at most MaxReorderMS.
func TestJitterFollowsRFC3550AndSetsTheReorderWindow(t *testing.T) {
	var j jitter
	for range 100 {
		j.add(40)
	}
	require.Equal(t, 0.0, j.j, "steady: jitter")
	require.Equal(t, int64(MinReorderMS), j.reorderMS(), "steady: window")
	j.add(56) // |56-40| = 16: j = 16/16 = 1
	require.Equal(t, 1.0, j.j, "jitter")
	var swing jitter
	for i := range 2000 {
		swing.add(int64(50 + 100*(i%2))) // every difference is 100 ms
	}
	require.Equal(t, int64(MaxReorderMS), swing.reorderMS(), "a 100 ms swing: window, want the ceiling (4 × ~100)")
}
