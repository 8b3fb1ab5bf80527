package scenario

import (
	"fmt"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Checked is what Check compared.
type Checked struct {
	Tics        int // tics whose checksum two or more peers had
	Commands    int // commands run, on every peer, checked against what their player built
	Substituted int // of those, commands the server substituted
}

// Check proves that every peer ran what the players built, and that the
// copies agree: CheckCommands, then CheckSums.
func (s *Scenario) Check() (Checked, error) {
	c, err := s.CheckCommands()
	if err != nil {
		return c, err
	}
	c.Tics, err = s.CheckSums()
	return c, err
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
		copies[i] = Copy{Index: p.Index, Game: p.Game, Player: p.Client.Player()}
	}
	return CheckCommandsOf(copies, s.Server.Extended(), s.records)
}

// Copy is one copy of a game, as the checks see it: its game and its
// player (-1: none).
type Copy struct {
	Index  int
	Game   *testgame.Game
	Player int
}

// CheckCommandsOf is CheckCommands for any copies of a game, given the
// records (by tic) of the servers that sent its tics: every tic a copy ran
// must have a record, whichever server sent it.
func CheckCommandsOf(copies []Copy, extended bool, records []netcore.TicRecord) (Checked, error) {
	var c Checked
	record := func(tic uint32) (netcore.TicRecord, bool) {
		if int(tic) < len(records) && records[tic].Tic == tic && records[tic].Players != 0 {
			return records[tic], true
		}
		return netcore.TicRecord{}, false
	}
	ranBy := func(tic uint32) (testgame.Ran, bool) {
		for _, p := range copies {
			if ran := p.Game.Ran(); int(tic) < len(ran) && ran[tic].OK {
				return ran[tic], true
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
	// builder is the copy that built player pl's command for tic, if any.
	builder := func(pl int, tic uint32) *Copy {
		for _, b := range builders[pl] {
			if b.Game.Built(tic).OK {
				return b
			}
		}
		return nil
	}
	for _, r := range records {
		if !extended && r.Received != r.Players {
			return c, fmt.Errorf("tic %d: the reference protocol substituted players %08b", r.Tic, r.Players&^r.Received)
		}
	}
	for _, p := range copies {
		if n := p.Game.Rebuilt(); n != 0 {
			return c, fmt.Errorf("peer %d was asked %d times to build a tic it had built", p.Index, n)
		}
		ran := p.Game.Ran()
		for t := range ran {
			tic := uint32(t)
			r := &ran[t]
			if !r.OK {
				continue // not run by this peer (a late joiner's early tics)
			}
			rec, ok := record(tic)
			if !ok && extended {
				return c, fmt.Errorf("peer %d ran tic %d, which the server never sent", p.Index, tic)
			}
			// The reference server records a tic when it drops it from its
			// window, with the players in the game then, which is after a
			// leave that the clients ran the tic before; under the
			// extension the record is the tic as sent.
			if extended && r.InGame != rec.Players {
				return c, fmt.Errorf("peer %d ran tic %d with players %08b in the game, the server had %08b",
					p.Index, tic, r.InGame, rec.Players)
			}
			for pl := range netcore.MaxPlayers {
				if r.InGame&(1<<pl) == 0 {
					if r.Cmds[pl] != (netcore.TicCmd{}) {
						return c, fmt.Errorf("peer %d ran tic %d with a command for player %d, who is not in the game", p.Index, tic, pl)
					}
					continue
				}
				got := r.Cmds[pl]
				var want netcore.TicCmd
				substituted := extended && rec.Received&(1<<pl) == 0
				if substituted {
					// The server's substitute: the command everyone ran
					// the tic before, its events cleared (a copy that
					// joined at this tic did not run it: ask another).
					if prev, ok := ranBy(tic - 1); t > 0 && ok {
						want = wire.ClearEvents(prev.Cmds[pl])
					}
					c.Substituted++
				} else {
					b := builder(pl, tic)
					if b == nil {
						return c, fmt.Errorf("peer %d ran tic %d with a command for player %d, who never built one for it",
							p.Index, tic, pl)
					}
					want = b.Game.Built(tic).Cmd
					want.Consistency = consistency(b.Game, b.Player, tic)
				}
				if got != want {
					return c, fmt.Errorf("peer %d ran tic %d with player %d's command %+v, want %+v (substituted: %v)",
						p.Index, tic, pl, got, want, substituted)
				}
				c.Commands++
			}
		}
	}
	return c, nil
}

// consistency is the byte the engine adds to a command it builds for tic:
// what it recorded for its player when it last ran a tic BackupTics (or a
// multiple of it) before, with its player in the game: the low byte of its
// game's checksum before that tic (the reference's consistancy[][], spec
// §11.4); zero if it never did.
func consistency(g *testgame.Game, player int, tic uint32) uint8 {
	ran := g.Ran()
	for t := int64(tic) - netcore.BackupTics; t >= 0; t -= netcore.BackupTics {
		if t < int64(len(ran)) && ran[t].OK && ran[t].InGame&(1<<player) != 0 {
			return uint8(ran[t].Before)
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

// CheckSums compares the checksum after every tic that two or more peers
// ran. It returns the number of tics compared, and an error naming the
// first tic and peer that differ.
func (s *Scenario) CheckSums() (int, error) {
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
			if ran := p.Game.Ran(); t >= len(ran) || !ran[t].OK {
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
