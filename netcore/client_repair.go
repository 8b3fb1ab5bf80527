package netcore

import (
	"encoding/binary"

	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// repairSide is a client's part in desync repair (relay_ticnet_repair.go):
// the majority's state comes on a stream from the server, and the copy
// loads it and runs the tics since again; and it hears of every copy
// repaired (EventRepaired). The server sends a playing copy no stream but
// a repair's, so the stream is taken as one when it comes, whether or not
// the Repair that names it came first: that one waits its turn on the
// stop-and-wait reliable queue, and a repair waits for nothing it need not.
type repairSide struct {
	c *Client
	// stream: the repair's, named by a Repair or come; active while it
	// has not arrived.
	stream uint32
	active bool
	// Once the state arrived: its tic and size, and the first tic the
	// copy had not run (its checksums are right from there).
	tic, from uint32
	bytes     int
	loading   bool // the state waits in the timeline to be loaded
	// held: a state that came before the game ran the tics before it,
	// kept from heldMS until it has (rewind).
	held   *tic.Snapshot
	heldMS int64
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
	if m.Stream == rs.stream {
		return nil // its stream came first
	}
	if rs.active {
		c.xfer.CancelReceive(now, c.server, rs.stream, wire.TransferReasonCancelled)
	}
	rs.stream, rs.active = m.Stream, true
	return nil
}

// onTransfer takes the repair's stream, and reports whether ev was of it.
func (rs *repairSide) onTransfer(ev transfer.Event) bool {
	c := rs.c
	if ev.Outgoing || ev.Peer != c.server || c.phase.state() != ClientInGame || c.phase.joining() {
		return false
	}
	if ev.Stream != rs.stream || !rs.active {
		if ev.Kind != transfer.Received {
			return false
		}
		rs.stream = ev.Stream // its Repair is on the way
	}
	rs.active = false
	if ev.Kind != transfer.Received {
		return true
	}
	if len(ev.Data) < 4 {
		c.stats.Malformed++
		return true
	}
	st := tic.Snapshot{Tic: binary.BigEndian.Uint32(ev.Data), State: ev.Data[4:]}
	if int32(st.Tic-c.loop.tl.GameTic()) > BackupTics {
		c.stats.Unexpected++ // further ahead than any tic this copy could hold: not its server's
		return true
	}
	rs.held, rs.heldMS = &st, c.nowMS
	rs.rewind()
	return true
}

// rewind has the timeline load the state that came, once the game has run
// the tics before it (it may come before the game gets there), or drops it
// after RepairTimeoutMS, when the server has given the repair up.
func (rs *repairSide) rewind() {
	c := rs.c
	st := rs.held
	if st == nil {
		return
	}
	tl := &c.loop.tl
	if int32(st.Tic-tl.GameTic()) > 0 {
		if c.nowMS-rs.heldMS > RepairTimeoutMS {
			rs.held = nil
			c.stats.Unexpected++
		}
		return
	}
	rs.held = nil
	rs.from = tl.GameTic()
	if !tl.Rewind(*st) {
		c.stats.Unexpected++ // too old a state, or a load waits: the server gives up and tries again
		return
	}
	c.loop.pred.drop() // what was predicted from the diverged state
	rs.tic, rs.bytes, rs.loading = st.Tic, len(st.State), true
	c.report.Sums = c.report.Sums[:0] // the diverged state's
	c.loop.rerunTo = rs.from
}

// refused takes the game's refusal of the state (its load failed, the
// game unchanged): the game goes on from where it was, as if no state had
// come, and the server gives the repair up in time.
func (rs *repairSide) refused() {
	c := rs.c
	rs.loading = false
	c.stats.Malformed++
	c.loop.tl.Forward(rs.from)
	c.loop.rerunTo = 0
}

// loads reports whether the timeline's load of tic t is the repair's.
func (rs *repairSide) loads(t uint32) bool { return rs.loading && rs.tic == t }

// loaded tells the server that the state is loaded.
func (rs *repairSide) loaded() {
	c := rs.c
	rs.loading = false
	c.conn.SendUrgent(&wire.RepairDone{Tic: rs.tic, Bytes: uint32(rs.bytes), From: rs.from})
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
	c.loop.repaired(int(m.Player), m.Tic) // the decoder checked the player
	c.emit(Event{Kind: EventRepaired, Player: int(m.Player), Tic: m.Tic, Bytes: int64(m.Bytes), MS: int64(m.MS)})
	return nil
}
