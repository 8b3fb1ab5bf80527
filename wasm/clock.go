//go:build js && wasm

package main

import (
	"time"
	_ "unsafe" // for go:linkname
)

// The net loop's clock is the runtime's monotonic clock (performance.now()
// in the browser), and its timer the page's setInterval (loop.run):
// time.Now and a time.Ticker would link the time package's code (formats,
// zones, godebug) and the runtime's timers, about 50 KB of ticnet.wasm
// after brotli (README.md). time.Duration, a type, costs nothing.

// nanotime is the runtime's monotonic clock, in nanoseconds.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// since is the time from began (a nanotime) to now.
func since(began int64) time.Duration { return time.Duration(nanotime() - began) }
