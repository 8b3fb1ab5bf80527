package netcore

import (
	"slices"

	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Checked tics, under the extension: a watcher has no tag of its own in
// the server's broadcasts (a tag per player, not per watcher of dozens),
// and takes the tics it misses from another watcher (client_source.go):
// neither way authenticates them. The server therefore signs, every few
// tics, the chain of the tics it sent (tic.Chain, wire.Attest), with a
// key it tells each watcher over its authenticated connection
// (wire.Signer); the watcher runs a tic only once a signed chain vouches
// for it and every tic before, or the tic came over its own connection.
// A chain that does not match means one of the tics it held since the
// last it ran was forged: it drops those the chain covers, counted as
// Forged, and asks the server itself for them. Attests come every AttestEveryTics
// tics, so a watcher runs up to that many tics later than it would
// unchecked; one it loses costs nothing but the wait for the next, which
// vouches for every tic before it too.

// AttestFetchAfterMS is how long a watcher holds a tic no attest vouches
// for, none coming, before it asks the server for one (wire.AttestFetch):
// two attests' time at 35 tics a second, and a little more, so that a
// single attest lost costs nothing (the next vouches for its tics too).
// It asks again every AttestRetryMS until one comes: on a channel that
// loses bursts, the tic sets carry each tic many times, an attest once.
const (
	AttestFetchAfterMS = 1000
	AttestRetryMS      = 250
)

// BrokenChainMS is how long a watcher that found the chain of the tics
// it held broken asks the server, not its tic source, for the tics it
// misses: the source may hold the forgery too.
const BrokenChainMS = 2000

// attestRing is how many attested chains a watcher keeps: the newest,
// which vouch for the tics it holds.
const attestRing = 8

// attested is one chain the server signed: of the tics through tic,
// with its signature, which a tic source passes on.
type attested struct {
	tic   uint32
	chain tic.Chain
	sig   [auth.SignatureLen]byte
	ok    bool
}

// ticCheck is a watcher's check of the tics it runs.
type ticCheck struct {
	c    *Client
	game uint32
	key  *[auth.SignerLen]byte // nil: the server signs nothing; tics run unchecked
	// through is the tic after the last the chains vouched for: the tics
	// before it, from recvSide.start on, may be confirmed.
	through  uint32
	attested [attestRing]attested
	// brokenMS is when the chain of the tics it held last broke; the tics
	// it dropped then, before refetchEnd, it asks the server for every
	// AttestRetryMS (refetchMS: last time) until they come.
	brokenMS, refetchMS int64
	refetchEnd          uint32
	// waitMS is since when through has not moved while the copy holds a
	// tic from it on (0: it holds none), askedMS when it last asked for an
	// attest; waitFrom is through then.
	waitMS, askedMS int64
	waitFrom        uint32
}

// onSigner takes the key that signs the server's chains: a watcher's, at
// the game's launch or its JoinStart.
func (k *ticCheck) onSigner(body []byte) error {
	c := k.c
	var m wire.Signer
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if c.player >= 0 || c.protocol != wire.ProtocolTicnet {
		return errUnexpected{}
	}
	key := [auth.SignerLen]byte(m.Key)
	k.game, k.key, k.through, k.attested = m.Game, &key, c.recv.start, [attestRing]attested{}
	return nil
}

// onAttest takes a chain the server signed, from the server or from the
// copy's tic source, if it vouches for tics this copy does not run yet; a
// signature that does not check is a forgery, dropped and counted. A copy
// that checks nothing (a player, which checks the tags of the sets
// themselves) ignores it.
func (k *ticCheck) onAttest(body []byte) error {
	c := k.c
	var m wire.Attest
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	start := c.recv.start
	if k.key == nil || int32(m.Tic-start) < 0 || m.Tic-start >= BackupTics {
		return nil
	}
	slot := 0
	for i, a := range k.attested {
		switch {
		case a.ok && a.tic == m.Tic && a.sig == m.Sig:
			return nil // has it
		case !k.attested[slot].ok || int32(k.attested[slot].tic-start) < 0:
		case !a.ok || int32(a.tic-k.attested[slot].tic) < 0:
			slot = i // free, or the oldest
		}
	}
	if !auth.CheckChain(k.key, k.game, m.Tic, m.Chain[:], &m.Sig) {
		c.stats.Forged++
		return nil
	}
	k.attested[slot] = attested{tic: m.Tic, chain: tic.Chain(m.Chain), sig: m.Sig, ok: true}
	return nil
}

// end returns the tic before which the window's tics may be confirmed
// (ok false: any may, the copy checks nothing): those a chain the server
// signed vouches for, and after them those that came from the server
// over the copy's own connection, which needs no chain. When the chain of
// the tics held does not match the server's, those from elsewhere are
// dropped, counted as Forged, and asked for again, of the server.
func (k *ticCheck) end(now int64) (end uint32, ok bool) {
	rs := &k.c.recv
	if k.key == nil {
		return 0, false
	}
	if int32(k.through-rs.start) < 0 {
		k.through = rs.start
	}
	held := rs.held()
	if !k.vouch(now, held) {
		return rs.start, true
	}
	for t := k.through; rs.win.Has(t) && rs.tics[t%BackupTics].sure && t-rs.start < BackupTics; t++ {
		k.through = t + 1
	}
	k.refetch(now)
	k.ask(now, held)
	return k.through, true
}

// ask asks the server for an attest, when the copy has held a tic that
// none vouches for, and none came, for AttestFetchAfterMS: it lost those
// that would. held is the first tic from start on the copy lacks.
func (k *ticCheck) ask(now int64, held uint32) {
	c := k.c
	// A copy that streams its state to a watcher once it runs a tic it
	// holds asks at once: the watcher waits for it.
	feeding := slices.ContainsFunc(c.join.saves, func(ps pendingSave) bool { return int32(ps.tic-k.through) > 0 })
	switch {
	case k.through == held:
		k.waitMS = 0
	case k.waitMS == 0 || k.waitFrom != k.through:
		k.waitMS, k.waitFrom = now, k.through
		if feeding {
			k.askedMS = now
			c.conn.SendMessage(now, &wire.AttestFetch{From: k.through, Tic: held})
		}
	case (feeding || now-k.waitMS >= AttestFetchAfterMS) && now-k.askedMS >= AttestRetryMS:
		k.askedMS = now
		c.conn.SendMessage(now, &wire.AttestFetch{From: k.through, Tic: held})
	}
}

// vouch moves through past the newest tic a signed chain vouches for, of
// those the window holds, from its start on, without a gap (up to have,
// the first tic it lacks). It reports
// false when the chain does not match, the tics it covers that came from
// elsewhere dropped.
func (k *ticCheck) vouch(now int64, have uint32) bool {
	c := k.c
	rs := &c.recv
	best := -1
	for i, a := range k.attested {
		if a.ok && int32(a.tic-k.through) >= 0 && int32(a.tic-have) < 0 && (best < 0 || int32(a.tic-k.attested[best].tic) > 0) {
			best = i
		}
	}
	if best < 0 {
		return true
	}
	a := k.attested[best]
	base, chain := rs.base, rs.chain
	for t := rs.start; ; t++ {
		ct := rs.build(t, &base)
		chain = chain.Next(t, &ct, c.cfg.Input.Size)
		if t == a.tic {
			break
		}
	}
	if chain == a.chain {
		k.through = a.tic + 1
		return true
	}
	c.stats.Forged++
	k.brokenMS = now
	for t := rs.start; int32(t-a.tic) <= 0; t++ {
		if !rs.tics[t%BackupTics].sure {
			rs.win.Forget(t)
		}
	}
	k.refetchEnd, k.refetchMS = a.tic+1, 0
	k.refetch(now)
	return false
}

// refetch asks the server itself, every AttestRetryMS, for the tics the
// copy dropped when their chain broke that have not come again: a tic
// source may hold the forgery, and the server, which takes the copy's
// acknowledgement of them as given, would not send them unasked.
func (k *ticCheck) refetch(now int64) {
	rs := &k.c.recv
	if int32(k.refetchEnd-rs.start) <= 0 || now-k.refetchMS < AttestRetryMS {
		return
	}
	k.refetchMS = now
	var run, n uint32
	for t := rs.start; ; t++ {
		if int32(t-k.refetchEnd) < 0 && !rs.win.Has(t) {
			if n == 0 {
				run = t
			}
			n++
			continue
		}
		if n > 0 {
			rs.win.Ask(now, rs.start, run, n, rs.askServer)
			n = 0
		}
		if int32(t-k.refetchEnd) >= 0 {
			return
		}
	}
}

// broken reports whether the chain of the tics the copy held broke in the
// last BrokenChainMS.
func (k *ticCheck) broken(now int64) bool { return k.brokenMS != 0 && now-k.brokenMS < BrokenChainMS }

// newest returns the newest attest the copy took, for a watcher it is
// the tic source of (ok false: none).
func (k *ticCheck) newest() (m wire.Attest, ok bool) {
	for _, a := range k.attested {
		if a.ok && (!ok || int32(a.tic-m.Tic) > 0) {
			m, ok = wire.Attest{Tic: a.tic, Chain: a.chain, Sig: a.sig}, true
		}
	}
	return m, ok
}

// held returns the first tic from start on that the window lacks.
func (rs *recvSide) held() uint32 {
	t := rs.start
	for rs.win.Has(t) && t-rs.start < BackupTics {
		t++
	}
	return t
}

// ackTic is the tic the copy acknowledges, and before which it knows of
// no tic missing: the first it lacks. A watcher that checks its tics
// counts those it holds for an attest, so that the server does not send
// them again; those it drops when their chain breaks it asks the server
// for itself (refetch).
func (rs *recvSide) ackTic() uint32 {
	if rs.c.check.key == nil {
		return rs.start
	}
	return rs.held()
}
