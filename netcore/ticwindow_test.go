package netcore

import "testing"

// A gap is the run just before a tic that has neither arrived nor been
// asked for, down to the window's start and as far as ok accepts.
func TestTicWindowGapBeforeStopsAtWhatArrivedOrWasAskedFor(t *testing.T) {
	var w ticWindow
	w.arrive(10)
	w.ask(1, 10, 13, 1, func(uint32, uint8) {})
	cases := []struct {
		from, end, want uint32
		ok              func(uint32) bool
	}{
		{10, 20, 14, nil}, // 14-19 missing; 13 asked for
		{10, 13, 11, nil}, // 11-12 missing; 10 arrived
		{12, 13, 12, nil}, // not below the start
		{10, 20, 17, func(t uint32) bool { return t >= 17 }}, // as far as ok accepts
		{10, 11, 11, nil}, // nothing missing
	}
	for _, c := range cases {
		if got := w.gapBefore(c.from, c.end, c.ok); got != c.want {
			t.Errorf("gapBefore(%d, %d) = %d, want %d", c.from, c.end, got, c.want)
		}
	}
	// A place reused BackupTics later is a different tic.
	if w.has(10+BackupTics) || !w.has(10) {
		t.Fatal("a mark names the wrong tic")
	}
	w.forget(10)
	if w.has(10) || w.expected(10) {
		t.Fatal("a forgotten tic is still there")
	}
}

// A gap is asked for once it stays missing for the reorder window, not
// before, and not when it came meanwhile; then again a retry timeout
// after, if still missing.
func TestTicWindowAsksForAGapAfterTheReorderWindowThenRetries(t *testing.T) {
	var w ticWindow
	var asked [][2]uint32
	send := func(first uint32, n uint8) { asked = append(asked, [2]uint32{first, uint32(n)}) }
	w.noteGap(1000, 50, 52, 3) // 52-54 missing at 1000
	if w.askOverdue(1039, 50, 40, 300, send); len(asked) != 0 {
		t.Fatalf("asked within the reorder window: %v", asked)
	}
	w.arrive(53) // it was on its way
	if again := w.askOverdue(1040, 50, 40, 300, send); again || len(asked) != 2 || asked[0] != [2]uint32{52, 1} || asked[1] != [2]uint32{54, 1} {
		t.Fatalf("asked %v (again %v), want 52 and 54, once each", asked, again)
	}
	asked = nil
	if w.askOverdue(1340, 50, 40, 300, send); len(asked) != 0 {
		t.Fatalf("asked again before the retry timeout: %v", asked)
	}
	w.arrive(52)
	if again := w.askOverdue(1341, 50, 40, 300, send); !again || len(asked) != 1 || asked[0] != [2]uint32{54, 1} {
		t.Fatalf("asked %v (again %v), want 54 again", asked, again)
	}
}
