package reliable

// Loss is the share of a peer's packets lost on the way, as the tics they
// bring show it: a playing client sends a GAMEDATA a tic, its newest
// command last, and the server a set a tic, its newest tic last, so a jump
// of the newest tic by d means d-1 packets lost. It is an
// average over about LossWindowPackets packets; a packet that comes late,
// out of order, counts as lost (a channel that reorders much is treated
// as one that loses a little); a jump of more than MaxLossRun is a pause
// (a page in the background, a silent link), not loss.
type Loss struct {
	newest uint32
	seen   bool
	rate   float64
}

// LossWindowPackets is how many packets the loss estimate averages over:
// about two seconds of a player's commands.
const LossWindowPackets = 64

// MaxLossRun is the most packets in a row counted as lost: at 20 % loss,
// 16 in a row happen once in 10¹¹.
const MaxLossRun = 16

// Add takes the newest tic of a GAMEDATA that came.
func (l *Loss) Add(newest uint32) {
	d := int32(newest - l.newest)
	if !l.seen || d > MaxLossRun+1 {
		l.newest, l.seen = newest, true
		return
	}
	if d <= 0 {
		return // a copy, or late: it was counted as lost
	}
	for range d - 1 {
		l.rate += (1 - l.rate) / LossWindowPackets
	}
	l.rate -= l.rate / LossWindowPackets
	l.newest = newest
}

// Rate is the share of packets lost, from 0 to 1.
func (l *Loss) Rate() float64 { return l.rate }
