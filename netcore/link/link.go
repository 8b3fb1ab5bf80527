package link

// Addr names a peer. On a broadcast channel it is the peer's UID (the
// server is 1); 0 addresses every peer.
type Addr uint32

// Broadcast is the address of every peer on a channel.
const Broadcast Addr = 0

// Transport moves packets for one endpoint.
type Transport interface {
	// Send queues payload for to. It must not retain payload.
	Send(to Addr, payload []byte)
	// Recv returns the next packet received, if any. The payload is valid
	// until the next call to Recv.
	Recv() (from Addr, payload []byte, ok bool)
}
