package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/simnet"
)

func TestServerRecordsEveryPlayersCommandForEveryReferenceTic(t *testing.T) {
	s := build(t, Options{Players: 3, Seed: 5, Strict: true, Link: simnet.Link{LatencyMS: 10}})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTics(300, 60000); err != nil {
		t.Fatal(err)
	}
	recs := s.Records()
	if len(recs) < 250 {
		t.Fatalf("%d tics recorded", len(recs))
	}
	for i, r := range recs {
		if r.Tic != uint32(i) || r.Players != 0b111 || r.Received != 0b111 {
			t.Fatalf("record %d: %+v", i, r)
		}
	}
}

func TestServerRecordsWhichCommandsItSubstituted(t *testing.T) {
	s := build(t, Options{Players: 3, Seed: 6, Link: simnet.Link{LatencyMS: 10}})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.RunTics(100, 60000); err != nil {
		t.Fatal(err)
	}
	s.Peers[2].Node.SetSilent(true)
	s.RunFor(1000)
	substituted := 0
	recs := s.Records()
	for i, r := range recs {
		if r.Tic != uint32(i) || r.Players != 0b111 || r.Received&0b011 != 0b011 {
			t.Fatalf("record %d: %+v", i, r)
		}
		if r.Received&0b100 == 0 {
			substituted++
		}
	}
	if substituted < 20 {
		t.Fatalf("%d of %d tics recorded without the silent player's command", substituted, len(recs))
	}
}
