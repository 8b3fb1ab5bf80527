package scenario

import (
	"cmp"
	"fmt"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"
)

// Checked is what Check compared.
type Checked struct {
	Tics        int // tics whose checksum two or more peers had
	Commands    int // commands run, on every peer, checked against what their player built
	Substituted int // of those, commands the server substituted
	// Carrying: of the commands not substituted, those that held events
	// of an earlier command of their player's that the server substituted
	// (CheckEvents accounts for each).
	Carrying int
	// Events: in a Doom-ticcmd game under the extension, the events the
	// players built, each run once (CheckDoomEvents).
	Events DoomEvents
}

// Check proves that every peer ran what the players built, and that the
// copies agree: CheckCommands, then, in a Doom-ticcmd game under the
// extension, CheckDoomEvents, then CheckSums; and that no copy's game was
// called in the Update that told its host the game started.
func (s *Scenario) Check() (Checked, error) {
	if len(s.calledAtStart) > 0 {
		return Checked{}, fmt.Errorf("the game was called in the Update that started it, before its host knew: %v", s.calledAtStart)
	}
	c, err := s.CheckCommands()
	if err != nil {
		return c, err
	}
	if s.Server.Extended() && !s.Peers[0].Game.Input.Opaque() {
		if c.Events, err = s.CheckDoomEvents(); err != nil {
			return c, err
		}
	}
	if c.Tics, err = s.CheckSums(); err != nil {
		return c, err
	}
	return c, s.CheckChains()
}

// CheckChains proves that every copy holds the same chain (tic.Chain) of
// each confirmed tic it shares with the others, under the extension: the
// chain the server signs for the watchers, and the one a copy that takes
// the game over signs on from.
func (s *Scenario) CheckChains() error {
	if !s.Server.Extended() {
		return nil
	}
	first := map[uint32]int{}
	chains := map[uint32]tic.Chain{}
	for _, p := range s.Peers {
		tl := p.Client.Timeline()
		end := s.confirmedEnd(p)
		if end == 0 || int32(end-tl.Confirmed()) > 0 {
			end = tl.Confirmed()
		}
		for t := tl.First(); int32(t-end) < 0; t++ {
			ct := tl.Tic(t)
			if ct == nil {
				continue
			}
			c, ok := chains[t]
			switch {
			case !ok:
				chains[t], first[t] = ct.Chain, p.Index
			case c != ct.Chain:
				return fmt.Errorf("peer %d's chain of tic %d is not peer %d's", p.Index, t, first[t])
			}
		}
	}
	return nil
}

// CheckCommands proves that every tic every peer ran had exactly the
// commands the players built for it: for every player in the game, the
// command its copy's game returned from BuildTiccmd for that tic, with the
// consistency byte its engine added, unless the server substituted it, in
// which case the player's command of the tic before with its events
// cleared. Substitutions are read from the server's tic records, and the
// reference protocol must have none. Under the extension, who was in the
// game must match the records too. Agreement alone would let every copy run the same wrong
// command; this would not.
func (s *Scenario) CheckCommands() (Checked, error) {
	if s.quiet {
		return Checked{}, fmt.Errorf("a quiet scenario records no commands")
	}
	if d := s.Peers[0].Client.Settings().TicDup; d > 1 {
		return Checked{}, fmt.Errorf("commands are checked with ticdup 1 only, not %d", d)
	}
	copies := make([]Copy, len(s.Peers))
	for i, p := range s.Peers {
		copies[i] = Copy{Index: p.Index, Game: p.Game, Player: p.Client.Player(), Until: s.confirmedEnd(p),
			LowResTurn: p.Client.Settings().LowResTurn}
	}
	return CheckCommandsOf(copies, s.Server.Extended(), s.records)
}

// Copy is one copy of a game, as the checks see it: its game and its
// player (-1: none).
type Copy struct {
	Index  int
	Game   *testgame.Game
	Player int
	// From and Until, if not 0, bound the tics checked, [From, Until): a
	// server's copy that left ran tics its successor may have decided
	// afresh; a copy that joined its game again ran, before, tics of a
	// game that did not go on.
	From, Until uint32
	// LowResTurn says that the game turns in one byte: every copy runs
	// turning truncated to a multiple of 256 (the test game builds any).
	LowResTurn bool
}

// lifeOf is the first tic the engine that built tic's command knew: From
// for a command built once the copy joined its game again, else 0.
func (p *Copy) lifeOf(tic uint32) uint32 {
	if tic >= p.From {
		return p.From
	}
	return 0
}

// Checks reports whether tic of the copy is to be checked.
func (p *Copy) Checks(tic uint32) bool { return tic >= p.From && (p.Until == 0 || tic < p.Until) }

// CheckCommandsOf is CheckCommands for any copies of a game, given the
// records (by tic) of the servers that sent its tics: every tic a copy ran
// must have a record, whichever server sent it.
func CheckCommandsOf(copies []Copy, extended bool, records []netcore.TicRecord) (Checked, error) {
	var all []netcore.TicRecord
	for _, r := range records {
		if r.Players != 0 {
			all = append(all, r)
		}
	}
	return CheckCommandsAgainst(copies, extended, func(tic uint32) []netcore.TicRecord {
		if int(tic) < len(records) && records[tic].Tic == tic && records[tic].Players != 0 {
			return records[tic : tic+1]
		}
		return nil
	}, all)
}

// CheckCommandsAgainst is CheckCommandsOf for a game whose tics may have
// been sent more than once, differently (by a server that took the game
// over and decided afresh what its predecessor had sent to copies that
// did not stay): recordsOf returns every record of a tic, and a copy's tic
// must match one of them; all is every record.
func CheckCommandsAgainst(copies []Copy, extended bool, recordsOf func(at uint32) []netcore.TicRecord, all []netcore.TicRecord) (Checked, error) {
	var c Checked
	ranBy := func(at uint32) (testgame.Ran, bool) {
		for _, p := range copies {
			if ran := p.Game.Ran().At(at); ran.OK && p.Checks(at) {
				return ran, true
			}
		}
		return testgame.Ran{}, false
	}
	builders := map[int][]*Copy{}
	for i := range copies {
		if pl := copies[i].Player; pl >= 0 {
			builders[pl] = append(builders[pl], &copies[i])
		}
	}
	// builder is the copy that built player pl's command for tic, if any:
	// one whose checked tics hold tic, when a copy that joined again
	// played another player before (one Copy per life), else any that
	// built a command for tic (a copy checked from a later join, which
	// played the same player before).
	builder := func(pl int, at uint32) *Copy {
		var other *Copy
		for _, b := range builders[pl] {
			if b.Game.Built(at).OK {
				if b.Checks(at) {
					return b
				}
				other = cmp.Or(other, b)
			}
		}
		return other
	}
	for _, r := range all {
		if !extended && r.Received != r.Players {
			return c, fmt.Errorf("tic %d: the reference protocol substituted players %08b", r.Tic, r.Players&^r.Received)
		}
	}
	// checkTic checks one tic a copy ran against one record of it, and
	// returns the commands it checked and how many were substituted.
	checkTic := func(p *Copy, t int, r *testgame.Ran, rec netcore.TicRecord) (int, int, int, error) {
		at := uint32(t)
		cmds, subs, carrying := 0, 0, 0
		l := &p.Game.Input
		// The reference server records a tic when it drops it from its
		// window, with the players in the game then, which is after a
		// leave that the clients ran the tic before; under the
		// extension the record is the tic as sent.
		if extended && r.InGame != rec.Players {
			return 0, 0, 0, fmt.Errorf("peer %d ran tic %d with players %08b in the game, the server had %08b",
				p.Index, at, r.InGame, rec.Players)
		}
		for pl := range tic.MaxPlayers {
			if r.InGame&(1<<pl) == 0 {
				if r.Cmds[pl] != (tic.Cmd{}) {
					return 0, 0, 0, fmt.Errorf("peer %d ran tic %d with a command for player %d, who is not in the game", p.Index, at, pl)
				}
				continue
			}
			got := r.Cmds[pl]
			var want tic.Cmd
			substituted := extended && rec.Received&(1<<pl) == 0
			if substituted {
				// The server's substitute: the command everyone ran
				// the tic before, its events cleared (a copy that
				// joined at this tic did not run it: ask another).
				if prev, ok := ranBy(at - 1); t > 0 && ok {
					want = l.ClearEvents(prev.Cmds[pl])
				}
				subs++
			} else {
				b := builder(pl, at)
				if b == nil {
					return 0, 0, 0, fmt.Errorf("peer %d ran tic %d with a command for player %d, who never built one for it",
						p.Index, at, pl)
				}
				want = b.Game.Built(at).Cmd
				if !l.Opaque() {
					want.Consistency = consistency(b.Game, b.Player, at, b.lifeOf(at))
					if p.LowResTurn {
						want.AngleTurn = want.AngleTurn / 256 * 256 // the reference's truncation
					}
				}
				if got != want {
					if _, ok := addedEvents(l, got, want); ok {
						want = got // the built command, with events carried into it
						carrying++
					}
				}
			}
			if got != want {
				return 0, 0, 0, fmt.Errorf("peer %d ran tic %d with player %d's command %+v, want %+v (substituted: %v)",
					p.Index, at, pl, got, want, substituted)
			}
			cmds++
		}
		return cmds, subs, carrying, nil
	}
	joinedAgain := map[*testgame.Game]bool{}
	for _, p := range copies {
		joinedAgain[p.Game] = joinedAgain[p.Game] || p.From > 0
	}
	for i := range copies {
		p := &copies[i]
		// (A copy that joined again rebuilds tics its first engine built.)
		if n := p.Game.Rebuilt(); n != 0 && !joinedAgain[p.Game] {
			return c, fmt.Errorf("peer %d was asked %d times to build a tic it had built", p.Index, n)
		}
		for t, ran := range p.Game.Ran().All() {
			at := uint32(t)
			r := &ran
			if !r.OK || !p.Checks(at) {
				continue // not run by this peer (a late joiner's early tics)
			}
			recs := recordsOf(at)
			if len(recs) == 0 {
				if extended {
					return c, fmt.Errorf("peer %d ran tic %d, which the server never sent", p.Index, at)
				}
				recs = []netcore.TicRecord{{}}
			}
			var err error
			for _, rec := range recs {
				var cmds, subs, carrying int
				if cmds, subs, carrying, err = checkTic(p, t, r, rec); err == nil {
					c.Commands += cmds
					c.Substituted += subs
					c.Carrying += carrying
					break
				}
			}
			if err != nil {
				return c, err
			}
		}
	}
	return c, nil
}

// consistency is the byte the engine adds to a command it builds for tic:
// what it recorded for its player when it last ran a tic BackupTics (or a
// multiple of it) before, with its player in the game: the low byte of its
// game's checksum before that tic (the reference's consistancy[][], spec
// §11.4); zero if it never did (from tic from on, when its copy joined
// again: its engine forgot the tics before).
func consistency(g *testgame.Game, player int, tic, from uint32) uint8 {
	ran := g.Ran()
	for t := int64(tic) - netcore.BackupTics; t >= int64(from); t -= netcore.BackupTics {
		if in, before, ok := ran.Head(uint32(t)); ok && in&(1<<player) != 0 {
			return uint8(before)
		}
	}
	return 0
}

// keepRecords stores the records of the server's last Update, by tic.
func (s *Scenario) keepRecords() {
	for _, r := range s.Server.TicRecords() {
		if n := int(r.Tic) + 1; n > len(s.records) {
			s.records = append(s.records, make([]netcore.TicRecord, n-len(s.records))...)
		}
		s.records[r.Tic] = r
	}
}

// Records returns the server's tic records, by tic.
func (s *Scenario) Records() []netcore.TicRecord { return s.records }

// confirmedEnd is the first tic of a peer's game that the checks do not
// count, or 0 for none: its Until; the first it ran only as a prediction
// (Options.Predict); for a copy that left, the first the server let go
// without its player (it may have run that tic before it left, with its
// own command that never reached the others).
func (s *Scenario) confirmedEnd(p *Peer) uint32 {
	end := p.Until
	if s.opts.Predict && (end == 0 || p.Client.GameTic() < end) {
		end = p.Client.GameTic()
	}
	if pl := p.Client.Player(); pl >= 0 && p.Client.State() == netcore.ClientDisconnected {
		was := false
		for t, r := range s.records {
			in := r.Players&(1<<pl) != 0
			if was && !in && r.Tic == uint32(t) {
				if end == 0 || uint32(t) < end {
					end = uint32(t)
				}
				break
			}
			was = was || in
		}
	}
	return end
}

// CheckSums compares the checksum after every tic that two or more peers
// ran. It returns the number of tics compared, and an error naming the
// first tic and peer that differ.
func (s *Scenario) CheckSums() (int, error) {
	end := s.confirmedEnd
	longest := 0
	for _, p := range s.Peers {
		longest = max(longest, len(p.Game.Sums()))
	}
	compared := 0
	for t := 0; t < longest; t++ {
		var want uint32
		var ref *Peer
		peers := 0
		for _, p := range s.Peers {
			if _, _, ok := p.Game.Ran().Head(uint32(t)); !ok || end(p) != 0 && uint32(t) >= end(p) {
				continue
			}
			peers++
			sum := p.Game.Sums()[t]
			if ref == nil {
				ref, want = p, sum
				continue
			}
			if sum != want {
				return compared, fmt.Errorf("tic %d: peer %d has %08x, peer %d has %08x", t, p.Index, sum, ref.Index, want)
			}
		}
		if peers >= 2 {
			compared++
		}
	}
	return compared, nil
}
