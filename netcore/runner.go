package netcore

import (
	"cmp"
	"strconv"

	"github.com/ticnet/ticnet/netcore/tic"
)

// runner runs the game from the timeline: the one place the client calls
// its Game, in tic order, after the packets of a pass are handled. It
// answers the timeline's requests (advance, save, load), predicts
// (runner_predict.go), checks the consistency bytes and feeds the replay.
type runner struct {
	c           *Client
	pred        predictSide // the tics run ahead of confirmation (runner_predict.go)
	tl          tic.Timeline
	consistency [tic.MaxPlayers][BackupTics]uint8 // each player's byte, by tic
	wasInGame   uint8
	firstRun    uint32                 // the first tic this copy ran (a joiner's snapshot tic)
	entered     [tic.MaxPlayers]uint32 // the tic each player last entered the game
	reported    [tic.MaxPlayers]bool   // a consistency failure was reported
	cmds        [tic.MaxPlayers]tic.Cmd
	ingame      [tic.MaxPlayers]bool
	psums       [tic.MaxPlayers]uint16 // the players' checksums, for the replay
	started     bool
	saved       []byte // the state before the tic advance runs, once saved (saveNow)
	// rerunTo: the tics before it run again after a repair, and their
	// players entering and leaving were told already.
	rerunTo uint32
	// maxTics bounds the tics one Update runs (0: BackupTics), so that
	// catching up still returns to the caller to render.
	maxTics int
}

// reset starts a new game: the timeline and the bound on tics per Update
// stay.
func (rn *runner) reset() {
	tl, maxTics := rn.tl, rn.maxTics
	tl.Reset(0)
	*rn = runner{c: rn.c, tl: tl, maxTics: maxTics}
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
// ahead of them (runner_predict.go).
func (rn *runner) runTics() {
	rn.c.repair.rewind() // a repair's state that waited for the game to get there
	rn.c.clock.runTics(rn.c)
}

// runConfirmed runs the confirmed tics before limit, without prediction.
func (rn *runner) runConfirmed(limit uint32) {
	c := rn.c
	rn.unpredict() // a prediction left from before a join or a migration
	if c.phase.state() == ClientDisconnected {
		return
	}
	rn.runRequests(rn.tl.Requests(limit, c.TicsPerUpdate()))
}

// runRequests does what the timeline asks of the game, in order.
func (rn *runner) runRequests(reqs []tic.Request) {
	c := rn.c
	for i := range reqs {
		r := &reqs[i]
		switch r.Kind {
		case tic.RequestAdvance:
			if c.end.ended(r.Tic) {
				return // the game is over before it
			}
			rn.advance(r.Tic, r.Confirmed)
		case tic.RequestSave:
			rn.save(r.Tic)
		case tic.RequestLoad:
			if !rn.load(r.Tic, r.State) || c.phase.state() == ClientDisconnected {
				return
			}
		}
	}
}

// advance runs tic g on the game: the checks of what it is about to run,
// the game's tic, then this copy's checksum report.
func (rn *runner) advance(g uint32, t *tic.ConfirmedTic) {
	c := rn.c
	cmds := &rn.cmds // the game may keep no pointer into the timeline
	*cmds = t.Cmds
	in := c.clock.own(c, g, cmds, t.InGame)
	rn.enterTic(g, in)
	rn.checkConsistency(g, cmds, in, t.Substituted)
	rn.saved = nil
	c.rec.Before(g, cmds, in, t.Substituted, rn.saveNow)
	if c.forensic.keeps(c) {
		c.forensic.before(c, g, rn.saveNow)
	}
	dup := uint32(c.settings.TicDup)
	for k := range dup {
		if k > 0 {
			for p := range cmds {
				cmds[p] = c.cfg.Input.ClearEvents(cmds[p])
			}
		}
		if sa, ok := c.game.(tic.SubstituteAware); ok {
			sa.Substitutes(g*dup+k, t.Substituted)
		}
		c.game.RunTic(g*dup+k, cmds, &rn.ingame)
	}
	sum := c.game.Checksum()
	over := rn.over()
	c.rec.After(g, sum, rn.playerSums(in, &rn.psums))
	rn.tl.Ran(g, sum)
	c.stats.TicsRun++
	c.clock.ran(c, g, sum)
	rn.confirmed(g, sum, over)
}

// over reports whether the game says it is over after the tic it just ran
// (tic.Ending): asked after every tic, predicted ones included, and acted
// on only for a confirmed one (confirmed).
func (rn *runner) over() bool {
	e, ok := rn.c.game.(tic.Ending)
	return ok && e.Over()
}

// confirmed follows confirmed tic g, whose checksum is sum: the game
// hears of it (tic.ConfirmAware), and if it said it was over after g, the
// game ends before g+1.
func (rn *runner) confirmed(g, sum uint32, over bool) {
	c := rn.c
	if ca, ok := c.game.(tic.ConfirmAware); ok {
		ca.Confirmed(g, sum)
	}
	if over {
		c.clock.over(c, g+1)
	}
}

// enterTic notes who is in the game at confirmed tic g, the next this copy
// runs: the players who left or entered since the tic before.
func (rn *runner) enterTic(g uint32, in uint8) {
	c := rn.c
	if !rn.started {
		rn.started = true
		rn.wasInGame = in
		rn.firstRun = g
		for p := range rn.entered {
			rn.entered[p] = g
		}
	}
	told := int32(g-rn.rerunTo) < 0
	for p := range tic.MaxPlayers {
		was, is := rn.wasInGame&(1<<p) != 0, in&(1<<p) != 0
		switch {
		case told:
		case was && !is:
			c.emit(Event{Kind: EventPlayerLeft, Player: p, Tic: g, Reason: ReasonLeft})
		case !was && is:
			rn.entered[p] = g
			c.emit(Event{Kind: EventPlayerEntered, Player: p, Tic: g})
		}
		rn.ingame[p] = is
	}
	rn.wasInGame = in
}

// checkConsistency compares each player's consistency byte for tic g with
// what this copy recorded BackupTics tics earlier (spec §11.4), then
// records this copy's own for the tic. The game's state is still the state
// before g.
func (rn *runner) checkConsistency(g uint32, cmds *[tic.MaxPlayers]tic.Cmd, in, substituted uint8) {
	rn.checkConsistencyBytes(g, cmds, in, substituted)
	own := rn.consistencyBytes()
	for p := range tic.MaxPlayers {
		if in&(1<<p) != 0 {
			rn.consistency[p][g%BackupTics] = own[p]
		}
	}
}

// repaired notes that player p's copy loaded the state before tic t: its
// consistency bytes of the states before are of the state that diverged,
// named already, and are not checked.
func (rn *runner) repaired(p int, t uint32) {
	if int32(t-rn.entered[p]) > 0 {
		rn.entered[p] = t
	}
}

// consistencyBytes is each player's consistency byte of the game's state
// now: the game's own (tic.PlayerConsistency), or the checksum's low byte.
func (rn *runner) consistencyBytes() (b [tic.MaxPlayers]uint8) {
	c := rn.c
	pc, perPlayer := c.game.(tic.PlayerConsistency)
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
func (rn *runner) checkConsistencyBytes(g uint32, cmds *[tic.MaxPlayers]tic.Cmd, in, substituted uint8) {
	c := rn.c
	if c.cfg.Input.Opaque() {
		return // opaque input carries no consistency byte: checksum reports serve
	}
	slot := g % BackupTics
	for p := range tic.MaxPlayers {
		if in&(1<<p) == 0 {
			continue
		}
		recorded := &rn.consistency[p][slot]
		// A byte is checked once both ends had run the tic it is about: the
		// player since it entered, this copy since its first tic.
		checked := g > rn.entered[p]+BackupTics && g > rn.firstRun+BackupTics
		if checked && substituted&(1<<p) == 0 && *recorded != cmds[p].Consistency {
			c.stats.ConsistencyFailures++
			if !rn.reported[p] {
				rn.reported[p] = true
				// The byte is the sender's state before tic g-BackupTics,
				// the result of tic g-BackupTics-1: the tic whose result
				// differs, as the server names it under the extension.
				c.emit(Event{Kind: EventDesyncSuspected, Player: p, Tic: g - BackupTics - 1, Players: []int{p},
					Reason: "consistency byte differs"})
			}
		}
	}
}

func (rn *runner) runGame(now int64) {
	c := rn.c
	if c.starting {
		return // the game is called from the next Update on (Client.starting)
	}
	c.send.buildTics(now)
	if c.phase.reattaching() {
		// No acknowledgement, no resend request: the server that took
		// the game over sends what this copy lacks once it resumes.
		rn.runTics()
		return
	}
	c.recv.requestMissing(now)
	c.recv.advanceWindow()
	c.src.pump(now)
	if c.send.ackPending && now-c.send.ackSinceMS > c.send.ackDelayMS() {
		c.send.sendAck(now)
	}
	rn.runTics()
	c.end.endIfDone(now)
}

// save runs a RequestSave: the state goes to the server as the stream it
// asked for.
func (rn *runner) save(t uint32) {
	c := rn.c
	c.join.sendState(t, c.game.(tic.Snapshotter).SaveState())
}

// load runs a RequestLoad: a joiner's state, or a repair's. It reports
// false when the game refused a repair's state: the requests after it
// (the tics since, to run again) are void.
func (rn *runner) load(t uint32, state []byte) bool {
	c := rn.c
	if c.repair.loads(t) {
		if c.game.(tic.Snapshotter).LoadState(state) != nil {
			c.repair.refused()
			return false
		}
		if before := rn.tl.Tic(t - 1); before != nil {
			rn.wasInGame = before.InGame // who was in the game before the tics run again
		}
		rn.firstRun = t // the consistency bytes it recorded before are of its diverged state
		c.repair.loaded()
		return true
	}
	if !rn.loadState(t, state) {
		return true
	}
	c.join.loaded = true
	if c.rec.Recording() {
		c.rec.Start(t, state)
	}
	c.join.start = t
	rn.started = false // who is in the game: from the first tic run
	rn.firstRun = t
	return true
}

// loadState has the game load state, the state before t; if it cannot,
// the client leaves the game and reports false.
func (rn *runner) loadState(t uint32, state []byte) bool {
	c := rn.c
	err := c.game.(tic.Snapshotter).LoadState(state)
	if err != nil {
		reason := "the game could not load the state of tic " + strconv.FormatUint(uint64(t), 10) + ": " + err.Error()
		c.conn.Disconnect(c.nowMS, reason)
		c.finish(CauseLoadFailed, reason)
	}
	return err == nil
}

// saveNow returns the game's state before the tic advance runs, for a
// game that can save: saved once for the replay and the forensics.
func (rn *runner) saveNow() []byte {
	c := rn.c
	if s, ok := c.game.(tic.Snapshotter); ok && rn.saved == nil {
		rn.saved = s.SaveState()
	}
	return rn.saved
}

// playerSums returns each player's own checksum now, when the game gives
// them and the client records; nil otherwise.
func (rn *runner) playerSums(in uint8, dst *[tic.MaxPlayers]uint16) *[tic.MaxPlayers]uint16 {
	c := rn.c
	if !c.rec.Recording() {
		return nil
	}
	pc, ok := c.game.(tic.PlayerChecksummer)
	if !ok {
		return nil
	}
	*dst = [tic.MaxPlayers]uint16{}
	for p := range tic.MaxPlayers {
		if in&(1<<p) != 0 {
			dst[p] = uint16(pc.PlayerChecksum(p))
		}
	}
	return dst
}
