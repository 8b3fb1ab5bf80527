package wire

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReaderReadsBigEndianAndSignExtendsOnlySignedReads(t *testing.T) {
	r := NewReader([]byte{0xff, 0xff, 0x80, 0x01, 0xfe, 0xdc, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc}, 0)
	require.Equal(t, uint8(0xff), r.U8("a"), "U8")
	require.Equal(t, int8(-1), r.S8("b"), "S8(0xff)")
	require.Equal(t, uint16(0x8001), r.U16("c"), "U16 (big-endian)")
	require.Equal(t, int16(-292), r.S16("d"), "S16(0xfedc)")
	require.Equal(t, uint32(0x12345678), r.U32("e"), "U32")
	require.Equal(t, int16(-25924), r.S16("f"), "S16(0x9abc)")
	require.NoError(t, r.Err(), "err %v, remaining %d, offset %d", r.Err(), r.Remaining(), r.Offset())
	require.Equal(t, 0, r.Remaining(), "err %v, remaining %d, offset %d", r.Err(), r.Remaining(), r.Offset())
	require.Equal(t, 12, r.Offset(), "err %v, remaining %d, offset %d", r.Err(), r.Remaining(), r.Offset())
}

func TestReaderShortReadFailsAtTheFieldsOffsetAndKeepsTheFirstError(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func(r *Reader)
		data int // bytes available
	}{
		{"U8", func(r *Reader) { r.U8("x") }, 0},
		{"U16", func(r *Reader) { r.U16("x") }, 1},
		{"S16", func(r *Reader) { r.S16("x") }, 1},
		{"U32", func(r *Reader) { r.U32("x") }, 3},
		{"Bytes", func(r *Reader) { r.Bytes(make([]byte, 20), "x") }, 19},
		{"String", func(r *Reader) { r.String("x") }, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			buf := append([]byte{1, 2}, bytes.Repeat([]byte{'a'}, tc.data)...)
			r := NewReader(buf, 3) // 3 header bytes before this body
			r.U16("lead")
			tc.read(&r)
			err := r.Err()
			var de *DecodeError
			require.ErrorAs(t, err, &de, "got %v, want a failure of x at offset 5 (3 + 2)", err)
			require.Equal(t, 5, de.Offset, "got %v, want a failure of x at offset 5 (3 + 2)", err)
			require.Equal(t, "x", de.Field, "got %v, want a failure of x at offset 5 (3 + 2)", err)
			// Later reads return zero and keep the first error.
			require.Equal(t, uint8(0), r.U8("y"), "a read after a failure returned data")
			require.Equal(t, uint32(0), r.U32("z"), "a read after a failure returned data")
			require.Equal(t, "", r.String("s"), "a read after a failure returned data")
			require.Equal(t, 0, r.Remaining(), "a read after a failure returned data")
			r.Fail("w", "later")
			require.Equal(t, "x", r.Err().(*DecodeError).Field, "first error replaced: %v", r.Err())
		})
	}
}

func TestReaderStringNeedsItsNULAndStopsAtTheFirstOne(t *testing.T) {
	r := NewReader([]byte("ab\x00\x00cd\x00"), 0)
	s := r.String("a")
	require.Equal(t, "ab", s, "got %q", s)
	s = r.String("b")
	require.Equal(t, "", s, "empty string read as %q", s)
	s = r.String("c")
	require.Equal(t, "cd", s, "got %q, %d left", s, r.Remaining())
	require.Equal(t, 0, r.Remaining(), "got %q, %d left", s, r.Remaining())
	r = NewReader([]byte("abc"), 0)
	r.String("name")
	var de *DecodeError
	require.ErrorAs(t, r.Err(), &de, "unterminated string: %v", r.Err())
	require.Equal(t, 0, de.Offset, "unterminated string: %v", r.Err())
	require.Contains(t, de.Reason, "NUL", "unterminated string: %v", r.Err())
}

func TestWriterTruncatesToTheFieldWidthLikeTheReference(t *testing.T) {
	w := Writer{}
	w.U8(0xab)
	w.S8(-2)
	w.U16(0x1234)
	w.S16(-2)
	w.U32(0xdeadbeef)
	w.Bytes([]byte{9, 8})
	w.String("hi")
	w.String("")
	w.String("ab\x00cd") // a C string ends at its NUL
	want := []byte{0xab, 0xfe, 0x12, 0x34, 0xff, 0xfe, 0xde, 0xad, 0xbe, 0xef, 9, 8, 'h', 'i', 0, 0, 'a', 'b', 0}
	require.Equal(t, want, w.Buf)
}

func TestWriterAppendsToTheGivenBuffer(t *testing.T) {
	buf := make([]byte, 1, 64)
	w := Writer{Buf: buf}
	w.U32(1)
	require.Equal(t, 5, len(w.Buf), "writer did not append in place")
	require.Same(t, &buf[0], &w.Buf[0], "writer did not append in place")
}

func TestPrintableKeepsOnlyPrintableASCIIAndNewline(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Client 'x' timed out", "Client 'x' timed out"},
		{"ok\n\x1b[31mred\x00\xff\t~\x7f", "ok\n[31mred~"},
		{"\r\n", "\n"},
		{"caf\xc3\xa9", "caf"}, // isprint in the C locale: no bytes >= 0x80
		{"", ""},
		{" !/09:@AZ[`az{~", " !/09:@AZ[`az{~"},
	} {
		got := Printable(tc.in)
		assert.Equal(t, tc.want, got, "Printable(%q) =", tc.in)
	}
}

func TestDecodeErrorNamesTypeFieldOffsetAndReason(t *testing.T) {
	e := &DecodeError{Type: "GAMEDATA", Offset: 4, Field: "num_tics", Reason: "too many"}
	got := e.Error()
	require.Equal(t, "parse GAMEDATA: num_tics at offset 4: too many", got, "got %q", got)
	e.Type = ""
	got = e.Error()
	require.True(t, strings.HasPrefix(got, "parse packet: "), "got %q", got)
}
