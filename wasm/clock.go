//go:build js && wasm

package main

import _ "unsafe" // for go:linkname

// The net loop's clock is the runtime's monotonic clock (performance.now()
// in the browser), and its timer the page's setInterval (loop.run):
// time.Now and time.Since would add 36 KB to ticnet.wasm after brotli (the
// time package's initialisation: zones, godebug), a time.Ticker 53 KB
// (the runtime's timers besides; README.md). Times here are int64
// nanoseconds.

// nanotime is the runtime's monotonic clock, in nanoseconds.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// since is the time from began (a nanotime) to now, in nanoseconds.
func since(began int64) int64 { return nanotime() - began }
