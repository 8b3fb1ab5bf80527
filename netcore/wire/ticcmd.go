package wire

import "math/bits"

// Protocol limits (spec §13).
const (
	MaxPlayers    = 8   // NET_MAXPLAYERS: players in a game, bits in playeringame
	MaxNodes      = 16  // MAXNETNODES: client slots on a server, drones included
	BackupTics    = 128 // BACKUPTICS: the length of every tic window and queue
	MaxPlayerName = 30  // MAXPLAYERNAME: names and addresses are at most 29 bytes + NUL
	// MaxTicsPerPacket bounds the tic count of a GAMEDATA packet. A sender
	// never holds more than BackupTics tics, so no valid packet carries more.
	MaxTicsPerPacket = BackupTics
)

// TicCmd is one player's input for one tic (d_ticcmd.h). ticnet games may
// give the fields any meaning; the names are Doom's.
type TicCmd struct {
	ForwardMove int8
	SideMove    int8
	AngleTurn   int16
	ChatChar    uint8 // event-like: zero unless sent this tic
	Buttons     uint8
	Consistency uint8 // "consistancy" in the reference
	Buttons2    uint8
	Inventory   uint16 // event-like; the reference's int, as it travels (16 bits)
	LookFly     uint8
	Arti        uint8 // event-like
	// Input is a game's opaque input (InputLayout): its first Size bytes
	// travel; Doom's ticcmd leaves it zero.
	Input [MaxInputBytes]byte
}

// Diff flags: which fields of a TicCmd a TicDiff carries (spec §8.2).
const (
	DiffForward     = 0x01
	DiffSide        = 0x02
	DiffTurn        = 0x04
	DiffButtons     = 0x08
	DiffConsistency = 0x10
	DiffChatChar    = 0x20
	DiffRaven       = 0x40 // LookFly and Arti
	DiffStrife      = 0x80 // Buttons2 and Inventory
)

// Doom's button bits that the protocol itself cares about.
const (
	ButtonSpecial = 0x80 // BT_SPECIAL: the other bits are a pause or save request
)

// TicDiff is a TicCmd as it travels: the fields that Flags names hold the
// values sent, the others are zero.
type TicDiff struct {
	Flags uint8
	Input uint64 // bit i: Cmd.Input[i] is sent
	Cmd   TicCmd
}

// Diff returns the diff that turns prev into cur under the reference's rules:
// the steady fields are sent when they changed, the event-like ones
// (ChatChar, Arti, Inventory) whenever they are non-zero.
func Diff(prev, cur *TicCmd) TicDiff {
	var d TicDiff
	if cur.ForwardMove != prev.ForwardMove {
		d.Flags |= DiffForward
		d.Cmd.ForwardMove = cur.ForwardMove
	}
	if cur.SideMove != prev.SideMove {
		d.Flags |= DiffSide
		d.Cmd.SideMove = cur.SideMove
	}
	if cur.AngleTurn != prev.AngleTurn {
		d.Flags |= DiffTurn
		d.Cmd.AngleTurn = cur.AngleTurn
	}
	if cur.Buttons != prev.Buttons {
		d.Flags |= DiffButtons
		d.Cmd.Buttons = cur.Buttons
	}
	if cur.Consistency != prev.Consistency {
		d.Flags |= DiffConsistency
		d.Cmd.Consistency = cur.Consistency
	}
	if cur.ChatChar != 0 {
		d.Flags |= DiffChatChar
		d.Cmd.ChatChar = cur.ChatChar
	}
	if cur.LookFly != prev.LookFly || cur.Arti != 0 {
		d.Flags |= DiffRaven
		d.Cmd.LookFly = cur.LookFly
		d.Cmd.Arti = cur.Arti
	}
	if cur.Buttons2 != prev.Buttons2 || cur.Inventory != 0 {
		d.Flags |= DiffStrife
		d.Cmd.Buttons2 = cur.Buttons2
		d.Cmd.Inventory = cur.Inventory
	}
	if cur.Input != prev.Input {
		for i := range cur.Input {
			if cur.Input[i] != prev.Input[i] {
				d.Input |= 1 << i
				d.Cmd.Input[i] = cur.Input[i]
			}
		}
	}
	return d
}

// Patch applies d to prev: flagged fields are copied, the steady fields that
// are not flagged keep prev's value, and the event-like ones become zero.
// Opaque input bytes that d does not carry keep prev's value: for them
// Patch(prev, Diff(prev, cur)) is cur, events included.
func Patch(prev *TicCmd, d *TicDiff) TicCmd {
	c := *prev
	c.ChatChar, c.Arti, c.Inventory = 0, 0, 0
	f := d.Flags
	if f&DiffForward != 0 {
		c.ForwardMove = d.Cmd.ForwardMove
	}
	if f&DiffSide != 0 {
		c.SideMove = d.Cmd.SideMove
	}
	if f&DiffTurn != 0 {
		c.AngleTurn = d.Cmd.AngleTurn
	}
	if f&DiffButtons != 0 {
		c.Buttons = d.Cmd.Buttons
	}
	if f&DiffConsistency != 0 {
		c.Consistency = d.Cmd.Consistency
	}
	if f&DiffChatChar != 0 {
		c.ChatChar = d.Cmd.ChatChar
	}
	if f&DiffRaven != 0 {
		c.LookFly = d.Cmd.LookFly
		c.Arti = d.Cmd.Arti
	}
	if f&DiffStrife != 0 {
		c.Buttons2 = d.Cmd.Buttons2
		c.Inventory = d.Cmd.Inventory
	}
	for m := d.Input; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		c.Input[i] = d.Cmd.Input[i]
	}
	return c
}

// ClearEvents returns c with its event-like fields cleared, as the reference
// does for a command it repeats: no chat character, no artifact, no
// inventory use, no BT_SPECIAL pause or save request.
func ClearEvents(c TicCmd) TicCmd {
	c.ChatChar, c.Arti, c.Inventory = 0, 0, 0
	if c.Buttons&ButtonSpecial != 0 {
		c.Buttons = 0
	}
	return c
}

// CmdFormat is what decides how a command travels, which is not on the wire
// with it: the game's lowres_turn setting and its input size.
type CmdFormat struct {
	LowResTurn bool
	InputSize  uint8 // 0: Doom's ticcmd; else opaque input of this many bytes
}

// AsSent returns c as a receiver decodes it when it travels whole (diffed
// against a zero command): only the opaque input when there is one, and
// with LowResTurn, turning truncated to a multiple of 256.
func (f CmdFormat) AsSent(c TicCmd) TicCmd {
	if f.InputSize > 0 {
		var o TicCmd
		copy(o.Input[:f.InputSize], c.Input[:f.InputSize])
		return o
	}
	if f.LowResTurn {
		c.AngleTurn = int16(int8(int(c.AngleTurn)/256)) * 256
	}
	c.Input = [MaxInputBytes]byte{}
	return c
}

// appendDiff writes d. With LowResTurn, turning travels as one byte: the
// reference divides by 256 truncating toward zero. Opaque input travels as
// appendInputDiff writes it, and nothing else of the command.
func appendDiff(w *Writer, d *TicDiff, f CmdFormat) {
	if f.InputSize > 0 {
		appendInputDiff(w, d, f.InputSize)
		return
	}
	appendTicDiff(w, d, f.LowResTurn)
}

// readDiff reads a diff into d, zeroing the fields it does not carry.
func readDiff(r *Reader, d *TicDiff, f CmdFormat) {
	if f.InputSize > 0 {
		*d = TicDiff{}
		readInputDiff(r, d, f.InputSize)
		return
	}
	readTicDiff(r, d, f.LowResTurn)
}

func appendTicDiff(w *Writer, d *TicDiff, lowres bool) {
	f := d.Flags
	w.U8(f)
	if f&DiffForward != 0 {
		w.S8(d.Cmd.ForwardMove)
	}
	if f&DiffSide != 0 {
		w.S8(d.Cmd.SideMove)
	}
	if f&DiffTurn != 0 {
		if lowres {
			w.S8(int8(int(d.Cmd.AngleTurn) / 256))
		} else {
			w.S16(d.Cmd.AngleTurn)
		}
	}
	if f&DiffButtons != 0 {
		w.U8(d.Cmd.Buttons)
	}
	if f&DiffConsistency != 0 {
		w.U8(d.Cmd.Consistency)
	}
	if f&DiffChatChar != 0 {
		w.U8(d.Cmd.ChatChar)
	}
	if f&DiffRaven != 0 {
		w.U8(d.Cmd.LookFly)
		w.U8(d.Cmd.Arti)
	}
	if f&DiffStrife != 0 {
		w.U8(d.Cmd.Buttons2)
		w.U16(d.Cmd.Inventory)
	}
}

// readTicDiff reads a diff whole when the packet holds all of it, field by
// field (readDiffFields) when it does not, so that a short one fails at
// the field it cuts: clients decode every tic of every set they receive,
// and reading a field at a time was a tenth of the scenario suite's time.
func readTicDiff(r *Reader, d *TicDiff, lowres bool) {
	*d = TicDiff{Flags: r.U8("diff.flags")}
	f := d.Flags
	n := bits.OnesCount8(f & (DiffForward | DiffSide | DiffButtons | DiffConsistency | DiffChatChar))
	if f&DiffTurn != 0 {
		n += 2
		if lowres {
			n--
		}
	}
	if f&DiffRaven != 0 {
		n += 2
	}
	if f&DiffStrife != 0 {
		n += 3
	}
	if r.err != nil || len(r.buf)-r.off < n {
		readDiffFields(r, d, lowres)
		return
	}
	b := r.buf[r.off : r.off+n]
	r.off += n
	c := &d.Cmd
	if f&DiffForward != 0 {
		c.ForwardMove, b = int8(b[0]), b[1:]
	}
	if f&DiffSide != 0 {
		c.SideMove, b = int8(b[0]), b[1:]
	}
	if f&DiffTurn != 0 {
		if lowres {
			c.AngleTurn, b = int16(int8(b[0]))*256, b[1:]
		} else {
			c.AngleTurn, b = int16(uint16(b[0])<<8|uint16(b[1])), b[2:]
		}
	}
	if f&DiffButtons != 0 {
		c.Buttons, b = b[0], b[1:]
	}
	if f&DiffConsistency != 0 {
		c.Consistency, b = b[0], b[1:]
	}
	if f&DiffChatChar != 0 {
		c.ChatChar, b = b[0], b[1:]
	}
	if f&DiffRaven != 0 {
		c.LookFly, c.Arti, b = b[0], b[1], b[2:]
	}
	if f&DiffStrife != 0 {
		c.Buttons2, c.Inventory = b[0], uint16(b[1])<<8|uint16(b[2])
	}
}

// readDiffFields reads the fields flagged in d.Flags one at a time.
func readDiffFields(r *Reader, d *TicDiff, lowres bool) {
	f := d.Flags
	if f&DiffForward != 0 {
		d.Cmd.ForwardMove = r.S8("diff.forwardmove")
	}
	if f&DiffSide != 0 {
		d.Cmd.SideMove = r.S8("diff.sidemove")
	}
	if f&DiffTurn != 0 {
		if lowres {
			d.Cmd.AngleTurn = int16(r.S8("diff.angleturn")) * 256
		} else {
			d.Cmd.AngleTurn = r.S16("diff.angleturn")
		}
	}
	if f&DiffButtons != 0 {
		d.Cmd.Buttons = r.U8("diff.buttons")
	}
	if f&DiffConsistency != 0 {
		d.Cmd.Consistency = r.U8("diff.consistancy")
	}
	if f&DiffChatChar != 0 {
		d.Cmd.ChatChar = r.U8("diff.chatchar")
	}
	if f&DiffRaven != 0 {
		d.Cmd.LookFly = r.U8("diff.lookfly")
		d.Cmd.Arti = r.U8("diff.arti")
	}
	if f&DiffStrife != 0 {
		d.Cmd.Buttons2 = r.U8("diff.buttons2")
		d.Cmd.Inventory = r.U16("diff.inventory")
	}
}

// ExpandTic turns the low byte b of a tic number into a full tic number near
// relative (NET_ExpandTicNum, spec §9.1). The arithmetic wraps as unsigned
// 32-bit, as in the reference: near tic 0 a byte from "before" the start
// expands to a huge number, which callers treat as out of range.
func ExpandTic(relative uint32, b uint8) uint32 {
	l := relative & 0xff
	r := relative&^0xff | uint32(b)
	if l < 0x40 && b > 0xb0 {
		r -= 0x100
	}
	if l > 0xb0 && b < 0x40 {
		r += 0x100
	}
	return r
}
