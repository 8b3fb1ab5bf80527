package transfer

// Counters are what an Endpoint counted. Every transfer packet
// handed to Handle is either used (a chunk new to its stream, an ack, an
// abort that ends a stream) or counted once in the first of Malformed,
// Forged, OutOfRange, Duplicates, Stale and NoRoom that applies.
type Counters struct {
	// Sending.
	StreamsStarted   int64
	ChunksSent       int64 // first transmissions
	ChunkBytesSent   int64 // their data bytes
	ChunksResent     int64
	ChunkBytesResent int64
	ChunksRepeated   int64 // the one chunk of a stream, sent again (Repeats, RepeatMS)
	AcksReceived     int64 // acks that matched an outgoing stream
	StreamsDelivered int64
	RTTSamples       int64
	// Receiving.
	StreamsOpened      int64
	ChunksReceived     int64 // chunks new to their stream
	ChunkBytesReceived int64
	AcksSent           int64
	StreamsCompleted   int64
	HashMismatches     int64
	StreamsRefused     int64 // too large, or no room
	// Both ways.
	StreamsStalled   int64 // dropped: no progress within StallMS
	StreamsAborted   int64 // dropped: the other end aborted
	StreamsCancelled int64 // dropped: CancelSend, CancelReceive or DropPeer
	AbortsSent       int64
	// Packets dropped, by the first reason that applies.
	Malformed  int64 // did not decode, or not a transfer kind
	Forged     int64 // from a peer not accepted, or about a stream never had with that peer
	OutOfRange int64 // numbers beyond this end's limits or disagreeing with the stream they name
	Duplicates int64 // a chunk already held, or of a stream already received
	Stale      int64 // about a stream this end has dropped or finished
	NoRoom     int64 // would open a stream beyond MaxIncoming or MaxHeldBytes
	// PeakBytesHeld is the most BytesHeld has been.
	PeakBytesHeld int64
}

// Dropped is the sum of the drop counters.
func (c *Counters) Dropped() int64 {
	return c.Malformed + c.Forged + c.OutOfRange + c.Duplicates + c.Stale + c.NoRoom
}
