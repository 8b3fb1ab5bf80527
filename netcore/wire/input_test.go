package wire

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// opaque returns a command whose input is b.
func opaque(b ...byte) TicCmd {
	var c TicCmd
	copy(c.Input[:], b)
	return c
}

func TestOpaqueInputTravelsAsTheBytesThatChanged(t *testing.T) {
	prev := opaque(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
	for _, tc := range []struct {
		name string
		cur  TicCmd
		want []byte
	}{
		{"unchanged", prev, []byte{0}},
		{"one byte", opaque(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 99), []byte{1, 15, 99}},
		{"two bytes: pairs, as short as the mask", opaque(0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0), []byte{2, 0, 0, 15, 0}},
		{"three bytes: the mask", opaque(0, 0, 0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), []byte{inputDiffMask, 0b111, 0, 0, 0, 0}},
	} {
		d := Diff(&prev, &tc.cur)
		got := encodeFormat(d, CmdFormat{InputSize: 16})
		assert.Equal(t, tc.want, got, "%s", tc.name)
		back, r := decodeFormat(got, CmdFormat{InputSize: 16})
		assert.NoError(t, r.Err(), "%s: came back %v", tc.name, back)
		assert.Equal(t, tc.cur, Patch(&prev, &back), "%s: came back %v %v", tc.name, back, r.Err())
	}
}

// Any two inputs of any size: the diff decodes to the same diff, and
// patches the previous command into the current one, events included.
func TestOpaqueDiffRoundTripsForEverySize(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	for range 20000 {
		size := uint8(1 + r.IntN(MaxInputBytes))
		var prev, cur TicCmd
		for i := range size {
			prev.Input[i] = uint8(r.IntN(4)) // often equal, so diffs vary in length
			cur.Input[i] = uint8(r.IntN(4))
			if r.IntN(3) == 0 {
				cur.Input[i] = prev.Input[i]
			}
		}
		d := Diff(&prev, &cur)
		f := CmdFormat{InputSize: size}
		b := encodeFormat(d, f)
		back, rd := decodeFormat(b, f)
		require.NoError(t, rd.Err(), "size %d: % x came back %+v (%v), want %+v", size, b, back, rd.Err(), d)
		require.Equal(t, d, back, "size %d: % x came back %+v (%v), want %+v", size, b, back, rd.Err(), d)
		require.Equal(t, cur, Patch(&prev, &back), "size %d: % x came back %+v (%v), want %+v", size, b, back, rd.Err(), d)
		require.Equal(t, 0, rd.Remaining(), "size %d: %d bytes left over", size, rd.Remaining())
	}
}

func TestOpaqueDiffRefusesBytesPastItsSize(t *testing.T) {
	f := CmdFormat{InputSize: 10}
	for _, tc := range []struct {
		name  string
		in    []byte
		field string
	}{
		{"an index past the size", []byte{1, 10, 7}, "input.index"},
		{"indexes not rising", []byte{2, 3, 1, 3, 2}, "input.index"},
		{"a count over the size", []byte{11}, "input.header"},
		{"an unknown header", []byte{0x81}, "input.header"},
		{"a mask bit past the size", []byte{inputDiffMask, 0, 0b100, 1}, "input.mask"},
		{"a cut value", []byte{1, 3}, "input.value"},
	} {
		_, r := decodeFormat(tc.in, f)
		de := decodeError(t, r.Err(), len(tc.in))
		assert.Equal(t, tc.field, de.Field, "%s: error in %q (%v), want %q", tc.name, de.Field, de, tc.field)
	}
}

func TestALayoutClearsMergesAndReadsItsEvents(t *testing.T) {
	l := InputLayout{Size: 3, Events: [MaxInputBytes]byte{0, 0x0f, 0x80}}
	c := opaque(0xff, 0xff, 0xff)
	got, want := l.ClearEvents(c), opaque(0xff, 0xf0, 0x7f)
	require.Equal(t, want, got, "cleared: %v, want %v", got.Input[:3], want.Input[:3])
	got, want = l.EventsOf(&c), opaque(0, 0x0f, 0x80)
	require.Equal(t, want, got, "events: %v, want %v", got.Input[:3], want.Input[:3])
	next := opaque(1, 0x10, 0)
	rest := l.MergeEvents(&next, l.EventsOf(&c))
	require.Equal(t, TicCmd{}, rest, "merged: %v, left %v", next.Input[:3], rest)
	require.Equal(t, opaque(1, 0x1f, 0x80), next, "merged: %v, left %v", next.Input[:3], rest)
	// A bit the command has already waits for the next command.
	next = opaque(0, 0x01, 0)
	rest = l.MergeEvents(&next, opaque(0, 0x03, 0x80))
	require.Equal(t, opaque(0, 0x01, 0), rest, "merged: %v, left %v", next.Input[:3], rest.Input[:3])
	require.Equal(t, opaque(0, 0x03, 0x80), next, "merged: %v, left %v", next.Input[:3], rest.Input[:3])
	// Doom's ticcmd: a field already used waits for the next command.
	var doom InputLayout
	late := TicCmd{ForwardMove: 5, ChatChar: 'a', Arti: 2}
	ev := doom.EventsOf(&late)
	require.Equal(t, TicCmd{ChatChar: 'a', Arti: 2}, ev, "doom events: %+v", ev)
	into := TicCmd{ChatChar: 'b'}
	rest = doom.MergeEvents(&into, ev)
	require.Equal(t, TicCmd{ChatChar: 'b', Arti: 2}, into, "doom merge: %+v, left %+v", into, rest)
	require.Equal(t, TicCmd{ChatChar: 'a'}, rest, "doom merge: %+v, left %+v", into, rest)
	err := (&InputLayout{Size: 2, Events: [MaxInputBytes]byte{2: 1}}).Check()
	require.Error(t, err, "event bits past the size pass")
	err = (&InputLayout{Size: MaxInputBytes + 1}).Check()
	require.Error(t, err, "a size over the limit passes")
}

func TestOpaqueTicSetsAndJoinStartsRoundTrip(t *testing.T) {
	set := &TicSet{InputSize: 16, Start: 500}
	prev := TicCmd{}
	for i := range 4 {
		cur := opaque(byte(i), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, byte(i*3))
		var st SetTic
		st.InGame = 0b11
		st.Cmds[0] = Diff(&prev, &cur)
		st.Cmds[1] = Diff(&cur, &cur)
		set.Tics = append(set.Tics, st)
		prev = cur
	}
	got := &TicSet{InputSize: 16}
	_, err := Decode(Encode(nil, set, false, 0), got)
	require.NoError(t, err, "%+v", got)
	require.True(t, sameMessage(got, set), "%+v %v", got, err)
	js := joinStartFixture()
	js.Setup.Input = InputLayout{Size: 2, Events: [MaxInputBytes]byte{1: 0xff}}
	js.Base.Cmds[0] = Diff(&TicCmd{}, &TicCmd{Input: [MaxInputBytes]byte{7, 8}})
	js.Base.Cmds[2] = TicDiff{}
	gotJS := &JoinStart{}
	_, err = Decode(Encode(nil, js, true, 0), gotJS)
	require.NoError(t, err, "%+v", gotJS)
	require.True(t, sameMessage(gotJS, js), "%+v %v", gotJS, err)
	checkTruncations(t, js, true, nil)
}

func encodeFormat(d TicDiff, f CmdFormat) []byte {
	w := Writer{}
	appendDiff(&w, &d, f)
	return w.Buf
}

func decodeFormat(b []byte, f CmdFormat) (TicDiff, *Reader) {
	r := NewReader(b, 0)
	var d TicDiff
	readDiff(&r, &d, f)
	return d, &r
}
