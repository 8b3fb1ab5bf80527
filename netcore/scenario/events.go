package scenario

import (
	"fmt"

	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"
)

// addedEvents reports whether got is want with events added and none
// taken away or changed, and returns the events added. Opaque input: the
// held bits equal, want's event bits all set in got. Doom's ticcmd: the
// steady fields equal, and an event field of want's set in got as it is,
// or filled where want's is zero.
func addedEvents(l *tic.InputLayout, got, want tic.Cmd) (tic.Cmd, bool) {
	if l.ClearEvents(got) != l.ClearEvents(want) {
		return tic.Cmd{}, false
	}
	g, w := l.EventsOf(&got), l.EventsOf(&want)
	var added tic.Cmd
	if l.Opaque() {
		for i := range l.Size {
			if w.Input[i]&^g.Input[i] != 0 {
				return tic.Cmd{}, false
			}
			added.Input[i] = g.Input[i] &^ w.Input[i]
		}
		return added, true
	}
	if w.ChatChar != 0 && g.ChatChar != w.ChatChar || w.Arti != 0 && g.Arti != w.Arti || w.Inventory != 0 && g.Inventory != w.Inventory {
		return tic.Cmd{}, false
	}
	if w.ChatChar == 0 {
		added.ChatChar = g.ChatChar
	}
	if w.Arti == 0 {
		added.Arti = g.Arti
	}
	if w.Inventory == 0 {
		added.Inventory = g.Inventory
	}
	return added, true
}

// Events is what CheckEvents counted.
type Events struct {
	Built    int   // event bits in the commands built for confirmed tics
	Carried  int   // of those, bits of a substituted command, run in a later one
	MaxLate  int   // the most tics a carried bit was run after its own tic
	Late     []int // how many tics after its own tic each carried bit ran, in order
	Pending  int   // bits not run yet: built less than a lead's tics before the end
	Commands int   // commands checked
}

// CheckEvents proves that no event bit of opaque input is lost or
// invented: along the confirmed tics, in order, each player's command
// holds the events of the command its copy built for that tic, plus
// events of its earlier commands that the server substituted (which ran
// without them), each once, oldest first, and nothing else; a substitute
// holds none. Every carried
// bit is run at most maxLate tics after its own tic; the bits still
// waiting at the end must be of the last lead tics. It checks the copy
// that ran the most confirmed tics (a predicting copy's confirmed tics
// only), against the builders' records.
func (s *Scenario) CheckEvents(maxLate, lead int) (Events, error) {
	var ev Events
	var ran testgame.History
	for _, p := range s.Peers {
		r := p.Game.Ran()
		if end := s.confirmedEnd(p); end != 0 {
			r = r.Before(int(end)) // what it predicted past its confirmed tics may change
		}
		if r.Len() > ran.Len() {
			ran = r
		}
	}
	l := &s.Peers[0].Game.Input
	if !l.Opaque() {
		return ev, fmt.Errorf("CheckEvents counts opaque input's event bits only")
	}
	builder := func(pl int) *testgame.Game {
		for _, p := range s.Peers {
			if p.Client.Player() == pl {
				return p.Game
			}
		}
		return nil
	}
	// pending[pl][i*8+b]: the tics of the substituted commands whose bit
	// b of byte i waits to run, oldest first.
	var pending [tic.MaxPlayers][8 * tic.MaxInputBytes][]int
	for t, r := range ran.All() {
		if !r.OK {
			continue
		}
		if t >= len(s.records) || s.records[t].Tic != uint32(t) {
			return ev, fmt.Errorf("tic %d ran without a record", t)
		}
		rec := s.records[t]
		for pl := range tic.MaxPlayers {
			if r.InGame&(1<<pl) == 0 {
				continue
			}
			b := builder(pl)
			if b == nil || !b.Built(uint32(t)).OK {
				continue // nobody built it here (a player who left)
			}
			ev.Commands++
			built := b.Built(uint32(t)).Cmd
			bits := l.EventsOf(&built)
			got := l.EventsOf(&r.Cmds[pl])
			for i := range l.Size {
				for bit := range 8 {
					if bits.Input[i]&(1<<bit) != 0 {
						ev.Built++
					}
				}
			}
			if rec.Received&(1<<pl) == 0 { // substituted: its events wait
				if got != (tic.Cmd{}) {
					return ev, fmt.Errorf("tic %d: player %d's substitute holds events %v", t, pl, got.Input[:l.Size])
				}
				for i := range l.Size {
					for bit := range 8 {
						if k := int(i)*8 + bit; bits.Input[i]&(1<<bit) != 0 {
							pending[pl][k] = append(pending[pl][k], t)
						}
					}
				}
				continue
			}
			for i := range l.Size {
				if bits.Input[i]&^got.Input[i] != 0 {
					return ev, fmt.Errorf("tic %d: player %d built events %08b in byte %d, ran %08b", t, pl, bits.Input[i], i, got.Input[i])
				}
				for bit := range 8 {
					k := int(i)*8 + bit
					if got.Input[i]&(1<<bit) == 0 || bits.Input[i]&(1<<bit) != 0 {
						continue // not run, or run as built
					}
					q := pending[pl][k]
					if len(q) == 0 {
						return ev, fmt.Errorf("tic %d: player %d ran event bit %d of byte %d, which nobody built", t, pl, bit, i)
					}
					ev.Carried++
					ev.MaxLate = max(ev.MaxLate, t-q[0])
					ev.Late = append(ev.Late, t-q[0])
					pending[pl][k] = q[1:]
				}
			}
		}
	}
	for pl := range pending {
		for k, q := range pending[pl] {
			for _, tic := range q {
				if tic < ran.Len()-lead {
					return ev, fmt.Errorf("player %d's event bit %d of byte %d, built for tic %d, never ran (the game ran to %d)", pl, k%8, k/8, tic, ran.Len())
				}
				ev.Pending++
			}
		}
	}
	if ev.MaxLate > maxLate {
		return ev, fmt.Errorf("an event ran %d tics after its tic, more than %d", ev.MaxLate, maxLate)
	}
	return ev, nil
}
