package scenario

import (
	"fmt"
	"testing"

	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// When the server's tab stalls (a browser delays a busy or hidden tab's
// timers by hundreds of ms), its stream restarts its clock from where it
// resumed, and every client's commands then arrive early: each client moves
// its clock back. It must not stop building while it does, or its player's
// input freezes as long as the step (before this test: 145 ms after a
// 300 ms stall, 525 ms after 600 ms). Building skips every other tic
// instead, so no two commands are more than three tics apart (86 ms; a
// tic is 28.6 ms and a step 5 ms), and the game still runs every command
// as it was built.
func TestAServerThatStallsDoesNotFreezeAClientsInput(t *testing.T) {
	const ticMS = 1000.0 / 35
	for _, stallMS := range []int64{300, 600} {
		t.Run(fmt.Sprintf("stall=%dms", stallMS), func(t *testing.T) {
			s := start(t, Options{Players: 4, Seed: 21, Link: simnet.Link{LatencyMS: 100}})
			require.NoError(t, s.RunTics(200, 60000))
			built := make([]uint32, len(s.Peers))
			at := make([]int64, len(s.Peers))
			for i, p := range s.Peers {
				built[i], at[i] = p.Client.MakeTic(), s.Now()
			}
			var worst int64
			stallFrom := s.Now() + 1000
			for s.Now() < stallFrom+10000 {
				if now := s.Now() + s.StepMS; now > stallFrom && now <= stallFrom+stallMS {
					// The host's tab stalls: neither its server nor its
					// client runs; the others go on.
					s.Net.AdvanceTo(now)
					for _, p := range s.Peers[1:] {
						p.Events = append(p.Events, p.Client.Update(now)...)
					}
				} else {
					s.Step()
				}
				for i, p := range s.Peers[1:] {
					i++
					if m := p.Client.MakeTic(); m != built[i] {
						worst = max(worst, s.Now()-at[i])
						built[i], at[i] = m, s.Now()
					}
				}
			}
			t.Logf("after a %d ms stall of the server, a client built no command for %d ms at worst", stallMS, worst)
			require.LessOrEqual(t, float64(worst), 3*ticMS, "ms a client built no command: its player's input froze longer than three tics")
			check(t, s, 500)
		})
	}
}
