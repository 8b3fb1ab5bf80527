package session

import (
	"time"

	"github.com/ticnet/ticnet/netcore"
)

// PassWork is the game work one pass may do: a copy that catches up runs
// the tics it missed in batches of about this much, and yields to its page
// in between, so that the page never freezes for longer.
const PassWork = 40 * time.Millisecond

// firstTicsPerPass bounds a pass before any tic was measured: a copy that
// joins a game in progress starts by catching up, and four tics stay under
// PassWork for a game whose tic costs up to 10 ms.
const firstTicsPerPass = 4

// ticBudget learns what a tic costs the game and bounds the tics of a
// pass to PassWork's worth. A dearer tic counts at once; a cheaper one
// only slowly, so that one lucky pass does not let the next freeze.
type ticBudget struct {
	perTic   time.Duration
	measured bool
}

// observe takes a pass that ran tics, in which the game's callbacks took
// spent.
func (b *ticBudget) observe(tics int, spent time.Duration) {
	if tics <= 0 {
		return
	}
	cost := spent / time.Duration(tics)
	if !b.measured || cost >= b.perTic {
		b.measured = true
		b.perTic = cost
	} else {
		b.perTic -= (b.perTic - cost) / 8
	}
}

// tics is how many tics the next pass may run.
func (b *ticBudget) tics() int {
	switch {
	case !b.measured:
		return firstTicsPerPass
	case b.perTic <= 0: // too cheap for the clock to see
		return netcore.BackupTics
	}
	return int(max(min(PassWork/b.perTic, netcore.BackupTics), 1))
}
