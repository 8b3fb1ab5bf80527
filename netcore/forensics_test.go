package netcore

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// A request for a copy of the majority's states is served once a game,
// to a copy the verdict named, on a stream it names: the server asks a
// copy of the majority (here player 0's) for its states on a stream of
// its own. A second request, one from a copy of the majority, one before
// any verdict, or one naming a stream of the server's numbering is
// refused (and the caller counts it).
func TestTheServerServesAStatesRequestOnceToACopyTheVerdictNamed(t *testing.T) {
	tr := &kept{}
	s := NewServer(ServerConfig{}, tr)
	s.state, s.relay = ServerInGame, &s.ext
	var cls [3]*serverClient
	for i := range cls {
		sc := &serverClient{addr: link.Addr(7 + i), player: i, phase: slotPlaying, connectMS: int64(i)}
		sc.conn = reliable.NewConn(sc.addr, tr, s.cfg.Timeouts.timers(), 0, reliable.Connected, &s.stats.Counters)
		s.slots.put(i, sc)
		cls[i] = sc
	}
	r := &s.ext.repair
	req := func(sc *serverClient, stream uint32) error {
		return r.onStatesRequest(0, &s.ext, sc, (&wire.StatesRequest{Tic: 300, Stream: stream}).AppendBody(nil))
	}
	const named = wire.StatesRequestStreamBit | 300
	require.ErrorAs(t, req(cls[2], named), &errUnexpected{}, "before any verdict")
	r.diverged([]int{2}, 0b011)
	require.ErrorAs(t, req(cls[1], named), &errUnexpected{}, "from a copy of the majority")
	require.ErrorAs(t, req(cls[2], 300), &errUnexpected{}, "a stream of the server's numbering")
	require.NoError(t, req(cls[2], named), "from the copy the verdict named")
	var asked []wire.StatesRequest
	for _, sc := range cls {
		sc.conn.Run(1)
	}
	for _, p := range tr.pkts {
		h, body, err := wire.ParseHeader(p)
		require.NoError(t, err)
		if h.Type == wire.TypeTicnet && len(body) > 0 && body[0] == wire.TicnetKindStatesRequest {
			var m wire.StatesRequest
			require.NoError(t, m.DecodeBody(body))
			asked = append(asked, m)
		}
	}
	require.Equal(t, []wire.StatesRequest{{Tic: 300, Stream: s.joins.nextStream}}, asked, "what the copy of the majority was asked")
	require.Zero(t, s.joins.nextStream&wire.StatesRequestStreamBit)
	require.ErrorAs(t, req(cls[2], named), &errUnexpected{}, "a second time")
}
