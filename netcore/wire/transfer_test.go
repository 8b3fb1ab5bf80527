package wire

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func chunkFixture() *TransferChunk {
	m := &TransferChunk{Stream: 0x01020304, Total: 10, ChunkSize: 4, Index: 2, Data: []byte{0xaa, 0xbb}}
	for i := range m.Hash {
		m.Hash[i] = byte(i)
	}
	return m
}

func TestTransferChunkLayoutIsKindStreamTotalSizeIndexHashThenData(t *testing.T) {
	pkt := Encode(nil, chunkFixture(), false, 0)
	want := []byte{0x00, 0x70, TicnetKindTransferChunk, 1, 2, 3, 4, 0, 0, 0, 10, 0, 0, 0, 4, 0, 0, 0, 2}
	for i := range TransferHashLen {
		want = append(want, byte(i))
	}
	want = append(want, 0xaa, 0xbb)
	require.Equal(t, want, pkt)
	require.Equal(t, 2+TransferChunkHeaderLen+2, len(pkt), "%d bytes", len(pkt))
	got := &TransferChunk{}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%+v", got)
	require.True(t, sameMessage(got, chunkFixture()), "%+v %v", got, err)
	require.Equal(t, uint32(3), got.Count(), "count %d offset %d", got.Count(), got.Offset())
	require.Equal(t, 8, got.Offset(), "count %d offset %d", got.Count(), got.Offset())
	// The data is not copied: it is the packet's own bytes.
	require.Same(t, &pkt[len(pkt)-2], &got.Data[0], "data was copied")
	h, m, err := DecodePacket(pkt, ServerToClient, false)
	_, ok := m.(*TransferChunk)
	require.NoError(t, err, "%T", m)
	require.True(t, ok, "%T %v", m, err)
	require.Equal(t, TypeTicnet, h.Type, "%T %v", m, err)
	require.Equal(t, pkt[2:2+TransferChunkHeaderLen], chunkFixture().AppendHeader(nil), "AppendHeader is not the body up to the data")
}

func TestTransferChunkRefusesWhatNoStreamCanHoldWhereItIs(t *testing.T) {
	good := Encode(nil, chunkFixture(), false, 0)
	mod := func(i int, b ...byte) []byte { p := bytes.Clone(good); copy(p[i:], b); return p }
	wantDecodeErrorAt(t, mod(2, TicnetKindTransferAck), &TransferChunk{}, 2, "kind", "not a transfer chunk")
	wantDecodeErrorAt(t, mod(7, 0, 0, 0, 0), &TransferChunk{}, 7, "total", "empty stream")
	wantDecodeErrorAt(t, mod(11, 0, 0, 0, 0), &TransferChunk{}, 11, "chunk_size", "not in [1, 127941]")
	wantDecodeErrorAt(t, mod(11, 0, 1, 0xf3, 0xc6), &TransferChunk{}, 11, "chunk_size", "127942 not in")
	wantDecodeErrorAt(t, mod(15, 0, 0, 0, 3), &TransferChunk{}, 15, "index", "chunk 3 of a stream of 3 chunks")
	wantDecodeErrorAt(t, mod(15, 0xff, 0xff, 0xff, 0xff), &TransferChunk{}, 15, "index", "of a stream of 3")
	// Chunk 2 of 10 bytes in 4-byte chunks holds 2 bytes; chunk 1 holds 4.
	wantDecodeErrorAt(t, good[:len(good)-1], &TransferChunk{}, 51, "data", "1 bytes, chunk 2 holds 2")
	wantDecodeErrorAt(t, append(bytes.Clone(good), 0), &TransferChunk{}, 51, "data", "3 bytes, chunk 2 holds 2")
	wantDecodeErrorAt(t, mod(18, 1), &TransferChunk{}, 51, "data", "2 bytes, chunk 1 holds 4")
	// A 4 GB stream in 1-byte chunks: the index arithmetic does not overflow.
	huge := &TransferChunk{Total: 0xffffffff, ChunkSize: 1, Index: 0xfffffffe, Data: []byte{7}}
	got := &TransferChunk{}
	_, err := Decode(Encode(nil, huge, false, 0), got)
	require.NoError(t, err, "%v %v", got.Count(), err)
	require.Equal(t, uint32(0xffffffff), got.Count(), "%v %v", got.Count(), err)
	// The largest chunk fits the realtime channel's frame, frame header included.
	big := &TransferChunk{Total: 1 << 20, ChunkSize: MaxTransferChunkSize, Data: make([]byte, MaxTransferChunkSize)}
	n := 8 + len(Encode(nil, big, false, 0))
	require.Equal(t, 128000, n, "largest chunk frame is %d bytes", n)
}

func TestTransferChunkTruncatedAtEveryLengthFails(t *testing.T) {
	checkTruncations(t, chunkFixture(), false, nil)
	last := &TransferChunk{Stream: 9, Total: 1, ChunkSize: MaxTransferChunkSize, Data: []byte{1}}
	checkTruncations(t, last, true, nil)
}

func TestTransferAckRoundTripsAndSaysWhichChunksItHolds(t *testing.T) {
	m := &TransferAck{Stream: 7, Base: 3, Bitmap: []byte{0b101, 0x80}}
	pkt := Encode(nil, m, false, 0)
	require.Equal(t, []byte{0, 0x70, TicnetKindTransferAck, 0, 0, 0, 7, 0, 0, 0, 3, 2, 0b101, 0x80}, pkt, "% x", pkt)
	got := &TransferAck{}
	_, err := Decode(pkt, got)
	require.NoError(t, err, "%v %v", got, err)
	require.True(t, sameMessage(got, m), "%v %v", got, err)
	var held []uint32
	for i := range uint32(40) {
		if got.Holds(i) {
			held = append(held, i)
		}
	}
	want := []uint32{0, 1, 2, 4, 6, 19}
	require.True(t, equalU32(held, want), "holds %v, want %v", held, want)
	top := &TransferAck{Base: 0xffffffff, Bitmap: []byte{0xff}}
	require.True(t, top.Holds(0xfffffffe), "Holds near the top of the range")
	require.False(t, top.Holds(0xffffffff), "Holds near the top of the range")
	checkTruncations(t, m, false, nil)
	big := append(bytes.Clone(pkt[:11]), 65)
	big = append(big, make([]byte, 65)...)
	wantDecodeErrorAt(t, big, &TransferAck{}, 11, "bitmap_len", "65 bitmap bytes > limit 64")
	wantDecodeErrorAt(t, pkt[:len(pkt)-1], &TransferAck{}, 11, "bitmap_len", "cannot fit")
	bad := bytes.Clone(pkt)
	bad[2] = TicnetKindTransferChunk
	wantDecodeErrorAt(t, bad, &TransferAck{}, 2, "kind", "not a transfer ack")
}

func equalU32(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTransferAbortRoundTripsAndRefusesUnknownFlags(t *testing.T) {
	for _, fromReceiver := range []bool{false, true} {
		m := &TransferAbort{Stream: 0x0a0b0c0d, FromReceiver: fromReceiver, Reason: TransferReasonHashMismatch}
		pkt := Encode(nil, m, false, 0)
		require.Equal(t, []byte{0, 0x70, TicnetKindTransferAbort, b2u(fromReceiver), 0x0a, 0x0b, 0x0c, 0x0d, 3}, pkt, "% x", pkt)
		got := &TransferAbort{FromReceiver: !fromReceiver}
		_, err := Decode(pkt, got)
		require.NoError(t, err, "%v %v", got, err)
		require.Equal(t, *m, *got, "%v %v", got, err)
		checkTruncations(t, m, false, nil)
	}
	wantDecodeErrorAt(t, []byte{0, 0x70, TicnetKindTransferAbort, 2, 0, 0, 0, 1, 1}, &TransferAbort{}, 3, "flags", "unknown flags 0x2")
	wantDecodeErrorAt(t, []byte{0, 0x70, TicnetKindMode, 0, 0, 0, 0, 1, 1}, &TransferAbort{}, 2, "kind", "not a transfer abort")
	// A reason this version does not know still decodes: a later one may add reasons.
	got := &TransferAbort{}
	_, err := Decode([]byte{0, 0x70, TicnetKindTransferAbort, 0, 0, 0, 0, 1, 200}, got)
	require.NoError(t, err, "%v %v", got, err)
	require.Equal(t, "reason(200)", got.Reason.String(), "%v %v", got, err)
	require.Equal(t, "stalled", TransferReasonStalled.String(), "%v %v", TransferReasonStalled, TransferReasonPeerLeft)
	require.Equal(t, "peer left", TransferReasonPeerLeft.String(), "%v %v", TransferReasonStalled, TransferReasonPeerLeft)
}

func TestIsTransferKindIsExactlyTheTransfersKinds(t *testing.T) {
	for k := range 256 {
		want := k == TicnetKindTransferChunk || k == TicnetKindTransferAck || k == TicnetKindTransferAbort
		assert.Equal(t, want, IsTransferKind(uint8(k)), "kind %d", k)
	}
}

func TestTransferChunkAndAckDecodeAllocateNothing(t *testing.T) {
	m := &TransferChunk{Stream: 1, Total: 1 << 20, ChunkSize: 16000, Index: 5, Data: bytes.Repeat([]byte{1}, 16000)}
	assertNoAllocs(t, m)
	assertNoAllocs(t, &TransferAck{Stream: 1, Base: 9, Bitmap: []byte{1, 2, 3}})
	assertNoAllocs(t, &TransferAbort{Stream: 1, Reason: TransferReasonStalled})
}

func BenchmarkDecodeTransferChunk(b *testing.B) {
	benchDecode(b, &TransferChunk{Stream: 1, Total: 1 << 20, ChunkSize: 16000, Index: 5, Data: bytes.Repeat([]byte{1}, 16000)})
}

func BenchmarkDecodeTransferAck(b *testing.B) {
	benchDecode(b, &TransferAck{Stream: 1, Base: 9, Bitmap: []byte{1, 2, 3, 4}})
}
