package link

import "encoding/binary"

// A frame is what a broadcast channel carries: [to u32 LE][from u32 LE]
// [payload], as VectorDoom frames it. AppendFrame writes every frame
// header on the channel, ParseFrame reads every one, and FrameFilter is
// the one place that decides which frames are a peer's.

// FrameHeaderLen is the length of the channel frame header.
const FrameHeaderLen = 8

// MaxFrame is the largest frame a channel carries (the WebXDC realtime
// channel's limit).
const MaxFrame = 128000

// AppendFrame appends a channel frame: the header, then payload.
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

// FrameFilter keeps, of the frames on a broadcast channel, those for one
// peer, as the browser shim does, and counts the ones it drops.
type FrameFilter struct {
	Malformed int64 // too short to have a header, or claiming to come from this peer
	NotForUs  int64 // addressed to another peer: normal on a broadcast channel
}

// Keep parses frame and reports whether it is for the peer whose UID is
// uid: addressed to uid or to everyone, and not claiming to come from uid
// or from alias, the peer's other UID (a serving copy's own client UID;
// uid again for a peer with one UID).
func (f *FrameFilter) Keep(frame []byte, uid, alias Addr) (to, from Addr, payload []byte, ok bool) {
	to, from, payload, ok = ParseFrame(frame)
	switch {
	case !ok || from == uid || from == alias:
		f.Malformed++
		return 0, 0, nil, false
	case to != uid && to != Broadcast:
		f.NotForUs++
		return 0, 0, nil, false
	}
	return to, from, payload, true
}
