// Package reliable is one end of a connection and what it keeps of its
// peer. Conn is the reference's connection (spec §5): the reliable
// sub-protocol (sequence numbers, acks, the resend of the queue's head),
// keepalives, the timeout and the disconnect handshake, and, under the
// extension, the connection's identity on every frame and the filter
// that drops a frame of another connection or term (ident.go); it counts
// what it sends and drops (Counters). Beside it, what a connection learns
// of its channel and keeps of a stream of tics that arrive out of order,
// so that it asks again for what was lost and only that: the round trip
// and its resend timeout (RTT, RFC 6298), the arrival jitter and its
// reorder window (Jitter, RFC 3550), the share of packets lost (Loss),
// and which tics of a window arrived, are missing, or were asked for
// again (Window).
//
// The client keeps one of each for the server, the server one for each
// player. Each is changed only by its own methods: the handshakes, which
// are the client's and the server's, tell a Conn what it is (Establish,
// Frame, SetResendMS), and never set its fields. It is sans-IO: times
// are milliseconds given by the caller, packets go out through the
// link.Transport the caller gives, and a request through a function the
// caller passes.
package reliable
