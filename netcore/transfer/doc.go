// Package transfer is the bulk stream: a reliable stream of bytes too
// large for one frame (a game-state snapshot for a copy joining late, a
// timeline for a new host), sent as chunks inside the extension protocol,
// paced behind the tic stream, acknowledged selectively, resent on loss and
// checked by a SHA-256 of the whole. An Endpoint is one peer's streams,
// both ways: its sending half is in send.go, its receiving half in
// receive.go, and the relay of an incoming stream on to another peer as it
// arrives in relay.go; the pacing both halves
// share is in port.go.
//
// Per pass the engine (1) hands Handle every TypeTicnet packet whose kind
// wire.IsTransferKind accepts, (2) sends its tics, and (3) calls Pump last,
// so that chunks only ever queue behind the tics of the pass, never ahead.
//
// It is sans-IO, as the engine that uses it: time comes in as an argument,
// packets leave through the link.Transport it was given, what happened is
// returned as Events, and nothing runs between calls: no clock, sleep or
// goroutine here. It is a leaf: it knows the wire's transfer messages and
// the channel's frame (package link), never the engine (netcore) above it.
package transfer
