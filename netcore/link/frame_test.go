package link_test

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/link"

	"github.com/stretchr/testify/require"

	"github.com/stretchr/testify/assert"
)

func TestFrameHeaderIsToThenFromLittleEndian(t *testing.T) {
	f := link.AppendFrame([]byte{0xEE}, 0x01020304, 0x0A0B0C0D, []byte("hi"))
	want := []byte{0xEE, 4, 3, 2, 1, 0x0D, 0x0C, 0x0B, 0x0A, 'h', 'i'}
	require.Equal(t, want, f, "framed")
	to, from, payload, ok := link.ParseFrame(f[1:])
	require.True(t, ok, "parsed %x %x %q %v", to, from, payload, ok)
	require.Equal(t, link.Addr(0x01020304), to, "parsed %x %x %q %v", to, from, payload, ok)
	require.Equal(t, link.Addr(0x0A0B0C0D), from, "parsed %x %x %q %v", to, from, payload, ok)
	require.Equal(t, "hi", string(payload), "parsed %x %x %q %v", to, from, payload, ok)
	_, _, _, ok = link.ParseFrame(f[1 : 1+link.FrameHeaderLen-1])
	require.False(t, ok, "a frame one byte short of a header parsed")
}

func TestFrameFilterKeepsFramesForItsUIDOrEveryone(t *testing.T) {
	const uid, alias = 7, 9
	var f link.FrameFilter
	for _, tc := range []struct {
		name     string
		frame    []byte
		keep     bool
		bad, not int64 // counters after the frame
	}{
		{"for us", link.AppendFrame(nil, uid, 3, []byte("a")), true, 0, 0},
		{"for everyone", link.AppendFrame(nil, link.Broadcast, 3, nil), true, 0, 0},
		{"for another peer", link.AppendFrame(nil, 11, 3, nil), false, 0, 1},
		{"for our other UID", link.AppendFrame(nil, alias, 3, nil), false, 0, 2},
		{"too short", []byte{7, 0, 0, 0, 3, 0, 0}, false, 1, 2},
		{"from us", link.AppendFrame(nil, uid, uid, nil), false, 2, 2},
		{"from our other UID", link.AppendFrame(nil, link.Broadcast, alias, nil), false, 3, 2},
	} {
		_, from, payload, ok := f.Keep(tc.frame, uid, alias)
		assert.Equal(t, tc.keep, ok, "%s: kept %v (malformed %d, not for us %d), want %v (%d, %d)", tc.name, ok, f.Malformed, f.NotForUs, tc.keep, tc.bad, tc.not)
		assert.Equal(t, tc.bad, f.Malformed, "%s: kept %v (malformed %d, not for us %d), want %v (%d, %d)", tc.name, ok, f.Malformed, f.NotForUs, tc.keep, tc.bad, tc.not)
		assert.Equal(t, tc.not, f.NotForUs, "%s: kept %v (malformed %d, not for us %d), want %v (%d, %d)", tc.name, ok, f.Malformed, f.NotForUs, tc.keep, tc.bad, tc.not)
		if ok {
			assert.Equal(t, link.Addr(3), from, "%s: from", tc.name)
			assert.Equal(t, tc.frame[link.FrameHeaderLen:], payload, "%s: payload", tc.name)
		}
	}
}

func FuzzFrameFilter(f *testing.F) {
	f.Add(link.AppendFrame(nil, 7, 3, []byte("payload")), uint32(7), uint32(9))
	f.Add([]byte{1, 2, 3}, uint32(7), uint32(7))
	f.Fuzz(func(t *testing.T, frame []byte, uid, alias uint32) {
		var ff link.FrameFilter
		to, from, payload, ok := ff.Keep(frame, link.Addr(uid), link.Addr(alias))
		dropped := ff.Malformed + ff.NotForUs
		if ok {
			require.Equal(t, int64(0), dropped, "kept %v, counted %d malformed and %d not for us", ok, ff.Malformed, ff.NotForUs)
		}
		if !ok {
			require.Equal(t, int64(1), dropped, "kept %v, counted %d malformed and %d not for us", ok, ff.Malformed, ff.NotForUs)
		}
		if ok {
			require.Equal(t, frame, link.AppendFrame(nil, to, from, payload), "the kept parts do not make the frame again")
		}
	})
}
