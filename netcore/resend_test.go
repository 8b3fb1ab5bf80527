package netcore

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// kept is a transport that keeps what its end sends and receives nothing.
type kept struct{ pkts [][]byte }

func (k *kept) Send(_ link.Addr, p []byte)    { k.pkts = append(k.pkts, append([]byte(nil), p...)) }
func (*kept) Recv() (link.Addr, []byte, bool) { return 0, nil, false }

// resendsIn returns the resend requests among pkts, as [start, count],
// and forgets pkts.
func (k *kept) resends(t *testing.T) [][2]uint32 {
	t.Helper()
	var out [][2]uint32
	for _, p := range k.pkts {
		h, body, err := wire.ParseHeader(p)
		require.NoError(t, err)
		if h.Type != wire.TypeGameDataResend {
			continue
		}
		var m wire.GameDataResend
		require.NoError(t, m.DecodeBody(body))
		out = append(out, [2]uint32{m.Start, uint32(m.Count)})
	}
	k.pkts = nil
	return out
}

// A client asks again, once ResendRetryMS have passed, for the tics it
// asked for and still lacks, wherever they are in its window, and for
// none that came meanwhile.
func TestClientAsksAgainForTicsStillMissing(t *testing.T) {
	tr := &kept{}
	c := NewClient(ClientConfig{}, tr, 1, nil, 0)
	c.recv.start = 1000
	c.recv.lastGameDataMS = 1 << 40 // no deadlock to break
	c.recv.requestResend(1, 1005, 2)
	c.recv.requestResend(1, 1000+BackupTics-3, 3) // the window's last tics
	require.Equal(t, [][2]uint32{{1005, 2}, {1000 + BackupTics - 3, 3}}, tr.resends(t), "first requests")
	c.recv.requestMissing(1 + ResendRetryMS)
	require.Empty(t, tr.resends(t), "asked again before ResendRetryMS")
	c.recv.win.Arrive(1006) // it came
	c.recv.requestMissing(2 + ResendRetryMS)
	require.Equal(t, [][2]uint32{{1005, 1}, {1000 + BackupTics - 3, 3}}, tr.resends(t), "asked again: want 1005 and the window's last three")
}

// A server asks a player again, once ResendRetryMS have passed, for the
// commands it asked for and still lacks, wherever they are in its window.
func TestServerAsksAgainForCommandsStillMissing(t *testing.T) {
	tr := &kept{}
	s, sc := serverWithPlayer2(tr, 5000)
	s.requestResend(1, sc, 5010, 4)
	s.requestResend(1, sc, 5000+BackupTics-1, 1)
	tr.resends(t)
	s.requestMissing(1 + ResendRetryMS)
	require.Empty(t, tr.resends(t), "asked again before ResendRetryMS")
	s.cmds.win[2].Arrive(5011) // it came
	s.requestMissing(2 + ResendRetryMS)
	require.Equal(t, [][2]uint32{{5010, 1}, {5012, 2}, {5000 + BackupTics - 1, 1}}, tr.resends(t), "asked again")
}

// Client and server ask for a long run of tics alike: in requests of
// reliable.MaxResendCount tics, the whole run.
func TestClientAndServerAskForALongRunInRequestsOf255(t *testing.T) {
	want := [][2]uint32{{100, 255}, {355, 45}}
	tr := &kept{}
	c := NewClient(ClientConfig{}, tr, 1, nil, 0)
	c.recv.start = 100
	c.recv.requestResend(1, 100, 300)
	require.Equal(t, want, tr.resends(t), "client")
	s, sc := serverWithPlayer2(tr, 100)
	s.requestResend(1, sc, 100, 300)
	require.Equal(t, want, tr.resends(t), "server")
	// Only the window's tics are marked as asked for: the 128 from 100.
	for tic := uint32(100); tic < 400; tic++ {
		require.Equal(t, tic < 100+BackupTics, s.cmds.win[2].Expected(tic), "tic %d asked for", tic)
	}
}

// serverWithPlayer2 is a server in game whose window starts at recvStart,
// with one client, player 2, whose packets go to tr.
func serverWithPlayer2(tr *kept, recvStart uint32) (*Server, *serverClient) {
	s := NewServer(ServerConfig{}, tr)
	s.state = ServerInGame
	sc := &serverClient{addr: 7, player: 2, phase: slotPlaying}
	sc.conn = reliable.NewConn(7, tr, s.cfg.Timeouts.timers(), 0, reliable.Connected, &s.stats.Counters)
	s.slots.put(0, sc)
	s.cmds.start = recvStart
	return s, sc
}

// A client that has not acknowledged a tic a resend timeout after it went
// out is pushed it at once, and, while the server's sets go to everyone,
// each set carries the tics from its acknowledgement on until it
// acknowledges more (not one push a timeout, which on a lossy channel may
// be lost as often as the first copies were), or it falls MaxRepairTics
// behind.
func TestSetsToEveryoneCarryATicAClientLacks(t *testing.T) {
	tr := &kept{}
	s := NewServer(ServerConfig{BroadcastTics: true}, tr)
	s.state, s.relay = ServerInGame, &s.ext
	var cls [2]*serverClient
	for i := range cls {
		sc := &serverClient{addr: link.Addr(7 + i), player: i, phase: slotPlaying}
		sc.conn = reliable.NewConn(sc.addr, tr, s.cfg.Timeouts.timers(), 0, reliable.Connected, &s.stats.Counters)
		s.slots.put(i, sc)
		cls[i] = sc
	}
	for tic := range uint32(20) {
		s.ext.history[tic] = histTic{seq: tic, valid: true}
	}
	s.ext.sendSeq = 20
	lagging := cls[0]
	lagging.acked, cls[1].acked = 5, 20
	require.True(t, s.ext.broadcasting(), "two remote clients, BroadcastTics: want sets to everyone")
	s.ext.pushMissing(1000, lagging)
	require.True(t, lagging.repairing, "after the push: repairing")
	require.Equal(t, uint32(5), lagging.repairTic, "after the push: repairing from")
	require.Equal(t, int64(15), s.stats.TicsResent, "after the push: tics resent (5-19)")
	require.Equal(t, uint32(5), s.ext.repairFrom(20, 18), "the set to tic 20 starts at")
	require.Equal(t, int64(28), s.stats.TicsResent, "the set to tic 20: tics resent")
	require.Equal(t, uint32(21), lagging.resentEnd, "the set to tic 20: acks timed from")
	lagging.acked = 6
	require.Equal(t, uint32(19), s.ext.repairFrom(21, 19), "acknowledged: the set starts at")
	require.False(t, lagging.repairing, "acknowledged: repairing")
	lagging.acked, lagging.repairing, lagging.repairTic = 6, true, 6
	require.Equal(t, uint32(6+MaxRepairTics-2), s.ext.repairFrom(6+MaxRepairTics, 6+MaxRepairTics-2),
		"%d tics behind: the set starts at, want no reach back", MaxRepairTics+1)
	require.False(t, lagging.repairing, "%d tics behind: repairing", MaxRepairTics+1)
}

// Under a new server, the client measures its stream afresh: the resend
// timeouts the old server let pass double no more, the first tic's lateness
// is no jitter, and the commands built before the resume time no round
// trip.
func TestAResumedClientMeasuresItsStreamAfresh(t *testing.T) {
	c := NewClient(ClientConfig{}, nil, 1, nil, 0)
	rs := &c.recv
	rs.rtt.Add(100) // a 300 ms timeout
	rs.rtt.BackOff()
	rs.jit.Add(40)
	rs.jitterTic, c.send.maketic = 40, 60
	rs.restart()
	require.Equal(t, int64(300), rs.rtt.Timeout(ResendRetryMS), "the resend timeout after a restart, ms")
	rs.jit.Add(3040) // the first tic under the new server, 3 s late
	require.Equal(t, int64(reliable.MinReorderMS), rs.jit.ReorderMS(), "the reorder window after a restart, ms")
	require.Equal(t, uint32(59), rs.jitterTic, "the last tic that times no round trip: the last command built")
}
