package netcore

// rttEstimate is TCP's estimate of a round trip (RFC 6298): a smoothed
// round trip and its mean deviation, from samples in milliseconds. A
// resend waits Timeout: the round trip and four deviations, so that a
// reply merely slow is seldom taken for one lost. What was sent again
// times no round trip (the reply may be to either copy: Karn's rule), so
// each timeout that passes doubles the next (backOff) until a sample
// comes: a timeout too short to ever let one come grows out of it.
type rttEstimate struct {
	srtt, rttvar float64
	samples      int
	backoff      uint8 // timeouts passed since the last sample
}

// add takes a round trip measured.
func (e *rttEstimate) add(ms int64) {
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

// backOff notes that a timeout passed: the next is twice as long.
func (e *rttEstimate) backOff() { e.backoff = min(e.backoff+1, maxBackoff) }

// Timeout is srtt + 4·rttvar, or def before the first sample, doubled for
// each timeout passed since the last sample, within [MinResendMS,
// MaxResendMS].
func (e *rttEstimate) Timeout(def int64) int64 {
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

// jitter is the interarrival jitter of a stream (RFC 3550, §6.4.1): the
// smoothed difference between consecutive packets' transit times. A
// stream's packets arrive out of order by up to a few times its jitter.
type jitter struct {
	j        float64
	last     int64 // the last transit time, in ms, offset by a constant
	measured bool
}

// add takes the transit time of the stream's next packet: its arrival
// less when it was sent, or less when it was due (a constant offset
// cancels out).
func (j *jitter) add(transitMS int64) {
	if j.measured {
		d := float64(transitMS - j.last)
		if d < 0 {
			d = -d
		}
		j.j += (d - j.j) / 16
	}
	j.last, j.measured = transitMS, true
}

// reorderMS is how long a tic missing while later ones came is waited for
// before it is asked for again: four times the jitter, at least
// MinReorderMS, at most MaxReorderMS.
func (j *jitter) reorderMS() int64 {
	return max(MinReorderMS, min(MaxReorderMS, int64(4*j.j+0.5)))
}

// The bounds of the reorder window.
const (
	MinReorderMS = 10
	MaxReorderMS = 250
)
