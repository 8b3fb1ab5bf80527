package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"
)

// A quiet game of four copies loses its server with every copy holding
// the same tics: each survivor's Reattach claims exactly the tics it
// holds (Confirmed: the first it lacks), and the heir's server resumes
// the game where they all are, refuses none, and sends none a tic again.
// A Reattach that claims one tic fewer than its copy holds changes
// nothing else visible here (the copy's newest tics go with it), and on
// lossy channels shows only as a longer wait: the claim itself is checked.
func TestEverySurvivorsReattachClaimsExactlyTheTicsItHolds(t *testing.T) {
	s := start(t, Options{Players: 4, Seed: 24, Link: simnet.Link{LatencyMS: 5}, Quiet: true})
	if err := s.RunTics(200, 60000); err != nil {
		t.Fatal(err)
	}
	heir, others := s.Peers[1], []*Peer{s.Peers[2], s.Peers[3]}
	// The host stops between tics: every copy has what it sent.
	s.StopHost()
	s.RunFor(100)
	now := s.Now()
	held := heir.Client.Timeline().Confirmed()
	for _, p := range others {
		if c := p.Client.Timeline().Confirmed(); c != held {
			t.Fatalf("copy %d holds tics to %d, the heir to %d: want a quiet game where they agree", p.Index, c, held)
		}
	}
	roster, ok := heir.Client.Roster()
	if !ok {
		t.Fatal("no roster")
	}

	// The heir's server, and its own client reattached through the
	// loopback, as a session builds them.
	srv, ch := resumeAtHeir(t, heir, netcore.Resume{Roster: roster}, netcore.ServerConfig{}, now)
	heir.Client.Update(now)
	srv.Update(now)
	heir.Client.Update(now)
	ch.take()

	// Each other copy's first pass: its Reattach says what it holds.
	trs := map[netcore.Addr]*hand{}
	for _, p := range others {
		tr := &hand{}
		trs[p.UID] = tr
		if !p.Client.Reattach(tr, now) {
			t.Fatalf("copy %d cannot reattach", p.Index)
		}
		p.Client.Update(now)
		claims := 0
		for _, out := range tr.take() {
			h, body, err := wire.ParseHeader(out.pkt)
			if err != nil {
				t.Fatal(err)
			}
			if k, _ := wire.TicnetKind(body); h.Type != wire.TypeTicnet || k != wire.TicnetKindReattach {
				ch.in = append(ch.in, handPacket{p.UID, out.pkt})
				continue
			}
			var m wire.Reattach
			if err := m.DecodeBody(body); err != nil {
				t.Fatal(err)
			}
			claims++
			if m.Confirmed != held || int(m.Player) != p.Client.Player() {
				t.Fatalf("copy %d, player %d, holding tics to %d, reattaches as player %d holding tics to %d",
					p.Index, p.Client.Player(), held, m.Player, m.Confirmed)
			}
			ch.in = append(ch.in, handPacket{p.UID, out.pkt})
		}
		if claims != 1 {
			t.Fatalf("copy %d sent %d Reattaches in its first pass, want 1", p.Index, claims)
		}
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
	if srv.Resuming() || srv.ResumedAt() != held {
		t.Fatalf("server resuming %v at tic %d, want resumed at %d", srv.Resuming(), srv.ResumedAt(), held)
	}
	c := srv.Counters()
	if c.TicsResent != 0 || c.RejoinRefused != 0 {
		t.Fatalf("the new server sent %d tics again and refused %d reattaches, want none", c.TicsResent, c.RejoinRefused)
	}
	for _, p := range append(others, heir) {
		if p.Client.Resuming() || p.Client.State() != netcore.ClientInGame || p.Client.GameTic() <= held {
			t.Fatalf("copy %d: resuming %v, state %v, at tic %d; want resumed past tic %d",
				p.Index, p.Client.Resuming(), p.Client.State(), p.Client.GameTic(), held)
		}
	}
}
