package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"log"
	"os"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/tic"
)

// game is what this client plays instead of Doom: it builds commands from
// its input, answers the consistency byte of its own player from xModel,
// and writes every tic it runs to the record.
type game struct {
	in    input
	model *xModel
	me    int // our player number; -1 before the game starts and for a drone
	rec   *recorder
	// warned: the model lost x and the log said so.
	warned bool
}

func (g *game) BuildTiccmd(t uint32) tic.Cmd {
	if g.me < 0 {
		return tic.Cmd{}
	}
	cmd := g.in.next(t)
	g.model.apply(t, cmd)
	if g.model.lost && !g.warned {
		g.warned = true
		log.Printf("tic %d: this command moves the player where the consistency model cannot follow it; "+
			"a real Chocolate Doom peer will quit with a consistency failure at tic %d", g.model.lostAt, g.model.lostAt+netcore.BackupTics+1)
	}
	return cmd
}

func (g *game) RunTic(tic uint32, cmds *[tic.MaxPlayers]tic.Cmd, ingame *[tic.MaxPlayers]bool) {
	if g.rec != nil {
		g.rec.tic(tic, cmds, ingame)
	}
}

func (g *game) Checksum() uint32 { return 0 }

// Consistency is the reference's consistency byte. For this client's own
// player it comes from the model. Other players' x is not known here (this
// client does not run Doom): 0, which is right while they stand where they
// spawned, so the engine reports a consistency difference once one of them
// moves. Real clients check, not this one.
func (g *game) Consistency(p int) uint8 {
	if p == g.me {
		return g.model.consistency()
	}
	return 0
}

// recorder writes every tic run as one JSON line:
//
//	{"tic":7,"cmds":[{"player":0,"forward":1,"side":0,"turn":0,"buttons":0,"consistency":0},...]}
//
// with a command for each player in the game, this client's own included.
type recorder struct {
	f    *os.File
	w    *bufio.Writer
	line ticLine
	err  error
}

type ticLine struct {
	Tic  uint32    `json:"tic"`
	Cmds []cmdJSON `json:"cmds"`
}

type cmdJSON struct {
	Player      int    `json:"player"`
	Forward     int8   `json:"forward"`
	Side        int8   `json:"side"`
	Turn        int16  `json:"turn"`
	Buttons     uint8  `json:"buttons"`
	Consistency uint8  `json:"consistency"`
	Chat        uint8  `json:"chat,omitempty"`
	Buttons2    uint8  `json:"buttons2,omitempty"`
	Inventory   uint16 `json:"inventory,omitempty"`
	LookFly     uint8  `json:"lookfly,omitempty"`
	Arti        uint8  `json:"arti,omitempty"`
}

func newRecorder(path string) (*recorder, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &recorder{f: f, w: bufio.NewWriter(f)}, nil
}

func (r *recorder) tic(t uint32, cmds *[tic.MaxPlayers]tic.Cmd, ingame *[tic.MaxPlayers]bool) {
	if r.err != nil {
		return
	}
	r.line.Tic = t
	r.line.Cmds = r.line.Cmds[:0]
	for p := range tic.MaxPlayers {
		if !ingame[p] {
			continue
		}
		c := &cmds[p]
		r.line.Cmds = append(r.line.Cmds, cmdJSON{Player: p, Forward: c.ForwardMove, Side: c.SideMove,
			Turn: c.AngleTurn, Buttons: c.Buttons, Consistency: c.Consistency, Chat: c.ChatChar,
			Buttons2: c.Buttons2, Inventory: c.Inventory, LookFly: c.LookFly, Arti: c.Arti})
	}
	b, _ := json.Marshal(&r.line)
	r.w.Write(b)
	r.err = r.w.WriteByte('\n')
	if t%netcore.TicRate == 0 {
		r.err = r.w.Flush()
	}
}

func (r *recorder) close() error {
	err := r.w.Flush()
	return errors.Join(r.err, err, r.f.Close())
}
