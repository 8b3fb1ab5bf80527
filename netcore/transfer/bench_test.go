package transfer_test

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// BenchmarkTransfer sends a stream of each size over the simulated 1 MB/s
// channel, without loss and with 20 % loss (50-150 ms one way both), for
// seeds 1 to 10. One op is the ten transfers. The metrics are virtual
// time, the same on every machine: when the receiver has the whole stream
// (median and slowest of the ten), the most it held, and the share of
// chunks sent again.
func BenchmarkTransfer(b *testing.B) {
	for _, ch := range []struct {
		name string
		link simnet.Link
	}{{"lossless", xferLossless}, {"loss20", xferLossy}} {
		for _, size := range []int{16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20} {
			b.Run(fmt.Sprintf("%s/%dKB", ch.name, size>>10), func(b *testing.B) {
				var times []int64
				var peak, sent, resent int64
				for b.Loop() {
					times, peak, sent, resent = times[:0], 0, 0, 0
					for seed := uint64(1); seed <= 10; seed++ {
						r := simulateTransfer(b, seed, ch.link, size)
						times = append(times, r.receivedMS)
						peak = max(peak, r.receiver.PeakBytesHeld)
						sent += r.sender.ChunksSent
						resent += r.sender.ChunksResent
					}
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2]), "virtual-ms-median")
				b.ReportMetric(float64(times[len(times)-1]), "virtual-ms-max")
				b.ReportMetric(float64(peak), "peak-bytes-held")
				b.ReportMetric(100*float64(resent)/float64(sent), "%-resent")
			})
		}
	}
}

// xferDiscard is a transport that drops what it is given.
type xferDiscard struct{}

func (xferDiscard) Send(link.Addr, []byte)          {}
func (xferDiscard) Recv() (link.Addr, []byte, bool) { return 0, nil, false }

// BenchmarkTransferSend4MB is the cost of starting a 4 MB stream: its
// SHA-256 (the data is not copied).
func BenchmarkTransferSend4MB(b *testing.B) {
	x := transfer.New(transfer.Config{}, xferDiscard{})
	data := xferPayload(4<<20, 1)
	b.SetBytes(int64(len(data)))
	id := uint32(0)
	for b.Loop() {
		id++
		if err := x.Send(0, 2, id, data); err != nil {
			b.Fatal(err)
		}
		x.CancelSend(0, 2, id, wire.TransferReasonCancelled)
	}
}

// BenchmarkTransferReceiveChunk is the receiver's cost of a 16 000-byte
// chunk: decode, copy into place, and the SHA-256 of the prefix it
// completes.
func BenchmarkTransferReceiveChunk(b *testing.B) {
	const size = 8 << 20
	data := xferPayload(size, 2)
	h := sha256.Sum256(data)
	cfg := transfer.Config{}
	chunk := uint32(transfer.DefaultChunkBytes)
	count := wire.TransferChunkCount(size, chunk)
	bodies := make([][]byte, count)
	for i := range count {
		end := min(int(i+1)*int(chunk), size)
		m := wire.TransferChunk{Stream: 1, Total: size, ChunkSize: chunk, Index: i, Hash: h, Data: data[int(i)*int(chunk) : end]}
		bodies[i] = m.AppendBody(nil)
	}
	b.SetBytes(int64(chunk))
	b.ReportAllocs()
	var x *transfer.Endpoint
	next, id := count, uint32(0)
	for b.Loop() {
		if next == count { // a new stream: its buffer is allocated whole
			b.StopTimer()
			x = transfer.New(cfg, xferDiscard{})
			x.AcceptFrom(1)
			id++
			for i := range bodies {
				bodies[i][1], bodies[i][2], bodies[i][3], bodies[i][4] = byte(id>>24), byte(id>>16), byte(id>>8), byte(id)
			}
			next = 0
			b.StartTimer()
		}
		x.Handle(0, 1, bodies[next])
		next++
	}
}
