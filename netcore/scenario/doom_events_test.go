package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Doom-ticcmd game where a player falls silent for 3 s: the events it
// built in the silence (chat characters, artifacts, inventory uses) run
// in its later commands, each once, and no command runs an event its
// player did not build. Check accounts for them in every Doom-mode
// scenario; this one asserts the counts of a seeded run.
func TestEveryDoomEventAPlayerBuiltRunsOnceAndNoneIsInvented(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 8, Seed: 11, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}})
	require.NoError(t, s.RunTics(300, 60000))
	silent := s.Peers[5]
	silent.Node.SetSilent(true)
	s.RunFor(3000)
	silent.Node.SetSilent(false)
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+300, 20000))
	c := check(t, s, 700)
	ev := c.Events
	t.Logf("events: %d built, %d carried (%d out of order, at most %d tics late), %d waiting at the end, over %d commands",
		ev.Built, ev.Carried, ev.OutOfOrder, ev.MaxLate, ev.Pending, ev.Commands)
	// As measured: 6 of the 13 carried ran before an older one of their
	// kind (the carry list's order, not the events', decides).
	assert.Equal(t, 614, ev.Built, "events built")
	assert.Equal(t, 13, ev.Carried, "events carried")
	assert.Equal(t, 6, ev.OutOfOrder, "events carried out of order")
	assert.Equal(t, 0, ev.Pending, "events waiting")
	assert.Equal(t, 5613, ev.Commands, "commands checked")
}
