package netcore

import (
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// referenceRelay is the reference protocol's relay (spec §10.4): each
// client has its own queue of tics, sent it once every other player's
// command for the tic is in, so clients stand at different tics; a tic
// leaves the window once every player sent it and every client
// acknowledged it.
type referenceRelay struct {
	s       *Server
	leavers departures // players who left, in tics sent with them (server_departure.go)
}

func (r *referenceRelay) protocol() string { return wire.ProtocolChocolate }
func (r *referenceRelay) ticRate() int64   { return TicRate }

// next is the lowest tic the clients are to be sent next.
func (r *referenceRelay) next() uint32 {
	var lo uint32
	first := true
	for _, sc := range r.s.slots {
		if sc.connected() && (first || sc.sendSeq < lo) {
			lo, first = sc.sendSeq, false
		}
	}
	return lo
}

func (r *referenceRelay) sentEnd(sc *serverClient) uint32 { return sc.sendSeq }

func (r *referenceRelay) sentAt(sc *serverClient, t uint32) (int64, bool) {
	q := &sc.queue[t%BackupTics]
	return q.sentMS, q.valid && q.seq == t
}

func (r *referenceRelay) holds(sc *serverClient, t uint32) bool {
	_, ok := r.sentAt(sc, t)
	return ok
}

// clip leaves a request whole: the reference serves it whole or not at all.
func (r *referenceRelay) clip(first, last uint32) (uint32, bool) { return last, true }

func (r *referenceRelay) send(now int64, sc *serverClient, first, last uint32) {
	r.sendTics(now, sc, first, last)
}

func (r *referenceRelay) pumpClient(now int64, sc *serverClient) { r.pump(now, sc) }
func (r *referenceRelay) pass(int64)                             { r.advanceWindow() }

// acked: the reference waits for a resend request.
func (r *referenceRelay) acked(int64, *serverClient) {}

func (r *referenceRelay) decode(g *wire.ClientGameData, body []byte) error {
	g.Ext = false
	return g.DecodeBody(body)
}

// fresh: the reference measures no clock.
func (r *referenceRelay) fresh(int, uint32, int) bool { return false }

// late: a command for a tic gone is a redundant copy (extratics).
func (r *referenceRelay) late(int64, int, uint32, bool) {}

func (r *referenceRelay) checksums(*serverClient, *wire.ChecksumReport) error { return errUnexpected{} }

// admitLate: the reference's game takes nobody once launched.
func (r *referenceRelay) admitLate(int64, link.Addr, *wire.SYN, string, uint32, *wire.PublicKey) bool {
	return false
}

// hold: a reference player who leaves has no token to come back with.
func (r *referenceRelay) hold(int64, *serverClient) {}

// successor: no reference client can take a game over.
func (r *referenceRelay) successor() (link.Addr, bool) { return 0, false }

// leaving: the reference's clients are only sent away.
func (r *referenceRelay) leaving(int64, link.Addr, bool) {}

func (r *referenceRelay) onEndRequest(_ int64, _ *serverClient, body []byte) error {
	var m wire.EndRequest
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	return errUnexpected{}
}

// onGameOver: a reference game never ends itself (its clients run the
// reference clock, which sends no GameOver).
func (r *referenceRelay) onGameOver(_ int64, _ *serverClient, body []byte) error {
	var m wire.GameOver
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	return errUnexpected{}
}

// sendTics sends sc its queued tics [first, last] as reference GAMEDATA,
// in as many packets as it takes for each to fit a reference peer's receive
// buffer.
func (r *referenceRelay) sendTics(now int64, sc *serverClient, first, last uint32) {
	s := r.s
	o := &s.out
	o.Start = uint8(first)
	o.Tics = o.Tics[:0]
	for t := first; t <= last; t++ {
		o.Tics = append(o.Tics, sc.queue[t%BackupTics].tic)
	}
	s.pkt = wire.Encode(s.pkt[:0], o, false, 0)
	if len(s.pkt) > MaxDatagram && first < last {
		mid := first + (last-first)/2
		r.sendTics(now, sc, first, mid)
		r.sendTics(now, sc, mid+1, last)
		return
	}
	sc.conn.Send(now, s.pkt)
}

// minAck is the lowest acknowledgement among connected clients.
func (r *referenceRelay) minAck() uint32 {
	s := r.s
	var lo uint32
	first := true
	for _, sc := range s.slots {
		if sc.connected() && sc.inGame() && (first || sc.acked < lo) {
			lo, first = sc.acked, false
		}
	}
	return lo
}

// pump sends sc the tics it can have: each once every other player's
// command for it is in (spec §10.4). This blocking is the lockstep.
func (r *referenceRelay) pump(now int64, sc *serverClient) {
	s := r.s
	r.noteDepartures()
	players := s.players()
	for range maxPumpPerPass {
		seq := sc.sendSeq
		if int64(seq)-int64(r.minAck()) > MaxServerLeadTics || seq-s.cmds.start >= BackupTics {
			return
		}
		if len(players) == 1 && players[0] == sc && seq > s.cmds.start+SoloLeadTics {
			return
		}
		var t wire.ServerTic
		for _, p := range players {
			if p == sc {
				continue
			}
			if !s.cmds.win[p.player].Has(seq) {
				return
			}
			rc := &s.cmds.rows[seq%BackupTics][p.player]
			t.InGame |= 1 << p.player
			t.Cmds[p.player] = rc.diff
			t.Latency = max(t.Latency, rc.latency)
		}
		for p := range tic.MaxPlayers {
			if r.departedIn(seq)&(1<<p) != 0 && p != sc.player {
				rc := &s.cmds.rows[seq%BackupTics][p] // in: see departures
				t.InGame |= 1 << p
				t.Cmds[p] = rc.diff
				t.Latency = max(t.Latency, rc.latency)
			}
		}
		sc.queue[seq%BackupTics] = sentServerTic{seq: seq, valid: true, sentMS: now, tic: t}
		sc.sendSeq++
		r.sendTics(now, sc, seq-min(seq, uint32(s.settings.ExtraTics)), seq)
	}
}

// advanceWindow drops tics every player has sent and every client has
// acknowledged (spec §10.5).
func (r *referenceRelay) advanceWindow() {
	s := r.s
	r.noteDepartures()
	players := s.players()
	if len(players) == 0 {
		return
	}
	for s.cmds.start < r.minAck() {
		row := &s.cmds.rows[s.cmds.start%BackupTics]
		in := r.departedIn(s.cmds.start)
		for _, p := range players {
			if !s.cmds.win[p.player].Has(s.cmds.start) {
				return
			}
			in |= 1 << p.player
		}
		s.record(s.cmds.start, in, in, s.relayed.patch(&s.rec, row, in))
		s.cmds.forgetTic(s.cmds.start)
		s.cmds.start++
		r.forgetDepartures()
	}
}

// sentServerTic is a tic in a client's send queue (reference mode).
type sentServerTic struct {
	seq    uint32
	valid  bool
	sentMS int64 // when it was first sent
	tic    wire.ServerTic
}
