package netcore

import "math"

// copiesFor returns how many tics before the newest each tic set must
// carry, at least least and at most MaxRedundantTics, so that a client
// whose channel loses that share of frames misses every copy of a tic at
// most once in TargetMissTics: a tic missed is a stall of a round trip
// and more.
//
// Two copies of each tic (the reference's extratics) leave one tic in 25
// to that on a channel that loses a fifth of its frames; six copies, one
// in 16 000.
func copiesFor(loss float64, least uint32) uint32 {
	if loss <= 0 {
		return least
	}
	k := math.Ceil(math.Log(1/float64(TargetMissTics)) / math.Log(min(loss, 0.9)))
	return max(least, min(MaxRedundantTics, uint32(k)-1))
}

const (
	TargetMissTics   = 10000 // about five minutes at 35 tics a second
	MaxRedundantTics = 6
)
