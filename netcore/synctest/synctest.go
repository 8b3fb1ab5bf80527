// Package synctest checks that a game is deterministic, as GGRS's
// SyncTestSession does: it runs the game tic by tic and, after every tic,
// loads the state of a few tics back and runs those tics again with the
// same commands. A game whose re-run differs from its first run (it reads
// a clock, a random source, Go's map order, uninitialised memory) would
// desync under prediction and rollback, and often without: the report
// names the first tic that differed, both checksums, and the first byte
// where the saved states differ.
//
// It is for game developers and for ticnet's own tests; it needs no
// network. JS games run it through the JS API (syncTest).
package synctest

import (
	"encoding/binary"
	"errors"
	"strconv"

	"github.com/ticnet/ticnet/internal/text"
	"github.com/ticnet/ticnet/netcore/tic"
)

// Game is a game that can save and load its state.
type Game interface {
	tic.Game
	tic.Snapshotter
}

// Config is what Run plays.
type Config struct {
	// Tics is how many tics to run; default DefaultTics.
	Tics int
	// Rollback is how many tics are run again after every tic; default 8
	// (ticnet's default prediction window), at most 64.
	Rollback int
	// Players is how many players are in the game; default 2.
	Players int
	// Input returns player p's command for tic. Nil: the game builds
	// player 0's (BuildTiccmd) and the others' are drawn from a fixed
	// pseudo-random sequence.
	Input func(tic uint32, p int) tic.Cmd
	// InputSize, for a game of opaque input (tic.InputLayout), makes
	// the drawn commands that many bytes of opaque input.
	InputSize uint8
}

// DefaultTics is how many tics Run plays by default.
const DefaultTics = 1000

// MaxRollback bounds Config.Rollback.
const MaxRollback = 64

// Mismatch is a tic whose re-run differed from its first run.
type Mismatch struct {
	Tic uint32 // the first tic whose re-run differed
	// At is the tic after which the rollback that found it ran.
	At uint32
	// Checksum after the first run, and after the re-run.
	Checksum, Rerun uint32
	// StateOffset is the first byte where the states saved after the two
	// runs differ; -1 when they are equal (only the checksum differed) or
	// of different lengths (StateLen, RerunLen).
	StateOffset        int
	StateLen, RerunLen int
}

func (m *Mismatch) Error() string {
	where := "the saved states are equal"
	switch {
	case m.StateLen != m.RerunLen:
		where = "the saved states are " + strconv.Itoa(m.StateLen) + " and " + strconv.Itoa(m.RerunLen) + " bytes long"
	case m.StateOffset >= 0:
		where = "the saved states first differ at byte " + strconv.Itoa(m.StateOffset)
	}
	return "synctest: tic " + strconv.FormatUint(uint64(m.Tic), 10) + " ran differently when run again after tic " + strconv.FormatUint(uint64(m.At), 10) + ": checksum " + text.Hex(uint64(m.Checksum), 8) + ", then " + text.Hex(uint64(m.Rerun), 8) + "; " + where
}

// ranTic is what the first run of a tic gave, kept to run it again.
type ranTic struct {
	cmds   [tic.MaxPlayers]tic.Cmd
	before []byte // the state before the tic
	after  []byte // the state after the tic
	sum    uint32 // the checksum after the tic
}

// Run plays the game as c says. It returns nil if every re-run matched,
// a *Mismatch at the first that did not, or the error of a LoadState.
func Run(g Game, c Config) error {
	if c.Tics <= 0 {
		c.Tics = DefaultTics
	}
	if c.Rollback <= 0 {
		c.Rollback = 8
	}
	if c.Players <= 0 {
		c.Players = 2
	}
	if c.Rollback > MaxRollback || c.Players > tic.MaxPlayers {
		return errors.New("synctest: rollback " + strconv.Itoa(c.Rollback) + " (at most " + strconv.Itoa(MaxRollback) + "), players " + strconv.Itoa(c.Players) + " (at most " + strconv.Itoa(tic.MaxPlayers) + ")")
	}
	if c.Input == nil {
		c.Input = func(tic uint32, p int) tic.Cmd {
			if p == 0 {
				return g.BuildTiccmd(tic)
			}
			return drawn(tic, p, c.InputSize)
		}
	}
	var ingame [tic.MaxPlayers]bool
	for p := range c.Players {
		ingame[p] = true
	}
	ring := make([]ranTic, c.Rollback)
	for tic := uint32(0); tic < uint32(c.Tics); tic++ {
		r := &ring[tic%uint32(c.Rollback)]
		r.before = g.SaveState()
		for p := range c.Players {
			r.cmds[p] = c.Input(tic, p)
		}
		cmds := r.cmds
		g.RunTic(tic, &cmds, &ingame)
		r.sum, r.after = g.Checksum(), g.SaveState()
		// Back to the state before the oldest tic kept, and those tics
		// again: each must come out as it did.
		first := tic + 1 - min(tic+1, uint32(c.Rollback))
		if err := g.LoadState(ring[first%uint32(c.Rollback)].before); err != nil {
			return text.Wrap("synctest: loading the state before tic "+strconv.FormatUint(uint64(first), 10)+": ", err)
		}
		for t := first; t <= tic; t++ {
			rt := &ring[t%uint32(c.Rollback)]
			cmds := rt.cmds
			g.RunTic(t, &cmds, &ingame)
			if sum := g.Checksum(); sum != rt.sum {
				return mismatch(t, tic, rt, sum, g.SaveState())
			}
		}
	}
	return nil
}

// mismatch describes tic t, whose re-run after tic at gave sum and state.
func mismatch(t, at uint32, first *ranTic, sum uint32, state []byte) *Mismatch {
	m := &Mismatch{Tic: t, At: at, Checksum: first.sum, Rerun: sum, StateOffset: -1,
		StateLen: len(first.after), RerunLen: len(state)}
	if len(state) == len(first.after) {
		for i := range state {
			if state[i] != first.after[i] {
				m.StateOffset = i
				break
			}
		}
	}
	return m
}

// drawn is a fixed pseudo-random command for player p at tic: the same on
// every run (splitmix64 of the two).
// An opaque input of size bytes is drawn the same way, eight bytes at a time.
func drawn(t uint32, p int, size uint8) tic.Cmd {
	z := uint64(t)<<8 | uint64(p)
	next := func() uint64 {
		z += 0x9E3779B97F4A7C15
		x := (z ^ z>>30) * 0xBF58476D1CE4E5B9
		x = (x ^ x>>27) * 0x94D049BB133111EB
		return x ^ x>>31
	}
	if size > 0 {
		var c tic.Cmd
		for i := 0; i < int(size); i += 8 {
			binary.LittleEndian.PutUint64(c.Input[i:], next())
		}
		clear(c.Input[size:])
		return c
	}
	x := next()
	return tic.Cmd{ForwardMove: int8(x), SideMove: int8(x >> 8), AngleTurn: int16(x >> 16), Buttons: uint8(x>>32) & 0x7f}
}

// IsMismatch reports whether err, an error Run returned, is a Mismatch,
// and returns it. (Run returns a Mismatch as it is, never wrapped: a type
// assertion finds it.)
func IsMismatch(err error) (*Mismatch, bool) {
	m, ok := err.(*Mismatch)
	return m, ok
}

// Result is what Run found, as the JS API reports it.
type Result struct {
	OK          bool   `json:"ok"`
	Tics        int    `json:"tics"` // the tics run, when OK
	Tic         uint32 `json:"tic"`  // the Mismatch, when not OK
	At          uint32 `json:"at"`
	Checksum    uint32 `json:"checksum"`
	Rerun       uint32 `json:"rerun"`
	StateOffset int    `json:"stateOffset"` // -1: the saved states did not differ, or no mismatch
	Message     string `json:"message"`     // what went wrong, when not OK
}

// ResultOf is the Result of a Run of c that returned err.
func ResultOf(c Config, err error) Result {
	r := Result{StateOffset: -1}
	if m, ok := IsMismatch(err); ok {
		r.Tic, r.At, r.Checksum, r.Rerun, r.StateOffset = m.Tic, m.At, m.Checksum, m.Rerun, m.StateOffset
	}
	if err != nil {
		r.Message = err.Error()
		return r
	}
	r.OK = true
	r.Tics = c.Tics
	if r.Tics <= 0 {
		r.Tics = DefaultTics
	}
	return r
}
