package netcore

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// joinSide is a client's part in late join: as a joiner, the snapshot it
// waits for and its progress; as a copy that holds the state, the streams
// the server asked it for.
type joinSide struct {
	c       *Client
	stream  uint32 // the snapshot's stream, from the server
	start   uint32 // the snapshot's tic
	loaded  bool
	ready   bool // JoinReady sent
	lastPct int64
	saves   []pendingSave
	// early is a stream that arrived before the word that names it: from
	// the server before JoinStart did (the server streams the snapshot
	// from the joiner's SYN on; JoinStart waits for the handshake), or,
	// while joining, before the StateFeed of a new feeder did (feedFrom).
	// It may be the snapshot.
	early *transfer.Event
	// heard is the tic sets that came before JoinStart, kept to be taken
	// once it says where this copy starts (heardBytes of them, at most
	// MaxHeardTicBytes): the tics since the start, which the server sends
	// right after JoinStart, overtake it as often as not.
	heard      [][]byte
	heardBytes int
	// progressMS is when the snapshot last made progress: a joiner whose
	// snapshot stops coming gives up after the transfer deadline.
	progressMS  int64
	progressGot int
	// feeder is the copy that streams a watcher its snapshot straight
	// (client_feed.go; 0: the server does), and heldFeed the frames of
	// this connection's tag from other copies that came before the
	// server named it (its first chunks overtake the server's word), at
	// most maxHeldFeed.
	feeder   link.Addr
	heldFeed []feedFrame
	refed    bool // it asked for another feeder (RefeedAfterMS)
}

// feedFrame is a frame held that may be the feeder's.
type feedFrame struct {
	from link.Addr
	pkt  []byte
}

// maxHeldFeed bounds the frames a joining copy holds for the feeder the
// server has yet to name: the chunks a feeder sends before its first
// acknowledgement (transfer.Config.BurstBytes' worth, 64 KB by default, in
// chunks of 16 KB or less) and a few acknowledgements more.
const maxHeldFeed = 16

// pendingSave is a snapshot the server asked for: the state before Tic, to
// be streamed as Stream to the server, or to a watcher (to, when not 0).
type pendingSave struct {
	tic, stream uint32
	to          link.Addr
}

// DefaultCatchUpTics is how far behind the game a joining copy may fall
// while its snapshot arrives and it catches up: the tics it holds meanwhile
// (about 120 bytes each with 8 players), a minute of play.
const DefaultCatchUpTics = 60 * TicRate

// ReasonRejoined says to people that a copy got its player back with its
// rejoin token (its EventGameStarted's Start.Rejoined says it to code; a
// server's EventPlayerJoined of that player).
const ReasonRejoined = "rejoined"

// ReasonCannotLoad ends a joining copy whose game cannot load a state.
const ReasonCannotLoad = "the game cannot load a saved state, so it cannot join a game in progress"

// onJoinStart takes the server's word that this copy joins the game in
// progress.
func (js *joinSide) onJoinStart(now int64, body []byte) error {
	c := js.c
	var m wire.JoinStart
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	s := m.Settings
	if c.phase.state() != ClientWaitingLaunch || c.protocol != wire.ProtocolTicnet ||
		s.NumPlayers > tic.MaxPlayers || int(s.ConsolePlayer) >= int(s.NumPlayers) || s.TicDup == 0 {
		return errUnexpected{}
	}
	if m.Setup.Input != c.cfg.Input {
		c.conn.Disconnect(now, ReasonInputLayout)
		c.finish(CauseIncompatible, ReasonInputLayout)
		return nil
	}
	if _, ok := c.game.(tic.Snapshotter); !ok {
		c.conn.Disconnect(now, ReasonCannotLoad)
		c.finish(CauseIncompatible, ReasonCannotLoad)
		return nil
	}
	c.settings = s
	c.setup = m.Setup
	c.player = int(s.ConsolePlayer)
	c.conn.SyncBroadcasts(uint64(m.Cast), now)

	c.clock = chooseClock(true, m.Setup)
	c.phase.move(stepJoinStarted)
	c.inSet.LowResTurn = s.LowResTurn
	c.outGD.LowResTurn = s.LowResTurn
	c.clock.encodes(&c.outGD)
	c.inSet.InputSize, c.outGD.InputSize = c.cfg.Input.Size, c.cfg.Input.Size
	c.hs.startGame(now)
	c.clock.tellDelay(c, true)
	c.recv.start, c.recv.recvtic, c.recv.highest = m.Start, m.Start, m.Start
	c.recv.chain = tic.Chain(m.Chain)
	for p := range tic.MaxPlayers {
		c.recv.base[p] = tic.Cmd{}
		if m.Base.Has(p) {
			c.recv.base[p] = wire.Patch(&tic.Cmd{}, &m.Base.Cmds[p])
		}
	}
	c.send.maketic = m.Start
	c.loop.tl.MaxTics = BackupTics + c.cfg.CatchUpTics
	c.loop.tl.ResetToLoad(m.Start)
	js.dropHeldFeed() // the server names the feeder before JoinStart, if any
	early, heard, feeder := js.early, js.heard, js.feeder
	c.join = joinSide{c: c, stream: m.Stream, start: m.Start, lastPct: -1, progressMS: now, progressGot: -1, feeder: feeder}
	ev := Event{Kind: EventGameStarted, Player: c.player, Protocol: c.protocol, Tic: m.Start,
		Start: &Start{Setup: c.setup, TicRate: c.clock.ticRate(), Joined: true, Rejoined: m.Rejoined}}
	if m.Rejoined {
		ev.Reason = ReasonRejoined
	}
	c.emit(ev)
	js.takeHeard(now, heard)
	if early != nil {
		js.onTransfer(*early)
	}
	return nil
}

// takeHeard takes the tic sets that came before JoinStart: all of their
// tics first, then the gap before the newest, if one is left, is asked for
// (they came in any order).
func (js *joinSide) takeHeard(now int64, heard [][]byte) {
	c := js.c
	var start, end uint32
	for _, body := range heard {
		m := &c.inSet
		if c.recv.decodeSet(body) != nil || len(m.Tics) == 0 {
			continue
		}
		c.recv.storeSet(now, m, false)
		if e := m.Start + uint32(len(m.Tics)); end == 0 || int32(e-end) > 0 {
			start, end = m.Start, e
		}
	}
	if end != 0 {
		c.recv.afterTics(now, start, int(end-start))
	}
}

// MaxHeardTicBytes bounds the tic sets a copy keeps while it waits for
// its JoinStart: the tics of a handshake's time (JoinSnapshotMaxAgeTics)
// with 8 players, about 40 kB, and the sets the server sends right after
// JoinStart.
const MaxHeardTicBytes = 64 << 10

// holdTicSet keeps a tic set that came before JoinStart, dropping the
// oldest kept when they would pass MaxHeardTicBytes.
func (js *joinSide) holdTicSet(body []byte) {
	c := js.c
	j := &c.join
	if len(body) > MaxHeardTicBytes {
		return
	}
	for j.heardBytes+len(body) > MaxHeardTicBytes {
		j.heardBytes -= len(j.heard[0])
		j.heard = j.heard[1:]
	}
	j.heard = append(j.heard, append([]byte(nil), body...))
	j.heardBytes += len(body)
}

// onSnapshotRequest takes the server's request for the state before a tic.
func (js *joinSide) onSnapshotRequest(now int64, body []byte) error {
	c := js.c
	var m wire.SnapshotRequest
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if c.phase.state() != ClientInGame || c.phase.joining() {
		return errUnexpected{}
	}
	// The state before the tic asked for, or before the next this copy
	// runs if it is past it (the request may come late).
	if !js.save(max(m.Tic, c.loop.tl.GameTic()), m.Stream, 0) {
		c.xfer.Refuse(now, c.server, m.Stream, wire.TransferReasonNoSnapshot)
	}
	return nil
}

// save asks the game for the state before tic at, to go as stream to to
// (0: the server) once saved (sendState); false if this copy cannot.
func (js *joinSide) save(at, stream uint32, to link.Addr) bool {
	c := js.c
	if _, ok := c.game.(tic.Snapshotter); !ok || c.loop.tl.Loading() || !c.loop.tl.SaveBefore(at) {
		return false
	}
	js.saves = append(js.saves, pendingSave{tic: at, stream: stream, to: to})
	return true
}

// unsave forgets the save asked for a watcher at to.
func (js *joinSide) unsave(to link.Addr) {
	js.saves = slices.DeleteFunc(js.saves, func(ps pendingSave) bool { return ps.to == to })
}

// sendState sends state, the state before tic, as every stream asked for
// it: to the server, or straight to a watcher.
func (js *joinSide) sendState(tic uint32, state []byte) {
	c := js.c
	var data []byte
	kept := js.saves[:0]
	for _, ps := range js.saves {
		if ps.tic != tic {
			kept = append(kept, ps)
			continue
		}
		if data == nil {
			data = binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(state)), tic)
			data = append(data, state...)
		}
		to := cmp.Or(ps.to, c.server)
		if err := c.xfer.Send(c.nowMS, to, ps.stream, data); err != nil {
			if ps.to != 0 {
				c.feeds.drop(ps.to)
				continue
			}
			c.xfer.Refuse(c.nowMS, c.server, ps.stream, wire.TransferReasonNoSnapshot)
		}
	}
	js.saves = kept
}

// earlyChunk takes a bulk-stream packet from the server that came before
// the SYN reply: the snapshot of a late join starts with our SYN, and its
// first chunks may overtake the reply. It reports whether it took the
// packet.
func (js *joinSide) earlyChunk(now int64, h wire.Header, body []byte) bool {
	c := js.c
	if h.Type != wire.TypeTicnet || h.Reliable || len(body) == 0 || !wire.IsTransferKind(body[0]) {
		return false
	}
	if ev, ok := c.xfer.Handle(now, c.server, body); ok {
		js.onTransfer(ev)
	}
	return true
}

// feedFrom takes the server's word that this watcher's state comes
// straight from the copy at from (client_feed.go), its frames with tag:
// the frames held from that copy go to the stream, the others are
// dropped. Once it joins (after JoinStart), the word is of a new stream,
// from another copy, or relayed by the server (from 0), for a feed that
// stalled.
func (js *joinSide) feedFrom(now int64, from link.Addr, tag uint8, stream uint32) error {
	c := js.c
	if from == c.server || tag != wire.ConnTag(c.conn.Ident().Conn) || from == link.Broadcast && !c.phase.joining() {
		return errUnexpected{}
	}
	js.feeder = from
	if c.phase.joining() {
		js.stream = stream
		if e := js.early; e != nil && e.Stream == stream && e.Peer == cmp.Or(from, c.server) {
			js.early = nil
			js.onTransfer(*e)
		}
	}
	if from == link.Broadcast {
		return nil // the server relays it
	}
	c.xfer.AcceptFrom(from)
	held := js.heldFeed
	js.heldFeed = nil
	for _, h := range held {
		if h.from != from || !js.takeFeed(now, h.from, h.pkt) {
			c.stats.Unexpected++
		}
	}
	return nil
}

// takeFeed takes a bulk-stream frame of this connection's tag from the
// copy that feeds this one its state while it joins (feedFrom), or, while
// the server has yet to name that copy, holds it. It reports whether it
// took the frame.
func (js *joinSide) takeFeed(now int64, from link.Addr, pkt []byte) bool {
	c := js.c
	st := c.phase.state()
	if st != ClientConnecting && st != ClientWaitingLaunch && !c.phase.joining() ||
		wire.TagOf(pkt) != wire.ConnTag(c.conn.Ident().Conn) || js.feeder != 0 && from != js.feeder {
		return false
	}
	body, ok := c.feeds.untag(pkt)
	switch {
	case !ok:
		return false
	case js.feeder == 0 && st != ClientConnecting && st != ClientWaitingLaunch:
		return false // joining, and fed by the server
	case js.feeder == 0 && len(js.heldFeed) == maxHeldFeed:
		return false
	case js.feeder == 0:
		js.heldFeed = append(js.heldFeed, feedFrame{from: from, pkt: slices.Clone(pkt)})
		return true
	}
	if ev, ok := c.xfer.Handle(now, from, body); ok {
		js.onTransfer(ev)
	}
	return true
}

// dropHeldFeed drops, and counts, the frames held for a feeder the
// server never named.
func (js *joinSide) dropHeldFeed() {
	js.c.stats.Unexpected += int64(len(js.heldFeed))
	js.heldFeed = nil
}

// onTransfer handles the end of a stream.
func (js *joinSide) onTransfer(ev transfer.Event) {
	c := js.c
	if c.forensic.onTransfer(c, ev) || c.repair.onTransfer(ev) {
		return
	}
	if ev.Kind == transfer.Received && (c.phase.state() == ClientConnecting || c.phase.state() == ClientWaitingLaunch) {
		js.early = &ev
		return
	}
	if !c.phase.joining() || ev.Outgoing {
		return
	}
	if ev.Stream != js.stream {
		if ev.Kind == transfer.Received {
			// Relayed after its feeder stalled, it can outrun the
			// server's word on it (feedFrom): kept until then.
			js.early = &ev
		}
		return
	}
	switch ev.Kind {
	case transfer.Received:
		if js.loaded && !c.loop.tl.Loading() {
			// The state of a second feeder, asked for (RefeedAfterMS)
			// as the first's came in: this copy runs the first's.
			c.stats.Unexpected++
			return
		}
		if len(ev.Data) < 4 || !c.loop.tl.Load(tic.Snapshot{Tic: binary.BigEndian.Uint32(ev.Data), State: ev.Data[4:]}) {
			reason := "the game state that arrived is not of a tic this copy can start from"
			c.conn.Disconnect(c.nowMS, reason)
			c.finish(CauseJoinFailed, reason)
		}
	case transfer.Dropped:
		reason := "the game state did not arrive (" + ev.Reason.String() + ")"
		c.conn.Disconnect(c.nowMS, reason)
		c.finish(CauseJoinFailed, reason)
	}
}

// joinProgress reports a joiner's progress, and says it is ready once it
// has run every tic it holds: it enters the game at the next tic the
// server sends, and builds commands from the next it receives.
func (js *joinSide) joinProgress(now int64) {
	c := js.c
	j := &c.join
	if !c.phase.joining() {
		return
	}
	if !j.loaded {
		got, total, ok := c.xfer.ReceiveProgress(cmp.Or(j.feeder, c.server), j.stream)
		if ok && total > 0 {
			js.catchUp(int64(got), int64(total), "bytes")
		}
		switch {
		case ok && got != j.progressGot, !c.loop.tl.Loading():
			j.progressGot, j.progressMS = got, now
		case j.feeder != 0 && !j.refed && now-j.progressMS > RefeedAfterMS:
			// Its feeder went, most likely: another feeds it.
			j.refed, j.progressMS, j.progressGot = true, now, -1
			c.conn.SendReliable(&wire.StateFeed{Tic: j.start, Stream: j.stream, To: uint32(j.feeder), Tag: wire.ConnTag(c.conn.Ident().Conn)})
		case now-j.progressMS > c.xfer.Config().StallMS:
			reason := "the game state did not arrive"
			c.conn.Disconnect(now, reason)
			c.finish(CauseJoinFailed, reason)
		}
		return
	}
	tl := &c.loop.tl
	behind := int64(tl.Confirmed() - tl.GameTic())
	js.catchUp(int64(tl.GameTic()-j.start), int64(tl.GameTic()-j.start)+behind, "tics")
	// Caught up: every tic received is run, but those a watcher holds for
	// an attest (ticCheck), and none is known missing.
	if behind > 0 || j.ready || tl.Confirmed() == j.start || int32(c.recv.highest-c.recv.ackTic()) >= 0 {
		return
	}
	j.ready = true
	c.phase.move(stepJoined)
	c.conn.SendReliable(&wire.JoinReady{Tic: tl.GameTic()})
	c.send.maketic = c.recv.recvtic
	c.send.firstMS = now
	c.send.lastClock = c.send.clockTic(now) - 1
}

// catchUp emits progress when it moved by a percent or more.
func (js *joinSide) catchUp(done, total int64, unit string) {
	c := js.c
	pct := 100 * done / max(total, 1)
	if unit == "tics" {
		pct += 1000 // a new phase
	}
	if pct == js.lastPct {
		return
	}
	js.lastPct = pct
	c.emit(Event{Kind: EventCatchUp, Player: c.player, Tic: js.start, Done: done, Total: total, Unit: unit})
}
