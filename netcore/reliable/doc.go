// Package reliable holds what a connection learns of its channel and keeps
// of a stream of tics that arrive out of order, so that it asks again for
// what was lost and only that: the round trip and its resend timeout
// (RTT, RFC 6298), the arrival jitter and its reorder window (Jitter,
// RFC 3550), the share of packets lost (Loss), and which tics of a window
// arrived, are missing, or were asked for again (Window).
//
// The client keeps one of each for the server, the server one for each
// player. Each is changed only by its own methods. It is sans-IO: times
// are milliseconds given by the caller, and a request goes out through a
// function the caller passes.
package reliable
