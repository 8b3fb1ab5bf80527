package reliable

// RTT is TCP's estimate of a round trip (RFC 6298): a smoothed round trip
// and its mean deviation, from samples in milliseconds. A resend waits
// Timeout: the round trip and four deviations, so that a reply merely slow
// is seldom taken for one lost. What was sent again times no round trip
// (the reply may be to either copy: Karn's rule), so each timeout that
// passes doubles the next (BackOff) until a sample comes: a timeout too
// short to ever let one come grows out of it.
type RTT struct {
	srtt, rttvar float64
	samples      int
	backoff      uint8 // timeouts passed since the last sample
}

// Add takes a round trip measured.
func (e *RTT) Add(ms int64) {
	r := float64(ms)
	if e.samples == 0 {
		e.srtt, e.rttvar = r, r/2
	} else {
		d := e.srtt - r
		if d < 0 {
			d = -d
		}
		e.rttvar += (d - e.rttvar) / 4
		e.srtt += (r - e.srtt) / 8
	}
	e.samples++
	e.backoff = 0
}

// maxBackoff bounds the doubling: a game cannot wait as TCP does, and a
// timeout twice too short lets samples come already.
const maxBackoff = 1

// Bound is the smoothed round trip and devs deviations, rounded, and
// whether a round trip was measured.
func (e *RTT) Bound(devs float64) (int64, bool) {
	return int64(e.srtt + devs*e.rttvar + 0.5), e.samples > 0
}

// BackOff notes that a timeout passed: the next is twice as long.
func (e *RTT) BackOff() { e.backoff = min(e.backoff+1, maxBackoff) }

// Restart takes the exchange up again under a new peer: the timeouts that
// passed timed the old one's silence, not a round trip, and no longer
// double the next. The round trip measured so far stands.
func (e *RTT) Restart() { e.backoff = 0 }

// Timeout is srtt + 4·rttvar, or def before the first sample, doubled for
// each timeout passed since the last sample, within [MinResendMS,
// MaxResendMS].
func (e *RTT) Timeout(def int64) int64 {
	t := def
	if e.samples > 0 {
		t = int64(e.srtt + 4*e.rttvar + 0.5)
	}
	return max(MinResendMS, min(MaxResendMS, t<<e.backoff))
}

// The bounds of a resend timer: not below a pass or two of a page's loop
// (a round trip measured on one machine can be near zero), not above what
// a player would sit through.
const (
	MinResendMS = 20
	MaxResendMS = 1000
)
