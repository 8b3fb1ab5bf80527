package election

// Cadence is the election's timing: how often a copy speaks, and how long
// it waits to hear the others.
type Cadence struct {
	Name string
	// RequestPeriodMS: how often an undecided copy asks for the server.
	RequestPeriodMS int64
	// WaitMS: how long a copy that hears no server waits before serving.
	WaitMS int64
	// BeaconPeriodMS: how often a server announces itself.
	BeaconPeriodMS int64
	// AnnouncePeriodMS: how often undecided copies and clients announce
	// their start time.
	AnnouncePeriodMS int64
	// CandidateTTLMS: a copy not heard from for this long is forgotten.
	CandidateTTLMS int64
	// ServerTimeoutMS: a server not heard from for this long is gone.
	ServerTimeoutMS int64
	// ReelectWaitMS: after the server is gone, how long the first of the
	// survivors waits before serving (the others already know it).
	ReelectWaitMS int64
}

var (
	// Local is for BroadcastChannel tabs: delivery takes milliseconds, so
	// a copy alone need wait only a few request periods (see
	// TestElectionRuns for the measured times and the absence of splits
	// with 20 % loss).
	Local = Cadence{Name: "local", RequestPeriodMS: 100, WaitMS: 500, BeaconPeriodMS: 250,
		AnnouncePeriodMS: 250, CandidateTTLMS: 1500, ServerTimeoutMS: 3000, ReelectWaitMS: 0}
	// Gossip is for the WebXDC realtime channel, where a peer may be heard
	// only seconds after it joined (delays up to 2 s each way are
	// simulated): a copy alone waits long enough for a round trip and a
	// lost beacon or two.
	Gossip = Cadence{Name: "gossip", RequestPeriodMS: 500, WaitMS: 4500, BeaconPeriodMS: 500,
		AnnouncePeriodMS: 1000, CandidateTTLMS: 5000, ServerTimeoutMS: 6000, ReelectWaitMS: 0}
)
