package netcore

import (
	"encoding/binary"

	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// repairSide is a client's part in desync repair (relay_ticnet_repair.go):
// told that its copy diverged and that the majority's state comes on a
// stream, it loads the state when it comes and runs the tics since again;
// and it hears of every copy repaired (EventRepaired).
type repairSide struct {
	c      *Client
	stream uint32 // the state's stream, while a repair is under way
	active bool
	// Once the state arrived: its tic and size, and the first tic the
	// copy had not run (its checksums are right from there).
	tic, from uint32
	bytes     int
	loading   bool // the state waits in the timeline to be loaded
	// early: a state that came before the Repair that names its stream
	// (the stream can overtake the server's reliable messages), kept
	// until then, or RepairTimeoutMS, or the next such state.
	early   *transfer.Event
	earlyMS int64
}

// onRepair takes the server's word that the majority's state comes on a
// stream. A game that cannot load a state refuses it: the server stops
// trying, and the copy plays on diverged, as it would without repair.
func (rs *repairSide) onRepair(now int64, body []byte) error {
	c := rs.c
	var m wire.Repair
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if c.phase.state() != ClientInGame || c.phase.joining() || c.player < 0 {
		return errUnexpected{}
	}
	if m.Stream == NoRepair {
		c.conn.Disconnect(now, ReasonPersistentDesync)
		c.finish(CauseNotDeterministic, ReasonPersistentDesync)
		return nil
	}
	if _, ok := c.game.(tic.Snapshotter); !ok {
		c.xfer.CancelReceive(now, c.server, m.Stream, wire.TransferReasonNoSnapshot)
		return nil
	}
	if rs.active {
		c.xfer.CancelReceive(now, c.server, rs.stream, wire.TransferReasonCancelled)
	}
	early, earlyMS := rs.early, rs.earlyMS
	*rs = repairSide{c: c, stream: m.Stream, active: true}
	if early != nil && early.Stream == m.Stream && now-earlyMS <= RepairTimeoutMS {
		rs.onTransfer(*early)
	}
	return nil
}

// onTransfer takes the repair's stream, and reports whether ev was of it.
func (rs *repairSide) onTransfer(ev transfer.Event) bool {
	c := rs.c
	if ev.Outgoing || ev.Peer != c.server {
		return false
	}
	if !rs.active || ev.Stream != rs.stream {
		if ev.Kind != transfer.Received || rs.active || c.phase.state() != ClientInGame || c.phase.joining() {
			return false
		}
		rs.early, rs.earlyMS = &ev, c.nowMS // its Repair is on the way
		return true
	}
	switch ev.Kind {
	case transfer.Received:
		rs.active = false
		if len(ev.Data) < 4 {
			c.stats.Malformed++
			return true
		}
		st := tic.Snapshot{Tic: binary.BigEndian.Uint32(ev.Data), State: ev.Data[4:]}
		rs.from = c.loop.tl.GameTic()
		c.loop.pred.drop() // what was predicted from the diverged state
		if !c.loop.tl.Rewind(st) {
			c.stats.Unexpected++ // too old a state, or a load waits: the server gives up and tries again
			return true
		}
		rs.tic, rs.bytes, rs.loading = st.Tic, len(st.State), true
		c.report.Sums = c.report.Sums[:0] // the diverged state's
		c.loop.rerunTo = rs.from
	case transfer.Dropped:
		rs.active = false
	}
	return true
}

// loads reports whether the timeline's load of tic t is the repair's.
func (rs *repairSide) loads(t uint32) bool { return rs.loading && rs.tic == t }

// loaded tells the server that the state is loaded.
func (rs *repairSide) loaded() {
	c := rs.c
	rs.loading = false
	c.conn.SendReliable(&wire.RepairDone{Tic: rs.tic, Bytes: uint32(rs.bytes), From: rs.from})
}

// onRepaired takes the server's word that a copy was set right.
func (rs *repairSide) onRepaired(body []byte) error {
	c := rs.c
	var m wire.Repaired
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if c.phase.state() != ClientInGame {
		return errUnexpected{}
	}
	c.emit(Event{Kind: EventRepaired, Player: int(m.Player), Tic: m.Tic, Bytes: int64(m.Bytes), MS: int64(m.MS)})
	return nil
}
