package scenario

import (
	"bytes"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"
)

// A game launched with a seed and options at 20 tics a second: every copy,
// and one that joins late, gets the seed, the options and the rate, and
// the game runs 20 tics a second of simulated time.
func TestTheControllersSeedOptionsAndTicRateReachEveryCopy(t *testing.T) {
	opts := wire.LaunchOptions{Seed: 0xc0ffee, Options: []byte(`{"laps":3}`)}
	s := start(t, Options{Players: 3, Seed: 41, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}, Tokens: true,
		Launch: opts, Server: netcore.ServerConfig{TicRate: 20}})
	if err := s.RunTics(100, 60000); err != nil {
		t.Fatal(err)
	}
	from, at := s.Peers[1].Client.GameTic(), s.Now()
	s.RunFor(5000)
	rate := float64(s.Peers[1].Client.GameTic()-from) * 1000 / float64(s.Now()-at)
	t.Logf("%.2f tics a second over 5 s", rate)
	if rate < 19.5 || rate > 20.5 {
		t.Fatalf("the game ran %.2f tics a second, want 20", rate)
	}
	late := s.Join()
	if err := s.RunTics(s.Peers[0].Client.GameTic()+100, 60000); err != nil {
		t.Fatal(err)
	}
	if late.Client.State() != netcore.ClientInGame {
		t.Fatalf("the late copy is %v", late.Client.State())
	}
	for _, p := range s.Peers {
		st := p.Client.Setup()
		if st.Seed != opts.Seed || !bytes.Equal(st.Options, opts.Options) || p.Client.TicRate() != 20 {
			t.Fatalf("peer %d has seed %#x, options %q, %d tics a second", p.Index, st.Seed, st.Options, p.Client.TicRate())
		}
	}
	check(t, s, 200)
}

// Under the reference protocol the game runs Doom's 35 tics a second
// whatever the server's configuration says, and no copy gets options.
func TestTheReferenceProtocolKeepsThirtyFiveTicsASecond(t *testing.T) {
	s := start(t, Options{Players: 2, Seed: 42, Strict: true, Launch: wire.LaunchOptions{Seed: 7, Options: []byte{1}},
		Server: netcore.ServerConfig{TicRate: 20}})
	if err := s.RunTics(100, 60000); err != nil {
		t.Fatal(err)
	}
	from, at := s.Peers[1].Client.GameTic(), s.Now()
	s.RunFor(4000)
	rate := float64(s.Peers[1].Client.GameTic()-from) * 1000 / float64(s.Now()-at)
	if rate < 34 || rate > 36 {
		t.Fatalf("the reference game ran %.2f tics a second, want 35", rate)
	}
	for _, p := range s.Peers {
		if st := p.Client.Setup(); st.Seed != 0 || st.Options != nil || p.Client.TicRate() != 35 {
			t.Fatalf("peer %d has %+v at %d tics a second", p.Index, st, p.Client.TicRate())
		}
	}
	check(t, s, 100)
}

// A game that a reference-only copy makes strict gives its ticnet copies
// no seed, no options and Doom's rate either.
func TestAStrictGameGivesItsTicnetCopiesNoSetup(t *testing.T) {
	s := start(t, Options{Players: 3, Seed: 43, Protocols: map[int][]string{2: {wire.ProtocolChocolate}},
		Launch: wire.LaunchOptions{Seed: 7, Options: []byte{1}}, Server: netcore.ServerConfig{TicRate: 20}})
	if err := s.RunTics(50, 60000); err != nil {
		t.Fatal(err)
	}
	if s.Server.Extended() {
		t.Fatal("the game runs the extension with a reference-only copy in it")
	}
	for _, p := range s.Peers {
		if st := p.Client.Setup(); st.Seed != 0 || st.Options != nil || p.Client.TicRate() != 35 {
			t.Fatalf("peer %d has %+v at %d tics a second", p.Index, st, p.Client.TicRate())
		}
	}
}
