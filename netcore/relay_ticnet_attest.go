package netcore

import (
	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Attests, under the extension (client_check.go): while the game has
// watchers, the server signs the chain of the tics it sent and broadcasts
// it (wire.Attest) once AttestEveryTics tics have gone out since the last
// one, or AttestIdleMS after a tic that none vouches for yet (the stream
// paused, or ended); while no tic comes it says its last again every
// AttestRepeatMS, for a watcher that lost it. Players check the tags of
// the sets themselves and ignore them; a game without watchers sends
// none.

// AttestEveryTics is how many tics go out between two attests: a watcher
// runs each tic up to this many tics later than the players (0.46 s at 35
// tics a second), and each costs every copy a frame of 85 bytes and the
// broadcast's header and trailer (106 in all at 4 players: 6.6 bytes a
// tic), and the server one Ed25519 signature. At 8 tics the attests would
// cost every copy twice the bytes for half the watchers' wait.
const AttestEveryTics = 16

// AttestIdleMS is how long after a tic that no attest vouches for the
// server signs it all the same; AttestRepeatMS how often it says its last
// attest again while no tic comes.
const (
	AttestIdleMS   = 100
	AttestRepeatMS = 1000
)

// attestor signs the chain of the tics the server sent.
type attestor struct {
	s      *Server
	signer *auth.Signer // drawn from the server's key at its first attest
	chain  tic.Chain    // the chain through the last tic sent
	// signed is the tic after the last attest's; lastMS when it went,
	// ticMS when the last tic did.
	signed        uint32
	lastMS, ticMS int64
	// kept are the attests of the last BackupTics tics, the newest at
	// kept[n%len], for a watcher that lost one (answer).
	kept [BackupTics / AttestEveryTics]wire.Attest
	n    int
}

// sent adds tic seq, as every copy confirms it (its commands in cmds), to
// the chain, and returns the chain through it.
func (a *attestor) sent(now int64, seq uint32, t *wire.SetTic, cmds *[tic.MaxPlayers]tic.Cmd) tic.Chain {
	ct := tic.ConfirmedTic{Cmds: *cmds, InGame: t.InGame, Substituted: t.Substituted}
	a.chain = a.chain.Next(seq, &ct, a.s.cfg.Input.Size)
	a.ticMS = now
	return a.chain
}

// pass broadcasts an attest when one is due and the game has watchers.
func (a *attestor) pass(now int64, next uint32) {
	s := a.s
	n := next - a.signed
	due := n >= AttestEveryTics || n > 0 && now-a.ticMS >= AttestIdleMS || next > 0 && now-a.lastMS >= AttestRepeatMS
	if !due {
		return
	}
	if _, watchers := s.slots.headcount(); watchers == 0 {
		return
	}
	if a.signer == nil {
		a.signer = auth.NewSigner(s.cfg.Key)
	}
	if n > 0 || a.n == 0 {
		a.n++
		a.kept[a.n%len(a.kept)] = wire.Attest{Tic: next - 1, Chain: a.chain, Sig: a.signer.Sign(s.cfg.Game, next-1, a.chain[:])}
	}
	s.broadcast(&a.kept[a.n%len(a.kept)])
	a.signed, a.lastMS = next, now
}

// answer sends watcher sc, which asked (wire.AttestFetch), an attest of
// the tics it holds: the newest it keeps of them, or else one it signs
// now of the last (the history keeps each tic's chain). The watcher lost
// the attests that vouch for them, or holds a tic missing before the
// next, or feeds a watcher the state after the last.
func (a *attestor) answer(now int64, sc *serverClient, body []byte) error {
	s := a.s
	var m wire.AttestFetch
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if !sc.watcher() || int32(m.Tic-m.From) <= 0 {
		return errUnexpected{}
	}
	for i := range min(a.n, len(a.kept)) {
		if at := &a.kept[(a.n-i)%len(a.kept)]; int32(at.Tic-m.Tic) < 0 && int32(at.Tic-m.From) >= 0 {
			sc.conn.SendMessage(now, at)
			return nil
		}
	}
	last := m.Tic - 1
	h := &s.ext.history[last%BackupTics]
	if !h.valid || h.seq != last || int32(last-s.ext.sendSeq) >= 0 {
		return nil // gone from the history, or not sent yet
	}
	if a.signer == nil {
		a.signer = auth.NewSigner(s.cfg.Key)
	}
	sc.conn.SendMessage(now, &wire.Attest{Tic: last, Chain: h.chain, Sig: a.signer.Sign(s.cfg.Game, last, h.chain[:])})
	return nil
}

// tell tells watcher sc the key of this server's attests.
func (a *attestor) tell(sc *serverClient) {
	s := a.s
	if !sc.watcher() {
		return
	}
	if a.signer == nil {
		a.signer = auth.NewSigner(s.cfg.Key)
	}
	sc.conn.SendReliable(&wire.Signer{Game: s.cfg.Game, Key: a.signer.Public()})
}
