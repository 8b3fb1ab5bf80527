package reliable

import "github.com/ticnet/ticnet/netcore/wire"

// Window keeps the state of one stream of tics that arrive out of order,
// for the wire.BackupTics tics from its owner's next one on: which have
// arrived, which are missing while later ones came, which were asked for
// again, and when. The client keeps one for the server's tics, the server one for each
// player's commands; both find gaps and ask for what is missing with it,
// in the same way:
//
//   - a tic missing while a later one came is a gap; it is asked for
//     only once it stays missing for a reorder window (Jitter.ReorderMS):
//     on a channel that reorders, it is usually on its way;
//   - a tic asked for and still missing a resend timeout later
//     (RTT.Timeout) is asked for again.
type Window struct {
	marks [wire.BackupTics]ticMark
	// waitEnd is one past the last tic ever found missing: no tic from it
	// on waits for anything (AskOverdue looks below it only).
	waitEnd uint32
}

// ticMark is one tic of a window.
type ticMark struct {
	seq     uint32
	arrived bool
	gapMS   int64 // when it was found missing while a later tic came; 0: never
	askedMS int64 // when it was last asked for; 0: never
}

// MaxResendCount is the most tics one resend request asks for: its count
// is a byte.
const MaxResendCount = 255

func (w *Window) mark(t uint32) *ticMark { return &w.marks[t%wire.BackupTics] }

// own returns tic t's mark, made t's if it held another tic.
func (w *Window) own(t uint32) *ticMark {
	m := w.mark(t)
	if m.seq != t {
		*m = ticMark{seq: t}
	}
	return m
}

// Has reports whether tic t has arrived.
func (w *Window) Has(t uint32) bool {
	m := w.mark(t)
	return m.seq == t && m.arrived
}

// Expected reports whether tic t has arrived, or is known to be missing.
func (w *Window) Expected(t uint32) bool {
	m := w.mark(t)
	return m.seq == t && (m.arrived || m.gapMS != 0 || m.askedMS != 0)
}

// Arrive notes that tic t arrived.
func (w *Window) Arrive(t uint32) { w.own(t).arrived = true }

// Reset forgets every tic: the window starts afresh (its player left,
// or a new server decides the tics again).
func (w *Window) Reset() { *w = Window{} }

// Forget frees tic t's place, for the tic wire.BackupTics later.
func (w *Window) Forget(t uint32) { *w.mark(t) = ticMark{} }

// GapBefore returns the first tic of the run of tics before end, down to
// from, that have neither arrived nor are known to be missing, and that ok
// accepts (nil: all): end when there is none.
func (w *Window) GapBefore(from, end uint32, ok func(uint32) bool) uint32 {
	t := end
	for t > from && !w.Expected(t-1) && (ok == nil || ok(t-1)) {
		t--
	}
	return t
}

// NoteGap notes that tics [first, first+n) of the window that starts at
// from were found missing at now.
func (w *Window) NoteGap(now int64, from, first, n uint32) {
	for t := first; t < first+n; t++ {
		if t-from >= wire.BackupTics {
			continue
		}
		if m := w.own(t); m.gapMS == 0 {
			m.gapMS = now
		}
	}
	w.extend(first + n)
}

func (w *Window) extend(end uint32) {
	if int32(end-w.waitEnd) > 0 {
		w.waitEnd = end
	}
}

// Ask asks for tics [first, first+n) again with send, in requests of at
// most MaxResendCount tics, and notes when, for the tics of the window
// that starts at from.
func (w *Window) Ask(now int64, from, first, n uint32, send func(first uint32, count uint8)) {
	for n > 0 {
		k := min(n, MaxResendCount)
		send(first, uint8(k))
		for t := first; t < first+k; t++ {
			if t-from >= wire.BackupTics {
				continue // not in the window: its place holds another tic
			}
			w.own(t).askedMS = now
		}
		w.extend(first + k)
		first, n = first+k, n-k
	}
}

// AskOverdue asks, from tic from on, for the tics missing reorderMS after
// they were found missing and not asked for yet, and for those still
// missing retryMS after they were last asked for. It reports whether it
// asked for any again.
func (w *Window) AskOverdue(now int64, from uint32, reorderMS, retryMS int64, send func(first uint32, count uint8)) (again bool) {
	var run, n uint32
	for t := from; t-from < wire.BackupTics && int32(w.waitEnd-t) > 0; t++ {
		m := w.mark(t)
		retry := m.askedMS != 0 && now-m.askedMS > retryMS
		if m.seq == t && !m.arrived && (retry || m.askedMS == 0 && m.gapMS != 0 && now-m.gapMS >= reorderMS) {
			again = again || retry
			if n == 0 {
				run = t
			}
			n++
			continue
		}
		if n > 0 {
			w.Ask(now, from, run, n, send)
			n = 0
		}
	}
	if n > 0 {
		w.Ask(now, from, run, n, send)
	}
	return again
}
