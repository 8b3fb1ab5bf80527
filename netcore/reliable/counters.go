package reliable

// Counters are what a connection counts: what it sent, and every frame it
// dropped. An endpoint's connections may share one (netcore.Counters
// holds it, with what the endpoint counts itself).
type Counters struct {
	PacketsSent, BytesSent int64
	Malformed              int64 // packets that did not decode
	// Stale: extension frames of another connection or another server
	// term (a late copy of an old one), dropped by the connection filter.
	Stale int64
	// Forged: frames of a secured connection whose authentication did not
	// check (a member's forgery under the peer's UID, or a frame
	// damaged); Replayed: frames it took before, or too old to tell.
	Forged, Replayed int64
	Duplicates       int64 // reliable packets received again
	ReliableResends  int64
	ReliableRepeats  int64 // urgent messages sent again once (SendUrgent)
}
