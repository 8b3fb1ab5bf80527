// Package testgame is the reference game of ticnet's tests: deterministic,
// cheap, and such that its state depends on every field of every command of
// every player, so any difference in what two copies ran shows in their
// checksums. It records its checksum after every tic, the commands it was
// asked to build and the commands it ran, so that a test can check both
// that the copies agree and that they ran what the players built.
package testgame

import (
	"math/rand/v2"

	"github.com/ticnet/ticnet/netcore/tic"
)

// Game is one copy of the reference game.
type Game struct {
	// BreakAt, when non-zero, makes this copy add 1 to its state at that
	// tic: a deliberately broken peer; BreakFrom at every tic from that
	// one on (a game that is not deterministic on this copy).
	BreakAt, BreakFrom uint32
	// Idle makes BuildTiccmd return empty commands.
	Idle bool
	// Quiet games keep no history (for benchmarks).
	Quiet bool
	// Input, when opaque, makes BuildTiccmd return opaque input of that
	// layout: random held bytes, and now and then an event bit.
	Input tic.InputLayout

	rng     *rand.Rand
	state   [tic.MaxPlayers]player
	world   []byte // the rest of the state, as large as the test wants
	hash    uint32
	sums    []uint32 // checksum after each tic, by tic
	built   []Built  // the commands BuildTiccmd returned, by tic
	ran     History  // the commands RunTic was given, by tic
	rebuilt int      // tics BuildTiccmd was asked for more than once
	calls   int      // every call of the engine's: BuildTiccmd, RunTic, SaveState, LoadState
	loads   int      // states loaded
	held    [tic.MaxInputBytes]byte
}

// InitialChecksum is the checksum of a game that has run no tic.
const InitialChecksum uint32 = 2166136261

// Built is the command BuildTiccmd returned for a tic, if it was asked.
type Built struct {
	Cmd tic.Cmd
	OK  bool
}

// Ran is what RunTic was given for a tic.
type Ran struct {
	Cmds   [tic.MaxPlayers]tic.Cmd
	InGame uint8  // bit p: player p was in the game
	Before uint32 // the checksum before the tic
	OK     bool   // the tic ran
}

type player struct {
	x, y, angle int32
	acc         uint32 // everything else, mixed
}

// DefaultWorldBytes is the size of a new game's world: with the players,
// a saved state of a little over 1 KB.
const DefaultWorldBytes = 1024

// New returns a game whose local input is drawn from seed.
func New(seed uint64) *Game {
	return NewSized(seed, DefaultWorldBytes)
}

// NewSized returns a game with a world of worldBytes, so that its saved
// state is about that large (tests and benchmarks of state transfer use
// up to 4 MB). Every copy starts with the same world.
func NewSized(seed uint64, worldBytes int) *Game {
	return &Game{rng: rand.New(rand.NewPCG(seed, seed*0x9e3779b97f4a7c15+1)), hash: InitialChecksum,
		world: make([]byte, worldBytes)}
}

// BuildTiccmd returns random input that exercises every field, the
// event-like ones now and then.
func (g *Game) BuildTiccmd(tic uint32) tic.Cmd {
	g.calls++
	c := g.newCmd()
	if !g.Quiet {
		g.built = grow(g.built, tic)
		if g.built[tic].OK {
			g.rebuilt++
		}
		g.built[tic] = Built{Cmd: c, OK: true}
	}
	return c
}

// grow extends s so that it holds index i.
func grow[T any](s []T, i uint32) []T {
	if n := int(i) + 1; n > len(s) {
		s = append(s, make([]T, n-len(s))...)
	}
	return s
}

func (g *Game) newCmd() tic.Cmd {
	if g.Idle {
		return tic.Cmd{}
	}
	r := g.rng
	if l := &g.Input; l.Opaque() {
		if r.IntN(4) == 0 { // held input changes now and then, as a player's does
			i := r.IntN(int(l.Size))
			g.held[i] = uint8(r.IntN(256)) &^ l.Events[i]
		}
		c := tic.Cmd{Input: g.held}
		for i := range l.Size {
			if e := l.Events[i]; e != 0 && r.IntN(6) == 0 {
				c.Input[i] |= e & (1 << r.IntN(8)) // one event bit, when the mask has it
			}
		}
		return c
	}
	c := tic.Cmd{
		ForwardMove: int8(r.IntN(101) - 50),
		SideMove:    int8(r.IntN(81) - 40),
		AngleTurn:   int16(r.IntN(2049) - 1024),
		Buttons:     uint8(r.IntN(0x80)), // BT_SPECIAL left out: it is a pause or save request
		LookFly:     uint8(r.IntN(4)),
		Buttons2:    uint8(r.IntN(4)),
	}
	if r.IntN(8) == 0 { // hold still now and then, so that diffs are empty too
		c.ForwardMove, c.SideMove, c.AngleTurn = 0, 0, 0
	}
	if r.IntN(20) == 0 {
		c.ChatChar = uint8('a' + r.IntN(26))
	}
	if r.IntN(30) == 0 {
		c.Arti = uint8(1 + r.IntN(9))
	}
	if r.IntN(30) == 0 {
		c.Inventory = uint16(1 + r.IntN(500))
	}
	return c
}

func (g *Game) mix(v uint32) { g.hash = (g.hash ^ v) * 16777619 }

// RunTic moves every player by its command and mixes every field in.
func (g *Game) RunTic(t uint32, cmds *[tic.MaxPlayers]tic.Cmd, ingame *[tic.MaxPlayers]bool) {
	g.calls++
	if !g.Quiet {
		var in uint8
		for p, ok := range ingame {
			if ok {
				in |= 1 << p
			}
		}
		g.ran.set(t, cmds, in, g.hash)
	}
	g.mix(t)
	for p := range tic.MaxPlayers {
		if !ingame[p] {
			g.mix(0xdead)
			continue
		}
		c := &cmds[p]
		s := &g.state[p]
		s.angle += int32(c.AngleTurn)
		s.x += int32(c.ForwardMove) * (s.angle>>8&7 + 1)
		s.y += int32(c.SideMove) * (s.angle>>11&7 + 1)
		s.acc = s.acc*31 + uint32(c.Buttons) + uint32(c.ChatChar)<<8 + uint32(c.Consistency)<<16 +
			uint32(c.Buttons2)<<24
		s.acc = s.acc*31 + uint32(c.Inventory) + uint32(c.LookFly)<<16 + uint32(c.Arti)<<24
		for i := 0; i < int(g.Input.Size); i += 4 {
			s.acc = s.acc*31 + (uint32(c.Input[i]) | uint32(c.Input[i+1])<<8 | uint32(c.Input[i+2])<<16 | uint32(c.Input[i+3])<<24)
		}
		if len(g.world) > 0 {
			// Each player leaves a mark somewhere in the world, so that a
			// copy that loaded a wrong world soon differs.
			i := (g.hash ^ uint32(p)*0x9e3779b9) % uint32(len(g.world))
			g.world[i] += uint8(s.acc) | 1
			g.mix(uint32(g.world[i]) << 8)
		}
		g.mix(uint32(s.x))
		g.mix(uint32(s.y))
		g.mix(uint32(s.angle))
		g.mix(s.acc)
	}
	if g.BreakAt != 0 && t == g.BreakAt || g.BreakFrom != 0 && t >= g.BreakFrom {
		g.state[0].x++
		g.mix(1)
	}
	if g.Quiet {
		return
	}
	for uint32(len(g.sums)) < t {
		g.sums = append(g.sums, 0) // tics this copy never ran (none, normally)
	}
	g.sums = append(g.sums[:t], g.hash)
}

// Checksum is the state hash after the last tic.
func (g *Game) Checksum() uint32 { return g.hash }

// Sums returns the checksum after each tic this copy ran, by tic.
func (g *Game) Sums() []uint32 { return g.sums }

// Built returns the command BuildTiccmd returned for tic, if it was asked.
func (g *Game) Built(tic uint32) Built {
	if int(tic) < len(g.built) {
		return g.built[tic]
	}
	return Built{}
}

// Repeated records that the engine built the commands of the n tics from
// from itself, when its input delay grew (netcore.EventInputDelay): each
// the command it built before, events cleared. That is the last this game
// built: tics just before may have none, when the engine's clock moved
// past them (their commands were the server's to substitute).
func (g *Game) Repeated(from uint32, n int) {
	if g.Quiet || from == 0 {
		return
	}
	var last tic.Cmd
	for t := int(from) - 1; t >= 0; t-- {
		if b := g.Built(uint32(t)); b.OK {
			last = b.Cmd
			break
		}
	}
	for t := from; t < from+uint32(n); t++ {
		g.built = grow(g.built, t)
		g.built[t] = Built{Cmd: g.Input.ClearEvents(last), OK: true}
	}
}

// Ran returns the tics this copy ran, by tic, with the commands it ran:
// the history as of now (a later RunTic may change it, as it changed a
// slice).
func (g *Game) Ran() History { return g.ran }

// Calls counts the engine's calls of the game: BuildTiccmd, RunTic,
// SaveState and LoadState.
func (g *Game) Calls() int { return g.calls }

// Loads counts the states this copy loaded.
func (g *Game) Loads() int { return g.loads }

// Rebuilt is how many times BuildTiccmd was asked for a tic it had built
// before: an engine builds each tic once.
func (g *Game) Rebuilt() int { return g.rebuilt }

// PlayerChecksum is a hash of player p's own state.
func (g *Game) PlayerChecksum(p int) uint32 {
	s := &g.state[p]
	h := InitialChecksum
	for _, v := range [...]uint32{uint32(s.x), uint32(s.y), uint32(s.angle), s.acc} {
		h = (h ^ v) * 16777619
	}
	return h
}
