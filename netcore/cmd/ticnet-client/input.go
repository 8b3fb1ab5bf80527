package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/ticnet/ticnet/netcore/tic"
)

// Doom's angles: a full turn is 1<<32, a command turns by angleturn<<16,
// and the sine tables are indexed by angle>>19.
const (
	ang90            uint32 = 0x40000000
	ang270           uint32 = 0xC0000000
	angleToFineShift        = 19
	btAttack                = 1     // BT_ATTACK
	turnStep                = 0x800 // angleturn per tic when turning: 11.25 degrees
)

// thrustX is the x part of P_Thrust(angle, move*2048): FixedMul(move*2048,
// finecosine[angle>>19]). It is known exactly, without Doom's sine table,
// only where the table is known: finecosine is -25 at fine angle 2048
// (north) and 25 at 6144 (south), sin((i+0.5)*2pi/8192)*65536 being 25.13
// either way. FixedMul shifts right arithmetically, so 1*2048*25>>16 = 0
// and -1*2048*-25>>16 = 0, but -1*2048*25>>16 = -1.
func thrustX(angle uint32, move int8) (dx int32, known bool) {
	if move == 0 {
		return 0, true
	}
	var cos int64
	switch angle >> angleToFineShift {
	case 2048:
		cos = -25
	case 6144:
		cos = 25
	default:
		return 0, false
	}
	return int32(int64(move) * 2048 * cos >> 16), true
}

// xModel follows what the reference checks of this client's own player:
// its consistency byte, the low byte of its mobj's x (fixed point 16.16).
// The player spawns at a map coordinate shifted left 16, so the byte is 0.
// It stays 0 as long as momx stays 0: momx is the sum of the x parts of the
// thrusts (forward, then sideways, after turning), friction multiplies it
// and a zero stays zero, and sliding along a wall or stepping back from a
// thing moves x by momx only. So the model knows x exactly while every
// command's thrusts have a zero x part, and nothing else pushes the
// player: a cooperative game without monsters, whose other players do not
// shoot this one, away from barrels and from walls that are neither
// horizontal nor vertical. Past the first command it cannot follow, it
// still answers 0, and says from which tic that is a guess.
type xModel struct {
	angleKnown bool   // the spawn angle is known (a cooperative start read from the map)
	angle      uint32 // after the last command applied
	dup        int    // game tics per network tic
	lost       bool
	lostAt     uint32 // the first tic whose command the model could not follow
}

// follows reports whether applying cmd keeps x known.
func (m *xModel) follows(cmd tic.Cmd) bool {
	if cmd.ForwardMove == 0 && cmd.SideMove == 0 {
		return true
	}
	if !m.angleKnown {
		return false
	}
	a := m.angle
	for range m.dup {
		a += uint32(uint16(cmd.AngleTurn)) << 16
		fx, ok1 := thrustX(a, cmd.ForwardMove)
		sx, ok2 := thrustX(a-ang90, cmd.SideMove)
		if !ok1 || !ok2 || fx+sx != 0 {
			return false
		}
	}
	return true
}

// apply runs this player's command for tic, as P_MovePlayer would.
func (m *xModel) apply(tic uint32, cmd tic.Cmd) {
	if !m.lost && !m.follows(cmd) {
		m.lost, m.lostAt = true, tic
	}
	for range m.dup {
		m.angle += uint32(uint16(cmd.AngleTurn)) << 16
	}
}

// consistency is the byte the reference records for this player.
func (m *xModel) consistency() uint8 { return 0 }

// input makes this client's commands.
type input interface {
	next(tic uint32) tic.Cmd
}

type idleInput struct{}

func (idleInput) next(uint32) tic.Cmd { return tic.Cmd{} }

// randomInput moves, turns and fires at random: for probing servers. A
// real client will quit with a consistency failure 128 tics after the
// first move (see xModel).
type randomInput struct{ r *rand.Rand }

func (in randomInput) next(uint32) tic.Cmd {
	r := in.r
	return tic.Cmd{ForwardMove: int8(r.IntN(101) - 50), SideMove: int8(r.IntN(81) - 40),
		AngleTurn: int16(r.IntN(2049) - 1024), Buttons: uint8(r.IntN(4))}
}

// scriptInput plays a script: each line "TICS FORWARD SIDE TURN BUTTONS"
// is one command held for TICS tics; '#' starts a comment. After the last
// line the player stands still.
type scriptInput struct {
	steps []scriptStep
	i, n  int
}

type scriptStep struct {
	tics int
	cmd  tic.Cmd
}

func readScript(path string) (*scriptInput, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := &scriptInput{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 5 {
			return nil, fmt.Errorf("%s:%d: want TICS FORWARD SIDE TURN BUTTONS, got %d fields", path, line, len(fields))
		}
		var v [5]int64
		bits := [5]int{31, 8, 8, 16, 8}
		for i, fld := range fields {
			n, err := strconv.ParseInt(fld, 0, bits[i])
			if err != nil || (i == 4 && n < 0) || (i == 0 && n < 1) {
				return nil, fmt.Errorf("%s:%d: field %d: %q out of range", path, line, i+1, fld)
			}
			v[i] = n
		}
		s.steps = append(s.steps, scriptStep{tics: int(v[0]), cmd: tic.Cmd{ForwardMove: int8(v[1]),
			SideMove: int8(v[2]), AngleTurn: int16(v[3]), Buttons: uint8(v[4])}})
	}
	return s, sc.Err()
}

func (s *scriptInput) next(uint32) tic.Cmd {
	for s.i < len(s.steps) {
		st := s.steps[s.i]
		if s.n < st.tics {
			s.n++
			return st.cmd
		}
		s.i, s.n = s.i+1, 0
	}
	return tic.Cmd{}
}

// doomInput moves, turns and fires in a way xModel can follow: it turns
// freely, fires, and walks only south, the one heading where a thrust of
// 1 has no x part (forward facing south, sideways right facing east,
// backward facing north). In MAP01 of Freedoom: Phase 2 the start room's
// south wall is horizontal, and player 2 starts 48 units south of player
// 1: a cooperative game's player 1 that turns south and fires hits player
// 2, whose x then moves, so that player's real client sends commands with
// a changing consistency byte.
type doomInput struct {
	m       *xModel
	plan    []action
	loopTo  int // where the plan starts again once done
	i, t    int // current action, tics spent in it
	dropped int // movements left out because the model could not follow them
}

type actionKind uint8

const (
	actWait actionKind = iota
	actFace            // turn until facing target
	actSpin            // turn left for tics
	actMove            // hold forward/side for tics
)

type action struct {
	kind          actionKind
	tics          int
	target        uint32
	forward, side int8
	fireEvery     int // press fire every this many tics (0: never)
}

func newDoomInput(m *xModel) *doomInput {
	return &doomInput{m: m, loopTo: 3, plan: []action{
		{kind: actWait, tics: 35},                             // the pistol comes up
		{kind: actFace, target: ang270},                       // south
		{kind: actMove, tics: 72, fireEvery: 24},              // three shots at whoever is south
		{kind: actMove, tics: 70, forward: 1},                 // walk south
		{kind: actSpin, tics: 0x10000 / turnStep},             // a full turn, in place
		{kind: actFace, target: 0},                            // east
		{kind: actMove, tics: 70, side: 1},                    // strafe right: south
		{kind: actFace, target: ang90},                        // north
		{kind: actMove, tics: 72, forward: -1, fireEvery: 24}, // back-pedal south, firing north
		{kind: actFace, target: ang270},
	}}
}

func (d *doomInput) next(uint32) tic.Cmd {
	for range 2 * len(d.plan) {
		cmd, done := d.run(&d.plan[d.i])
		if !done {
			d.t++
			if !d.m.follows(cmd) {
				cmd.ForwardMove, cmd.SideMove = 0, 0
				d.dropped++
			}
			return cmd
		}
		d.i, d.t = d.i+1, 0
		if d.i == len(d.plan) {
			d.i = d.loopTo
		}
	}
	return tic.Cmd{}
}

func (d *doomInput) run(a *action) (tic.Cmd, bool) {
	var cmd tic.Cmd
	switch a.kind {
	case actFace:
		turn := int32(a.target-d.m.angle) >> 16 / int32(d.m.dup) // in angleturn units, per game tic
		if turn == 0 {
			return cmd, true
		}
		cmd.AngleTurn = int16(max(-turnStep, min(turnStep, turn)))
		return cmd, false
	case actSpin:
		cmd.AngleTurn = turnStep
	case actMove:
		cmd.ForwardMove, cmd.SideMove = a.forward, a.side
		if a.fireEvery > 0 && d.t%a.fireEvery == 0 {
			cmd.Buttons = btAttack
		}
	}
	return cmd, d.t >= a.tics
}
