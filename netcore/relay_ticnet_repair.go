package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Desync repair, under the extension protocol: when the checksums of a
// tic name a copy that diverged from the majority (desyncCheck; with no
// majority, from the server's own copy when it plays), the server asks a
// copy of the majority for its state before the next tic it sends, as for
// a late join, and relays it to the diverged copy (wire.Repair), which
// loads it and runs the tics since again (tic.Timeline.Rewind). Its word
// that it did (wire.RepairDone) goes to every client (wire.Repaired), and
// the copy is watched again: a copy that diverges RepairLimit times within
// RepairWindowMS has a game that computes differently there, and is told
// to leave (a Repair with no stream): it leaves by itself, as a player
// does, so that it does not take the server for gone.

// RepairLimit repairs of one player's copy within RepairWindowMS make it
// leave (ReasonPersistentDesync): a corrupted state is set right once, a
// game that is not deterministic on that copy diverges again within
// seconds, and repairing it forever would cost a state a few seconds.
const (
	RepairLimit    = 3
	RepairWindowMS = 30_000
	// RepairTimeoutMS: a repair whose copy has not said it loaded the
	// state by then is given up, and the copy may be repaired again.
	RepairTimeoutMS = 10_000
)

// ReasonPersistentDesync is why a copy whose state diverged again and
// again leaves the game (CauseNotDeterministic).
const ReasonPersistentDesync = "this copy's game state diverged from the others' again and again: the game is not deterministic here"

// NoRepair is a Repair's stream that says no state comes: the copy is to
// leave (CauseNotDeterministic).
const NoRepair = 0

// repairs is the server's part in desync repair.
type repairs struct {
	want   uint8 // players whose copies to repair (desyncCheck)
	truth  uint8 // players whose copies hold the majority's state
	active [tic.MaxPlayers]*repairRun
	times  [tic.MaxPlayers][]int64 // when each player's repairs began, within the window
	cannot bool                    // the game cannot save or load a state: no repair
	// fetched: players whose copies, named by a verdict, asked for a copy
	// of the majority's states (wire.StatesRequest): once each a game.
	fetched uint8
}

// repairRun is one repair under way.
type repairRun struct {
	stream  uint32
	target  *serverClient
	askedMS int64
}

// diverged notes the verdict on a tic: differ diverged, and the copies of
// truth hold the state every copy should.
func (r *repairs) diverged(differ []int, truth uint8) {
	for _, p := range differ {
		r.want |= 1 << p
	}
	r.truth = truth
}

// pass starts the repairs the verdicts asked for, and gives up those that
// took too long.
func (r *repairs) pass(now int64, x *ticnetRelay) {
	s := x.s
	for p, run := range r.active {
		if run != nil && now-run.askedMS > RepairTimeoutMS {
			r.fail(now, x, p)
		}
	}
	want := r.want
	r.want = 0
	if want == 0 || r.cannot {
		return
	}
	source := r.source(s)
	for p := range tic.MaxPlayers {
		if want&(1<<p) == 0 || r.active[p] != nil {
			continue
		}
		target := s.slots.playing(p)
		if target == nil || source == nil {
			continue
		}
		r.times[p] = within(r.times[p], now-RepairWindowMS)
		if len(r.times[p]) >= RepairLimit {
			target.conn.SendReliable(&wire.Repair{Stream: NoRepair})
			r.times[p] = r.times[p][:0]
			continue
		}
		s.joins.nextStream++
		stream := s.joins.nextStream
		if err := s.xfer.Relay(now, source.addr, stream, target.addr, stream); err != nil {
			continue
		}
		source.conn.SendUrgent(&wire.SnapshotRequest{Tic: x.sendSeq, Stream: stream})
		s.xfer.AcceptFrom(source.addr)
		target.conn.SendUrgent(&wire.Repair{Stream: stream})
		r.active[p] = &repairRun{stream: stream, target: target, askedMS: now}
		r.times[p] = append(r.times[p], now)
	}
}

// source is the copy to ask for the state: the server's own when it holds
// the majority's, else the longest connected one that does.
func (r *repairs) source(s *Server) *serverClient {
	return s.slots.stateSource(func(sc *serverClient) bool { return sc.player >= 0 && r.truth&(1<<sc.player) != 0 })
}

// within drops the times before since.
func within(times []int64, since int64) []int64 {
	n := 0
	for _, t := range times {
		if t >= since {
			times[n] = t
			n++
		}
	}
	return times[:n]
}

// onDone takes a repaired copy's word, and tells every client.
func (r *repairs) onDone(now int64, x *ticnetRelay, sc *serverClient, body []byte) error {
	s := x.s
	var m wire.RepairDone
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	p := sc.player
	if p < 0 || r.active[p] == nil || r.active[p].target != sc {
		return errUnexpected{}
	}
	run := r.active[p]
	r.active[p] = nil
	x.check.clear(p) // watched again, from the tics it ran after the state
	x.check.from[p] = m.From
	for i := range x.check.sums {
		if sl := &x.check.sums[i]; int32(sl.seq-m.From) < 0 {
			sl.have &^= 1 << p // a sum of its diverged state, still waiting for the others'
		}
	}
	done := wire.Repaired{Player: uint8(p), Tic: m.Tic, Bytes: m.Bytes, MS: uint32(min(now-run.askedMS, 1<<31))}
	for _, c := range s.slots {
		if c.connected() && c.inGame() && c.phase != slotPlaceholder {
			c.conn.SendUrgent(&done)
		}
	}
	return nil
}

// onTransfer follows a repair's stream: a copy that cannot save or load
// a state says so, and no repair is tried again; a stream lost otherwise
// gives the repair up.
func (r *repairs) onTransfer(now int64, x *ticnetRelay, ev transfer.Event) {
	if ev.Kind != transfer.Dropped {
		return
	}
	for p, run := range r.active {
		if run == nil || run.stream != ev.Stream {
			continue
		}
		if ev.Reason == wire.TransferReasonNoSnapshot {
			r.cannot = true
		}
		r.fail(now, x, p)
		return
	}
}

// fail gives player p's repair up: its stream stops, the attempt does not
// count, and its copy may be named, and repaired, again.
func (r *repairs) fail(now int64, x *ticnetRelay, p int) {
	s := x.s
	run := r.active[p]
	r.active[p] = nil
	s.xfer.CancelSend(now, run.target.addr, run.stream, wire.TransferReasonCancelled)
	if n := len(r.times[p]); n > 0 {
		r.times[p] = r.times[p][:n-1]
	}
	x.check.clear(p)
}

// onStatesRequest takes a diverged copy's request for a copy of the
// majority's states around a tic (its forensics, forensics.go): the server
// asks a copy of the majority for its own, and relays them on the stream
// the request names. It serves a copy the verdicts named, once a game: a
// request is a stream of a state from another copy.
func (r *repairs) onStatesRequest(now int64, x *ticnetRelay, sc *serverClient, body []byte) error {
	s := x.s
	var m wire.StatesRequest
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	source := s.slots.stateSource(func(o *serverClient) bool { return o != sc && o.player >= 0 && r.truth&(1<<o.player) != 0 })
	if sc.player < 0 || r.truth&(1<<sc.player) != 0 || r.fetched&(1<<sc.player) != 0 || m.Stream&wire.StatesRequestStreamBit == 0 || source == nil {
		return errUnexpected{}
	}
	r.fetched |= 1 << sc.player
	s.joins.nextStream++
	in := s.joins.nextStream
	if err := s.xfer.Relay(now, source.addr, in, sc.addr, m.Stream); err != nil {
		return errUnexpected{}
	}
	source.conn.SendReliable(&wire.StatesRequest{Tic: m.Tic, Stream: in})
	s.xfer.AcceptFrom(source.addr)
	return nil
}
