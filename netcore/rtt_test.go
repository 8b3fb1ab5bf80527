package netcore

import "testing"

// The estimate follows RFC 6298: the first sample sets srtt and half of it
// as rttvar; later ones move them by 1/8 and 1/4.
func TestRTTEstimateFollowsRFC6298(t *testing.T) {
	var e rttEstimate
	if got := e.Timeout(250); got != 250 {
		t.Fatalf("before any sample: %d, want the default 250", got)
	}
	e.add(100) // srtt 100, rttvar 50
	if got := e.Timeout(250); got != 300 {
		t.Fatalf("after 100 ms: %d, want 100 + 4·50", got)
	}
	e.add(200) // rttvar 50 + (100-50)/4 = 62.5; srtt 100 + 100/8 = 112.5
	if got := e.Timeout(300); got != 363 {
		t.Fatalf("after 100 and 200 ms: %d, want 112.5 + 4·62.5 = 362.5, rounded", got)
	}
	e.backOff()
	if got := e.Timeout(300); got != 726 {
		t.Fatalf("backed off once: %d, want twice 363", got)
	}
	e.backOff() // at most maxBackoff doublings
	if got := e.Timeout(300); got != 726 {
		t.Fatalf("backed off twice: %d, want 726 still", got)
	}
	e.add(112) // a sample ends the backing off
	if got := e.Timeout(300); got >= 726 {
		t.Fatalf("a sample did not end the backing off: %d", got)
	}
	var fast rttEstimate
	fast.add(1)
	if got := fast.Timeout(300); got != MinResendMS {
		t.Fatalf("a 1 ms round trip: %d, want the floor %d", got, MinResendMS)
	}
	var slow rttEstimate
	slow.add(5000)
	if got := slow.Timeout(300); got != MaxResendMS {
		t.Fatalf("a 5 s round trip: %d, want the ceiling %d", got, MaxResendMS)
	}
}

// The jitter is RFC 3550's: transit differences smoothed by 1/16. A steady
// stream has none and waits the least for a gap; one whose transit swings
// by 100 ms waits about four times its jitter, at most MaxReorderMS.
func TestJitterFollowsRFC3550AndSetsTheReorderWindow(t *testing.T) {
	var j jitter
	for range 100 {
		j.add(40)
	}
	if j.j != 0 || j.reorderMS() != MinReorderMS {
		t.Fatalf("steady: jitter %v, window %d", j.j, j.reorderMS())
	}
	j.add(56) // |56-40| = 16: j = 16/16 = 1
	if j.j != 1 {
		t.Fatalf("jitter %v, want 1", j.j)
	}
	var swing jitter
	for i := range 2000 {
		swing.add(int64(50 + 100*(i%2))) // every difference is 100 ms
	}
	if w := swing.reorderMS(); w != MaxReorderMS {
		t.Fatalf("a 100 ms swing: window %d, want the ceiling %d (4 × ~100)", w, MaxReorderMS)
	}
}
