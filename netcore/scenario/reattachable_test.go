package scenario

import (
	"fmt"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// reattachables is what each EventReattachable told p, in order.
func reattachables(p *Peer) []bool {
	var got []bool
	for _, e := range p.Events {
		if e.Kind == netcore.EventReattachable {
			got = append(got, e.On)
		}
	}
	return got
}

// A client says when it could go on with its game under a new server
// (EventReattachable), so that the code above need not ask it every pass:
// under the extension, once it holds the game and its roster (a late
// copy once it caught up), and no more once the game ended; under the
// reference, never. What it last said is what CanReattach says after
// every Update, and the event comes first among its Update's events, so
// that the code above decides on any of them with what the client can do
// once the Update returns.
func TestAClientSaysWhenItCouldGoOnUnderANewServer(t *testing.T) {
	for _, pr := range protocols {
		t.Run(pr.name, func(t *testing.T) {
			s := New(Options{Players: 3, Seed: 45, Strict: pr.strict, Tokens: true, Link: simnet.Link{LatencyMS: 30, JitterMS: 20, Loss: 0.05}})
			var diff string
			steps, able := 0, 0
			check := func() {
				for _, p := range s.Peers {
					said := reattachables(p)
					last := len(said) > 0 && said[len(said)-1]
					if can := p.Client.CanReattach(); last != can && diff == "" {
						diff = fmt.Sprintf("peer %d at %d ms: said %v, CanReattach %v", p.Index, s.Now(), last, can)
					}
					if last {
						able++
					}
				}
				steps++
			}
			// Before each step, the copies as the last left them.
			s.OnStep = func(int64) { check() }
			until := func(what string, done func() bool) {
				t.Helper()
				require.True(t, s.RunUntil(done, 60000), what)
			}
			require.NoError(t, s.Start())
			until("tic 100 everywhere", func() bool { return s.allAt(100) })
			var late *Peer
			if !pr.strict {
				late = s.JoinWith([wire.RejoinTokenLen]byte{7, 7, 7})
				until("the late copy entered", func() bool { return playing(late) })
			}
			until("tic 300 everywhere", func() bool { return s.allAt(300) })
			if !pr.strict { // (the reference has no end but a player's leaving)
				s.Peers[0].Client.RequestEnd()
				until("every copy back in its lobby", func() bool {
					for _, p := range s.Peers {
						if p.Client.State() != netcore.ClientWaitingLaunch {
							return false
						}
					}
					return true
				})
			}
			check()
			require.Empty(t, diff, "the first copy whose last word differs from CanReattach")
			t.Logf("%d steps, %d copy-steps able to reattach", steps, able)

			// First among its Update's events: the scenario logs one
			// Update of each peer at each time.
			first := map[[2]int64]bool{}
			for _, l := range s.Log {
				key := [2]int64{int64(l.Peer), l.At}
				if l.Kind == netcore.EventReattachable {
					require.False(t, first[key], "peer %d at %d ms: EventReattachable after another event of its Update", l.Peer, l.At)
				}
				first[key] = true
			}
			for _, p := range s.Peers {
				if pr.strict {
					require.Empty(t, reattachables(p), "peer %d: a game under the reference cannot move", p.Index)
					continue
				}
				require.Equal(t, []bool{true, false}, reattachables(p), "peer %d: able once it held the game, not after its end", p.Index)
			}
			if late != nil {
				var caughtUp int64
				for _, l := range s.Log {
					if l.Peer == late.Index && l.Kind == netcore.EventCatchUp && l.Unit == "tics" && l.Done == l.Total {
						caughtUp = l.At
					}
				}
				able, _ := s.Find(late.Index, netcore.EventReattachable, 0)
				require.NotZero(t, caughtUp, "the late copy never caught up")
				require.GreaterOrEqual(t, able.At, caughtUp, "the late copy was able to reattach before it caught up")
			}
		})
	}
}
