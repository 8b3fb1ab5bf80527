package session

import (
	"fmt"
	"testing"

	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// A copy that entered the game a moment before its server says goodbye
// resumes under the copy the others elect, as they do: one server, one
// resume each, no copy serving beside it and no copy joining again. At 0
// to 400 ms after the entry, of a late copy and of one that came back
// with its token. Two faults did that before:
//   - A late copy knows the game's other copies only once it has heard
//     their announcements (every AnnouncePeriodMS): knowing none before
//     it, it served at once beside the one the others elected, yielded to
//     it and joined again (0 to 50 ms after its entry). Now it does not
//     serve within two announce periods of entering (election.EnteredGame).
//   - The copy that left before the return stayed a candidate for
//     CandidateTTLMS: the others followed it, heard nothing for 1.5 s,
//     then two served, and one copy joined again (at every delay). Now a
//     copy that leaves says so (election.Leave), and the others forget it.
func TestACopyThatJustJoinedResumesUnderTheServerTheOthersElect(t *testing.T) {
	for _, back := range []bool{false, true} {
		for _, afterMS := range []int64{0, 10, 50, 100, 200, 400} {
			name := fmt.Sprintf("late/%dms", afterMS)
			if back {
				name = fmt.Sprintf("back/%dms", afterMS)
			}
			t.Run(name, func(t *testing.T) {
				c := launchGame(t, 11, 3, simnet.Link{LatencyMS: 2, JitterMS: 2})
				defer func() {
					if t.Failed() {
						dumpEvents(t, c)
					}
				}()
				c.runUntil(t, "100 tics everywhere", 30000, func() bool { return c.allAt(100) })
				srv := c.serverOf()
				tok := 4
				if back {
					// A client leaves and comes back with its token.
					for i, p := range c.peers {
						if p != srv {
							tok = i + 1
							c.closeWithGoodbye(p)
							break
						}
					}
					c.runUntil(t, "the leave seen", 10000, func() bool { return len(eventsOf(srv, "leave")) > 0 })
				}
				joiner := c.addWith(5000, ElectionLocal, tokenOf(tok))
				c.runUntil(t, "the copy plays", 30000, func() bool {
					return joiner.s.Client() != nil && !joiner.s.Client().Joining() && len(eventsOf(joiner, "join")) > 0
				})
				if afterMS > 0 {
					end := c.net.Now() + afterMS
					c.runUntil(t, "the wait", afterMS+1000, func() bool { return c.net.Now() >= end })
				}
				c.closeWithGoodbye(srv)
				at := joiner.s.Client().GameTic()
				c.runUntil(t, "the game resumed", 30000, func() bool { return c.serverOf() != nil && c.allAt(at+100) })
				servers := 0
				for i, p := range c.open() {
					if p.s.Role() == RoleServer {
						servers++
					}
					require.Len(t, eventsOf(p, "migrating"), 1, "copy %d: migrations", i)
					require.Len(t, eventsOf(p, "resumed"), 1, "copy %d: resumed", i)
					require.Empty(t, eventsOf(p, "yielded"), "copy %d: served beside another and yielded", i)
					require.Len(t, eventsOf(p, "start"), 1, "copy %d: starts (another is a join again)", i)
				}
				require.Equal(t, 1, servers, "servers")
			})
		}
	}
}
