package reliable

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A gap is the run just before a tic that has neither arrived nor been
// asked for, down to the window's start and as far as ok accepts.
func TestWindowGapBeforeStopsAtWhatArrivedOrWasAskedFor(t *testing.T) {
	var w Window
	w.Arrive(10)
	w.Ask(1, 10, 13, 1, func(uint32, uint8) {})
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
		assert.Equal(t, c.want, w.GapBefore(c.from, c.end, c.ok), "gapBefore(%d, %d)", c.from, c.end)
	}
	// A place reused wire.BackupTics later is a different tic.
	require.False(t, w.Has(10+wire.BackupTics), "a mark names the wrong tic: %d", 10+wire.BackupTics)
	require.True(t, w.Has(10), "a mark names the wrong tic: 10 lost")
	w.Forget(10)
	require.False(t, w.Has(10), "a forgotten tic is still there")
	require.False(t, w.Expected(10), "a forgotten tic is still asked for")
}

// A gap is asked for once it stays missing for the reorder window, not
// before, and not when it came meanwhile; then again a retry timeout
// after, if still missing.
func TestWindowAsksForAGapAfterTheReorderWindowThenRetries(t *testing.T) {
	var w Window
	var asked [][2]uint32
	send := func(first uint32, n uint8) { asked = append(asked, [2]uint32{first, uint32(n)}) }
	w.NoteGap(1000, 50, 52, 3) // 52-54 missing at 1000
	w.AskOverdue(1039, 50, 40, 300, send)
	require.Empty(t, asked, "asked within the reorder window")
	w.Arrive(53) // it was on its way
	again := w.AskOverdue(1040, 50, 40, 300, send)
	require.False(t, again, "a first request counted as asking again")
	require.Equal(t, [][2]uint32{{52, 1}, {54, 1}}, asked, "want 52 and 54, once each")
	asked = nil
	w.AskOverdue(1340, 50, 40, 300, send)
	require.Empty(t, asked, "asked again before the retry timeout")
	w.Arrive(52)
	again = w.AskOverdue(1341, 50, 40, 300, send)
	require.True(t, again, "a retry not counted as asking again")
	require.Equal(t, [][2]uint32{{54, 1}}, asked, "want 54 again")
}

// A window reset holds nothing: no tic arrived, none missing, none asked
// for, so nothing is asked for again (a player that left, or tics a new
// server decides afresh).
func TestWindowResetForgetsEveryTic(t *testing.T) {
	var w Window
	w.Arrive(60)
	w.NoteGap(1000, 50, 52, 3)
	w.Ask(1000, 50, 56, 2, func(uint32, uint8) {})
	w.Reset()
	for tic := uint32(50); tic < 70; tic++ {
		require.False(t, w.Has(tic), "tic %d arrived after the reset", tic)
		require.False(t, w.Expected(tic), "tic %d expected after the reset", tic)
	}
	var asked [][2]uint32
	w.AskOverdue(5000, 50, 40, 300, func(first uint32, n uint8) { asked = append(asked, [2]uint32{first, uint32(n)}) })
	require.Empty(t, asked, "asked for tics of before the reset")
}
