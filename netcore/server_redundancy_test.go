package netcore

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

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
