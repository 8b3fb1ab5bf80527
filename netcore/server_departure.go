package netcore

import "github.com/ticnet/ticnet/netcore/tic"

// Under the reference protocol the server sends each client a tic once
// every other player's command for it is in, so at any moment clients
// stand at different tics. A player who leaves must leave at one tic for
// all of them: departures keeps it in the game for every tic some other
// client was already sent with it, and out from the first tic none was.
// The server holds its commands for those tics: a client other than the
// leaver was sent a tic only once the leaver's command for it was in, and
// the window keeps a tic's commands until every client has it.
//
// (Under the extension protocol the server decides each tic once, for
// every client, so a player leaves at one tic by construction.)

// departures are the players who left the game and are still in tics
// that some client was sent with them.
type departures struct {
	seen  uint8                  // the players in the game as last looked at
	sent  [tic.MaxPlayers]uint32 // the tics each of them had been sent then
	gone  uint8                  // the players who left and are in tics before until
	until [tic.MaxPlayers]uint32 // for a gone player: the first tic without it
}

// noteDepartures notes the players who left since it last looked: each is
// in the game for the tics before the furthest any remaining client was
// sent, and for those after it that it was sent itself, while its
// commands for them are in (what it ran, as far as the others can).
func (r *referenceRelay) noteDepartures() {
	s := r.s
	d := &r.leavers
	var in uint8
	var sent uint32
	for _, p := range s.players() {
		in |= 1 << p.player
		sent = max(sent, p.sendSeq)
		d.sent[p.player] = p.sendSeq
	}
	for p := range tic.MaxPlayers {
		if d.seen&^in&(1<<p) == 0 {
			continue
		}
		until := sent
		for until < d.sent[p] && until-s.cmds.start < BackupTics {
			if !s.cmds.win[p].Has(until) {
				break
			}
			until++
		}
		if until > s.cmds.start {
			d.gone |= 1 << p
			d.until[p] = until
		}
	}
	d.seen = in
}

// departedIn returns the players who left but are in the game at tic t.
func (r *referenceRelay) departedIn(t uint32) uint8 {
	d := &r.leavers
	var in uint8
	for p := range tic.MaxPlayers {
		if d.gone&(1<<p) != 0 && t < d.until[p] {
			in |= 1 << p
		}
	}
	return in
}

// forgetDepartures drops the players who are in no tic from the window's start on.
func (r *referenceRelay) forgetDepartures() {
	s := r.s
	d := &r.leavers
	for p := range tic.MaxPlayers {
		if d.gone&(1<<p) != 0 && s.cmds.start >= d.until[p] {
			d.gone &^= 1 << p
		}
	}
}
