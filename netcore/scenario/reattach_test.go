package scenario

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"
)

// hand is a transport a test drives by hand: it keeps what its end sends,
// and its end receives what the test puts in.
type hand struct {
	in  []handPacket
	out []handPacket
}

type handPacket struct {
	addr netcore.Addr // to, going out; from, coming in
	pkt  []byte
}

func (h *hand) Send(to netcore.Addr, pkt []byte) {
	h.out = append(h.out, handPacket{to, append([]byte(nil), pkt...)})
}

func (h *hand) Recv() (netcore.Addr, []byte, bool) {
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

// kindOf names a packet: its type, and its extension kind.
func kindOf(t *testing.T, pkt []byte) (wire.Header, uint8) {
	t.Helper()
	h, body, err := wire.ParseHeader(pkt)
	if err != nil {
		t.Fatal(err)
	}
	if h.Type != wire.TypeTicnet {
		return h, 0
	}
	k, err := wire.TicnetKind(body)
	if err != nil {
		t.Fatal(err)
	}
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
	s := start(t, Options{Players: 3, Seed: 21, Link: simnet.Link{LatencyMS: 5}, Quiet: true})
	if err := s.RunTics(100, 60000); err != nil {
		t.Fatal(err)
	}
	heir, other := s.Peers[1], s.Peers[2]
	heir.Paused = true // it holds fewer tics than the other copy
	s.RunFor(200)
	s.StopHost()
	now := s.Now()
	roster, ok := heir.Client.Roster()
	if !ok {
		t.Fatal("no roster")
	}
	held := other.Client.Timeline().Confirmed()
	if heirHeld := heir.Client.Timeline().Confirmed(); held-heirHeld < 3 || held-heirHeld > netcore.PushTics {
		t.Fatalf("the heir holds %d tics, the other copy %d: want a few more", heirHeld, held)
	}

	// The heir's server, and its own client reattached through the
	// loopback, as a session builds them.
	srv, ch := resumeAtHeir(t, heir, netcore.Resume{Roster: roster},
		netcore.ServerConfig{RecordTics: true, Replay: netcore.ServerReplayConfig{Record: true}}, now)
	heir.Client.Update(now)
	srv.Update(now)
	heir.Client.Update(now)
	ch.take()

	// The other copy's first pass.
	tr := &hand{}
	if !other.Client.Reattach(tr, now) {
		t.Fatal("the other copy cannot reattach")
	}
	other.Client.Update(now)
	sent := tr.take()
	var kinds []string
	for _, p := range sent {
		h, k := kindOf(t, p.pkt)
		kinds = append(kinds, describe(h, k))
	}
	want := []string{"SYN", "reattach", "tic set", "GAMEDATA"}
	if len(kinds) != len(want) {
		t.Fatalf("first pass sent %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("first pass sent %v, want %v", kinds, want)
		}
	}
	// They cross on the way: the Reattach comes first.
	sent[0], sent[1] = sent[1], sent[0]
	for _, p := range sent {
		ch.in = append(ch.in, handPacket{other.UID, p.pkt})
	}
	srv.Update(now)
	if srv.Resuming() || srv.ResumedAt() != held {
		t.Fatalf("server resuming %v at tic %d, want resumed at %d", srv.Resuming(), srv.ResumedAt(), held)
	}
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
	if fetches != 0 || reply != 1 || resumeCopy != 1 {
		t.Fatalf("server sent %d fetches, %d SYN replies, %d copies of the Resume; want 0, 1, 1", fetches, reply, resumeCopy)
	}
	// The first tic came out at once, with the other copy's command.
	first := srv.TicRecords()
	if len(first) == 0 || first[0].Tic != held {
		t.Fatalf("server decided %+v, want tic %d at once", first, held)
	}
	if first[0].Received&(1<<other.Client.Player()) == 0 {
		t.Fatalf("tic %d: the other copy's command was substituted", held)
	}
	// Its replay starts where it resumed the game.
	if r, err := wire.NewReplayReader(srv.Replay()); err != nil || srv.ReplayGame() != 1 || r.Header.Start != held ||
		len(readAll(t, srv.Replay())) != len(first) {
		t.Fatalf("the server's replay %d: %v; it decided %d tics from %d", srv.ReplayGame(), err, len(first), held)
	}
	other.Client.Update(now + 5)
	if other.Client.Resuming() || other.Client.GameTic() != held+1 {
		t.Fatalf("other copy: resuming %v, gametic %d; want resumed and tic %d run", other.Client.Resuming(), other.Client.GameTic(), held)
	}
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
	if len(tr.in) != 1 {
		t.Fatalf("the server sent %d reliable Resumes once its SYN reply was acknowledged, want 1", len(tr.in))
	}
	other.Client.Update(now + 15)
	if n := other.Client.Counters().Unexpected - unexpected; n != 0 || other.Client.State() != netcore.ClientInGame {
		t.Fatalf("%d packets unexpected; state %v", n, other.Client.State())
	}
}

// A copy that asks to join while the game changes servers is sent away
// before any lobby: it is told why (ReasonResuming: try again in a
// moment), not that the server left, which would make its session take
// the server for gone and serve a game of its own.
func TestAJoinerSentAwayWhileTheGameChangesServersIsToldWhy(t *testing.T) {
	s := start(t, Options{Players: 3, Seed: 21, Link: simnet.Link{LatencyMS: 5}, Quiet: true})
	if err := s.RunTics(100, 60000); err != nil {
		t.Fatal(err)
	}
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
	if !srv.Resuming() {
		t.Fatal("the server resumed: the joiner came too late to test")
	}
	if len(ended) != 1 || ended[0].Reason != netcore.ReasonResuming {
		t.Fatalf("the joiner's end: %+v; want one, for %q", ended, netcore.ReasonResuming)
	}
}

// A new server that refuses a reattaching copy (here: it holds tics past
// where the old server said it stopped) sends it away in the pass that took its SYN, before
// its reply to the SYN goes out: the copy, still connecting, takes the
// DISCONNECT for the refusal and joins again, rather than send its SYN
// until it gives the game up (10 s; a healed partition waited 14 s).
func TestARefusedReattachEndsAtOnce(t *testing.T) {
	s := start(t, Options{Players: 3, Seed: 21, Link: simnet.Link{LatencyMS: 5}, Quiet: true})
	if err := s.RunTics(100, 60000); err != nil {
		t.Fatal(err)
	}
	heir, other := s.Peers[1], s.Peers[2]
	s.StopHost()
	now := s.Now()
	roster, _ := heir.Client.Roster()
	srv, ch := resumeAtHeir(t, heir, netcore.Resume{Roster: roster,
		Leaving: &wire.Leaving{Tic: other.Client.Timeline().Confirmed() - 1, Player: int8(s.Peers[0].Client.Player())}},
		netcore.ServerConfig{}, now)
	tr := &hand{}
	if !other.Client.Reattach(tr, now) {
		t.Fatal("the other copy cannot reattach")
	}
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
	if len(ended) != 1 || ended[0].Reason != netcore.ReasonReattachRefused {
		t.Fatalf("the refused copy's end within 100 ms: %+v; want one, for %q", ended, netcore.ReasonReattachRefused)
	}
	if got := srv.Counters().RejoinRefused; got == 0 {
		t.Fatal("the server refused nothing")
	}
}

// resumeAtHeir builds the server the heir's copy resumes the game with,
// from its own timeline (r gives the roster, and the Leaving if any), as
// a session builds it, and reattaches the heir's client to it through
// the loopback; the server's channel is a hand-carried transport. cfg's
// Timeouts, Game and BroadcastTics are set here.
func resumeAtHeir(t *testing.T, heir *Peer, r netcore.Resume, cfg netcore.ServerConfig, now int64) (*netcore.Server, *hand) {
	t.Helper()
	cfg.Timeouts, cfg.Game, cfg.BroadcastTics = netcore.BrowserTimeouts, r.Roster.Game, true
	r.Settings, r.Connect, r.Timeline = heir.Client.Settings(), heir.Client.Connect(), heir.Client.Timeline()
	ch := &hand{}
	srvEnd, cliEnd := netcore.NewLoopback(ServerUID)
	srv := netcore.NewResumedServer(cfg, &netcore.HostTransport{Channel: ch, Local: srvEnd}, r, now)
	if !heir.Client.Reattach(cliEnd, now) {
		t.Fatal("the heir cannot reattach")
	}
	return srv, ch
}
