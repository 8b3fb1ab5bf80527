package transfer

import (
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"
)

// port is what both halves of an Endpoint share: the configuration, the
// counters, and the one way out, paced. Acks, aborts and chunks are all
// charged to one budget, so that the streams of both directions together
// keep to RateBytesPerSec.
type port struct {
	cfg Config
	tr  link.Transport
	c   Counters

	tokens   int64 // pacing budget in byte-milliseconds (bytes × 1000)
	pumpedMS int64
	pumped   bool
	waiting  bool // a chunk was ready when the budget ran out

	buf []byte // packet scratch
}

// refill adds the pacing budget earned since the last pass. A chunk goes
// when the budget is not negative, so the budget may go one frame into
// debt. An idle sender saves up to BurstBytes less one largest chunk
// frame, so that at most BurstBytes leave at once; a sender with a chunk
// waiting keeps up to a frame less a byte besides, so that the fraction of
// a chunk earned by the pass that pays off the debt is not lost (the rate
// holds exactly while passes come at least once a chunk) and still no
// second chunk follows the first in one pass.
func (p *port) refill(now int64) {
	frame := int64(p.cfg.ChunkBytes + chunkOverhead)
	limit := (int64(p.cfg.BurstBytes) - frame) * 1000
	if p.waiting {
		limit += frame*1000 - 1
	}
	if !p.pumped {
		p.pumped, p.pumpedMS, p.tokens = true, now, limit
		return
	}
	if dt := now - p.pumpedMS; dt > 0 {
		p.tokens = min(p.tokens+dt*p.cfg.RateBytesPerSec, limit)
		p.pumpedMS = now
	}
}

// spend charges a sent packet of n bytes (its frame header included) to
// the pacing budget, which control packets may drive further into debt.
func (p *port) spend(n int) { p.tokens -= int64(n+link.FrameHeaderLen) * 1000 }

// send transmits a transfer message to peer.
func (p *port) send(to link.Addr, m wire.Message) {
	p.buf = wire.Encode(p.buf[:0], m, false, 0)
	p.tr.Send(to, p.buf)
	p.spend(len(p.buf))
}

// sendAbort tells peer to drop a stream.
func (p *port) sendAbort(to link.Addr, stream uint32, fromReceiver bool, reason wire.TransferReason) {
	p.send(to, &wire.TransferAbort{Stream: stream, FromReceiver: fromReceiver, Reason: reason})
	p.c.AbortsSent++
}
