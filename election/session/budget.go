package session

import "github.com/ticnet/ticnet/netcore"

// PassWorkNS is the game work one pass may do, in nanoseconds: a copy
// that catches up runs the tics it missed in batches of about this much,
// and yields to its page in between, so that the page never freezes for
// longer. (Times here are int64 nanoseconds, not time.Duration, as every
// time the sans-IO engine is given is an int64.)
const PassWorkNS = 40_000_000

// firstTicsPerPass bounds a pass before any tic was measured: a copy that
// joins a game in progress starts by catching up, and four tics stay under
// PassWorkNS for a game whose tic costs up to 10 ms.
const firstTicsPerPass = 4

// ticBudget learns what a tic costs the game and bounds the tics of a
// pass to PassWorkNS's worth. A dearer tic counts at once; a cheaper one
// only slowly, so that one lucky pass does not let the next freeze.
type ticBudget struct {
	perTicNS int64
	measured bool
}

// observe takes a pass that ran tics, in which the game's callbacks took
// spentNS.
func (b *ticBudget) observe(tics int, spentNS int64) {
	if tics <= 0 {
		return
	}
	cost := spentNS / int64(tics)
	if !b.measured || cost >= b.perTicNS {
		b.measured = true
		b.perTicNS = cost
	} else {
		b.perTicNS -= (b.perTicNS - cost) / 8
	}
}

// tics is how many tics the next pass may run.
func (b *ticBudget) tics() int {
	switch {
	case !b.measured:
		return firstTicsPerPass
	case b.perTicNS <= 0: // too cheap for the clock to see
		return netcore.BackupTics
	}
	return int(max(min(PassWorkNS/b.perTicNS, netcore.BackupTics), 1))
}
