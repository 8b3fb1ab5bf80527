package auth

// window is what a receiver keeps of a sender's counter: the highest it
// took, which of the WindowLen before it it took, and when it last took
// one. A frame carries only its counter's low byte; the receiver takes
// the counter nearest the highest with that byte, or, after a silence in
// which the sender may have sent more than half a byte's worth, one a
// whole number of 256 further on (resyncs).
type window struct {
	hi     uint64 // 0: none taken yet (counters start at 1)
	seen   uint64 // bit i: hi-i was taken
	lastMS int64
	// floor: counters up to it were sent before this end could check
	// them (SyncBroadcasts).
	floor uint64
}

// WindowLen is how far behind the highest counter taken a frame may be
// and still be taken once: 64 frames, 1.8 s of a player's frames, against
// the reordering of a lossy channel (150 ms at worst in the scenarios).
const WindowLen = 64

// ResyncMS is the silence after which a receiver looks a further 256
// counters ahead for a frame whose tag does not check (up to MaxResyncs):
// a sender sends at most two frames a millisecond (a player 35 a second;
// a bulk stream, paced, a few hundred).
const (
	ResyncMS   = 128
	MaxResyncs = 64
)

// nearest is the counter nearest w.hi whose low byte is low (never 0).
func (w *window) nearest(low byte) uint64 {
	c := w.hi&^0xff | uint64(low)
	switch {
	case c+128 <= w.hi:
		c += 256
	case c > w.hi+128 && c >= 256:
		c -= 256
	}
	if c == 0 {
		c = 256
	}
	return c
}

// resyncs is how many epochs of 256 further on a frame at now may be.
func (w *window) resyncs(now int64) int {
	return int(min(max(now-w.lastMS, 0)/ResyncMS, MaxResyncs))
}

// fresh reports whether counter c was not taken and is not too old.
func (w *window) fresh(c uint64) bool {
	if c > w.hi {
		return true
	}
	d := w.hi - c
	return d < WindowLen && w.seen&(1<<d) == 0
}

// take notes counter c, checked, as taken at now.
func (w *window) take(now int64, c uint64) {
	w.lastMS = now
	if c <= w.hi {
		w.seen |= 1 << (w.hi - c)
		return
	}
	if d := c - w.hi; d < WindowLen {
		w.seen = w.seen<<d | 1
	} else {
		w.seen = 1
	}
	w.hi = c
}
