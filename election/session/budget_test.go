package session

import (
	"testing"
	"time"

	"github.com/ticnet/ticnet/netcore"
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
		if got := b.tics(); got != s.want {
			t.Fatalf("step %d (%d tics in %v): %d tics a pass (per tic %v), want %d", i, s.tics, s.spent, got, time.Duration(b.perTicNS), s.want)
		}
	}
	var cheap ticBudget
	cheap.observe(50, 0) // the browser's clock saw nothing
	if got := cheap.tics(); got != netcore.BackupTics {
		t.Fatalf("a tic too cheap to measure: %d tics a pass, want %d", got, netcore.BackupTics)
	}
}
