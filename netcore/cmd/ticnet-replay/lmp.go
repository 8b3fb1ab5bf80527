package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ticnet/ticnet/netcore/wire"
)

// A Doom demo (.lmp), as vanilla Doom 1.9 and Chocolate Doom read it: a
// header of 13 bytes (version, skill, episode, map, deathmatch, respawn,
// fast, nomonsters, consoleplayer, playeringame[4]); then, every game
// tic, each player in the game's command, lowest number first:
// forwardmove, sidemove, angleturn, buttons; then the end marker.
//
// Version 109 (Doom 1.9) holds angleturn's high byte, which a player reads
// back as that byte << 8. Vanilla rounds when it records
// ((angleturn+128)>>8) and plays the rounded command itself; Chocolate
// Doom's lowres_turn rounds in G_BuildTiccmd instead, carrying the error
// to the next tic, and the network carries the high byte alone, so every
// command of a game with lowres_turn is a multiple of 256: its high byte
// is exact. Version 111 ("Doom 1.91", longtics) holds all 16 bits, low
// byte first; Chocolate Doom plays it unless told -strictdemos.
const (
	demoVersion19  = 109
	demoVersion191 = 111
	demoEndMarker  = 0x80 // where a command's forwardmove would be
	demoPlayers    = 4    // playeringame[4]: players 0 to 3
	demoMaxSkill   = 4    // sk_nightmare
)

// demoOptions are lmp's flags that shape the demo.
type demoOptions struct {
	longtics bool // version 111 even for a game with lowres_turn
	player   int  // the player whose view the demo shows; -1: the replay's own, or the first in the game
}

// demo is a Doom demo made from a replay.
type demo struct {
	bytes   []byte
	version byte
	tics    int   // game tics: the replay's tics, ticdup times each
	ingame  uint8 // the players in the demo
	console int
	// stopped: the replay goes on past the demo's last tic, at stopTic,
	// with the players stopIn.
	stopped bool
	stopTic uint32
	stopIn  uint8
}

// errStop ends the reading of a replay at a tic the demo cannot hold.
var errStop = errors.New("stop")

// makeDemo makes a Doom demo of replay file data.
func makeDemo(data []byte, o demoOptions) (*demo, error) {
	r, err := wire.NewReplayReader(data)
	if err != nil {
		return nil, err
	}
	h := &r.Header
	st := &h.Settings
	switch {
	case h.Setup.Input.Opaque():
		return nil, fmt.Errorf("the game's input is opaque (%d bytes a player), not Doom's ticcmd: a Doom demo cannot hold it",
			h.Setup.Input.Size)
	case h.Start != 0:
		return nil, fmt.Errorf("the replay starts at tic %d (a copy that joined late, or a server that took the game over): a Doom demo starts with the level", h.Start)
	case st.Skill < 0 || st.Skill > demoMaxSkill:
		return nil, fmt.Errorf("skill %d: a Doom demo holds 0 to %d", st.Skill, demoMaxSkill)
	}
	d := &demo{version: demoVersion191}
	if st.LowResTurn && !o.longtics {
		d.version = demoVersion19
	}
	dup := max(int(st.TicDup), 1)
	var cmds [wire.MaxPlayers]wire.TicCmd
	first := true
	err = eachRecord(data, func(rec *wire.ReplayRecord) error {
		if rec.IsSnapshot() {
			return nil
		}
		t := &rec.Tic
		if first {
			first = false
			if err := d.start(t.InGame, o.player, int(st.ConsolePlayer)); err != nil {
				return err
			}
			d.bytes = append(d.bytes, d.version, byte(st.Skill), st.Episode, st.Map, st.Deathmatch,
				st.RespawnMonsters, st.FastMonsters, st.NoMonsters, byte(d.console))
			for p := range demoPlayers {
				d.bytes = append(d.bytes, t.InGame>>p&1)
			}
		}
		if t.InGame != d.ingame {
			d.stopped, d.stopTic, d.stopIn = true, t.Tic, t.InGame
			return errStop
		}
		cmds = t.Cmds
		for k := range dup {
			for p := range demoPlayers {
				if t.InGame&(1<<p) == 0 {
					continue
				}
				if k > 0 {
					cmds[p] = wire.ClearEvents(cmds[p]) // as every copy runs a duplicated tic
				}
				if err := d.appendCmd(&cmds[p]); err != nil {
					return fmt.Errorf("tic %d, player %d: %w", t.Tic, p, err)
				}
			}
			d.tics++
		}
		return nil
	})
	if err != nil && err != errStop {
		return nil, err
	}
	if first {
		return nil, errors.New("the replay holds no tic")
	}
	d.bytes = append(d.bytes, demoEndMarker)
	return d, nil
}

// start takes the players of the demo, in, those of the replay's first
// tic, and decides whose view it shows: player, else the recording copy's
// own, else the first in the game.
func (d *demo) start(in uint8, player, own int) error {
	switch {
	case in == 0:
		return errors.New("nobody is in the game at its first tic")
	case in>>demoPlayers != 0:
		return fmt.Errorf("%s in the game: a Doom demo holds players 0 to %d", playerList(in), demoPlayers-1)
	case player >= 0 && (player >= demoPlayers || in&(1<<player) == 0):
		return fmt.Errorf("-player %d is not in the game (%s)", player, playerList(in))
	}
	d.ingame = in
	switch {
	case player >= 0:
		d.console = player
	case own >= 0 && own < demoPlayers && in&(1<<own) != 0:
		d.console = own
	default:
		for in&(1<<d.console) == 0 {
			d.console++
		}
	}
	return nil
}

// appendCmd writes one player's command of one game tic.
func (d *demo) appendCmd(c *wire.TicCmd) error {
	if byte(c.ForwardMove) == demoEndMarker {
		return fmt.Errorf("forwardmove %d reads as the demo's end marker", c.ForwardMove)
	}
	d.bytes = append(d.bytes, byte(c.ForwardMove), byte(c.SideMove))
	turn := uint16(c.AngleTurn)
	if d.version == demoVersion19 {
		if turn&0xff != 0 {
			return fmt.Errorf("angleturn %d under lowres_turn is not a multiple of 256: no copy ran it as a demo of version %d would (-longtics holds it)",
				c.AngleTurn, demoVersion19)
		}
		d.bytes = append(d.bytes, byte(turn>>8))
	} else {
		d.bytes = append(d.bytes, byte(turn), byte(turn>>8))
	}
	d.bytes = append(d.bytes, c.Buttons)
	return nil
}

// lmpFlags are the lmp command's flags.
type lmpFlags struct {
	out      string
	player   int
	longtics bool
}

// writeDemo writes the Doom demo of replay file path, data, and says what
// it wrote.
func writeDemo(w io.Writer, path string, data []byte, f lmpFlags) error {
	out := f.out
	if out == "" {
		out = strings.TrimSuffix(path, filepath.Ext(path)) + ".lmp"
		if out == path {
			return fmt.Errorf("%s is already named .lmp: say where the demo goes with -o", path)
		}
	}
	d, err := makeDemo(data, demoOptions{longtics: f.longtics, player: f.player})
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, d.bytes, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s: Doom demo version %d, %s, view of player %d, %d game tics, %d bytes\n",
		out, d.version, playerList(d.ingame), d.console, d.tics, len(d.bytes))
	if d.stopped {
		fmt.Fprintf(w, "the demo stops before tic %d, where the replay goes on with %s: a Doom demo holds one set of players\n",
			d.stopTic, playerList(d.stopIn))
	}
	return nil
}
