package scenario

import (
	"testing"
	"github.com/ticnet/ticnet/netcore/simnet"
)

func TestExp2(t *testing.T) {
	for _, l := range []simnet.Link{{LatencyMS: 50, JitterMS: 100}, {LatencyMS: 50, Loss: 0.2}, {LatencyMS: 50, Reorder: 0.05, ReorderMS: 80}, {LatencyMS: 50, Duplicate: 0.02}, {LatencyMS: 50, JitterMS: 100, Loss: 0.2}} {
		s := New(Options{Players: 8, Seed: 3, Link: l})
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		start := s.Now()
		if err := s.RunTics(3000, 2000000); err != nil {
			t.Fatal(err)
		}
		_, err := s.CheckSums()
		t.Logf("%+v rate=%.1f err=%v subst=%d late=%d", l, 3000*1000/float64(s.Now()-start), err, s.Server.Counters().Substituted, s.Server.Counters().LateDropped)
		for _, p := range s.Peers {
			t.Logf("peer %d: %v lat=%d off=%d", p.Index, p.Client.GameTic(), p.Client.LatencyMS(), p.Client.ExtOffsetMS())
		}
	}
}
