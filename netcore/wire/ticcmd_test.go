package wire

import (
	"math/bits"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiffSendsSteadyFieldsWhenChangedAndEventFieldsWhenNonZero(t *testing.T) {
	prev := TicCmd{ForwardMove: 10, SideMove: -3, AngleTurn: 512, Buttons: 1, Consistency: 7,
		ChatChar: 'a', Buttons2: 2, Inventory: 5, LookFly: 4, Arti: 6}
	for _, tc := range []struct {
		name  string
		cur   func(c *TicCmd)
		flags uint8
	}{
		{"nothing changed, no events", func(c *TicCmd) { c.ChatChar, c.Arti, c.Inventory = 0, 0, 0 }, 0},
		{"forward", func(c *TicCmd) {
			*c = TicCmd{ForwardMove: 11, SideMove: -3, AngleTurn: 512, Buttons: 1, Consistency: 7, Buttons2: 2, LookFly: 4}
		}, DiffForward},
		{"side", func(c *TicCmd) { c.ChatChar, c.Arti, c.Inventory, c.SideMove = 0, 0, 0, 3 }, DiffSide},
		{"turn", func(c *TicCmd) { c.ChatChar, c.Arti, c.Inventory, c.AngleTurn = 0, 0, 0, -512 }, DiffTurn},
		{"buttons", func(c *TicCmd) { c.ChatChar, c.Arti, c.Inventory, c.Buttons = 0, 0, 0, 0 }, DiffButtons},
		{"consistancy", func(c *TicCmd) { c.ChatChar, c.Arti, c.Inventory, c.Consistency = 0, 0, 0, 8 }, DiffConsistency},
		{"same chat char again is sent", func(c *TicCmd) { c.Arti, c.Inventory = 0, 0 }, DiffChatChar},
		{"lookfly changed", func(c *TicCmd) { c.ChatChar, c.Arti, c.Inventory, c.LookFly = 0, 0, 0, 9 }, DiffRaven},
		{"same arti again is sent", func(c *TicCmd) { c.ChatChar, c.Inventory = 0, 0 }, DiffRaven},
		{"buttons2 changed", func(c *TicCmd) { c.ChatChar, c.Arti, c.Inventory, c.Buttons2 = 0, 0, 0, 0 }, DiffStrife},
		{"same inventory again is sent", func(c *TicCmd) { c.ChatChar, c.Arti = 0, 0 }, DiffStrife},
		{"all", func(c *TicCmd) {
			*c = TicCmd{ForwardMove: 1, SideMove: 1, AngleTurn: 1, Buttons: 2, Consistency: 1, ChatChar: 1, Buttons2: 1, Inventory: 1, LookFly: 1, Arti: 1}
		}, 0xff},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cur := prev
			tc.cur(&cur)
			d := Diff(&prev, &cur)
			require.Equal(t, tc.flags, d.Flags, "flags")
			// Unflagged fields of the diff are zero: a diff holds what travels.
			var zero TicDiff
			masked := Patch(&zero.Cmd, &d)
			require.Equal(t, d.Cmd, masked, "diff %+v carries values outside its flags", d)
			got := Patch(&prev, &d)
			require.Equal(t, cur, got, "patch gave")
		})
	}
}

func TestPatchKeepsUnflaggedSteadyFieldsAndZeroesUnflaggedEventFields(t *testing.T) {
	prev := TicCmd{ForwardMove: 10, SideMove: -3, AngleTurn: 512, Buttons: 1, Consistency: 7,
		ChatChar: 'x', Buttons2: 2, Inventory: 7, LookFly: 4, Arti: 3}
	got := Patch(&prev, &TicDiff{})
	want := TicCmd{ForwardMove: 10, SideMove: -3, AngleTurn: 512, Buttons: 1, Consistency: 7, Buttons2: 2, LookFly: 4}
	require.Equal(t, want, got, "empty diff gave")
	// A flagged field is copied even when the diff's value is zero.
	got = Patch(&prev, &TicDiff{Flags: DiffForward | DiffRaven | DiffStrife})
	want = TicCmd{SideMove: -3, AngleTurn: 512, Buttons: 1, Consistency: 7}
	require.Equal(t, want, got, "zero-valued flagged fields gave")
	require.Equal(t, uint8('x'), prev.ChatChar, "Patch changed its base")
}

func TestClearEventsDropsImpulsesAndSpecialButtonsOnly(t *testing.T) {
	c := TicCmd{ForwardMove: 5, AngleTurn: 9, Buttons: ButtonSpecial | 2, ChatChar: 'h', Arti: 1, Inventory: 3, LookFly: 4, Buttons2: 1}
	got, want := ClearEvents(c), (TicCmd{ForwardMove: 5, AngleTurn: 9, LookFly: 4, Buttons2: 1})
	require.Equal(t, want, got)
	c.Buttons = 1 | 2<<3 // attack with weapon 2: not special, kept
	got = ClearEvents(c)
	require.Equal(t, c.Buttons, got.Buttons, "ordinary buttons cleared: %#x", got.Buttons)
}

// encodeDiff and decodeDiff run one diff through the wire.
func encodeDiff(d TicDiff, lowres bool) []byte {
	w := Writer{}
	appendDiff(&w, &d, CmdFormat{LowResTurn: lowres})
	return w.Buf
}

func decodeDiff(b []byte, lowres bool) (TicDiff, *Reader) {
	r := NewReader(b, 0)
	var d TicDiff
	readDiff(&r, &d, CmdFormat{LowResTurn: lowres})
	return d, &r
}

func TestLowresTurningDividesTowardZeroAndComesBackTimes256(t *testing.T) {
	for _, tc := range []struct {
		turn int16
		wire byte
		back int16
	}{
		{-100, 0x00, 0},        // §17.1: not -1 as >> 8 would give
		{640, 0x02, 512},       // observed: 640 went out as 0x02, arrived as 512
		{0x1234, 0x12, 4608},   // observed
		{-1280, 0xfb, -1280},   // a vector's value
		{-300, 0xff, -256},     // -1.17 truncates to -1
		{255, 0x00, 0},         // truncates
		{-256, 0xff, -256},     // exact
		{32767, 0x7f, 32512},   // largest
		{-32768, 0x80, -32768}, // smallest: -128 * 256 fits
	} {
		b := encodeDiff(TicDiff{Flags: DiffTurn, Cmd: TicCmd{AngleTurn: tc.turn}}, true)
		if !assert.Equal(t, []byte{DiffTurn, tc.wire}, b, "turn %d went out", tc.turn) {
			continue
		}
		d, r := decodeDiff(b, true)
		assert.NoError(t, r.Err(), "turn %d came back as %d (%v), want %d", tc.turn, d.Cmd.AngleTurn, r.Err(), tc.back)
		assert.Equal(t, tc.back, d.Cmd.AngleTurn, "turn %d came back as %d (%v), want %d", tc.turn, d.Cmd.AngleTurn, r.Err(), tc.back)
	}
	// Hi-res turning is two bytes, big-endian, exact.
	b := encodeDiff(TicDiff{Flags: DiffTurn, Cmd: TicCmd{AngleTurn: -100}}, false)
	require.Equal(t, []byte{DiffTurn, 0xff, 0x9c}, b, "hi-res -100: % x", b)
}

func TestDiffFieldsTravelInFlagOrderWithTheirWidths(t *testing.T) {
	d := TicDiff{Flags: 0xff, Cmd: TicCmd{ForwardMove: -1, SideMove: 2, AngleTurn: 0x0304, Buttons: 5, Consistency: 6,
		ChatChar: 7, LookFly: 8, Arti: 9, Buttons2: 10, Inventory: 0x0b0c}}
	want := []byte{0xff, 0xff, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x0b, 0x0c}
	got := encodeDiff(d, false)
	require.Equal(t, want, got)
	back, _ := decodeDiff(want, false)
	require.Equal(t, d, back, "decoded")
	// Sizes: 1 byte of flags up to 13 bytes hi-res, 12 lowres (spec §8.2).
	for f := range 256 {
		size := 1 + bits.OnesCount8(uint8(f))
		if f&DiffTurn != 0 {
			size++ // hi-res turning is 2 bytes
		}
		if f&DiffRaven != 0 {
			size++
		}
		if f&DiffStrife != 0 {
			size += 2
		}
		d := TicDiff{Flags: uint8(f)}
		n := len(encodeDiff(d, false))
		require.Equal(t, size, n, "flags %08b: %d bytes hi-res, want %d", f, n, size)
		lowSize := size
		if f&DiffTurn != 0 {
			lowSize--
		}
		n = len(encodeDiff(d, true))
		require.Equal(t, lowSize, n, "flags %08b: %d bytes lowres, want %d", f, n, lowSize)
	}
}

func TestTruncatedDiffFailsAtTheFieldItCuts(t *testing.T) {
	full := []byte{0xff, 0xff, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x0b, 0x0c}
	// The field that holds byte n starts at want[n].
	want := []int{0, 1, 2, 3, 3, 5, 6, 7, 8, 9, 10, 11, 11}
	for n := range full {
		_, r := decodeDiff(full[:n:n], false)
		de := decodeError(t, r.Err(), n)
		assert.Equal(t, want[n], de.Offset, "cut at %d: offset %d (%s), want %d", n, de.Offset, de.Field, want[n])
	}
}

func TestReadDiffClearsFieldsThatAreNotFlagged(t *testing.T) {
	r := NewReader([]byte{DiffForward, 5}, 0)
	d := TicDiff{Flags: 0xff, Cmd: TicCmd{SideMove: 9, AngleTurn: 9, Buttons: 9, Consistency: 9, ChatChar: 9, LookFly: 9, Arti: 9, Buttons2: 9, Inventory: 9}}
	readDiff(&r, &d, CmdFormat{})
	want := (TicDiff{Flags: DiffForward, Cmd: TicCmd{ForwardMove: 5}})
	require.Equal(t, want, d)
}

func TestExpandTicFollowsNETExpandTicNum(t *testing.T) {
	for _, tc := range []struct {
		name string
		rel  uint32
		b    uint8
		want uint32
	}{
		{"same block", 0x100, 0x05, 0x105},
		{"same block, later", 0x1c3, 0xc4, 0x1c4},
		{"same byte", 0x130, 0x30, 0x130},
		{"slightly behind", 0x135, 0x30, 0x130},
		{"forward across the low byte's wrap", 0x1f0, 0x10, 0x210},
		{"backward across the low byte's wrap", 0x210, 0xf0, 0x1f0},
		{"backward rule edge: l=0x3f b=0xb1", 0x23f, 0xb1, 0x1b1},
		{"backward rule off: l=0x40", 0x240, 0xb1, 0x2b1},
		{"backward rule off: b=0xb0", 0x23f, 0xb0, 0x2b0},
		{"forward rule edge: l=0xb1 b=0x3f", 0x2b1, 0x3f, 0x33f},
		{"forward rule off: l=0xb0", 0x2b0, 0x3f, 0x23f},
		{"forward rule off: b=0x40", 0x2b1, 0x40, 0x240},
		{"zero", 0, 0, 0},
		{"start of game", 0, 0x08, 8},
		// §9.1: R < 0x100 and b > 0xB0 wraps, unsigned 32-bit, to ~4e9.
		{"wrap below tic 0", 0x10, 0xc0, 0xffffffc0},
		{"wrap below tic 0, edge", 0x3f, 0xb1, 0xffffffb1},
		{"wrap at the top of uint32", 0xfffffff0, 0x10, 0x10},
	} {
		got := ExpandTic(tc.rel, tc.b)
		assert.Equal(t, tc.want, got, "%s: ExpandTic(%#x, %#x) =", tc.name, tc.rel, tc.b)
	}
	require.GreaterOrEqual(t, ExpandTic(0x10, 0xc0), uint32(4e9), "the wrap case is not huge")
}

func TestExpandTicRecoversEveryTicWithin64OfTheReference(t *testing.T) {
	g := newGen(11)
	for range 20000 {
		rel := uint32(0x100 + g.r.IntN(1<<24))
		tic := uint32(int64(rel) + int64(g.r.IntN(129)-64))
		got := ExpandTic(rel, uint8(tic))
		require.Equal(t, tic, got, "ExpandTic(%#x, %#x) =", rel, uint8(tic))
	}
}

// AsSent is what a receiver makes of a command sent whole: a client that a
// tic set leaves its own commands out of runs them as everyone else does.
func TestAsSentIsTheCommandAsItDecodesAfterTravellingWhole(t *testing.T) {
	g := newGen(31)
	for i := range 3000 {
		c := g.cmd()
		for k := range c.Input {
			c.Input[k] = g.u8()
		}
		for _, f := range []CmdFormat{{}, {LowResTurn: true}, {InputSize: 3}, {InputSize: MaxInputBytes}} {
			d := Diff(&TicCmd{}, &c)
			if f.InputSize > 0 {
				d = Diff(&TicCmd{}, &TicCmd{Input: c.Input})
			}
			set := &TicSet{LowResTurn: f.LowResTurn, InputSize: f.InputSize, Tics: []SetTic{{ServerTic: ServerTic{InGame: 1}}}}
			set.Tics[0].Cmds[0] = d
			got := &TicSet{LowResTurn: f.LowResTurn, InputSize: f.InputSize}
			_, err := Decode(Encode(nil, set, false, 0), got)
			require.NoError(t, err)
			sent, want := f.AsSent(c), Patch(&TicCmd{}, &got.Tics[0].Cmds[0])
			require.Equal(t, want, sent, "#%d %+v: AsSent %+v, decoded %+v", i, f, sent, want)
		}
	}
}

// A diff that the packet holds whole is read in one piece; it must read
// as the same fields, field by field, would: for every set of flags, both
// turn widths, and bytes that differ from field to field, the same command
// and the same bytes consumed, whatever follows the diff.
func TestAWholeDiffReadsAsItsFieldsOneByOne(t *testing.T) {
	for _, lowres := range []bool{false, true} {
		for f := range 256 {
			b := []byte{byte(f)}
			for i := range 12 {
				b = append(b, byte(0x81+i*13)) // the fields, then a byte or more that follow
			}
			whole := NewReader(b, 0)
			var got TicDiff
			readTicDiff(&whole, &got, lowres)
			fields := NewReader(b, 0)
			want := TicDiff{Flags: fields.U8("diff.flags")}
			readDiffFields(&fields, &want, lowres)
			require.NoError(t, whole.Err(), "flags %08b, lowres %v", f, lowres)
			require.Equal(t, want, got, "flags %08b, lowres %v", f, lowres)
			require.Equal(t, fields.Offset(), whole.Offset(), "flags %08b, lowres %v: bytes read", f, lowres)
		}
	}
}
