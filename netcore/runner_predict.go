package netcore

import "github.com/ticnet/ticnet/netcore/tic"

// Prediction (ClientConfig.Predict): under the extension, a client whose
// game can save and load runs ahead of the confirmed tics, up to
// PredictTics of them, with its own player's command as built and every
// other player's last confirmed command with its events cleared. That is
// what the server substitutes for a late command: a lagging player is
// predicted exactly. A player on time is predicted to repeat its input
// with the consistency byte it will send (the state BackupTics tics
// before, which this copy recorded too): a steady player is predicted
// exactly as well. The game shows the predicted state at once: local
// input moves the local player in the tic it is built for, not a round
// trip later.
//
// Opaque input carries no consistency byte (its commands are the game's
// bytes only): none is predicted either.
//
// When a confirmed tic arrives that was predicted, it stands if it is
// what was predicted (every command, who is in the game; for a game blind
// to the consistency byte, every command but that byte); the first that
// is not sends the game back to the state saved before it, and the
// confirmed tics run again from there, then the prediction. Only
// confirmed tics count: the timeline, the checksum reports, the
// consistency bytes, the players' comings and goings.

// DefaultPredictTics is the default prediction window.
const DefaultPredictTics = 8

// MaxPredictTics bounds ClientConfig.PredictTics.
const MaxPredictTics = 64

// predictSide is the client's prediction: the tics it ran ahead of
// confirmation, oldest first, from the timeline's Confirmed on.
type predictSide struct {
	tics  []predictedTic
	stats PredictCounters
	// cmds and ingame are what a predicted tic hands the game: a copy
	// (the game may keep no pointer into the prediction) that lives here,
	// not on the heap, where a local would go (RunTic is an interface's).
	cmds   [tic.MaxPlayers]tic.Cmd
	ingame [tic.MaxPlayers]bool
}

// predictedTic is a tic run ahead of confirmation.
type predictedTic struct {
	tic    uint32
	cmds   [tic.MaxPlayers]tic.Cmd
	ingame uint8
	before []byte // the game's state before the tic
	sum    uint32 // its checksum after the tic
	over   bool   // the game said it was over after the tic (tic.Ending)
	// consistency is each player's byte as this copy records it for the
	// tic (the state before it), kept until the tic is confirmed.
	consistency [tic.MaxPlayers]uint8
	// psums are each player's own checksum after the tic, for the replay
	// (hasPsums: the game gives them and the client records).
	psums    [tic.MaxPlayers]uint16
	hasPsums bool
}

// PredictCounters are what prediction counted.
type PredictCounters struct {
	Predicted  int64 // tics run ahead of confirmation
	Stood      int64 // of those, tics confirmed as predicted
	Rollbacks  int64 // times a confirmed tic differed and the game went back
	RolledBack int64 // predicted tics undone by those rollbacks
}

// PredictCounters returns what prediction counted.
func (c *Client) PredictCounters() PredictCounters { return c.loop.pred.stats }

// PredictedTic is the first tic the game has not run, predictions
// included: what the game shows is the state before it. Without
// prediction it is GameTic.
func (c *Client) PredictedTic() uint32 { return c.loop.tl.GameTic() + uint32(len(c.loop.pred.tics)) }

// predicts reports whether this client predicts now.
func (rn *runner) predicts() bool {
	c := rn.c
	_, canSave := c.game.(tic.Snapshotter)
	return c.cfg.Predict && canSave && c.player >= 0 && !c.cfg.Drone && c.settings.TicDup == 1 &&
		!c.phase.joining() && !c.phase.reattaching()
}

// runPredicting is runTics for a client that predicts: the confirmed
// tics, as predicted or again, then the prediction ahead of them.
func (rn *runner) runPredicting() {
	c := rn.c
	tl := &rn.tl
	p := &rn.pred
	stood := 0
	for stood < len(p.tics) && int32(tl.Confirmed()-p.tics[stood].tic) > 0 {
		pt := &p.tics[stood]
		ct := tl.Tic(pt.tic)
		if !rn.sameCmds(&pt.cmds, &ct.Cmds) || ct.InGame != pt.ingame {
			break
		}
		rn.confirmPredicted(pt, ct)
		stood++
		if c.end.ended(pt.tic + 1) {
			break // the game ended itself: the tics predicted past it go
		}
	}
	p.stood(stood)
	if c.end.self && c.end.ended(tl.GameTic()) {
		// The game is back at its state after its last tic, the end's.
		if state, ok := p.drop(); ok {
			rn.loadState(tl.GameTic(), state)
		}
		return
	}
	if len(p.tics) > 0 && int32(tl.Confirmed()-p.tics[0].tic) > 0 {
		// A confirmed tic is not what was predicted: back to before it.
		p.stats.Rollbacks++
		rn.unpredict()
		if c.phase.state() == ClientDisconnected {
			return
		}
	}
	if len(p.tics) == 0 {
		rn.runRequests(tl.Requests(rn.dueConfirmed(), c.TicsPerUpdate()))
		if c.phase.state() == ClientDisconnected {
			return
		}
	}
	rn.predictAhead()
}

// sameCmds reports whether a predicted tic's commands are the confirmed
// ones as far as the game can tell: a game blind to the consistency byte
// (tic.ConsistencyBlind) cannot tell two that differ only there.
func (rn *runner) sameCmds(predicted, confirmed *[tic.MaxPlayers]tic.Cmd) bool {
	c := rn.c
	if *predicted == *confirmed {
		return true
	}
	if _, blind := c.game.(tic.ConsistencyBlind); !blind {
		return false
	}
	for p := range predicted {
		a, b := predicted[p], confirmed[p]
		a.Consistency, b.Consistency = 0, 0
		if a != b {
			return false
		}
	}
	return true
}

// confirmPredicted makes predicted tic pt, which the confirmed tic ct
// matches, a tic this copy ran: as advance does for a tic it runs.
func (rn *runner) confirmPredicted(pt *predictedTic, ct *tic.ConfirmedTic) {
	c := rn.c
	rn.enterTic(pt.tic, ct.InGame)
	slot := pt.tic % BackupTics
	rn.checkConsistencyBytes(pt.tic, &ct.Cmds, ct.InGame, ct.Substituted)
	for q := range tic.MaxPlayers {
		if ct.Playing(q) {
			rn.consistency[q][slot] = pt.consistency[q]
		}
	}
	if rn.tl.SaveDue(pt.tic) {
		// The server asked for the state before it, and the predicted
		// tic stands: that state is the one saved before it ran.
		c.join.sendState(pt.tic, pt.before)
	}
	c.rec.Before(pt.tic, &ct.Cmds, pt.ingame, ct.Substituted, func() []byte { return pt.before })
	if c.forensic.keeps(c) {
		c.forensic.before(c, pt.tic, func() []byte { return pt.before })
	}
	var psums *[tic.MaxPlayers]uint16
	if pt.hasPsums {
		psums = &pt.psums
	}
	c.rec.After(pt.tic, pt.sum, psums)
	rn.tl.Ran(pt.tic, pt.sum)
	c.stats.TicsRun++
	rn.pred.stats.Stood++
	c.send.reportChecksum(pt.tic, pt.sum)
	rn.confirmed(pt.tic, pt.sum, pt.over)
}

// unpredict undoes every predicted tic: the game loads the state before
// the first.
func (rn *runner) unpredict() {
	if state, ok := rn.pred.undo(); ok {
		rn.loadState(rn.tl.GameTic(), state)
	}
}

// undo forgets every predicted tic and returns the game's state before
// the first; false when none was predicted.
func (p *predictSide) undo() (state []byte, ok bool) {
	p.stats.RolledBack += int64(len(p.tics))
	return p.drop()
}

// drop forgets every predicted tic, as undo, without counting them as
// rolled back: a game that ended itself drops those past its end.
func (p *predictSide) drop() (state []byte, ok bool) {
	if len(p.tics) == 0 {
		return nil, false
	}
	state = p.tics[0].before
	p.tics = p.tics[:0]
	return state, true
}

// stood forgets the first n predicted tics, which stood.
func (p *predictSide) stood(n int) { p.tics = p.tics[:copy(p.tics, p.tics[n:])] }

// dueConfirmed is how far the game runs the confirmed tics, predicting or
// not: to the last, but under an input delay not past the tic due now
// (maketic less the delay, as predictAhead). A tic the server sent as
// soon as its commands were in (every player has a delay) comes before
// its time, and waits for it: the player sees its input the delay after
// it gave it, every time, and the game keeps its clock's pace, not the
// channel's. Once the game's end is known no command is built past it,
// and its last tics run as they come.
func (rn *runner) dueConfirmed() uint32 {
	c := rn.c
	conf := rn.tl.Confirmed()
	if c.send.delay == 0 || c.player < 0 || c.phase.joining() || c.end.active {
		return conf
	}
	if due := c.send.maketic - min(c.send.maketic, uint32(c.send.delay)); int32(due-conf) < 0 {
		return due
	}
	return conf
}

// predictAhead runs tics ahead of confirmation, as far as this copy has
// built its own commands, up to the window.
func (rn *runner) predictAhead() {
	c := rn.c
	tl := &rn.tl
	p := &rn.pred
	if tl.Loading() || tl.GameTic() != tl.Confirmed() || tl.SavesPending() {
		rn.unpredict() // a snapshot is due of a confirmed state
		return
	}
	if c.end.self && c.end.ended(tl.GameTic()) {
		return // the game ended itself: nothing runs past its end
	}
	last := tl.Tic(tl.Confirmed() - 1)
	if last == nil || !last.Ran {
		return // nothing confirmed yet to predict from
	}
	window := c.cfg.PredictTics
	for len(p.tics) < window {
		t := tl.Confirmed() + uint32(len(p.tics))
		q := &c.send.queue[t%BackupTics]
		if int32(c.send.maketic-uint32(c.send.delay)-t) <= 0 || !q.valid || q.seq != t {
			return // not due yet, or this copy's own command is not built
		}
		pt := predictedTic{tic: t, ingame: last.InGame, before: c.game.(tic.Snapshotter).SaveState()}
		for pl := range tic.MaxPlayers {
			if !last.Playing(pl) {
				continue
			}
			pt.cmds[pl] = c.cfg.Input.ClearEvents(last.Cmds[pl])
			if last.Substituted&(1<<pl) == 0 && !c.cfg.Input.Opaque() {
				// On time, it sends the consistency byte of the state
				// BackupTics tics before: the one this copy recorded
				// (opaque input sends none: its byte stays 0).
				pt.cmds[pl].Consistency = rn.consistency[pl][t%BackupTics]
			}
		}
		if last.Playing(c.player) {
			pt.cmds[c.player] = q.cmd
		}
		pt.consistency = rn.consistencyBytes()
		for pl := range p.ingame {
			p.ingame[pl] = pt.ingame&(1<<pl) != 0
		}
		p.cmds = pt.cmds
		if sa, ok := c.game.(tic.SubstituteAware); ok {
			sa.Substitutes(t, 0)
		}
		c.game.RunTic(t, &p.cmds, &p.ingame)
		pt.sum = c.game.Checksum()
		pt.over = rn.over()
		pt.hasPsums = rn.playerSums(pt.ingame, &pt.psums) != nil
		p.tics = append(p.tics, pt)
		p.stats.Predicted++
	}
}
