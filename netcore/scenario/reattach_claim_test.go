package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// A quiet game of four copies loses its server with every copy holding
// the same tics: each survivor's Reattach claims exactly the tics it
// holds (Confirmed: the first it lacks), and the heir's server resumes
// the game where they all are, refuses none, and sends none a tic again.
// A Reattach that claims one tic fewer than its copy holds changes
// nothing else visible here (the copy's newest tics go with it), and on
// lossy channels shows only as a longer wait: the claim itself is checked.
func TestEverySurvivorsReattachClaimsExactlyTheTicsItHolds(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 4, Seed: 24, Link: simnet.Link{LatencyMS: 5}, Quiet: true})
	require.NoError(t, s.RunTics(200, 60000))
	heir, others := s.Peers[1], []*Peer{s.Peers[2], s.Peers[3]}
	// The host stops between tics: every copy has what it sent.
	s.StopHost()
	s.RunFor(100)
	now := s.Now()
	held := heir.Client.Timeline().Confirmed()
	for _, p := range others {
		require.Equal(t, held, p.Client.Timeline().Confirmed(), "copy %d: the tics it holds, the heir's: want a quiet game where they agree", p.Index)
	}
	// The heir's server, and its own client reattached through the
	// loopback, as a session builds them.
	srv, ch := heirTakesOver(t, heir, now)

	// Each other copy's first pass: its Reattach says what it holds.
	trs := map[link.Addr]*hand{}
	for _, p := range others {
		tr := &hand{}
		trs[p.UID] = tr
		require.True(t, p.Client.Reattach(tr, now), "copy %d cannot reattach", p.Index)
		p.Client.Update(now)
		claims := 0
		for _, out := range tr.take() {
			h, body, err := wire.ParseHeader(untagged(out.pkt))
			require.NoError(t, err)
			if k, _ := wire.TicnetKind(body); h.Type != wire.TypeTicnet || k != wire.TicnetKindReattach {
				ch.in = append(ch.in, handPacket{p.UID, out.pkt})
				continue
			}
			var m wire.Reattach
			require.NoError(t, m.DecodeBody(body))
			claims++
			require.Equal(t, held, m.Confirmed, "copy %d: the tics its Reattach says it holds", p.Index)
			require.Equal(t, p.Client.Player(), int(m.Player), "copy %d: the player it reattaches as", p.Index)
			ch.in = append(ch.in, handPacket{p.UID, out.pkt})
		}
		require.Equal(t, 1, claims, "copy %d: Reattaches in its first pass", p.Index)
	}

	// The server takes them, resumes, and the copies run on, for 100 ms
	// (later, with the old server's player still awaited, the new server
	// resends tics as any server does).
	for step := range 20 {
		at := now + int64(step)*5
		srv.Update(at)
		for _, out := range ch.take() {
			for uid, tr := range trs {
				if out.addr == uid || out.addr == 0 { // 0: a broadcast
					tr.in = append(tr.in, handPacket{ServerUID, out.pkt})
				}
			}
		}
		heir.Client.Update(at)
		for _, p := range others {
			p.Client.Update(at)
			for _, out := range trs[p.UID].take() {
				ch.in = append(ch.in, handPacket{p.UID, out.pkt})
			}
		}
	}
	require.False(t, srv.Resuming(), "server resuming")
	require.Equal(t, held, srv.ResumedAt(), "the tic the server resumed at")
	c := srv.Counters()
	require.Zero(t, c.TicsResent, "tics the new server sent again")
	require.Zero(t, c.RejoinRefused, "reattaches the new server refused")
	for _, p := range append(others, heir) {
		require.False(t, p.Client.Resuming(), "copy %d: resuming", p.Index)
		require.Equal(t, netcore.ClientInGame, p.Client.State(), "copy %d: state", p.Index)
		require.Greater(t, p.Client.GameTic(), held, "copy %d: gametic, past the tic resumed at", p.Index)
	}
}
