package wire

import (
	"strconv"
	"strings"
)

// DecodeError says where and why a packet could not be decoded.
type DecodeError struct {
	Type   string // message name, e.g. "GAMEDATA"; empty before the type is known
	Offset int    // byte offset into the packet where decoding failed
	Field  string // the field being read
	Reason string
}

func (e *DecodeError) Error() string {
	name := e.Type
	if name == "" {
		name = "packet"
	}
	return "parse " + name + ": " + e.Field + " at offset " + strconv.Itoa(e.Offset) + ": " + e.Reason
}

// Reader reads big-endian values from a packet, bounds-checked. The first
// failure is kept and every later read returns zero, so a decoder can read a
// whole structure and check Err once.
type Reader struct {
	buf  []byte
	off  int
	base int
	err  *DecodeError
}

// NewReader returns a Reader over b whose offsets count from base (the
// length of whatever precedes b in the packet).
func NewReader(b []byte, base int) Reader {
	return Reader{buf: b, base: base}
}

// Err returns the first failure, or nil.
func (r *Reader) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Offset is the position of the next read, counted from the packet start.
func (r *Reader) Offset() int { return r.base + r.off }

// Remaining is how many bytes are left to read.
func (r *Reader) Remaining() int {
	if r.err != nil {
		return 0
	}
	return len(r.buf) - r.off
}

// Fail records a failure at the current offset unless one is recorded.
func (r *Reader) Fail(field, reason string) { r.failAt(r.Offset(), field, reason) }

// failAt records a failure at packet offset off (a value of Offset taken
// before the field was read) unless one is recorded: a count or a kind that
// is refused is reported where it is, not after it.
func (r *Reader) failAt(off int, field, reason string) {
	if r.err == nil {
		r.err = &DecodeError{Offset: off, Field: field, Reason: reason}
	}
}

func (r *Reader) take(n int, field string) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.buf)-r.off < n {
		r.err = &DecodeError{Offset: r.Offset(), Field: field,
			Reason: "need " + strconv.Itoa(n) + " bytes, have " + strconv.Itoa(len(r.buf)-r.off)}
		return nil
	}
	b := r.buf[r.off : r.off+n]
	r.off += n
	return b
}

// U8 reads an unsigned byte.
func (r *Reader) U8(field string) uint8 {
	b := r.take(1, field)
	if b == nil {
		return 0
	}
	return b[0]
}

// S8 reads a signed byte.
func (r *Reader) S8(field string) int8 { return int8(r.U8(field)) }

// U16 reads a big-endian unsigned 16-bit value.
func (r *Reader) U16(field string) uint16 {
	b := r.take(2, field)
	if b == nil {
		return 0
	}
	return uint16(b[0])<<8 | uint16(b[1])
}

// S16 reads a big-endian signed 16-bit value.
func (r *Reader) S16(field string) int16 { return int16(r.U16(field)) }

// U32 reads a big-endian unsigned 32-bit value.
func (r *Reader) U32(field string) uint32 {
	b := r.take(4, field)
	if b == nil {
		return 0
	}
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

// Bytes reads exactly len(dst) bytes into dst.
func (r *Reader) Bytes(dst []byte, field string) {
	if b := r.take(len(dst), field); b != nil {
		copy(dst, b)
	}
}

// String reads a NUL-terminated string. The string is the raw bytes: use
// Printable before showing one to a person.
func (r *Reader) String(field string) string {
	if r.err != nil {
		return ""
	}
	i := 0
	rest := r.buf[r.off:]
	for i < len(rest) && rest[i] != 0 {
		i++
	}
	if i == len(rest) {
		r.Fail(field, "string has no NUL terminator")
		return ""
	}
	s := string(rest[:i])
	r.off += i + 1
	return s
}

// Printable keeps the characters of s that the reference's "safe string"
// reader keeps: printable ASCII and newline.
func Printable(s string) string {
	return strings.Map(func(c rune) rune {
		if c == '\n' || (c >= 0x20 && c < 0x7f) {
			return c
		}
		return -1
	}, s)
}

// Writer appends big-endian values to a byte slice. Writes never fail; like
// the reference, values are truncated to the width of the field.
type Writer struct {
	Buf []byte
}

// U8 appends one byte.
func (w *Writer) U8(v uint8) { w.Buf = append(w.Buf, v) }

// S8 appends a signed byte.
func (w *Writer) S8(v int8) { w.Buf = append(w.Buf, uint8(v)) }

// U16 appends a big-endian 16-bit value.
func (w *Writer) U16(v uint16) { w.Buf = append(w.Buf, byte(v>>8), byte(v)) }

// S16 appends a big-endian signed 16-bit value.
func (w *Writer) S16(v int16) { w.U16(uint16(v)) }

// U32 appends a big-endian 32-bit value.
func (w *Writer) U32(v uint32) {
	w.Buf = append(w.Buf, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

// Bytes appends raw bytes.
func (w *Writer) Bytes(b []byte) { w.Buf = append(w.Buf, b...) }

// String appends s and a NUL. A string holding a NUL is cut there, as a C
// string would be.
func (w *Writer) String(s string) {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	w.Buf = append(w.Buf, s...)
	w.Buf = append(w.Buf, 0)
}
