package session

import (
	"encoding/binary"

	"github.com/ticnet/ticnet/netcore/link"
)

// outbox is what this copy sends on the channel between two
// AppendOutgoing: the election's frames and the engine's, in the order
// sent, as the batch layout has them ([u32 LE len][frame]...), and what it
// counted.
type outbox struct {
	batch   []byte
	scratch []byte
	frames  int64 // frames sent
	bytes   int64 // their bytes
	dropped int64 // frames longer than link.MaxFrame, dropped
}

// add appends a game frame of payload from from to to.
func (o *outbox) add(to, from link.Addr, payload []byte) {
	o.scratch = link.AppendFrame(o.scratch[:0], to, from, payload)
	o.frame(o.scratch)
}

// frame appends one frame.
func (o *outbox) frame(f []byte) {
	if len(f) > link.MaxFrame {
		o.dropped++
		return
	}
	o.batch = binary.LittleEndian.AppendUint32(o.batch, uint32(len(f)))
	o.batch = append(o.batch, f...)
	o.frames++
	o.bytes += int64(len(f))
}

// AppendOutgoing appends every frame queued since the last call to dst, as
// [u32 LE length][frame]..., and forgets them.
func (o *outbox) AppendOutgoing(dst []byte) []byte {
	dst = append(dst, o.batch...)
	o.batch = o.batch[:0]
	return dst
}
