package scenario

import (
	"testing"
	"github.com/ticnet/ticnet/netcore/simnet"
)

func TestExp(t *testing.T) {
	for _, strict := range []bool{false} {
		s := New(Options{Players: 8, Seed: 3, Strict: strict, Link: simnet.Link{LatencyMS: 50, JitterMS: 100, Loss: 0.2, Duplicate: 0.02, Reorder: 0.05, ReorderMS: 80}})
		if err := s.Start(); err != nil {
			for _, p := range s.Peers { t.Log(p.Index, p.Events) }
			t.Fatal(err)
		}
		start := s.Now()
		if err := s.RunTics(10000, 2000000); err != nil {
			t.Fatal(err)
		}
		c, err := s.CheckSums()
		t.Logf("strict=%v t=%d rate=%.1f compared %d err=%v ext=%v server %+v", strict, s.Now()-start, 10000*1000/float64(s.Now()-start), c, err, s.Server.Extended(), s.Server.Counters())
		p := s.Peers[7]
		t.Logf("peer %d: %v lat=%d %+v", p.Index, p.Client.GameTic(), p.Client.LatencyMS(), p.Client.Counters())
		t.Logf("events %d left, %d desync, %d disc", s.Count(5), s.Count(6), s.Count(7))
	}
}
