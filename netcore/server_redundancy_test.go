package netcore

import (
	"math"
	"testing"
)

// The loss estimate is the share of a client's GAMEDATA that never came,
// from the jumps of its newest tic; copies, late ones and a restart far
// away are not losses.
func TestLossEstimateCountsTheGapsInAClientsNewestTic(t *testing.T) {
	var l lossEstimate
	tic := uint32(1000)
	for i := range 5000 {
		tic++
		if i%5 == 0 {
			continue // every fifth packet lost
		}
		l.add(tic)
		l.add(tic)     // a copy
		l.add(tic - 3) // a late one
	}
	if math.Abs(l.rate-0.2) > 0.03 {
		t.Fatalf("loss %.3f, want about 0.2", l.rate)
	}
	var clean lossEstimate
	for i := range uint32(5000) {
		clean.add(i)
	}
	clean.add(100000)                  // far away: a new start, not 95 000 lost
	clean.add(100000 + MaxLossRun + 2) // a pause, not MaxLossRun+1 lost
	if clean.rate != 0 {
		t.Fatalf("no loss: %v", clean.rate)
	}
}

// Each tic goes in as many sets as it takes for a client to miss all of
// them at most once in TargetMissTics.
func TestCopiesForALossRate(t *testing.T) {
	for _, c := range []struct {
		loss  float64
		least uint32
		want  uint32
	}{
		{0, 1, 1}, {0.001, 1, 1}, {0.01, 1, 1}, {0.05, 1, 3}, {0.2, 1, 5}, {0.5, 1, MaxRedundantTics},
		{0.01, 3, 3}, {1, 1, MaxRedundantTics},
	} {
		if got := copiesFor(c.loss, c.least); got != c.want {
			t.Errorf("copiesFor(%v, %d) = %d, want %d", c.loss, c.least, got, c.want)
		}
		if got := copiesFor(c.loss, c.least); got > c.least && math.Pow(c.loss, float64(got)) <= 1.0/TargetMissTics {
			t.Errorf("loss %v: %d copies would do, %d chosen", c.loss, got, got+1)
		}
	}
}
