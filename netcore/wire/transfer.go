package wire

import "strconv"

// The bulk transfer's messages (ProtocolTicnet): a stream of bytes too large
// for one frame (a game-state snapshot, a timeline) goes as chunks, the
// receiver acknowledges them selectively, and either end can abort it.
const (
	TicnetKindTransferChunk = 4 // TransferChunk: sender to receiver
	TicnetKindTransferAck   = 5 // TransferAck: receiver to sender
	TicnetKindTransferAbort = 6 // TransferAbort: either way
)

// IsTransferKind reports whether a TypeTicnet kind byte is one of the bulk
// transfer's messages.
func IsTransferKind(kind uint8) bool {
	return kind >= TicnetKindTransferChunk && kind <= TicnetKindTransferAbort
}

// Sizes of the bulk transfer's messages.
const (
	// TransferHashLen is the length of a stream's hash: a whole SHA-256.
	TransferHashLen = 32
	// TransferChunkHeaderLen is a TransferChunk body before its data:
	// kind, stream, total, chunk size, index, hash.
	TransferChunkHeaderLen = 1 + 4 + 4 + 4 + 4 + TransferHashLen
	// MaxTransferChunkSize is the most data one chunk carries: a chunk
	// packet (2-byte header, unreliable) in a channel frame (8-byte header)
	// must fit the realtime channel's 128 000 bytes.
	MaxTransferChunkSize = 128000 - 8 - 2 - TransferChunkHeaderLen
	// MaxTransferAckBitmap bounds a TransferAck's bitmap: 64 bytes describe
	// the 512 chunks after the first missing one.
	MaxTransferAckBitmap = 64
)

// TransferChunkCount is how many chunks a stream of total bytes has in
// chunks of size bytes (size > 0).
func TransferChunkCount(total, size uint32) uint32 {
	return uint32((uint64(total) + uint64(size) - 1) / uint64(size))
}

// TransferChunk is one piece of a stream. Every chunk says everything about
// its stream (id, length, chunk size, hash), so the receiver can open the
// stream from whichever chunk arrives first: losing the first chunk costs
// one resend, never a stall, and no separate "open" message has to be made
// reliable. The 49 bytes of header are 0.3 % of a 16 000-byte chunk.
//
// The decoder accepts only a chunk that can belong to the stream it
// describes: total > 0, 0 < ChunkSize <= MaxTransferChunkSize, Index within
// the stream, and exactly as much data as that chunk holds (ChunkSize, less
// for the last).
type TransferChunk struct {
	Stream    uint32 // chosen by the sender; with the sender's address it names the stream
	Total     uint32 // the stream's length in bytes
	ChunkSize uint32 // every chunk holds this much but the last
	Index     uint32 // this chunk holds bytes [Index*ChunkSize, +len(Data))
	Hash      [TransferHashLen]byte
	// Data is the chunk's bytes. DecodeBody does not copy them: Data is a
	// slice of the decoded body, valid as long as the body is.
	Data []byte
}

func (*TransferChunk) Type() Type { return TypeTicnet }

// Count is the number of chunks in the chunk's stream.
func (m *TransferChunk) Count() uint32 { return TransferChunkCount(m.Total, m.ChunkSize) }

// Offset is the position of the chunk's first byte in the stream.
func (m *TransferChunk) Offset() int { return int(m.Index) * int(m.ChunkSize) }

// chunkLen is how many bytes chunk index of the stream holds.
func (m *TransferChunk) chunkLen() int {
	return int(min(uint64(m.ChunkSize), uint64(m.Total)-uint64(m.Index)*uint64(m.ChunkSize)))
}

// AppendHeader appends the body up to the data: an engine that sends a
// chunk appends its data after it, straight from the stream's buffer.
func (m *TransferChunk) AppendHeader(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindTransferChunk)
	w.U32(m.Stream)
	w.U32(m.Total)
	w.U32(m.ChunkSize)
	w.U32(m.Index)
	w.Bytes(m.Hash[:])
	return w.Buf
}

func (m *TransferChunk) AppendBody(dst []byte) []byte {
	return append(m.AppendHeader(dst), m.Data...)
}

func (m *TransferChunk) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindTransferChunk {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a transfer chunk")
	}
	m.Stream = r.U32("stream")
	at := r.Offset()
	if m.Total = r.U32("total"); r.err == nil && m.Total == 0 {
		r.failAt(at, "total", "empty stream")
	}
	at = r.Offset()
	if m.ChunkSize = r.U32("chunk_size"); r.err == nil && (m.ChunkSize == 0 || m.ChunkSize > MaxTransferChunkSize) {
		r.failAt(at, "chunk_size", "chunk size "+strconv.FormatUint(uint64(m.ChunkSize), 10)+" not in [1, "+strconv.Itoa(MaxTransferChunkSize)+"]")
	}
	at = r.Offset()
	if m.Index = r.U32("index"); r.err == nil && m.Index >= m.Count() {
		r.failAt(at, "index", "chunk "+strconv.FormatUint(uint64(m.Index), 10)+" of a stream of "+strconv.FormatUint(uint64(m.Count()), 10)+" chunks")
	}
	r.Bytes(m.Hash[:], "hash")
	m.Data = nil
	if r.err == nil {
		if n, want := r.Remaining(), m.chunkLen(); n != want {
			r.Fail("data", strconv.Itoa(n)+" bytes, chunk "+strconv.FormatUint(uint64(m.Index), 10)+" holds "+strconv.Itoa(want))
		} else {
			m.Data = r.take(n, "data")
		}
	}
	return bodyErr(&r, TypeTicnet)
}

// TransferAck is the receiver's selective acknowledgement of a stream: it
// holds every chunk before Base (Base equal to the stream's chunk count says
// the stream arrived whole and its hash checked), not chunk Base, and of the
// chunks after Base those whose bit is set. Each ack describes the whole
// state, so a lost ack costs nothing once a later one arrives.
type TransferAck struct {
	Stream uint32
	Base   uint32
	// Bitmap: bit j (least significant first) of byte i set says that chunk
	// Base+1+8i+j is held. At most MaxTransferAckBitmap bytes.
	Bitmap []byte
}

func (*TransferAck) Type() Type { return TypeTicnet }

// Holds reports whether the ack says chunk i is held.
func (m *TransferAck) Holds(i uint32) bool {
	if i < m.Base {
		return true
	}
	if i == m.Base {
		return false
	}
	d := uint64(i) - uint64(m.Base) - 1
	return d < 8*uint64(len(m.Bitmap)) && m.Bitmap[d/8]&(1<<(d%8)) != 0
}

func (m *TransferAck) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindTransferAck)
	w.U32(m.Stream)
	w.U32(m.Base)
	w.U8(uint8(len(m.Bitmap)))
	w.Bytes(m.Bitmap)
	return w.Buf
}

func (m *TransferAck) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindTransferAck {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a transfer ack")
	}
	m.Stream = r.U32("stream")
	m.Base = r.U32("base")
	at := r.Offset()
	n := int(r.U8("bitmap_len"))
	switch {
	case n > MaxTransferAckBitmap:
		r.failAt(at, "bitmap_len", strconv.Itoa(n)+" bitmap bytes > limit "+strconv.Itoa(MaxTransferAckBitmap))
	case n > r.Remaining():
		r.failAt(at, "bitmap_len", strconv.Itoa(n)+" bitmap bytes cannot fit in "+strconv.Itoa(r.Remaining())+" bytes")
	}
	m.Bitmap = m.Bitmap[:0]
	if r.err == nil {
		m.Bitmap = append(m.Bitmap, r.take(n, "bitmap")...)
	}
	return bodyErr(&r, TypeTicnet)
}

// TransferReason says why a stream was abandoned.
type TransferReason uint8

// Reasons for a TransferAbort. A decoder accepts any value, so that a later
// version can add reasons; String names the unknown ones by number.
const (
	TransferReasonCancelled    TransferReason = 1 // the application cancelled it
	TransferReasonStalled      TransferReason = 2 // no progress within the deadline
	TransferReasonHashMismatch TransferReason = 3 // the whole did not match its hash
	TransferReasonTooLarge     TransferReason = 4 // longer than the receiver takes
	TransferReasonNoRoom       TransferReason = 5 // the receiver holds its most streams or bytes
	TransferReasonPeerLeft     TransferReason = 6 // the engine dropped the peer
	// TransferReasonNoSnapshot: asked for the game state of a tic, the peer
	// cannot save it (late join), so the stream will never start.
	TransferReasonNoSnapshot TransferReason = 7
)

var transferReasonNames = [...]string{
	TransferReasonCancelled: "cancelled", TransferReasonStalled: "stalled", TransferReasonHashMismatch: "hash mismatch",
	TransferReasonTooLarge: "too large", TransferReasonNoRoom: "no room", TransferReasonPeerLeft: "peer left",
	TransferReasonNoSnapshot: "no snapshot",
}

func (r TransferReason) String() string {
	if int(r) < len(transferReasonNames) && transferReasonNames[r] != "" {
		return transferReasonNames[r]
	}
	return "reason(" + strconv.Itoa(int(r)) + ")"
}

// transferAbortFromReceiver is the flag bit of a TransferAbort sent by the
// stream's receiver.
const transferAbortFromReceiver = 1

// TransferAbort tells the other end of a stream to forget it at once. A
// peer can send one stream to another and receive another stream with the
// same id from it, so the abort says which end it comes from.
type TransferAbort struct {
	Stream uint32
	// FromReceiver: sent by the stream's receiver, about a stream the
	// recipient sends. Otherwise sent by the stream's sender.
	FromReceiver bool
	Reason       TransferReason
}

func (*TransferAbort) Type() Type { return TypeTicnet }

func (m *TransferAbort) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindTransferAbort)
	w.U8(b2u(m.FromReceiver))
	w.U32(m.Stream)
	w.U8(uint8(m.Reason))
	return w.Buf
}

func (m *TransferAbort) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindTransferAbort {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a transfer abort")
	}
	at := r.Offset()
	if f := r.U8("flags"); r.err == nil && f&^transferAbortFromReceiver != 0 {
		r.failAt(at, "flags", "unknown flags "+"0x"+strconv.FormatUint(uint64(f), 16))
	} else {
		m.FromReceiver = f != 0
	}
	m.Stream = r.U32("stream")
	m.Reason = TransferReason(r.U8("reason"))
	return bodyErr(&r, TypeTicnet)
}
