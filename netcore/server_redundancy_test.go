package netcore

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	require.InDelta(t, 0.2, l.rate, 0.03, "loss")
	var clean lossEstimate
	for i := range uint32(5000) {
		clean.add(i)
	}
	clean.add(100000)                  // far away: a new start, not 95 000 lost
	clean.add(100000 + MaxLossRun + 2) // a pause, not MaxLossRun+1 lost
	require.Equal(t, 0.0, clean.rate, "no loss")
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
		got := copiesFor(c.loss, c.least)
		assert.Equal(t, c.want, got, "copiesFor(%v, %d)", c.loss, c.least)
		if got > c.least { // more than asked for: one fewer would not do
			assert.Greater(t, math.Pow(c.loss, float64(got)), float64(1.0/TargetMissTics),
				"loss %v: %d copies would do, %d chosen", c.loss, got, got+1)
		}
	}
}
