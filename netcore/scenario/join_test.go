package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
)

// entered returns, for every peer, the tic at which it saw player enter
// the game, or -1.
func entered(s *Scenario, player int) []int64 {
	var at []int64
	for _, p := range s.Peers {
		tic := int64(-1)
		for _, e := range p.Events {
			if e.Kind == netcore.EventPlayerEntered && e.Player == player {
				tic = int64(e.Tic)
			}
		}
		at = append(at, tic)
	}
	return at
}

// joinAndPlay opens a copy while the game runs, waits for it to enter, and
// plays on to tic end; it returns the joiner.
func joinAndPlay(t *testing.T, s *Scenario, end uint32) *Peer {
	t.Helper()
	j := s.Join()
	if !s.RunUntil(func() bool { return j.Client.State() == netcore.ClientInGame && !j.Client.Joining() }, 30000) {
		t.Fatalf("the joiner did not enter the game: %v, events %v", j.Client.State(), j.Events)
	}
	if err := s.RunTics(end, 600000); err != nil {
		t.Fatal(err)
	}
	return j
}

func TestLateJoinerEntersTheGameAtOneTicEverywhereAndAgrees(t *testing.T) {
	s := start(t, Options{Players: 3, Seed: 31, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}, StateBytes: 64 << 10})
	if err := s.RunTics(300, 60000); err != nil {
		t.Fatal(err)
	}
	j := joinAndPlay(t, s, 2000)
	p := j.Client.Player()
	if p != 3 {
		t.Fatalf("the joiner is player %d, want 3 (the first free)", p)
	}
	at := entered(s, p)
	for i, tic := range at {
		if tic != at[0] || tic < 300 {
			t.Fatalf("peers saw player %d enter at tics %v", p, at)
		}
		_ = i
	}
	first := -1
	for tic, r := range j.Game.Ran() {
		if r.OK {
			first = tic
			break
		}
	}
	c := check(t, s, 2000)
	noDesync(t, s)
	t.Logf("joined from tic %d, entered at tic %d; %+v; joiner %+v", first, at[0], c, j.Client.Transfers().Counters())
}
