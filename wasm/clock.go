//go:build js && wasm

package main

import _ "unsafe" // for go:linkname

// The net loop's clock is the runtime's monotonic clock (performance.now()
// in the browser), and its timer the page's setInterval (loop.run).
// They were chosen when time.Now and time.Since added 36 KB to
// ticnet.wasm after brotli and a time.Ticker 53 KB (docs/measurements.md);
// safejs and crypto/rand now bring package time in through fmt, but the
// page's timer is still what runs the loop, and the engine's times are
// int64 milliseconds and nanoseconds. Times here are int64 nanoseconds.

// nanotime is the runtime's monotonic clock, in nanoseconds.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// since is the time from began (a nanotime) to now, in nanoseconds.
func since(began int64) int64 { return nanotime() - began }
