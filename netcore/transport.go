package netcore

import "github.com/ticnet/ticnet/netcore/link"

// The engine names peers and transports as package link does; these names
// stay so that its callers need not change while link takes the rest of
// the channel's code (loopback, UDP).
type (
	// Addr names a peer (link.Addr).
	Addr = link.Addr
	// Transport moves packets for one endpoint (link.Transport).
	Transport = link.Transport
)

// Broadcast is the address of every peer on a channel (link.Broadcast).
const Broadcast = link.Broadcast
