package transfer

import (
	"strconv"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// EventKind says what happened to a stream.
type EventKind uint8

const (
	// Received: an incoming stream arrived whole and matched its
	// hash. Data is the stream; it is the caller's from now on.
	Received EventKind = iota + 1
	// Delivered: the receiver has every chunk of an outgoing
	// stream and its hash checked. The stream's data is the caller's again.
	Delivered
	// Dropped: a stream ended without arriving; Reason says why and
	// ByPeer whether the other end decided it. An outgoing stream's data is
	// the caller's again, an incoming stream's memory is freed.
	Dropped
)

var eventNames = [...]string{
	Received: "received", Delivered: "delivered", Dropped: "dropped",
}

func (k EventKind) String() string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return "transfer event(" + strconv.Itoa(int(k)) + ")"
}

// Event is the end of a stream.
type Event struct {
	Kind     EventKind
	Peer     link.Addr // the other end
	Stream   uint32    // the stream's id
	Outgoing bool      // this end sent the stream
	Data     []byte    // Received only
	Reason   wire.TransferReason
	ByPeer   bool // Dropped: the other end aborted it
}

func (e Event) String() string {
	dir := "from"
	if e.Outgoing {
		dir = "to"
	}
	s := "transfer " + e.Kind.String() + " " + dir + " " + strconv.FormatUint(uint64(e.Peer), 10) + " stream " + strconv.FormatUint(uint64(e.Stream), 10)
	if e.Data != nil {
		s += " (" + strconv.Itoa(len(e.Data)) + " bytes)"
	}
	if e.Kind == Dropped {
		s += ": " + e.Reason.String()
		if e.ByPeer {
			s += " (by the peer)"
		}
	}
	return s
}
