package transfer

import (
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Constants of a finished stream's memory and answers.
const (
	// closedMemory is how many finished streams each end
	// remembers, for twice StallMS after each ended: a late chunk or ack of
	// a finished stream is recognised as such (and answered) for longer
	// than the other end can keep the stream open.
	closedMemory = 64
	// answerCopies aborts go out for a stream this end drops, and final
	// acks for a stream it received, repeatMS apart: with 20 %
	// loss all three are lost once in 125. Then a dropped stream's other
	// end still drops it at its deadline, and a received stream's sender
	// gets the final ack in answer to its next resend.
	answerCopies = 3
	repeatMS     = 100
	// replyMS is the least time between two answers to chunks or
	// acks of one finished stream: a flood of replays gets one per period.
	replyMS = 100
)

// answer sends the answers due for finished streams of one direction:
// repeated aborts of streams this end dropped, and answers to chunks or
// acks of finished streams (a final ack of a stream received, or the
// abort again).
func (cs *closedStreams) answer(now int64, p *port, incoming bool) {
	for i := range cs.n {
		e := &cs.e[i]
		if !e.replyDue(now) {
			continue
		}
		e.replied(now)
		if e.completed && incoming {
			p.send(e.peer, &wire.TransferAck{Stream: e.stream, Base: e.count})
			p.c.AcksSent++
			continue
		}
		if !e.completed {
			p.sendAbort(e.peer, e.stream, incoming, e.reason)
		}
	}
}

// closedStream is a stream this end finished: received or delivered
// (completed), or dropped for reason. Its header tells a late chunk of it
// from a chunk of another stream under the same id.
type closedStream struct {
	peer      link.Addr
	stream    uint32
	total     uint32
	chunk     uint32
	hash      [wire.TransferHashLen]byte
	count     uint32
	completed bool
	reason    wire.TransferReason
	untilMS   int64 // forgotten after this

	copiesLeft int   // answers (abort, or final ack) still to send unasked
	asked      bool  // the other end sent something that wants an answer
	nextMS     int64 // no answer before this
}

func (e *closedStream) replyDue(now int64) bool {
	return now >= e.nextMS && (e.copiesLeft > 0 || e.asked)
}

func (e *closedStream) replied(now int64) {
	e.copiesLeft = max(e.copiesLeft-1, 0)
	e.nextMS = now + repeatMS
	if e.copiesLeft == 0 {
		e.nextMS = now + replyMS
	}
	e.asked = false
}

// closedStreams remembers the last closedMemory finished streams
// of one direction; when it is full, a new one takes the oldest's place.
type closedStreams struct {
	e [closedMemory]closedStream
	n int
}

func (cs *closedStreams) add(e closedStream) {
	if cs.n < len(cs.e) {
		cs.e[cs.n] = e
		cs.n++
		return
	}
	oldest := 0
	for i := range cs.e {
		if cs.e[i].untilMS < cs.e[oldest].untilMS {
			oldest = i
		}
	}
	cs.e[oldest] = e
}

func (cs *closedStreams) find(peer link.Addr, stream uint32) *closedStream {
	for i := range cs.n {
		if e := &cs.e[i]; e.peer == peer && e.stream == stream {
			return e
		}
	}
	return nil
}

// expire forgets the streams past their memory.
func (cs *closedStreams) expire(now int64) {
	for i := 0; i < cs.n; {
		if now <= cs.e[i].untilMS {
			i++
			continue
		}
		cs.n--
		cs.e[i] = cs.e[cs.n]
		cs.e[cs.n] = closedStream{}
	}
}
