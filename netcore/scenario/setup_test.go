package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// A game launched with a seed and options at 20 tics a second: every copy,
// and one that joins late, gets the seed, the options and the rate, and
// the game runs 20 tics a second of simulated time.
func TestTheControllersSeedOptionsAndTicRateReachEveryCopy(t *testing.T) {
	t.Parallel()
	opts := wire.LaunchOptions{Seed: 0xc0ffee, Options: []byte(`{"laps":3}`)}
	s := start(t, Options{Players: 3, Seed: 41, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}, Tokens: true,
		Launch: opts, Server: netcore.ServerConfig{TicRate: 20}})
	require.NoError(t, s.RunTics(100, 60000))
	from, at := s.Peers[1].Client.GameTic(), s.Now()
	s.RunFor(5000)
	rate := float64(s.Peers[1].Client.GameTic()-from) * 1000 / float64(s.Now()-at)
	t.Logf("%.2f tics a second over 5 s", rate)
	require.InDelta(t, 20, rate, 0.5, "tics a second")
	late := s.Join()
	require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+100, 60000))
	require.Equal(t, netcore.ClientInGame, late.Client.State(), "the late copy")
	for _, p := range s.Peers {
		st := p.Client.Setup()
		require.Equal(t, opts.Seed, st.Seed, "peer %d: seed", p.Index)
		require.Equal(t, opts.Options, st.Options, "peer %d: options", p.Index)
		require.Equal(t, 20, p.Client.TicRate(), "peer %d: tics a second", p.Index)
		// Its start said so, and whether it joined the game in progress.
		started := startsOf(p)
		require.Len(t, started, 1, "peer %d: its starts", p.Index)
		require.Equal(t, netcore.Start{Setup: st, TicRate: 20, Joined: p == late}, *started[0], "peer %d: its start", p.Index)
	}
	check(t, s, 200)
}

// Under the reference protocol the game runs Doom's 35 tics a second
// whatever the server's configuration says, and no copy gets options.
func TestTheReferenceProtocolKeepsThirtyFiveTicsASecond(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 2, Seed: 42, Strict: true, Launch: wire.LaunchOptions{Seed: 7, Options: []byte{1}},
		Server: netcore.ServerConfig{TicRate: 20}})
	require.NoError(t, s.RunTics(100, 60000))
	from, at := s.Peers[1].Client.GameTic(), s.Now()
	s.RunFor(4000)
	rate := float64(s.Peers[1].Client.GameTic()-from) * 1000 / float64(s.Now()-at)
	require.InDelta(t, 35, rate, 1, "the reference game's tics a second")
	for _, p := range s.Peers {
		st := p.Client.Setup()
		require.Zero(t, st.Seed, "peer %d: seed", p.Index)
		require.Nil(t, st.Options, "peer %d: options", p.Index)
		require.Equal(t, 35, p.Client.TicRate(), "peer %d: tics a second", p.Index)
		require.Equal(t, []*netcore.Start{{TicRate: 35}}, startsOf(p), "peer %d: its start", p.Index)
	}
	check(t, s, 100)
}

// A game that a reference-only copy makes strict gives its ticnet copies
// no seed, no options and Doom's rate either.
func TestAStrictGameGivesItsTicnetCopiesNoSetup(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 43, Protocols: map[int][]string{2: {wire.ProtocolChocolate}},
		Launch: wire.LaunchOptions{Seed: 7, Options: []byte{1}}, Server: netcore.ServerConfig{TicRate: 20}})
	require.NoError(t, s.RunTics(50, 60000))
	require.False(t, s.Server.Extended(), "the game runs the extension with a reference-only copy in it")
	for _, p := range s.Peers {
		st := p.Client.Setup()
		require.Zero(t, st.Seed, "peer %d: seed", p.Index)
		require.Nil(t, st.Options, "peer %d: options", p.Index)
		require.Equal(t, 35, p.Client.TicRate(), "peer %d: tics a second", p.Index)
	}
}

// startsOf is how the game started at p, each time it did (its
// EventGameStarted's Start).
func startsOf(p *Peer) []*netcore.Start {
	var starts []*netcore.Start
	for _, e := range p.Events {
		if e.Kind == netcore.EventGameStarted {
			starts = append(starts, e.Start)
		}
	}
	return starts
}
