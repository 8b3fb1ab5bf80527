package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// ticnetClock is the extension protocol on the client: the clock moves by
// the server's reports of how early each command arrived (its margin), no
// command serves as another's base (the server may substitute any), tic
// sets bring complete tics, and the game gets the extension's features:
// prediction, events carried past a substituted command, checksum
// reports, reattachment, the end of a game.
type ticnetClock struct {
	rate int // the setup's tics per second; 0: TicRate
}

func (k ticnetClock) ticRate() int {
	if k.rate != 0 {
		return k.rate
	}
	return TicRate
}

func (ticnetClock) refuses(*tic.InputLayout) string { return "" }

func (ticnetClock) startDelayMS() int64 { return 0 }

func (ticnetClock) encodes(g *wire.ClientGameData) { g.Ext = true }

func (ticnetClock) offsetMS(c *Client) int64 { return c.sync.extOffsetMS }

// paced: the clock moved back, the client was building too early. It
// waits for the clock to come back rather than build the same stretch
// twice.
func (ticnetClock) paced(c *Client, clock int64) bool { return clock >= c.send.lastClock }

// skipComplete: what the client would build for a complete tic could
// only arrive after its substitute.
func (ticnetClock) skipComplete(c *Client) {
	if c.send.maketic < c.recv.recvtic {
		c.send.maketic = c.recv.recvtic
	}
}

func (ticnetClock) lead() uint32 { return ExtMaxClientLeadTics }

// diffBase: every command stands alone, diffed against zero: the server
// may replace any of them, so none may serve as another's base.
func (ticnetClock) diffBase(*tic.Cmd) tic.Cmd { return tic.Cmd{} }

// copies: each command goes in as many packets as the server's loss
// takes (copiesFor), the server's own rule for its sets.
func (ticnetClock) copies(c *Client) uint32 {
	return copiesFor(c.recv.loss.Rate(), uint32(c.settings.ExtraTics))
}

// absent: as the server, a player out of the game has no command to diff
// against, and one who enters (a joiner in its place) starts from zero.
func (ticnetClock) absent(base *tic.Cmd) { *base = tic.Cmd{} }

func (ticnetClock) runTics(c *Client) {
	if c.loop.predicts() {
		c.loop.runPredicting()
		return
	}
	c.loop.runConfirmed(c.loop.dueConfirmed())
}

func (ticnetClock) own(_ *Client, _ uint32, _ *[tic.MaxPlayers]tic.Cmd, in uint8) uint8 { return in }

func (ticnetClock) ran(c *Client, g uint32, sum uint32) {
	if c.player >= 0 {
		c.send.reportChecksum(g, sum)
	}
}

func (ticnetClock) substituted(c *Client, t uint32, substituted uint8) {
	c.send.carryEvents(t, substituted)
	c.peers.confirmed(substituted)
}

func (ticnetClock) gameData(*Client, int64, []byte) error { return errUnexpected{} }

func (k ticnetClock) inGame(c *Client, now int64, kind uint8, h wire.Header, body []byte) error {
	switch {
	case kind == wire.TicnetKindTicSet && c.phase.state() == ClientInGame && c.phase.reattaching():
		// The new server's stream, resumed: kept until its Resume says
		// where.
		c.join.holdTicSet(body)
		return nil
	case kind == wire.TicnetKindTicSet && c.phase.state() == ClientInGame:
		if err := c.recv.decodeSet(body); err != nil {
			return err
		}
		k.onTicSet(c, now)
		return nil
	case kind == wire.TicnetKindGameEnd && h.Reliable:
		return c.end.onGameEnd(now, body)
	case kind == wire.TicnetKindSnapshotRequest && h.Reliable:
		return c.join.onSnapshotRequest(now, body)
	case kind == wire.TicnetKindRoster && h.Reliable:
		var m wire.Roster
		if err := m.DecodeBody(body); err != nil {
			return err
		}
		if c.phase.state() != ClientInGame {
			return errUnexpected{}
		}
		c.mig.roster, c.mig.rostered = m, true
		c.emit(Event{Kind: EventRoster, Player: -1, Roster: &m})
		return nil
	case kind == wire.TicnetKindLeaving:
		var m wire.Leaving
		if err := m.DecodeBody(body); err != nil {
			return err
		}
		if c.phase.state() != ClientInGame || c.phase.reattaching() {
			return errUnexpected{}
		}
		c.mig.took(m)
		// The server is gone: its DISCONNECT, which follows, may be lost,
		// and the game's next server need not wait for it.
		c.finish(CauseServerLeft, ReasonServerLeft)
		return nil
	case kind == wire.TicnetKindTicFetch:
		return c.mig.onTicFetch(now, body)
	case kind == wire.TicnetKindWatcherList && !h.Reliable:
		return c.watchers.take(body)
	case kind == wire.TicnetKindInputDelay && h.Reliable:
		var m wire.InputDelay
		if err := m.DecodeBody(body); err != nil {
			return err
		}
		c.send.want = int(m.Tics)
		return nil
	case kind == wire.TicnetKindRepair && h.Reliable:
		return c.repair.onRepair(now, body)
	case kind == wire.TicnetKindRepaired && h.Reliable:
		return c.repair.onRepaired(body)
	case kind == wire.TicnetKindDesync && h.Reliable:
		return onDesync(c, body)
	case kind == wire.TicnetKindStatesRequest && h.Reliable:
		return c.forensic.onRequest(now, c, body)
	}
	return errUnexpected{}
}

// onTicSet takes complete tics: the server's margin report first.
func (k ticnetClock) onTicSet(c *Client, now int64) {
	s := &c.inSet
	for _, t := range s.Timing {
		if int(t.Player) == c.player {
			k.adjust(c, int64(t.MarginMS))
		}
	}
	c.peers.timed(s.Timing)
	if len(s.Figures) > 0 {
		c.emit(Event{Kind: EventPeers, Player: -1, Tic: s.Start, Peers: c.peers.report(s.Figures), Watchers: int(s.Watchers),
			WatcherNames: c.watchers.names})
	}
	c.recv.storeSet(now, s, c.recv.sure)
	c.recv.afterTics(now, s.Start, len(s.Tics))
}

// adjust moves the clock by half of what it takes for the latest command
// in the server's last report to arrive ExtTargetMarginMS early, and
// InputDelay tics earlier still: half, because the reports that follow
// still reflect the old clock. One report moves it by at most the most a
// client may lead by; the offset itself has no bound: it is the sum of
// every move since the game began, and a migration moves the game's clock
// by the seconds it took.
func (k ticnetClock) adjust(c *Client, marginMS int64) {
	rate := int64(k.ticRate())
	target := ExtTargetMarginMS + int64(c.send.delay)*1000/rate
	step := (target - marginMS) / 2
	limit := int64(ExtMaxClientLeadTics) * 1000 / rate
	c.sync.extOffsetMS += max(-limit, min(limit, step))
}

func (ticnetClock) canReattach() bool { return true }

func (ticnetClock) tellDelay(c *Client, anew bool) {
	if d := c.send.delay; d > 0 || !anew {
		c.conn.SendReliable(&wire.InputDelay{Tics: uint8(d)})
	}
}

func (ticnetClock) over(c *Client, end uint32) { c.end.gameOver(end) }

func (ticnetClock) requestEnd(c *Client) {
	if c.phase.state() == ClientInGame && !c.end.active {
		c.conn.SendReliable(&wire.EndRequest{})
	}
}

// onDesync takes the server's verdict on a tic whose checksums differ
// (EventDesyncVerdict): the copies learn it from the server, which alone
// sees every checksum.
func onDesync(c *Client, body []byte) error {
	var m wire.Desync
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if c.phase.state() != ClientInGame {
		return errUnexpected{}
	}
	var players []int
	for p := range tic.MaxPlayers {
		if m.Players&(1<<p) != 0 {
			players = append(players, p)
		}
	}
	c.emit(Event{Kind: EventDesyncVerdict, Player: players[0], Tic: m.Tic, Players: players, Reason: ReasonChecksumsDiffer})
	c.forensic.verdict(c, m.Tic, c.player >= 0 && m.Players&(1<<c.player) != 0)
	return nil
}
