package netcore

import (
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// migrateSide is a client's part in host migration (see server_migrate.go):
// what its server said of the game, and whether it is reattaching to the
// server that took the game over.
type migrateSide struct {
	c        *Client
	roster   wire.Roster
	rostered bool
	// cands: the keys of the client's new connection with each player's
	// copy that may have taken the game over (candidates).
	cands [auth.MaxRecipients]*auth.Conn
	left  bool // the server said it leaves (EventServerLeaving)
	// reattached: the client reattached to a new server, which may
	// connect it by a copy of its Resume before its reply to the SYN.
	reattached bool
	resumedAt  uint32
	played     bool // its game started: what it holds is worth going on with
}

// tellReattachable puts EventReattachable first among the Update's
// events if what the client can do changed in it.
func (m *migrateSide) tellReattachable() {
	c := m.c
	can := c.CanReattach()
	if can == c.reattachable {
		return
	}
	c.reattachable = can
	c.events = append(c.events, Event{})
	copy(c.events[1:], c.events)
	c.events[0] = Event{Kind: EventReattachable, Player: -1, On: can}
}

// Roster is the last roster the server sent, and whether one came.
func (c *Client) Roster() (wire.Roster, bool) { return c.mig.roster, c.mig.rostered }

// Handover is what a server built on this client's copy takes its game
// over from (NewResumedServer): the game's settings, mode and setup, the
// client's timeline, the last roster its server sent, and that server's
// term (under the extension, once the server said it); leaving is the old
// server's last word, if it came (EventServerLeaving).
func (c *Client) Handover(leaving *wire.Leaving) Resume {
	return Resume{Settings: c.settings, Connect: c.cfg.Connect, Timeline: &c.loop.tl, Chain: c.recv.chain, Roster: c.mig.roster,
		Setup: c.setup, Leaving: leaving, Term: c.conn.Ident().Term}
}

// Resuming reports whether the client reattaches to a new server and the
// game has not resumed yet.
func (c *Client) Resuming() bool { return c.phase.reattaching() }

// Connect is the game this client plays, as it told the server.
func (c *Client) Connect() wire.ConnectData { return c.cfg.Connect }

// CanReattach reports whether the client can go on with its game under a
// new server: it plays an extension game it has the state of, and knows
// the game's roster.
func (c *Client) CanReattach() bool {
	return c.clock.canReattach() && c.mig.rostered && c.mig.played && c.player >= 0 &&
		(c.phase.state() == ClientInGame || c.phase.state() == ClientDisconnected) && !c.phase.joining() && !c.loop.tl.Loading()
}

// Reattach makes the client a client of the server at the same address
// through tr, which took the game over: it connects, says who it is and
// the first tic it does not hold, and goes on with its game, its timeline
// and its commands. Meanwhile it runs the tics it holds. It reports false
// when the client cannot (CanReattach).
func (c *Client) Reattach(tr link.Transport, now int64) bool {
	if !c.CanReattach() {
		return false
	}
	c.tr = tr
	_, c.hs.local = tr.(*Loopback)
	c.hs.unsure = nil
	c.phase.move(stepReattach)
	c.conn = reliable.NewConn(c.server, tr, c.cfg.Timeouts.timers(), now, reliable.Connecting, &c.stats.Counters)
	c.conn.SetResendMS(ReattachResendMS)
	// A new connection, of the extension: its Reattach goes before any
	// reply, with its identity.
	c.hs.connections++
	c.conn.Frame(wire.Ident{Conn: connID(&c.cfg, now, c.cfg.ConnSeq+c.hs.connections)})
	c.xfer = transfer.New(c.cfg.Transfer, clientFramer{c})
	c.xfer.AcceptFrom(c.server)
	c.join.saves, c.join.heard, c.join.heardBytes = nil, nil, 0
	c.repair.active, c.repair.held = false, nil // the old server's stream and state, gone with it
	c.src.reset()                               // the new server names them anew
	c.mig.left, c.mig.reattached = false, true
	c.hs.firstMS, c.hs.lastMS = now, now-SYNResendMS-1
	// What the old server sent beyond the confirmed tics is forgotten:
	// the new server may decide those tics afresh.
	c.recv.win.Reset()
	c.recv.highest = c.recv.start
	c.send.ackPending = false
	// Who it is goes with every SYN, not after the server's reply: the
	// new server takes both in one pass, and the game resumes a round
	// trip sooner. Which player's copy took the game over, it learns
	// from the reply: until then what it sends is sealed for each of them
	// (candidates).
	if !c.hs.local {
		c.mig.candidates(now)
		c.conn.SealFor(&c.mig.cands)
	}
	c.conn.SendReliable(&wire.Reattach{Game: c.mig.roster.Game, Player: int8(c.player), Confirmed: c.recv.start,
		Conn: c.conn.Ident().Conn})
	c.clock.tellDelay(c, true)
	return true
}

// candidates agrees the keys of the client's new connection with each
// player's copy the roster names, this one's included (a copy that takes
// its game over reattaches to its own server, through the Loopback,
// unsealed).
func (ms *migrateSide) candidates(now int64) {
	c := ms.c
	ms.cands = [auth.MaxRecipients]*auth.Conn{}
	for p := range tic.MaxPlayers {
		if ms.roster.Present&(1<<p) == 0 || p == c.player {
			continue
		}
		if keys, err := auth.Agree(c.cfg.Key, ms.roster.Keys[p], c.conn.Ident().Conn, true); err == nil {
			ms.cands[p] = auth.NewConn(keys, true, now)
		}
	}
}

// learnServer secures a reattaching client's connection by a frame of
// its new server that comes before the server's reply (its Resume, say):
// the frame checks under the keys agreed with one player's copy, which
// is the server. It reports whether it did.
func (ms *migrateSide) learnServer(now int64, tag uint8, frame []byte) bool {
	c := ms.c
	if !c.phase.reattaching() || c.conn.Secured() || tag != wire.ConnTag(c.conn.Ident().Conn) {
		return false
	}
	for p, a := range ms.cands {
		if a == nil {
			continue
		}
		try := *a // a copy: the frame is taken for real once secured
		if _, err := try.Open(now, frame); err == nil {
			c.hs.serverKey = ms.roster.Keys[p]
			c.conn.Secure(a)
			return true
		}
	}
	return false
}

// candidate is the keys agreed with the copy whose key a new server's
// reply gives: nil if the roster names no such player (the server that
// takes a game over is one of its players).
func (ms *migrateSide) candidate(key *wire.PublicKey) *auth.Conn {
	for p, a := range ms.cands {
		if a != nil && ms.roster.Keys[p] == *key {
			return a
		}
	}
	return nil
}

// onResume takes the new server's word that the game goes on from m.Tic:
// the client sends it the commands it built meanwhile.
func (ms *migrateSide) onResume(now int64, body []byte) error {
	c := ms.c
	var m wire.Resume
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if !c.phase.reattaching() && ms.reattached && m.Tic == ms.resumedAt {
		return nil // a copy of the one taken
	}
	if !c.phase.reattaching() || !c.conn.Connected() || int32(c.recv.start-m.Tic) > 0 {
		return errUnexpected{}
	}
	c.phase.move(stepResumed)
	ms.resumedAt = m.Tic
	if id := c.conn.Ident(); id.Term == 0 {
		id.Term = m.Term // its broadcasts' tag, if its reply is late
		c.conn.Name(id)
	}
	c.conn.SetResendMS(ExtReliableResendMS)
	if int32(c.send.maketic-m.Tic) < 0 {
		c.send.maketic = m.Tic // those tics are decided
	}
	c.send.sendBuilt(now, m.Tic, ExtMaxClientLeadTics)
	// The server sent the tics before m.Tic that this client lacks with
	// its Resume, in the same batch (its Reattach said which): those
	// still missing once the batch is read were lost, and are asked for
	// at once, as a gap found a reorder window ago.
	if n := m.Tic - c.recv.start; int32(n) > 0 {
		c.recv.win.NoteGap(now-reliable.MaxReorderMS, c.recv.start, c.recv.start, n)
	}
	c.recv.restart()
	c.emit(Event{Kind: EventResumed, Player: c.player, Tic: m.Tic})
	heard := c.join.heard
	c.join.heard, c.join.heardBytes = nil, 0
	c.join.takeHeard(now, heard)
	return nil
}

// lateLeaving takes the server's Leaving when it comes after its
// DISCONNECT (they are sent together, and may cross on the way): where
// the stream stopped and whom the server handed the game to still count.
func (ms *migrateSide) lateLeaving(h wire.Header, body []byte) {
	c := ms.c
	if !c.clock.canReattach() || ms.left || c.phase.reattaching() || h.Type != wire.TypeTicnet || !c.conn.PeerLeft() {
		return
	}
	var m wire.Leaving
	if kind, err := wire.TicnetKind(body); err != nil || kind != wire.TicnetKindLeaving || m.DecodeBody(body) != nil {
		return
	}
	ms.took(m)
}

// took takes the server's Leaving, once, and reports it
// (EventServerLeaving): the copy above moves the game on as it says.
func (ms *migrateSide) took(m wire.Leaving) {
	ms.left = true
	ms.c.emit(Event{Kind: EventServerLeaving, Player: int(m.Player), Addr: link.Addr(m.Successor), Tic: m.Tic})
}

// Leaving is an EventServerLeaving's word as the server sent it, for the
// server that takes the game over (Resume.Leaving).
func (e Event) Leaving() wire.Leaving {
	return wire.Leaving{Tic: e.Tic, Player: int8(e.Player), Successor: uint32(e.Addr)}
}

// connect connects the client to the new server, which has its
// connection: the commands it built since its last confirmed tic go at
// once (its Reattach went with its SYN).
func (ms *migrateSide) connect(now int64) {
	c := ms.c
	c.conn.Establish()
	c.send.sendBuilt(now, c.recv.start, ExtMaxClientLeadTics)
}

// resumingKind returns the TICNET_1 kind of an unreliable packet that
// came while this client reattaches, before the new server's reply to its
// SYN; ok is false for any other packet.
func (ms *migrateSide) resumingKind(h wire.Header, body []byte) (kind uint8, ok bool) {
	if !ms.c.phase.reattaching() || h.Type != wire.TypeTicnet || h.Reliable {
		return 0, false
	}
	kind, err := wire.TicnetKind(body)
	return kind, err == nil
}

// tookBack reports whether a packet of that kind shows that the new
// server took this client back: an unreliable copy of its Resume, or a
// TicFetch.
func tookBack(kind uint8) bool {
	return kind == wire.TicnetKindResume || kind == wire.TicnetKindTicFetch
}

// sendBuilt sends the server that took the game over the commands this
// client built for tics [from, from+n), those it built: the server's
// first tics need them. The first few go with its Reattach, so that the
// game resumes at once; those it may lead by when the server has its
// connection, and again when the game resumes.
func (ss *sendSide) sendBuilt(now int64, from, n uint32) {
	c := ss.c
	if c.player >= 0 && int32(ss.maketic-from) > 0 {
		ss.sendTics(now, from, from+min(ss.maketic-from, n)-1)
	}
}

// onTicFetch sends the new server the confirmed tics it asks for, those
// this client holds.
func (ms *migrateSide) onTicFetch(now int64, body []byte) error {
	c := ms.c
	var m wire.TicFetch
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if c.phase.state() != ClientInGame || c.loop.tl.Tic(m.Start-1) == nil {
		return errUnexpected{}
	}
	ms.sendConfirmed(now, m.Start, uint32(m.Count))
	return nil
}

// PushTics is how many of its newest confirmed tics a reattaching copy
// sends the new server with its Reattach: the server may lack the last
// few the old server sent, and would have to fetch them.
const PushTics = 16

// pushNewest sends the new server this client's newest confirmed tics.
func (ms *migrateSide) pushNewest(now int64) {
	c := ms.c
	tl := &c.loop.tl
	end := tl.Confirmed()
	n := min(end-tl.First(), PushTics+1) // the tics, and the one before them
	if n >= 2 {
		ms.sendConfirmed(now, end-n+1, n-1)
	}
}

// sendConfirmed sends the server the confirmed tics [start, start+count)
// this client holds, as a tic set: tic start-1 must be held, the base of
// the first diff.
func (ms *migrateSide) sendConfirmed(now int64, start, count uint32) {
	c := ms.c
	var set wire.TicSet
	if confirmedSet(c, &set, start, count) {
		c.conn.SendMessage(now, &set)
	}
}

// confirmedSet fills set with the confirmed tics [start, start+count) c
// holds, from start on; tic start-1 must be held, the base of the first
// diff. It reports whether set holds any.
func confirmedSet(c *Client, set *wire.TicSet, start, count uint32) bool {
	tl := &c.loop.tl
	*set = wire.TicSet{LowResTurn: c.settings.LowResTurn, InputSize: c.cfg.Input.Size, Start: start, Tics: set.Tics[:0]}
	prev := tl.Tic(start - 1)
	for t := start; prev != nil && t-start < count; t++ {
		ct := tl.Tic(t)
		if ct == nil {
			break
		}
		set.Tics = append(set.Tics, setTic(prev, ct))
		prev = ct
	}
	return len(set.Tics) > 0
}

// setTic is confirmed tic ct as a set carries it: each player's command
// diffed against its command in prev, the tic before (none if it did not
// play then).
func setTic(prev, ct *tic.ConfirmedTic) wire.SetTic {
	st := wire.SetTic{Substituted: ct.Substituted}
	st.InGame = ct.InGame
	for p := range tic.MaxPlayers {
		if !ct.Playing(p) {
			continue
		}
		var base tic.Cmd
		if prev.Playing(p) {
			base = prev.Cmds[p]
		}
		st.Cmds[p] = wire.Diff(&base, &ct.Cmds[p])
	}
	return st
}
