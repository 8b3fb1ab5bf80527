package wire

import "strconv"

// TicnetKindLaunchOptions is the controller's word on the game it launches
// (ProtocolTicnet, reliable, just before its LAUNCH).
const TicnetKindLaunchOptions = 16

// Tic rates of a game under the extension protocol, in tics per second.
// The reference protocol's is always DefaultTicRate.
const (
	MinTicRate     = 10
	MaxTicRate     = 60
	DefaultTicRate = 35
)

// MaxLaunchOptions bounds a game's launch options, in bytes.
const MaxLaunchOptions = 1024

// GameSetup is what a game under the extension protocol starts with beside
// the reference's settings: its input layout and tic rate (the game's
// own, which every copy shares), and the seed and options its controller
// launched it with, which every copy receives.
type GameSetup struct {
	Input   InputLayout
	TicRate uint8 // MinTicRate to MaxTicRate
	Seed    uint32
	Options []byte // at most MaxLaunchOptions
}

// appendSetup writes s: the layout, the tic rate, the seed, then the
// options with their length.
func appendSetup(w *Writer, s *GameSetup) {
	appendLayout(w, &s.Input)
	w.U8(s.TicRate)
	w.U32(s.Seed)
	appendOptions(w, s.Options)
}

// readSetup reads what appendSetup wrote.
func readSetup(r *Reader, s *GameSetup) {
	readLayout(r, &s.Input)
	at := r.Offset()
	s.TicRate = r.U8("tic_rate")
	if r.err == nil && (s.TicRate < MinTicRate || s.TicRate > MaxTicRate) {
		r.failAt(at, "tic_rate", strconv.Itoa(int(s.TicRate))+" tics a second, not "+strconv.Itoa(MinTicRate)+" to "+strconv.Itoa(MaxTicRate))
	}
	s.Seed = r.U32("seed")
	s.Options = readOptions(r, s.Options)
}

func appendOptions(w *Writer, opts []byte) {
	w.U16(uint16(len(opts)))
	w.Bytes(opts)
}

// readOptions reads options into dst's storage; none is nil.
func readOptions(r *Reader, dst []byte) []byte {
	at := r.Offset()
	n := int(r.U16("options.len"))
	switch {
	case r.err != nil || n == 0:
		return nil
	case n > MaxLaunchOptions:
		r.failAt(at, "options.len", strconv.Itoa(n)+" bytes > limit "+strconv.Itoa(MaxLaunchOptions))
		return nil
	case n > r.Remaining():
		r.failAt(at, "options.len", strconv.Itoa(n)+" bytes cannot fit in "+strconv.Itoa(r.Remaining()))
		return nil
	}
	dst = append(dst[:0], make([]byte, n)...)
	r.Bytes(dst, "options")
	return dst
}

// LaunchOptions is the seed and the options that the controller launches
// its game with; the server passes them on to every copy (GameSetup).
type LaunchOptions struct {
	Seed    uint32
	Options []byte // at most MaxLaunchOptions
}

func (*LaunchOptions) Type() Type { return TypeTicnet }

func (m *LaunchOptions) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindLaunchOptions)
	w.U32(m.Seed)
	appendOptions(&w, m.Options)
	return w.Buf
}

func (m *LaunchOptions) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindLaunchOptions {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not launch options")
	}
	m.Seed = r.U32("seed")
	m.Options = readOptions(&r, m.Options)
	return bodyErr(&r, TypeTicnet)
}
