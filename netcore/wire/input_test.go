package wire

import (
	"bytes"
	"math/rand/v2"
	"testing"
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
		if !bytes.Equal(got, tc.want) {
			t.Errorf("%s: % x, want % x", tc.name, got, tc.want)
		}
		back, r := decodeFormat(got, CmdFormat{InputSize: 16})
		if r.Err() != nil || Patch(&prev, &back) != tc.cur {
			t.Errorf("%s: came back %v %v", tc.name, back, r.Err())
		}
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
		if rd.Err() != nil || back != d || Patch(&prev, &back) != cur {
			t.Fatalf("size %d: % x came back %+v (%v), want %+v", size, b, back, rd.Err(), d)
		}
		if rd.Remaining() != 0 {
			t.Fatalf("size %d: %d bytes left over", size, rd.Remaining())
		}
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
		if de.Field != tc.field {
			t.Errorf("%s: error in %q (%v), want %q", tc.name, de.Field, de, tc.field)
		}
	}
}

func TestALayoutClearsMergesAndReadsItsEvents(t *testing.T) {
	l := InputLayout{Size: 3, Events: [MaxInputBytes]byte{0, 0x0f, 0x80}}
	c := opaque(0xff, 0xff, 0xff)
	if got, want := l.ClearEvents(c), opaque(0xff, 0xf0, 0x7f); got != want {
		t.Fatalf("cleared: %v, want %v", got.Input[:3], want.Input[:3])
	}
	if got, want := l.EventsOf(&c), opaque(0, 0x0f, 0x80); got != want {
		t.Fatalf("events: %v, want %v", got.Input[:3], want.Input[:3])
	}
	next := opaque(1, 0x10, 0)
	if rest := l.MergeEvents(&next, l.EventsOf(&c)); rest != (TicCmd{}) || next != opaque(1, 0x1f, 0x80) {
		t.Fatalf("merged: %v, left %v", next.Input[:3], rest)
	}
	// A bit the command has already waits for the next command.
	next = opaque(0, 0x01, 0)
	if rest := l.MergeEvents(&next, opaque(0, 0x03, 0x80)); rest != opaque(0, 0x01, 0) || next != opaque(0, 0x03, 0x80) {
		t.Fatalf("merged: %v, left %v", next.Input[:3], rest.Input[:3])
	}
	// Doom's ticcmd: a field already used waits for the next command.
	var doom InputLayout
	late := TicCmd{ForwardMove: 5, ChatChar: 'a', Arti: 2}
	ev := doom.EventsOf(&late)
	if ev != (TicCmd{ChatChar: 'a', Arti: 2}) {
		t.Fatalf("doom events: %+v", ev)
	}
	into := TicCmd{ChatChar: 'b'}
	rest := doom.MergeEvents(&into, ev)
	if into != (TicCmd{ChatChar: 'b', Arti: 2}) || rest != (TicCmd{ChatChar: 'a'}) {
		t.Fatalf("doom merge: %+v, left %+v", into, rest)
	}
	if err := (&InputLayout{Size: 2, Events: [MaxInputBytes]byte{2: 1}}).Check(); err == nil {
		t.Fatal("event bits past the size pass")
	}
	if err := (&InputLayout{Size: MaxInputBytes + 1}).Check(); err == nil {
		t.Fatal("a size over the limit passes")
	}
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
	if _, err := Decode(Encode(nil, set, false, 0), got); err != nil || !sameMessage(got, set) {
		t.Fatalf("%+v %v", got, err)
	}
	js := joinStartFixture()
	js.Setup.Input = InputLayout{Size: 2, Events: [MaxInputBytes]byte{1: 0xff}}
	js.Base.Cmds[0] = Diff(&TicCmd{}, &TicCmd{Input: [MaxInputBytes]byte{7, 8}})
	js.Base.Cmds[2] = TicDiff{}
	gotJS := &JoinStart{}
	if _, err := Decode(Encode(nil, js, true, 0), gotJS); err != nil || !sameMessage(gotJS, js) {
		t.Fatalf("%+v %v", gotJS, err)
	}
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
