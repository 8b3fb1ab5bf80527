package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// rejoins holds the players of copies that left a game in progress, for
// them to come back with their key (a copy derives it from the rejoin
// token it keeps: ClientConfig.Token).
type rejoins struct {
	s        *Server
	departed []departed
}

// departed is a player who left a game in progress, held for its copy.
type departed struct {
	key     wire.PublicKey // its copy's
	player  int
	name    string
	untilMS int64
}

// hold keeps the player of a copy that left a game in progress for
// RejoinGraceMS, if the copy can come back (rejoinable). A copy that left
// while it joined again gets its player held again until the grace it had.
func (rj *rejoins) hold(now int64, sc *serverClient) {
	s := rj.s
	if s.state != ServerInGame || sc.player < 0 || !sc.rejoinable || sc.key == nil {
		return
	}
	until := now + s.cfg.RejoinGraceMS
	if !sc.inGame() {
		if sc.heldUntilMS == 0 {
			return // a new player that never entered
		}
		until = sc.heldUntilMS
	}
	rj.departed = append(rj.departed, departed{key: *sc.key, player: sc.player, name: sc.name, untilMS: until})
}

// held returns the player numbers held for departed copies, forgetting
// those past their grace.
func (rj *rejoins) held(now int64) [tic.MaxPlayers]bool {
	var taken [tic.MaxPlayers]bool
	kept := rj.departed[:0]
	for _, d := range rj.departed {
		if now < d.untilMS {
			kept = append(kept, d)
			taken[d.player] = true
		}
	}
	rj.departed = kept
	return taken
}

// rejoin gives a joiner the player held for its key, if one is held and
// its owner is not connected from elsewhere; it reports whether it did.
func (rj *rejoins) rejoin(now int64, sc *serverClient) bool {
	s := rj.s
	if !sc.rejoinable || sc.key == nil {
		return false
	}
	for p, ph := range s.mig.awaiting {
		if ph != nil && sameKey(ph.key, sc.key) {
			// Its copy joins afresh instead of reattaching (it went its
			// own way meanwhile): its place ends, and it gets it back.
			s.mig.dropPlaceholder(now, p, ReasonLeft)
		}
	}
	rj.held(now)
	for _, o := range s.slots {
		if o != sc && o.connected() && sameKey(o.key, sc.key) {
			s.stats.RejoinRefused++
			return false
		}
	}
	for i, d := range rj.departed {
		if d.key != *sc.key {
			continue
		}
		rj.departed = append(rj.departed[:i], rj.departed[i+1:]...)
		sc.takeBack(d)
		s.emit(Event{Kind: EventPlayerJoined, Player: sc.player, Addr: sc.addr, Name: sc.name, Reason: ReasonRejoined})
		return true
	}
	return false
}

// onHello takes a client's first word: whether its copy can come back.
func (rj *rejoins) onHello(sc *serverClient, body []byte) error {
	var m wire.Hello
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	if sc.hello {
		return errUnexpected{}
	}
	sc.hello = true
	sc.rejoinable = m.Rejoinable
	return nil
}

// sameKey reports whether two copies' keys are one (none is no key).
func sameKey(a, b *wire.PublicKey) bool { return a != nil && b != nil && *a == *b }
