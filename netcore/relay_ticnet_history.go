package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// loadHistory fills the history with the newest tics of tl that the
// server can send again (each diffed against the tic before it, which tl
// must hold), sets the stream to go on after them, and returns who was in
// the game at the last of them.
func (x *ticnetRelay) loadHistory(tl *tic.Timeline) uint8 {
	s := x.s

	end := tl.Confirmed()
	x.sendSeq, s.cmds.start = end, end
	if end == tl.First() {
		return 0
	}
	first := max(tl.First()+1, end-min(end, BackupTics-1))
	base := tl.Tic(first - 1)
	for p := range tic.MaxPlayers {
		if base.Playing(p) {
			x.auth[p] = base.Cmds[p]
		}
	}
	for t := first; t != end; t++ {
		s.ext.appendHistory(t, tl.Tic(t))
	}
	return tl.Tic(end - 1).InGame
}

// appendHistory puts confirmed tic t, the next, in the history, diffed
// against the commands of the tic before.
func (x *ticnetRelay) appendHistory(t uint32, ct *tic.ConfirmedTic) {
	s := x.s

	var st wire.SetTic
	st.InGame, st.Substituted = ct.InGame, ct.Substituted
	for p := range tic.MaxPlayers {
		if !ct.Playing(p) {
			x.auth[p] = tic.Cmd{}
			continue
		}
		st.Cmds[p] = wire.Diff(&x.auth[p], &ct.Cmds[p])
		x.auth[p] = ct.Cmds[p]
	}
	x.history[t%BackupTics] = histTic{seq: t, valid: true, tic: st, chain: ct.Chain}
	x.sendSeq, s.cmds.start = t+1, t+1
}
