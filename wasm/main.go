//go:build js && wasm

// Command wasm is ticnet.wasm: the only Go that touches the browser. It
// binds the channel shim (js/shim.js) to a session (election and engine,
// package session) and exports the API that js/ticnet.js wraps.
//
// The session runs on a timer (the page's setInterval, clock.go),
// independent of rendering. Each pass pulls every queued frame from the
// shim with one call and one copy, and pushes its outgoing frames with one
// copy and one call, through two Uint8Arrays made once (jsbuf.go): calls
// from JS into Go cost about 12 µs each, so there are none per packet.
// Functions JS calls (launch, leave, stats) never block: they post a
// request the loop takes on its next pass, or read the last snapshot. It
// also plays replay files back into the page's game (replay.go), which
// needs no shim. What it hands the page (events, stats, results) are JS
// objects it builds (js.go): no JSON either side. Every crossing goes
// through safejs: what JS throws is an error, which ends the copy's game
// with an "error" event (loop.fail), never a panic.
//
// The loop and its pass are in loop.go, its crossings to the shim in
// shim.go, the functions the page calls in api.go, and the reading of the
// page's options in config.go.
package main

func main() {
	exportAPI(&loop{start: nanotime()})
	select {} // the loop and the callbacks run on; main must not return
}
