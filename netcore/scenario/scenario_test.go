package scenario

import (
	"testing"
)

func TestTwoPlayersNoLoss(t *testing.T) {
	s := build(t, Options{Players: 2, Seed: 1})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTics(1000, 60000); err != nil {
		t.Fatal(err)
	}
	n := check(t, s, 1000)
	t.Logf("compared %+v; server %+v", n, s.Server.Counters())
	for _, p := range s.Peers {
		t.Logf("peer %d: %v %+v", p.Index, p.Client.GameTic(), p.Client.Counters())
	}
}
