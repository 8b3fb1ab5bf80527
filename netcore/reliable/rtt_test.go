package reliable

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The estimate follows RFC 6298: the first sample sets srtt and half of it
// as rttvar; later ones move them by 1/8 and 1/4.
func TestRTTEstimateFollowsRFC6298(t *testing.T) {
	var e RTT
	require.Equal(t, int64(250), e.Timeout(250), "before any sample: want the default")
	e.Add(100) // srtt 100, rttvar 50
	require.Equal(t, int64(300), e.Timeout(250), "after 100 ms: want 100 + 4·50")
	e.Add(200) // rttvar 50 + (100-50)/4 = 62.5; srtt 100 + 100/8 = 112.5
	require.Equal(t, int64(363), e.Timeout(300), "after 100 and 200 ms: want 112.5 + 4·62.5 = 362.5, rounded")
	e.BackOff()
	require.Equal(t, int64(726), e.Timeout(300), "backed off once: want twice 363")
	e.BackOff() // at most maxBackoff doublings
	require.Equal(t, int64(726), e.Timeout(300), "backed off twice: want 726 still")
	e.Add(112) // a sample ends the backing off
	require.Less(t, e.Timeout(300), int64(726), "a sample did not end the backing off")
	var fast RTT
	fast.Add(1)
	require.Equal(t, int64(MinResendMS), fast.Timeout(300), "a 1 ms round trip: want the floor")
	var slow RTT
	slow.Add(5000)
	require.Equal(t, int64(MaxResendMS), slow.Timeout(300), "a 5 s round trip: want the ceiling")
}

// A restart (a new peer) ends the backing off, which timed the old peer's
// silence; the round trip measured stands.
func TestRTTRestartEndsTheBackingOffAndKeepsTheEstimate(t *testing.T) {
	var e RTT
	e.Add(100) // srtt 100, rttvar 50: 300
	e.BackOff()
	require.Equal(t, int64(600), e.Timeout(250), "backed off: want twice 300")
	e.Restart()
	require.Equal(t, int64(300), e.Timeout(250), "restarted: want the estimate, 300")
}
