//go:build js && wasm

package main

import "slices"

// netWindow is how many samples the netcode's times are taken over: at a
// pass every 5 ms, the last 5 s of passes; at 35 tics a second, the passes
// that ran tics of the last half minute. Enough that a p99 is the 11th
// slowest sample, not the slowest of one second (35 tics).
const netWindow = 1024

// netTimes keeps the netcode's time of the last passes (the session, the
// crossings between Go and JS, the shim's sending: everything but the
// game's callbacks, jsGame.spent): per pass, and per tic run, which is a
// pass's time over the tics it ran, for the passes that ran tics.
type netTimes struct {
	passes, tics window
}

// add records a pass that took net ns and ran tics tics.
func (n *netTimes) add(net int64, tics int) {
	n.passes.add(net)
	if tics > 0 {
		n.tics.add(net / int64(tics))
	}
}

// window is a ring of the last netWindow samples, in ns.
type window struct {
	ring   [netWindow]int64
	n      int              // samples added, ever
	sorted [netWindow]int64 // scratch for the percentiles
}

func (w *window) add(d int64) {
	w.ring[w.n%netWindow] = d
	w.n++
}

// percentiles returns the median, the 99th percentile and the mean of the
// window, in µs; zeros while it is empty. It allocates nothing.
func (w *window) percentiles() (median, p99, mean float64) {
	s := w.sorted[:copy(w.sorted[:], w.ring[:min(w.n, netWindow)])]
	if len(s) == 0 {
		return 0, 0, 0
	}
	slices.Sort(s)
	var sum int64
	for _, d := range s {
		sum += d
	}
	us := func(ns int64) float64 { return float64(ns) / 1000 }
	return us(s[len(s)/2]), us(s[len(s)*99/100]), us(sum) / float64(len(s))
}
