package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// DesyncStates are a copy's own states around the first tic of a desync
// (EventDesyncStates): Before, the state before Tic, which the copies
// agreed on by its checksums, and After, the state after it, whose
// checksums differ. The copies of the majority keep theirs as the one that
// diverged does, so that the two can be compared byte by byte (or field by
// field, by the game): ticnet-replay diff, the demo's diff page.
type DesyncStates struct {
	Tic           uint32
	Before, After []byte
	// Diverged: this copy is one of those the server named (its player's
	// copy differed from the majority's).
	Diverged bool
	// Fetched: the states are a copy of the majority's, which this copy
	// fetched after it diverged (the event with its own came before).
	Fetched bool
}

// forensics keeps the states before the last tics this copy ran confirmed
// (ClientConfig.KeepStates), and, at the server's verdict on a tic, those
// around it (DesyncStates). The states are the game's own slices
// (tic.Snapshotter returns a new one each time): keeping them costs
// memory, and a SaveState a tic where the client does not predict (a
// predicting client saved the state before each tic already).
type forensics struct {
	ring []keptState // by tic % len
	// kept: the states of the last verdict; wantAfter while the tic after
	// it has not run.
	kept      DesyncStates
	has       bool
	wantAfter bool
	// asked: the stream this copy, diverged, asked a copy of the
	// majority's states on (wire.StatesRequest), until they come.
	asked uint32
}

type keptState struct {
	tic   uint32
	state []byte
}

// reset starts a new game with room for the states of n tics.
func (f *forensics) reset(n int) {
	ring := f.ring[:0]
	if cap(ring) < n {
		ring = make([]keptState, 0, n)
	}
	clear(ring[:n])
	*f = forensics{ring: ring[:n]}
}

// before keeps state, the state before confirmed tic t; it is called only
// where the copy keeps states.
func (f *forensics) before(c *Client, t uint32, state func() []byte) {
	if len(f.ring) == 0 {
		return
	}
	s := state()
	f.ring[t%uint32(len(f.ring))] = keptState{tic: t, state: s}
	if f.wantAfter && t == f.kept.Tic+1 {
		f.kept.After, f.wantAfter = s, false
		f.tell(c)
	}
}

// keeps reports whether the copy keeps states: it was asked to, and its
// game can save.
func (f *forensics) keeps(c *Client) bool {
	_, ok := c.game.(tic.Snapshotter)
	return len(f.ring) > 0 && ok
}

// state is the state kept before tic t, or nil.
func (f *forensics) state(t uint32) []byte {
	if k := f.ring[t%uint32(len(f.ring))]; k.tic == t && k.state != nil {
		return k.state
	}
	return nil
}

// verdict keeps the states around tic t, whose checksums differ, from the
// server's first verdict of the game (the state after it when the copy
// runs the next tic, if it has not yet), and hands them up in an
// EventDesyncStates.
func (f *forensics) verdict(c *Client, t uint32, diverged bool) {
	if !f.keeps(c) || f.has || f.wantAfter {
		return
	}
	before := f.state(t)
	if before == nil {
		return // too long ago: the states were not kept
	}
	f.kept = DesyncStates{Tic: t, Before: before, Diverged: diverged}
	if after := f.state(t + 1); after != nil {
		f.kept.After = after
		f.tell(c)
		return
	}
	f.wantAfter = true
}

// tell hands the states kept to the code above (EventDesyncStates), and
// a copy that diverged asks for a copy of the majority's.
func (f *forensics) tell(c *Client) {
	f.has = true
	states := f.kept
	c.emit(Event{Kind: EventDesyncStates, Tic: states.Tic, States: &states})
	if states.Diverged {
		f.asked = wire.StatesRequestStreamBit | states.Tic&^wire.StatesRequestStreamBit
		c.conn.SendReliable(&wire.StatesRequest{Tic: states.Tic, Stream: f.asked})
	}
}

// onRequest takes the server's request for this copy's states around a
// tic, for a copy that diverged: they go on the stream it names, or it is
// refused when this copy kept none of that tic.
func (f *forensics) onRequest(now int64, c *Client, body []byte) error {
	var m wire.StatesRequest
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if !f.has || f.kept.Tic != m.Tic || f.kept.Diverged {
		c.xfer.Refuse(now, c.server, m.Stream, wire.TransferReasonNoSnapshot)
		return nil
	}
	st := wire.StatesStream{Tic: m.Tic, Before: f.kept.Before, After: f.kept.After}
	if err := c.xfer.Send(now, c.server, m.Stream, st.AppendTo(nil)); err != nil {
		c.xfer.Refuse(now, c.server, m.Stream, wire.TransferReasonNoSnapshot)
	}
	return nil
}

// onTransfer takes the stream of states this copy asked for, and reports
// whether ev was of it: they go up as the majority's (Fetched).
func (f *forensics) onTransfer(c *Client, ev transfer.Event) bool {
	if f.asked == 0 || ev.Outgoing || ev.Peer != c.server || ev.Stream != f.asked {
		return false
	}
	f.asked = 0
	if ev.Kind != transfer.Received {
		return true
	}
	var st wire.StatesStream
	if err := st.Decode(ev.Data); err != nil || st.Tic != f.kept.Tic {
		c.stats.Malformed++
		return true
	}
	c.emit(Event{Kind: EventDesyncStates, Tic: st.Tic, States: &DesyncStates{Tic: st.Tic, Before: st.Before, After: st.After, Fetched: true}})
	return true
}
