package wire

import (
	"errors"
	"math/bits"
	"strconv"
)

// MaxInputBytes bounds a game's opaque input: TicCmd.Input holds this many
// bytes, of which an InputLayout's Size travel.
const MaxInputBytes = 64

// InputLayout says what a game's commands are (ProtocolTicnet only). Size 0
// is Doom's ticcmd, the only kind the reference protocol carries. Size 1 to
// MaxInputBytes is opaque input: TicCmd.Input[:Size], bytes the engine
// carries but does not read, every other field of the command zero. Events
// marks the bits of those bytes that are one-off events rather than held
// state: they are cleared where the server repeats a late player's last
// command, and the events of the late command carry over into the player's
// next one.
type InputLayout struct {
	Size   uint8
	Events [MaxInputBytes]byte
}

// Opaque reports whether commands are opaque input rather than Doom's.
func (l *InputLayout) Opaque() bool { return l.Size > 0 }

// Check returns an error if the layout is not one a game may declare.
func (l *InputLayout) Check() error {
	if l.Size > MaxInputBytes {
		return errors.New("input size " + strconv.Itoa(int(l.Size)) + " is over the limit of " + strconv.Itoa(MaxInputBytes) + " bytes")
	}
	for i := int(l.Size); i < MaxInputBytes; i++ {
		if l.Events[i] != 0 {
			return errors.New("event bits in byte " + strconv.Itoa(i) + ", past the input's " + strconv.Itoa(int(l.Size)) + " bytes")
		}
	}
	return nil
}

// ClearEvents returns c with its one-off events cleared: Doom's chat,
// artifact, inventory and BT_SPECIAL requests (ClearEvents), or the event
// bits of opaque input.
func (l *InputLayout) ClearEvents(c TicCmd) TicCmd {
	if !l.Opaque() {
		return ClearEvents(c)
	}
	for i := range l.Size {
		c.Input[i] &^= l.Events[i]
	}
	return c
}

// EventsOf returns the one-off events of c, every other field zero: for
// opaque input its event bits, for Doom's ticcmd its chat character,
// artifact and inventory use (a BT_SPECIAL request is not carried: its
// meaning depends on the buttons it came with).
func (l *InputLayout) EventsOf(c *TicCmd) TicCmd {
	var e TicCmd
	if !l.Opaque() {
		e.ChatChar, e.Arti, e.Inventory = c.ChatChar, c.Arti, c.Inventory
		return e
	}
	for i := range l.Size {
		e.Input[i] = c.Input[i] & l.Events[i]
	}
	return e
}

// MergeEvents adds the events of carry (as EventsOf returns them) to c and
// returns what could not be added: an event goes in only where c has none
// of its own in the same place (an opaque event bit that is clear, a Doom
// event field that is zero), so that two presses stay two, the second in
// a later command.
func (l *InputLayout) MergeEvents(c *TicCmd, carry TicCmd) (rest TicCmd) {
	if l.Opaque() {
		for i := range l.Size {
			add := carry.Input[i] &^ c.Input[i]
			c.Input[i] |= add
			rest.Input[i] = carry.Input[i] &^ add
		}
		return rest
	}
	if c.ChatChar == 0 {
		c.ChatChar, carry.ChatChar = carry.ChatChar, 0
	}
	if c.Arti == 0 {
		c.Arti, carry.Arti = carry.Arti, 0
	}
	if c.Inventory == 0 {
		c.Inventory, carry.Inventory = carry.Inventory, 0
	}
	return carry
}

// appendLayout writes l: its size, then its event masks.
func appendLayout(w *Writer, l *InputLayout) {
	w.U8(l.Size)
	w.Bytes(l.Events[:min(l.Size, MaxInputBytes)])
}

// readLayout reads a layout appendLayout wrote.
func readLayout(r *Reader, l *InputLayout) {
	*l = InputLayout{}
	at := r.Offset()
	l.Size = r.U8("input.size")
	if l.Size > MaxInputBytes {
		r.failAt(at, "input.size", strconv.Itoa(int(l.Size))+" bytes > limit "+strconv.Itoa(MaxInputBytes))
		return
	}
	r.Bytes(l.Events[:l.Size], "input.events")
}

// Opaque input travels as the bytes that changed since the command it is
// diffed against: a header byte, then either that many (index, value)
// pairs, indexes rising, or (header inputDiffMask) a bit mask of the
// changed bytes, one bit per byte of the input, followed by their values.
// Header 0 is no change. The encoder takes whichever is shorter.
const inputDiffMask = 0x80

// appendInputDiff writes the opaque part of d for an input of size bytes.
func appendInputDiff(w *Writer, d *TicDiff, size uint8) {
	mask := d.Input & (1<<size - 1)
	if size == MaxInputBytes {
		mask = d.Input
	}
	k := bits.OnesCount64(mask)
	maskLen := (int(size) + 7) / 8
	if k <= maskLen {
		w.U8(uint8(k))
		for m := mask; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			w.U8(uint8(i))
			w.U8(d.Cmd.Input[i])
		}
		return
	}
	w.U8(inputDiffMask)
	for b := range maskLen {
		w.U8(uint8(mask >> (8 * b)))
	}
	for m := mask; m != 0; m &= m - 1 {
		w.U8(d.Cmd.Input[bits.TrailingZeros64(m)])
	}
}

// readInputDiff reads what appendInputDiff wrote into d, which is zero.
func readInputDiff(r *Reader, d *TicDiff, size uint8) {
	at := r.Offset()
	h := r.U8("input.header")
	switch {
	case r.err != nil:
		return
	case h == inputDiffMask:
		for b := range (int(size) + 7) / 8 {
			d.Input |= uint64(r.U8("input.mask")) << (8 * b)
		}
		if r.err == nil && size < MaxInputBytes && d.Input>>size != 0 {
			r.failAt(at+1, "input.mask", "bits past the input's "+strconv.Itoa(int(size))+" bytes")
			return
		}
		for m := d.Input; m != 0 && r.err == nil; m &= m - 1 {
			d.Cmd.Input[bits.TrailingZeros64(m)] = r.U8("input.value")
		}
	case h > size:
		r.failAt(at, "input.header", "header 0x"+strconv.FormatUint(uint64(h), 16)+": neither a count of at most "+strconv.Itoa(int(size))+" nor the mask form")
	default:
		last := -1
		for range h {
			at := r.Offset()
			i := int(r.U8("input.index"))
			if r.err == nil && (i <= last || i >= int(size)) {
				r.failAt(at, "input.index", "index "+strconv.Itoa(i)+" after "+strconv.Itoa(last)+", in an input of "+strconv.Itoa(int(size))+" bytes")
				return
			}
			last = i
			d.Input |= 1 << i
			d.Cmd.Input[i] = r.U8("input.value")
		}
	}
}
