package session

import (
	"testing"
	"time"

	"github.com/ticnet/ticnet/netcore"

	"github.com/stretchr/testify/require"
)

func TestTicBudgetLearnsWhatATicCosts(t *testing.T) {
	var b ticBudget
	steps := []struct {
		tics  int
		spent time.Duration
		want  int
	}{
		{0, 0, firstTicsPerPass},        // nothing run, nothing learned
		{10, 20 * time.Millisecond, 20}, // 2 ms a tic: 40 ms is 20 tics
		{10, 10 * time.Millisecond, 21}, // cheaper counts slowly: 2 ms - 1/8 ms
		{2, 20 * time.Millisecond, 4},   // dearer counts at once: 10 ms
		{1, 0, 4},                       // 10 ms - 10/8 ms = 8.75 ms
		{1, 100 * time.Millisecond, 1},  // never below one tic
	}
	for i, s := range steps {
		b.observe(s.tics, s.spent.Nanoseconds())
		require.Equal(t, s.want, b.tics(), "step %d (%d tics in %v): tics a pass (per tic %v)", i, s.tics, s.spent, time.Duration(b.perTicNS))
	}
	var cheap ticBudget
	cheap.observe(50, 0) // the browser's clock saw nothing
	require.Equal(t, netcore.BackupTics, cheap.tics(), "a tic too cheap to measure: tics a pass")
}
