package scenario

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// hand is a transport a test drives by hand: it keeps what its end sends,
// and its end receives what the test puts in.
type hand struct {
	in  []handPacket
	out []handPacket
}

type handPacket struct {
	addr link.Addr // to, going out; from, coming in
	pkt  []byte
}

func (h *hand) Send(to link.Addr, pkt []byte) {
	h.out = append(h.out, handPacket{to, append([]byte(nil), pkt...)})
}

func (h *hand) Recv() (link.Addr, []byte, bool) {
	if len(h.in) == 0 {
		return 0, nil, false
	}
	p := h.in[0]
	h.in = h.in[1:]
	return p.addr, p.pkt, true
}

// take returns what the end sent since the last take.
func (h *hand) take() []handPacket {
	out := h.out
	h.out = nil
	return out
}

// untagged is pkt without its connection's tag (wire.ConnTag), as its
// receiver reads it.
func untagged(pkt []byte) []byte {
	pkt = bytes.Clone(pkt)
	wire.SetTag(pkt, 0)
	return pkt
}

// kindOf names a packet: its type, and its extension kind.
func kindOf(t *testing.T, pkt []byte) (wire.Header, uint8) {
	t.Helper()
	h, body, err := wire.ParseHeader(untagged(pkt))
	require.NoError(t, err)
	if h.Type != wire.TypeTicnet {
		return h, 0
	}
	k, err := wire.TicnetKind(body)
	require.NoError(t, err)
	return h, k
}

// describe names a packet for a test's message.
func describe(h wire.Header, kind uint8) string {
	switch {
	case h.Type == wire.TypeSYN:
		return "SYN"
	case h.Type == wire.TypeGameData:
		return "GAMEDATA"
	case h.Type == wire.TypeTicnet && kind == wire.TicnetKindReattach:
		return "reattach"
	case h.Type == wire.TypeTicnet && kind == wire.TicnetKindTicSet:
		return "tic set"
	}
	return fmt.Sprintf("type %d kind %d", h.Type, kind)
}

// A copy that reattaches to the server that took its game over says who
// it is with its SYN, with its newest tics and the commands it built; the
// new server takes its Reattach even when it overtakes the SYN, takes the
// tics it lacks from them without asking, and resumes the game at once,
// on the copy's real commands; the copy resumes on the unreliable copy of
// the Resume and the tic sets that overtook it, though the server's reply
// to its SYN is lost. One exchange each way: no round trip is
// spent on anything else.
func TestAReattachTakesOneExchange(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 21, Link: simnet.Link{LatencyMS: 5}, Quiet: true})
	require.NoError(t, s.RunTics(100, 60000))
	heir, other := s.Peers[1], s.Peers[2]
	heir.Paused = true // it holds fewer tics than the other copy
	s.RunFor(200)
	s.StopHost()
	now := s.Now()
	roster, ok := heir.Client.Roster()
	require.True(t, ok, "no roster")
	held := other.Client.Timeline().Confirmed()
	heirHeld := heir.Client.Timeline().Confirmed()
	require.GreaterOrEqual(t, held-heirHeld, uint32(3), "tics the other copy holds beyond the heir's %d", heirHeld)
	require.LessOrEqual(t, held-heirHeld, uint32(netcore.PushTics), "tics the other copy holds beyond the heir's %d", heirHeld)

	// The heir's server, and its own client reattached through the
	// loopback, as a session builds them.
	srv, ch := resumeAtHeir(t, heir, netcore.Resume{Roster: roster},
		netcore.ServerConfig{RecordTics: true, Replay: replay.ServerConfig{Record: true}}, now)
	heir.Client.Update(now)
	srv.Update(now)
	heir.Client.Update(now)
	ch.take()

	// The other copy's first pass.
	tr := &hand{}
	require.True(t, other.Client.Reattach(tr, now), "the other copy cannot reattach")
	other.Client.Update(now)
	sent := tr.take()
	var kinds []string
	for _, p := range sent {
		h, k := kindOf(t, p.pkt)
		kinds = append(kinds, describe(h, k))
	}
	want := []string{"SYN", "reattach", "tic set", "GAMEDATA"}
	require.Equal(t, want, kinds, "first pass sent")
	// They cross on the way: the Reattach comes first.
	sent[0], sent[1] = sent[1], sent[0]
	for _, p := range sent {
		ch.in = append(ch.in, handPacket{other.UID, p.pkt})
	}
	srv.Update(now)
	require.False(t, srv.Resuming(), "server resuming")
	require.Equal(t, held, srv.ResumedAt(), "the tic the server resumed at")
	var resumeCopy, reply, fetches int
	var late []handPacket
	back := ch.take()
	slices.Reverse(back) // the tic sets overtake the Resume
	for _, p := range back {
		h, k := kindOf(t, p.pkt)
		switch {
		case k == wire.TicnetKindTicFetch:
			fetches++
		case h.Type == wire.TypeSYN:
			reply++
			late = append(late, handPacket{ServerUID, p.pkt})
			continue // lost, for now
		case k == wire.TicnetKindResume && !h.Reliable:
			resumeCopy++
		}
		tr.in = append(tr.in, handPacket{ServerUID, p.pkt})
	}
	require.Zero(t, fetches, "fetches the server sent")
	require.Equal(t, 1, reply, "SYN replies the server sent")
	require.Equal(t, 1, resumeCopy, "copies of the Resume the server sent")
	// The first tic came out at once, with the other copy's command.
	first := srv.TicRecords()
	require.NotEmpty(t, first, "the server decided no tic at once")
	require.Equal(t, held, first[0].Tic, "the first tic the server decided")
	require.NotZero(t, first[0].Received&(1<<other.Client.Player()), "tic %d: the other copy's command was substituted", held)
	// Its replay starts where it resumed the game.
	r, err := wire.NewReplayReader(srv.Replay())
	require.NoError(t, err, "the server's replay")
	require.Equal(t, 1, srv.ReplayGame(), "the server's replay's game")
	require.Equal(t, held, r.Header.Start, "the server's replay's first tic")
	require.Len(t, readAll(t, srv.Replay()), len(first), "the server's replay's tics: those it decided")
	other.Client.Update(now + 5)
	require.False(t, other.Client.Resuming(), "other copy: resuming")
	require.Equal(t, held+1, other.Client.GameTic(), "other copy: gametic")
	// The reply to its SYN comes late, then the reliable Resume: old
	// news, taken without complaint.
	unexpected := other.Client.Counters().Unexpected
	tr.in = append(tr.in, late...)
	other.Client.Update(now + 10)
	for _, p := range tr.take() {
		ch.in = append(ch.in, handPacket{other.UID, p.pkt})
	}
	srv.Update(now + 10)
	for _, p := range ch.take() {
		if h, k := kindOf(t, p.pkt); k == wire.TicnetKindResume && h.Reliable {
			tr.in = append(tr.in, handPacket{ServerUID, p.pkt})
		}
	}
	require.Len(t, tr.in, 1, "reliable Resumes the server sent once its SYN reply was acknowledged")
	other.Client.Update(now + 15)
	require.Zero(t, other.Client.Counters().Unexpected-unexpected, "packets unexpected")
	require.Equal(t, netcore.ClientInGame, other.Client.State(), "other copy: state")
}

// A copy that asks to join while the game changes servers is sent away
// before any lobby: it is told why (ReasonResuming: try again in a
// moment), not that the server left, which would make its session take
// the server for gone and serve a game of its own.
func TestAJoinerSentAwayWhileTheGameChangesServersIsToldWhy(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 21, Link: simnet.Link{LatencyMS: 5}, Quiet: true})
	require.NoError(t, s.RunTics(100, 60000))
	heir := s.Peers[1]
	s.StopHost()
	now := s.Now()
	roster, _ := heir.Client.Roster()
	srv, ch := resumeAtHeir(t, heir, netcore.Resume{Roster: roster}, netcore.ServerConfig{}, now)
	tr := &hand{}
	joiner := netcore.NewClient(netcore.ClientConfig{Name: "late"}, tr, ServerUID, testgame.New(5), now)
	var ended []netcore.Event
	for ms := now; ms < now+500 && len(ended) == 0; ms += 5 {
		heir.Client.Update(ms)
		for _, e := range joiner.Update(ms) {
			if e.Kind == netcore.EventDisconnected {
				ended = append(ended, e)
			}
		}
		for _, p := range tr.take() {
			ch.in = append(ch.in, handPacket{99, p.pkt})
		}
		srv.Update(ms)
		for _, p := range ch.take() {
			if p.addr == 99 {
				tr.in = append(tr.in, handPacket{ServerUID, p.pkt})
			}
		}
	}
	require.True(t, srv.Resuming(), "the server resumed: the joiner came too late to test")
	require.Len(t, ended, 1, "the joiner's ends")
	require.Equal(t, netcore.ReasonResuming, ended[0].Reason, "why the joiner's game ended")
	require.Equal(t, netcore.CauseResuming, ended[0].Cause, "why the joiner's game ended")
}

// A new server that refuses a reattaching copy (here: it holds tics past
// where the old server said it stopped) sends it away in the pass that took its SYN, before
// its reply to the SYN goes out: the copy, still connecting, takes the
// DISCONNECT for the refusal and joins again, rather than send its SYN
// until it gives the game up (10 s; a healed partition waited 14 s).
func TestARefusedReattachEndsAtOnce(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 21, Link: simnet.Link{LatencyMS: 5}, Quiet: true})
	require.NoError(t, s.RunTics(100, 60000))
	heir, other := s.Peers[1], s.Peers[2]
	s.StopHost()
	now := s.Now()
	roster, _ := heir.Client.Roster()
	srv, ch := resumeAtHeir(t, heir, netcore.Resume{Roster: roster,
		Leaving: &wire.Leaving{Tic: other.Client.Timeline().Confirmed() - 1, Player: int8(s.Peers[0].Client.Player())}},
		netcore.ServerConfig{}, now)
	tr := &hand{}
	require.True(t, other.Client.Reattach(tr, now), "the other copy cannot reattach")
	var ended []netcore.Event
	for ms := now; ms <= now+100 && len(ended) == 0; ms += 5 {
		heir.Client.Update(ms)
		for _, e := range other.Client.Update(ms) {
			if e.Kind == netcore.EventDisconnected {
				ended = append(ended, e)
			}
		}
		for _, p := range tr.take() {
			ch.in = append(ch.in, handPacket{other.UID, p.pkt})
		}
		srv.Update(ms)
		for _, p := range ch.take() {
			if p.addr == other.UID {
				tr.in = append(tr.in, handPacket{ServerUID, p.pkt})
			}
		}
	}
	require.Len(t, ended, 1, "the refused copy's ends within 100 ms")
	require.Equal(t, netcore.ReasonReattachRefused, ended[0].Reason, "why the refused copy's game ended")
	require.Equal(t, netcore.CauseReattachRefused, ended[0].Cause, "why the refused copy's game ended")
	require.NotZero(t, srv.Counters().RejoinRefused, "the server refused nothing")
}

// resumeAtHeir builds the server the heir's copy resumes the game with,
// from its own timeline (r gives the roster, and the Leaving if any), as
// a session builds it, and reattaches the heir's client to it through
// the loopback; the server's channel is a hand-carried transport. cfg's
// Timeouts, Game and BroadcastTics are set here.
func resumeAtHeir(t *testing.T, heir *Peer, r netcore.Resume, cfg netcore.ServerConfig, now int64) (*netcore.Server, *hand) {
	t.Helper()
	cfg.Timeouts, cfg.Game, cfg.BroadcastTics, cfg.Key = netcore.BrowserTimeouts, r.Roster.Game, true, heir.Key
	r.Settings, r.Connect, r.Timeline = heir.Client.Settings(), heir.Client.Connect(), heir.Client.Timeline()
	ch := &hand{}
	srvEnd, cliEnd := netcore.NewLoopback(ServerUID)
	srv := netcore.NewResumedServer(cfg, &netcore.HostTransport{Channel: ch, Local: srvEnd}, r, now)
	require.True(t, heir.Client.Reattach(cliEnd, now), "the heir cannot reattach")
	return srv, ch
}

// heirTakesOver builds the heir's server from its own timeline and roster
// (resumeAtHeir) at now, runs the heir's first pass with it, and drops
// what the server sent on the channel meanwhile.
func heirTakesOver(t *testing.T, heir *Peer, now int64) (*netcore.Server, *hand) {
	t.Helper()
	roster, ok := heir.Client.Roster()
	require.True(t, ok, "no roster")
	srv, ch := resumeAtHeir(t, heir, netcore.Resume{Roster: roster}, netcore.ServerConfig{}, now)
	heir.Client.Update(now)
	srv.Update(now)
	heir.Client.Update(now)
	ch.take()
	return srv, ch
}
