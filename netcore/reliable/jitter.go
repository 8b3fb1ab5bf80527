package reliable

// Jitter is the interarrival jitter of a stream (RFC 3550, §6.4.1): the
// smoothed difference between consecutive packets' transit times. A
// stream's packets arrive out of order by up to a few times its jitter.
type Jitter struct {
	j        float64
	last     int64 // the last transit time, in ms, offset by a constant
	measured bool
}

// Add takes the transit time of the stream's next packet: its arrival
// less when it was sent, or less when it was due (a constant offset
// cancels out).
func (j *Jitter) Add(transitMS int64) {
	if j.measured {
		d := float64(transitMS - j.last)
		if d < 0 {
			d = -d
		}
		j.j += (d - j.j) / 16
	}
	j.last, j.measured = transitMS, true
}

// Restart takes the stream up again after a pause or under a new sender:
// the next packet's transit is a new baseline, not a difference from the
// last one's, which would time the pause. The jitter measured so far
// stands.
func (j *Jitter) Restart() { j.measured = false }

// ReorderMS is how long a tic missing while later ones came is waited for
// before it is asked for again: four times the jitter, at least
// MinReorderMS, at most MaxReorderMS.
func (j *Jitter) ReorderMS() int64 {
	return max(MinReorderMS, min(MaxReorderMS, int64(4*j.j+0.5)))
}

// The bounds of the reorder window.
const (
	MinReorderMS = 10
	MaxReorderMS = 250
)
