package netcore

import (
	"cmp"
)

// loopSide runs the game from the timeline: the one place the client calls
// its Game, in tic order, after the packets of a pass are handled.
type loopSide struct {
	tl          Timeline
	consistency [MaxPlayers][BackupTics]uint8 // each player's byte, by tic
	wasInGame   uint8
	firstRun    uint32             // the first tic this copy ran (a joiner's snapshot tic)
	entered     [MaxPlayers]uint32 // the tic each player last entered the game
	reported    [MaxPlayers]bool   // a consistency failure was reported
	cmds        [MaxPlayers]TicCmd
	ingame      [MaxPlayers]bool
	started     bool
	// maxTics bounds the tics one Update runs (0: BackupTics), so that
	// catching up still returns to the caller to render.
	maxTics int
}

func (l *loopSide) reset() {
	tl, maxTics := l.tl, l.maxTics
	tl.Reset(0)
	*l = loopSide{tl: tl, maxTics: maxTics}
}

// SetTicsPerUpdate bounds the tics one Update runs: at least 1, at most
// (and by default) BackupTics. A driver that measures how long the game
// takes per tic sets it so that a copy catching up thousands of tics does
// them in batches and its page stays responsive.
func (c *Client) SetTicsPerUpdate(n int) { c.loop.maxTics = min(max(n, 1), BackupTics) }

// TicsPerUpdate is the bound SetTicsPerUpdate set.
func (c *Client) TicsPerUpdate() int { return cmp.Or(c.loop.maxTics, BackupTics) }

// runTics runs every confirmed tic the game may run now (spec §11.2), at
// most TicsPerUpdate of them, and, for a client that predicts, the tics
// ahead of them (client_predict.go).
func (c *Client) runTics() { c.clock.runTics(c) }

// runConfirmed runs the confirmed tics before limit, without prediction.
func (c *Client) runConfirmed(limit uint32) {
	c.unpredict() // a prediction left from before a join or a migration
	if c.state == ClientDisconnected {
		return
	}
	c.runRequests(c.loop.tl.Requests(limit, c.TicsPerUpdate()))
}

// runRequests does what the timeline asks of the game, in order.
func (c *Client) runRequests(reqs []Request) {
	for i := range reqs {
		r := &reqs[i]
		switch r.Kind {
		case RequestAdvance:
			c.advance(r.Tic, r.Confirmed)
		case RequestSave:
			c.save(r.Tic)
		case RequestLoad:
			c.load(r.Tic, r.State)
			if c.state == ClientDisconnected {
				return
			}
		}
	}
}

// advance runs tic g on the game: the checks of what it is about to run,
// the game's tic, then this copy's checksum report.
func (c *Client) advance(g uint32, t *ConfirmedTic) {
	cmds := &c.loop.cmds // the game may keep no pointer into the timeline
	*cmds = t.Cmds
	in := c.clock.own(c, g, cmds, t.InGame)
	c.enterTic(g, in)
	c.checkConsistency(g, cmds, in, t.Substituted)
	c.recordBefore(g, cmds, in, t.Substituted, c.saveNow)
	dup := uint32(c.settings.TicDup)
	for k := range dup {
		if k > 0 {
			for p := range cmds {
				cmds[p] = c.cfg.Input.ClearEvents(cmds[p])
			}
		}
		if sa, ok := c.game.(SubstituteAware); ok {
			sa.Substitutes(g*dup+k, t.Substituted)
		}
		c.game.RunTic(g*dup+k, cmds, &c.loop.ingame)
	}
	sum := c.game.Checksum()
	c.recordAfter(g, sum, c.playerSums(in, &c.rec.psums))
	c.loop.tl.Ran(g, sum)
	c.stats.TicsRun++
	c.clock.ran(c, g, sum)
}

// enterTic notes who is in the game at confirmed tic g, the next this copy
// runs: the players who left or entered since the tic before.
func (c *Client) enterTic(g uint32, in uint8) {
	if !c.loop.started {
		c.loop.started = true
		c.loop.wasInGame = in
		c.loop.firstRun = g
		for p := range c.loop.entered {
			c.loop.entered[p] = g
		}
	}
	for p := range MaxPlayers {
		was, is := c.loop.wasInGame&(1<<p) != 0, in&(1<<p) != 0
		switch {
		case was && !is:
			c.emit(Event{Kind: EventPlayerLeft, Player: p, Tic: g, Reason: ReasonLeft})
		case !was && is:
			c.loop.entered[p] = g
			c.emit(Event{Kind: EventPlayerEntered, Player: p, Tic: g})
		}
		c.loop.ingame[p] = is
	}
	c.loop.wasInGame = in
}

// checkConsistency compares each player's consistency byte for tic g with
// what this copy recorded BackupTics tics earlier (spec §11.4), then
// records this copy's own for the tic. The game's state is still the state
// before g.
func (c *Client) checkConsistency(g uint32, cmds *[MaxPlayers]TicCmd, in, substituted uint8) {
	c.checkConsistencyBytes(g, cmds, in, substituted)
	own := c.consistencyBytes()
	for p := range MaxPlayers {
		if in&(1<<p) != 0 {
			c.loop.consistency[p][g%BackupTics] = own[p]
		}
	}
}

// consistencyBytes is each player's consistency byte of the game's state
// now: the game's own (PlayerConsistency), or the checksum's low byte.
func (c *Client) consistencyBytes() (b [MaxPlayers]uint8) {
	pc, perPlayer := c.game.(PlayerConsistency)
	sum := uint8(c.game.Checksum())
	for p := range b {
		b[p] = sum
		if perPlayer {
			b[p] = pc.Consistency(p)
		}
	}
	return b
}

// checkConsistencyBytes is checkConsistency without the recording.
func (c *Client) checkConsistencyBytes(g uint32, cmds *[MaxPlayers]TicCmd, in, substituted uint8) {
	if c.cfg.Input.Opaque() {
		return // opaque input carries no consistency byte: checksum reports serve
	}
	slot := g % BackupTics
	for p := range MaxPlayers {
		if in&(1<<p) == 0 {
			continue
		}
		recorded := &c.loop.consistency[p][slot]
		// A byte is checked once both ends had run the tic it is about: the
		// player since it entered, this copy since its first tic.
		checked := g > c.loop.entered[p]+BackupTics && g > c.loop.firstRun+BackupTics
		if checked && substituted&(1<<p) == 0 && *recorded != cmds[p].Consistency {
			c.stats.ConsistencyFailures++
			if !c.loop.reported[p] {
				c.loop.reported[p] = true
				// The byte is the sender's state before tic g-BackupTics,
				// the result of tic g-BackupTics-1: the tic whose result
				// differs, as the server names it under the extension.
				c.emit(Event{Kind: EventDesyncSuspected, Player: p, Tic: g - BackupTics - 1, Players: []int{p},
					Reason: "consistency byte differs"})
			}
		}
	}
}
