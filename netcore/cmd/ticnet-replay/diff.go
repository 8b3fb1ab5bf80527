package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/ticnet/ticnet/netcore/wire"
)

// recorded is what diff reads of one replay: its tics and snapshots by tic.
type recorded struct {
	tics      map[uint32]*wire.ReplayTic
	snapshots map[uint32][]byte
	first     uint32
	last      uint32
}

func readRecorded(data []byte) (*recorded, error) {
	r := &recorded{tics: map[uint32]*wire.ReplayTic{}, snapshots: map[uint32][]byte{}}
	err := eachRecord(data, func(rec *wire.ReplayRecord) error {
		if rec.IsSnapshot() {
			r.snapshots[rec.Tic.Tic] = rec.State
			return nil
		}
		t := rec.Tic
		if len(r.tics) == 0 {
			r.first = t.Tic
		}
		r.last = t.Tic
		r.tics[t.Tic] = &t
		return nil
	})
	return r, err
}

// diff compares two replays of one game, as two copies recorded it (or
// two saved states, when neither file is a replay), and reports whether
// they differ: the first tic whose commands differ, the first whose
// checksums differ and the players whose own checksums differ there, and
// the bytes that differ in the first snapshot both hold of one tic whose
// states differ.
func diff(w io.Writer, a, b []byte) (bool, error) {
	ra, errA := readRecorded(a)
	rb, errB := readRecorded(b)
	if errors.Is(errA, wire.ErrNotReplay) && errors.Is(errB, wire.ErrNotReplay) {
		return diffStates(w, "the states", a, b), nil
	}
	if err := errors.Join(errA, errB); err != nil {
		return false, err
	}
	fmt.Fprintf(w, "A: tics %d to %d, %d snapshots\n", ra.first, ra.last, len(ra.snapshots))
	fmt.Fprintf(w, "B: tics %d to %d, %d snapshots\n", rb.first, rb.last, len(rb.snapshots))
	var both []uint32
	for t := range ra.tics {
		if rb.tics[t] != nil {
			both = append(both, t)
		}
	}
	slices.Sort(both)
	if len(both) == 0 {
		fmt.Fprintln(w, "no tic is in both")
		return true, nil
	}
	differ := false
	cmds, sums := -1, -1
	for i, t := range both {
		ta, tb := ra.tics[t], rb.tics[t]
		if cmds < 0 && (ta.InGame != tb.InGame || ta.Cmds != tb.Cmds) {
			cmds = i
		}
		if sums < 0 && ta.HasSum && tb.HasSum && ta.Sum != tb.Sum {
			sums = i
		}
	}
	if cmds < 0 {
		fmt.Fprintf(w, "commands: the same in the %d tics both hold (%d to %d)\n", len(both), both[0], both[len(both)-1])
	} else {
		differ = true
		t := both[cmds]
		ta, tb := ra.tics[t], rb.tics[t]
		fmt.Fprintf(w, "commands: first differ at tic %d (in the game: A %s, B %s); the players whose differ:", t, playerList(ta.InGame), playerList(tb.InGame))
		for p := range wire.MaxPlayers {
			if ta.Cmds[p] != tb.Cmds[p] {
				fmt.Fprintf(w, " %d", p)
			}
		}
		fmt.Fprintln(w)
	}
	if sums < 0 {
		fmt.Fprintln(w, "checksums: the same in every tic both checked")
	} else {
		differ = true
		t := both[sums]
		ta, tb := ra.tics[t], rb.tics[t]
		fmt.Fprintf(w, "checksums: first differ at tic %d: A %08x, B %08x", t, ta.Sum, tb.Sum)
		if ta.HasPlayerSums && tb.HasPlayerSums {
			var players []int
			for p := range wire.MaxPlayers {
				if ta.InGame&tb.InGame&(1<<p) != 0 && ta.PlayerSums[p] != tb.PlayerSums[p] {
					players = append(players, p)
				}
			}
			fmt.Fprintf(w, "; the players whose own differ: %v", players)
		}
		fmt.Fprintln(w)
	}
	var snaps []uint32
	for t := range ra.snapshots {
		if rb.snapshots[t] != nil {
			snaps = append(snaps, t)
		}
	}
	slices.Sort(snaps)
	for _, t := range snaps {
		if !bytes.Equal(ra.snapshots[t], rb.snapshots[t]) {
			diffStates(w, fmt.Sprintf("the states before tic %d", t), ra.snapshots[t], rb.snapshots[t])
			return true, nil
		}
	}
	if len(snaps) > 0 {
		fmt.Fprintf(w, "states: the same in the %d snapshots both hold\n", len(snaps))
	}
	return differ, nil
}

// span is a run of bytes that differ: [off, off+n).
type span struct{ off, n int }

// byteSpans returns the runs of bytes where a and b differ; past the
// shorter one's end, every byte differs.
func byteSpans(a, b []byte) []span {
	var spans []span
	for i := range max(len(a), len(b)) {
		if i < len(a) && i < len(b) && a[i] == b[i] {
			continue
		}
		if n := len(spans); n > 0 && spans[n-1].off+spans[n-1].n == i {
			spans[n-1].n++
		} else {
			spans = append(spans, span{i, 1})
		}
	}
	return spans
}

// maxSpans bounds the runs of differing bytes diff lists.
const maxSpans = 20

// diffStates prints where two states differ, and reports whether they do.
func diffStates(w io.Writer, what string, a, b []byte) bool {
	spans := byteSpans(a, b)
	if len(spans) == 0 {
		fmt.Fprintf(w, "%s: the same, %d bytes\n", what, len(a))
		return false
	}
	n := 0
	for _, s := range spans {
		n += s.n
	}
	fmt.Fprintf(w, "%s differ: A %d bytes, B %d; %d bytes differ, in %d runs:\n", what, len(a), len(b), n, len(spans))
	for i, s := range spans {
		if i == maxSpans {
			fmt.Fprintf(w, "  and %d more runs\n", len(spans)-maxSpans)
			break
		}
		fmt.Fprintf(w, "  bytes %d to %d: A % x, B % x\n", s.off, s.off+s.n-1, clip(a, s), clip(b, s))
	}
	return true
}

// clip is the part of b that s covers, at most 16 bytes of it.
func clip(b []byte, s span) []byte {
	lo, hi := min(s.off, len(b)), min(s.off+min(s.n, 16), len(b))
	return b[lo:hi]
}
