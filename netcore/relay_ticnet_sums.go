package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// desyncCheck compares the players' checksums of each tic under the
// extension protocol, and names those that differ, once each until a
// repair sets a copy right (relay_ticnet_repair.go).
type desyncCheck struct {
	sums     [BackupTics]sumSlot
	desynced [tic.MaxPlayers]bool
	// from: each player's checksums count from this tic on (a repaired
	// copy's of the tics before may be of its diverged state).
	from [tic.MaxPlayers]uint32
	// verdicts wait for the pass to be told (tell), after the repairs
	// they start: the reliable queue is stop-and-wait, and a repair's
	// request queued behind a verdict would wait a round trip more.
	verdicts []wire.Desync
}

// clear forgets that player p desynced: a new copy plays it.
func (d *desyncCheck) clear(p int) { d.desynced[p] = false }

type sumSlot struct {
	seq  uint32
	have uint8
	sums [tic.MaxPlayers]uint16
}

// take takes a player's checksum report, alone or on its GAMEDATA, for
// the tics x sent.
func (d *desyncCheck) take(x *ticnetRelay, sc *serverClient, m *wire.ChecksumReport) {
	s := x.s
	for i, sum := range m.Sums {
		tic := m.Start + uint32(i)
		if x.sendSeq-tic-1 >= BackupTics { // not in [sendSeq-128, sendSeq)
			s.stats.Unexpected++
			continue
		}
		if int32(tic-d.from[sc.player]) < 0 {
			continue // a repaired copy's, of its diverged state
		}
		slot := &d.sums[tic%BackupTics]
		if slot.seq != tic {
			*slot = sumSlot{seq: tic}
		}
		slot.have |= 1 << sc.player
		slot.sums[sc.player] = sum
		d.compare(x, tic, slot)
	}
}

// compare names the players whose checksum for tic differs from the
// most common one, once every player in the game has reported it.
func (d *desyncCheck) compare(x *ticnetRelay, t uint32, slot *sumSlot) {
	s := x.s
	h := &x.history[t%BackupTics]
	if !h.valid || h.seq != t || slot.have&h.tic.InGame != h.tic.InGame {
		return
	}
	var best uint16
	bestCount := 0
	for p := range tic.MaxPlayers {
		if h.tic.InGame&(1<<p) == 0 {
			continue
		}
		n := 0
		for q := range tic.MaxPlayers {
			if h.tic.InGame&(1<<q) != 0 && slot.sums[q] == slot.sums[p] {
				n++
			}
		}
		if n > bestCount {
			best, bestCount = slot.sums[p], n
		}
	}
	n := bitCount(h.tic.InGame)
	var differ []int
	for p := range tic.MaxPlayers {
		if h.tic.InGame&(1<<p) != 0 && slot.sums[p] != best {
			differ = append(differ, p)
		}
	}
	if len(differ) > 0 && 2*bestCount <= n {
		// No majority (two players, say): every player is suspect.
		differ = differ[:0]
		for p := range tic.MaxPlayers {
			if h.tic.InGame&(1<<p) != 0 {
				differ = append(differ, p)
			}
		}
	}
	var fresh []int
	var names string
	for _, p := range differ {
		if d.desynced[p] {
			continue
		}
		d.desynced[p] = true
		fresh = append(fresh, p)
		if names != "" {
			names += ", "
		}
		names += s.slots.nameOf(p)
	}
	differ = fresh
	slot.have = 0 // compared: later duplicates start over and find nothing new
	if truth, ok := truthOf(s, slot, h.tic.InGame, best, 2*bestCount > n); ok && len(differ) > 0 {
		var wrong []int
		for _, p := range differ {
			if truth&(1<<p) == 0 {
				wrong = append(wrong, p)
			}
		}
		x.repair.diverged(wrong, truth)
	}
	if len(differ) > 0 {
		s.emit(Event{Kind: EventDesyncSuspected, Player: differ[0], Tic: t, Players: differ, Name: names,
			Reason: ReasonChecksumsDiffer})
		d.verdict(t, differ)
	}
}

// truthOf is the players of in whose copies hold the state every copy
// should after a tic: those with the most common checksum, best, when a
// majority has it; with none (two players, say), those that agree with the
// server's own copy, when it plays. False when there is no telling.
func truthOf(s *Server, slot *sumSlot, in uint8, best uint16, majority bool) (uint8, bool) {
	if !majority {
		own := s.slots.find(LocalClientAddr)
		if own == nil || own.player < 0 || own.phase != slotPlaying || in&(1<<own.player) == 0 {
			return 0, false
		}
		best = slot.sums[own.player]
	}
	var truth uint8
	for p := range tic.MaxPlayers {
		if in&(1<<p) != 0 && slot.sums[p] == best {
			truth |= 1 << p
		}
	}
	return truth, true
}

// ReasonChecksumsDiffer is the reason of the server's desync verdict.
const ReasonChecksumsDiffer = "game state checksums differ"

// verdict keeps the server's verdict on tic t, the players whose copies
// diverged, for tell.
func (d *desyncCheck) verdict(t uint32, players []int) {
	m := wire.Desync{Tic: t}
	for _, p := range players {
		m.Players |= 1 << p
	}
	d.verdicts = append(d.verdicts, m)
}

// tell tells every client in the game the server's verdicts (wire.Desync):
// the clients cannot tell by themselves, each sees only its own checksums.
func (d *desyncCheck) tell(s *Server) {
	for i := range d.verdicts {
		for _, sc := range s.slots {
			if sc.connected() && sc.inGame() && sc.phase != slotPlaceholder {
				sc.conn.SendUrgent(&d.verdicts[i])
			}
		}
	}
	d.verdicts = d.verdicts[:0]
}

func bitCount(b uint8) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}
