package reliable

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The loss estimate is the share of a client's GAMEDATA that never came,
// from the jumps of its newest tic; copies, late ones and a restart far
// away are not losses.
func TestLossEstimateCountsTheGapsInAClientsNewestTic(t *testing.T) {
	var l Loss
	tic := uint32(1000)
	for i := range 5000 {
		tic++
		if i%5 == 0 {
			continue // every fifth packet lost
		}
		l.Add(tic)
		l.Add(tic)     // a copy
		l.Add(tic - 3) // a late one
	}
	require.InDelta(t, 0.2, l.Rate(), 0.03, "loss")
	var clean Loss
	for i := range uint32(5000) {
		clean.Add(i)
	}
	clean.Add(100000)                  // far away: a new start, not 95 000 lost
	clean.Add(100000 + MaxLossRun + 2) // a pause, not MaxLossRun+1 lost
	require.Equal(t, 0.0, clean.Rate(), "no loss")
}
