package scenario

import (
	"fmt"
	"slices"

	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// DoomEvents is what CheckDoomEvents counted.
type DoomEvents struct {
	Built   int // events (chat characters, artifacts, inventory uses) in the commands built for confirmed tics
	Carried int // of those, events of a substituted command, run in a later one
	MaxLate int // the most tics a carried event ran after its own tic
	Pending int // events still waiting at the end (or lost)
	// OutOfOrder: carried events run before an older one of their kind
	// (MergeEvents fills the first carry entry with room, which may be
	// before an older event's).
	OutOfOrder int
	Commands   int // commands checked
}

// doomEvent is one event of a substituted command, waiting to run.
type doomEvent struct {
	tic   int
	value uint16
}

// doomEventFields are the fields of Doom's ticcmd that hold one-off
// events (InputLayout.EventsOf): a chat character, an artifact, an
// inventory use. Each is carried on its own (InputLayout.MergeEvents).
var doomEventFields = [...]struct {
	name string
	get  func(*tic.Cmd) uint16
}{
	{"chat character", func(c *tic.Cmd) uint16 { return uint16(c.ChatChar) }},
	{"artifact", func(c *tic.Cmd) uint16 { return uint16(c.Arti) }},
	{"inventory use", func(c *tic.Cmd) uint16 { return c.Inventory }},
}

// CheckDoomEvents is CheckEvents for Doom's ticcmd under the extension:
// along the confirmed tics, in order, each event a player built (a chat
// character, an artifact, an inventory use) runs at most once: in its own
// command, or, when the server substituted that command (a substitute
// holds no event), in a later command of the player's that built none of
// its kind; no command runs an event its player did not build or that
// ran already, and BT_SPECIAL requests, never carried, run only as built.
// CheckCommands accepts any event that fills a field the built command
// left at zero; this accounts for each. It checks the copy that ran the
// most confirmed tics, against the builders' records.
//
// It counts, without failing on them, carried events run before an older
// one of their kind and events still waiting at the end: the client
// carries an event into the carry list's first entry with room for it,
// whatever the age of the events of its kind in later entries; and an
// event carried into a command that is substituted in turn is carried
// again, a lead's worth of tics later each time (a player silent for
// seconds: 86 tics after its own, two commands with room for it sent
// before it was carried again), so no bound on either holds.
func (s *Scenario) CheckDoomEvents() (DoomEvents, error) {
	var ev DoomEvents
	l := &s.Peers[0].Game.Input
	if l.Opaque() || !s.Server.Extended() {
		return ev, fmt.Errorf("CheckDoomEvents counts the events of Doom's ticcmd under the extension only")
	}
	// The copy that ran the most confirmed tics, and most of them from
	// the first (a copy that joined late ran none before it joined).
	var ran testgame.History
	most := -1
	for _, p := range s.Peers {
		r := p.Game.Ran()
		if end := s.confirmedEnd(p); end != 0 {
			r = r.Before(int(end))
		}
		n := 0
		for t := range r.Len() {
			if _, _, ok := r.Head(uint32(t)); ok {
				n++
			}
		}
		if n > most {
			ran, most = r, n
		}
	}
	// builder is the game of the copy that built player pl's command for
	// tic t, if one did: not a copy whose checks end before t (Peer.Until:
	// a copy refused as it reattached built tics of its player that a
	// copy back with its token built again, and sent).
	builder := func(pl int, t uint32) *testgame.Game {
		for _, p := range s.Peers {
			if p.Client.Player() == pl && p.Game.Built(t).OK && (p.Until == 0 || t < p.Until) {
				return p.Game
			}
		}
		return nil
	}
	var pending [tic.MaxPlayers][len(doomEventFields)][]doomEvent
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
			b := builder(pl, uint32(t))
			if b == nil {
				continue // nobody built it here (a player who left)
			}
			ev.Commands++
			built, got := b.Built(uint32(t)).Cmd, r.Cmds[pl]
			for _, field := range doomEventFields {
				if field.get(&built) != 0 {
					ev.Built++
				}
			}
			if rec.Received&(1<<pl) == 0 { // substituted: its events wait
				if e := l.EventsOf(&got); e != (tic.Cmd{}) || got.Buttons&wire.ButtonSpecial != 0 {
					return ev, fmt.Errorf("tic %d: player %d's substitute holds events %+v, buttons %08b", t, pl, e, got.Buttons)
				}
				for f, field := range doomEventFields {
					if v := field.get(&built); v != 0 {
						pending[pl][f] = append(pending[pl][f], doomEvent{t, v})
					}
				}
				continue
			}
			if got.Buttons != built.Buttons {
				return ev, fmt.Errorf("tic %d: player %d built buttons %08b, ran %08b", t, pl, built.Buttons, got.Buttons)
			}
			for f, field := range doomEventFields {
				want, v := field.get(&built), field.get(&got)
				q := pending[pl][f]
				switch {
				case want != 0 && v != want:
					return ev, fmt.Errorf("tic %d: player %d built %s %d, ran %d", t, pl, field.name, want, v)
				case want != 0:
					// Its own: no room for a carried one.
				case v != 0:
					// A carried event: one of its kind that waits, taken
					// off once; the oldest, or counted out of order.
					i := slices.IndexFunc(q, func(e doomEvent) bool { return e.value == v })
					if i < 0 {
						return ev, fmt.Errorf("tic %d: player %d ran %s %d, which no substituted command of its holds (never built, or run twice)",
							t, pl, field.name, v)
					}
					if i > 0 {
						ev.OutOfOrder++
					}
					ev.Carried++
					ev.MaxLate = max(ev.MaxLate, t-q[i].tic)
					pending[pl][f] = slices.Delete(q, i, i+1)
				}
			}
		}
	}
	for pl := range pending {
		for _, q := range pending[pl] {
			ev.Pending += len(q)
		}
	}
	return ev, nil
}
