package netcore

import "encoding/binary"

// Addr names a peer. On a broadcast channel it is the peer's UID (the
// server is 1); 0 addresses every peer.
type Addr uint32

// Broadcast is the address of every peer on a channel.
const Broadcast Addr = 0

// Transport moves packets for one endpoint.
type Transport interface {
	// Send queues payload for to. It must not retain payload.
	Send(to Addr, payload []byte)
	// Recv returns the next packet received, if any. The payload is valid
	// until the next call to Recv.
	Recv() (from Addr, payload []byte, ok bool)
}

// FrameHeaderLen is the length of the channel frame header.
const FrameHeaderLen = 8

// MaxFrame is the largest frame a channel carries (the WebXDC realtime
// channel's limit).
const MaxFrame = 128000

// AppendFrame appends a channel frame, [to u32 LE][from u32 LE][payload],
// as VectorDoom frames it.
func AppendFrame(dst []byte, to, from Addr, payload []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(to))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(from))
	return append(dst, payload...)
}

// ParseFrame splits a channel frame. ok is false for a frame too short to
// have a header.
func ParseFrame(frame []byte) (to, from Addr, payload []byte, ok bool) {
	if len(frame) < FrameHeaderLen {
		return 0, 0, nil, false
	}
	to = Addr(binary.LittleEndian.Uint32(frame))
	from = Addr(binary.LittleEndian.Uint32(frame[4:]))
	return to, from, frame[FrameHeaderLen:], true
}
