// Package wire is the Chocolate Doom 3.x packet codec: a bounds-checked
// big-endian reader and writer, every message of the protocol as a Go type,
// ticcmd diff and patch, and 8-bit tic number expansion.
//
// It is byte-exact with the reference (see shared/spec/chocolate-wire.md):
// encoding a decoded packet gives back the same bytes, fields the reference
// leaves uninitialised included. It holds no state and does no I/O:
// connections, timers and windows live in package netcore.
//
// Input is hostile. Every decoder returns a *DecodeError instead of
// panicking, never reads past the packet, and checks every count against the
// protocol's limit before it stores anything, so the memory a decode uses is
// bounded by the length of the packet.
package wire
