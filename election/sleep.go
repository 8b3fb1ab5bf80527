package election

// SleepMS: an Update this long after the last means that this copy's page
// slept (it was frozen, or its timers throttled harder than a hidden
// page's once a second), and heard nothing meanwhile.
const SleepMS = 2000

// sleepWatch tells from the gaps between Updates when this copy slept.
type sleepWatch struct {
	lastUpdateMS int64 // when Update last ran
	wokeMS       int64 // the last Update after this copy slept (0: never)
}

// update notes an Update at now and returns how long this copy slept
// before it (0: it did not).
func (w *sleepWatch) update(now int64) (sleptMS int64) {
	if gap := now - w.lastUpdateMS; gap > SleepMS {
		sleptMS, w.wokeMS = gap, now
	}
	w.lastUpdateMS = now
	return sleptMS
}

// JustWoke reports whether this copy slept (SleepMS) until less than a
// second before now: what it receives now was sent while it slept.
func (e *Election) JustWoke(now int64) bool {
	return e.sleep.wokeMS != 0 && now-e.sleep.wokeMS < 1000
}

// slept makes the time this copy slept not count: it heard nothing from
// the others, which does not mean that they are gone (a copy that woke
// from a freeze and took its server for lost would serve the game beside
// it, with a timeline left seconds behind).
func (e *Election) slept(gapMS int64) {
	for _, t := range []*int64{&e.serverHeardMS, &e.waitFromMS, &e.lastRequestMS, &e.lastAnnounceMS,
		&e.lastBeaconMS, &e.burstUntilMS} {
		*t += gapMS
	}
	e.cands.shift(gapMS)
	e.gone.shift(gapMS)
}
