//go:build js && wasm

package main

import "github.com/hack-pad/safejs"

// jsBuf is a Uint8Array that bytes cross in between Go and JS (a pass's
// frames, each way; a saved state), made once and made anew, larger, only
// when they do not fit: a new Uint8Array each time would cost a call
// more, and a reference the GC must finalize.
type jsBuf struct {
	v safejs.Value
	n int // v's length; 0 before the first
}

// jsBufMin is a jsBuf's first size: a pass's frames in a game of 8 fit.
const jsBufMin = 16 << 10

// fit makes b at least n bytes long, and reports whether it made a new
// Uint8Array (without b's contents) for it.
func (b *jsBuf) fit(n int) (grew bool, err error) {
	if n <= b.n {
		return false, nil
	}
	size := max(n, 2*b.n, jsBufMin)
	v, err := uint8Array.New(size)
	if err != nil {
		return false, err
	}
	b.v, b.n = v, size
	return true, nil
}
