package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/simnet"
)

// A Doom-ticcmd game where a player falls silent for 3 s: the events it
// built in the silence (chat characters, artifacts, inventory uses) run
// in its later commands, each once, and no command runs an event its
// player did not build. Check accounts for them in every Doom-mode
// scenario; this one asserts the counts of a seeded run.
func TestEveryDoomEventAPlayerBuiltRunsOnceAndNoneIsInvented(t *testing.T) {
	s := start(t, Options{Players: 8, Seed: 11, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}})
	if err := s.RunTics(300, 60000); err != nil {
		t.Fatal(err)
	}
	silent := s.Peers[5]
	silent.Node.SetSilent(true)
	s.RunFor(3000)
	silent.Node.SetSilent(false)
	if err := s.RunTics(s.Peers[0].Client.GameTic()+300, 20000); err != nil {
		t.Fatal(err)
	}
	c := check(t, s, 700)
	ev := c.Events
	t.Logf("events: %d built, %d carried (%d out of order, at most %d tics late), %d waiting at the end, over %d commands",
		ev.Built, ev.Carried, ev.OutOfOrder, ev.MaxLate, ev.Pending, ev.Commands)
	// As measured: 6 of the 13 carried ran before an older one of their
	// kind (the carry list's order, not the events', decides).
	if ev.Built != 614 || ev.Carried != 13 || ev.OutOfOrder != 6 || ev.Pending != 0 || ev.Commands != 5613 {
		t.Fatalf("events: %+v; want 614 built, 13 carried, 6 out of order, 0 waiting, over 5613 commands", ev)
	}
}
