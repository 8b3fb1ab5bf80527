package netcore

import "github.com/ticnet/ticnet/netcore/wire"

// migrateSide is a client's part in host migration (see server_migrate.go):
// what its server said of the game, and whether it is reattaching to the
// server that took the game over.
type migrateSide struct {
	roster    wire.Roster
	rostered  bool
	leaving   wire.Leaving
	left      bool // leaving is the server's last word
	resuming  bool // reattaching: its Resume has not come
	resumedAt uint32
	played    bool // its game started: what it holds is worth going on with
}

// Roster is the last roster the server sent, and whether one came.
func (c *Client) Roster() (wire.Roster, bool) { return c.mig.roster, c.mig.rostered }

// ServerLeaving is the server's last word, if it said it leaves.
func (c *Client) ServerLeaving() (wire.Leaving, bool) { return c.mig.leaving, c.mig.left }

// Resuming reports whether the client reattaches to a new server and the
// game has not resumed yet.
func (c *Client) Resuming() bool { return c.mig.resuming }

// Connect is the game this client plays, as it told the server.
func (c *Client) Connect() wire.ConnectData { return c.cfg.Connect }

// CanReattach reports whether the client can go on with its game under a
// new server: it plays an extension game it has the state of, and knows
// the game's roster.
func (c *Client) CanReattach() bool {
	return c.extended && c.mig.rostered && c.mig.played && c.player >= 0 &&
		(c.state == ClientInGame || c.state == ClientDisconnected) && !c.join.active && !c.loop.tl.Loading()
}

// Reattach makes the client a client of the server at the same address
// through tr, which took the game over: it connects, says who it is and
// the first tic it does not hold, and goes on with its game, its timeline
// and its commands. Meanwhile it runs the tics it holds. It reports false
// when the client cannot (CanReattach).
func (c *Client) Reattach(tr Transport, now int64) bool {
	if !c.CanReattach() {
		return false
	}
	c.tr = tr
	c.state = ClientInGame
	c.conn = newConn(c.server, tr, c.cfg.Profile, now, connConnecting, &c.stats)
	c.conn.resendMS = ReattachResendMS
	c.xfer = NewTransfers(c.cfg.Transfer, tr)
	c.xfer.AcceptFrom(c.server)
	c.join.saves = nil
	c.mig.resuming, c.mig.left = true, false
	c.synFirstMS, c.synLastMS = now, now-SYNResendMS-1
	// What the old server sent beyond the confirmed tics is forgotten:
	// the new server may decide those tics afresh.
	c.recv.win = [BackupTics]recvSlot{}
	c.recv.highest = c.recv.start
	c.send.ackPending = false
	return true
}

// onReattachReply says who this client is, once the new server accepted
// its connection.
func (c *Client) onReattachReply() {
	c.conn.state = connConnected
	c.conn.sendReliable(&wire.Reattach{Game: c.mig.roster.Game, Player: int8(c.player), Token: c.cfg.Token,
		Confirmed: c.recv.start})
}

// onResume takes the new server's word that the game goes on from m.Tic:
// the client sends it the commands it built meanwhile.
func (c *Client) onResume(now int64, body []byte) error {
	var m wire.Resume
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if !c.mig.resuming || c.conn.state != connConnected || int32(c.recv.start-m.Tic) > 0 {
		return errUnexpected{}
	}
	c.mig.resuming = false
	c.mig.resumedAt = m.Tic
	c.conn.resendMS = ExtReliableResendMS
	if int32(c.send.maketic-m.Tic) < 0 {
		c.send.maketic = m.Tic // those tics are decided
	}
	if c.player >= 0 && c.send.maketic != m.Tic {
		first := max(m.Tic, c.send.maketic-min(c.send.maketic, ExtMaxClientLeadTics))
		c.sendTics(now, first, c.send.maketic-1)
	}
	c.emit(Event{Kind: EventResumed, Player: c.player, Tic: m.Tic})
	return nil
}

// onTicFetch sends the new server the confirmed tics it asks for, those
// this client holds.
func (c *Client) onTicFetch(now int64, body []byte) error {
	var m wire.TicFetch
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	tl := &c.loop.tl
	if !c.extended || c.state != ClientInGame || tl.Tic(m.Start-1) == nil {
		return errUnexpected{}
	}
	set := wire.TicSet{LowResTurn: c.settings.LowResTurn, Start: m.Start}
	prev := tl.Tic(m.Start - 1)
	var base [MaxPlayers]TicCmd
	for p := range MaxPlayers {
		if prev.Playing(p) {
			base[p] = prev.Cmds[p]
		}
	}
	for t := m.Start; t-m.Start < uint32(m.Count); t++ {
		ct := tl.Tic(t)
		if ct == nil {
			break
		}
		st := wire.SetTic{Substituted: ct.Substituted}
		st.InGame = ct.InGame
		for p := range MaxPlayers {
			if !ct.Playing(p) {
				base[p] = TicCmd{}
				continue
			}
			st.Cmds[p] = wire.Diff(&base[p], &ct.Cmds[p])
			base[p] = ct.Cmds[p]
		}
		set.Tics = append(set.Tics, st)
	}
	if len(set.Tics) > 0 {
		c.conn.sendMessage(now, &set)
	}
	return nil
}
