package netcore

import "github.com/ticnet/ticnet/netcore/wire"

// Tic sources, under the extension: a watcher on a lossier link than the
// players' misses a share of the tic sets every copy takes (they carry
// the tics the players' links need), and the tics it misses would come
// from the server alone, a set each (pushMissing): the server's uplink
// would grow with each lossy watcher. Instead the server names, for each
// watcher in the game, another watcher that sends it the tics it misses
// (wire.TicSource; client_source.go), the one that answers fewest: the
// watchers' uplinks carry them. A watcher asks its source first and the
// server only when that goes unanswered; the server sends a watcher what
// it lacks unasked later than it would another client, and less of it
// (SourcedPushAfterMS, PushSourcedTics), unless it falls half a window
// behind (FallingBehindTics). A watcher with no other to ask (the
// first) asks the server, as a player does.

// SourceCheckMS is how often the server names sources: for the watchers
// that entered the game since, and those whose source left.
const SourceCheckMS = 250

// SourcedPushAfterMS is how long the server waits, after a tic it sent,
// before it sends it again unasked to a watcher that has a source and
// has not acknowledged it (pushMissing), and then every resend timeout
// while it stays missing: the watcher asks its source as soon as it
// misses it, and the server itself a resend timeout (ResendRetryMS)
// later. Chosen on one seed's 10 s of 16 watchers on 20 % loss (a
// window that varies by half again): 600 ms and 1 500 ms cost the server
// about as many bytes as 1 000, and 1 500 let the watchers lag twice as
// far behind.
const SourcedPushAfterMS = 1000

// PushSourcedTics is how many tics the server sends again unasked to a
// watcher that has a source (pushMissing): the one its acknowledgement
// stops at, and the next; its source, or the server when asked, sends
// the others it lacks. (A player is sent 32: the server alone holds
// them.)
const PushSourcedTics = 2

// tickSources names the watchers' tic sources.
type tickSources struct {
	s       *Server
	checkMS int64
}

// sourced reports whether o may send, or be sent, the tics a watcher
// misses: a watcher in the game.
func sourced(o *serverClient) bool {
	return o.connected() && o.watcher() && o.phase == slotPlaying
}

// hasSource reports whether sc's source is one still: a watcher in the
// game, heard from lately.
func (ts *tickSources) hasSource(now int64, sc *serverClient) bool {
	o := sc.source
	return o != nil && sourced(o) && heard(now, o) && ts.s.slots.find(o.addr) == o
}

// pass names a source for each watcher in the game that has none, every
// SourceCheckMS.
func (ts *tickSources) pass(now int64) {
	s := ts.s
	if s.cfg.NoTicSources || now-ts.checkMS < SourceCheckMS {
		return
	}
	ts.checkMS = now
	for _, sc := range s.slots {
		if sc != nil {
			sc.serves = 0
		}
	}
	for _, sc := range s.slots {
		if sc != nil && sourced(sc) && ts.hasSource(now, sc) {
			sc.source.serves++
		}
	}
	for _, sc := range s.slots {
		if sc == nil || !sourced(sc) || ts.hasSource(now, sc) {
			continue
		}
		had := sc.source != nil
		sc.source = ts.best(now, sc)
		tag := wire.ConnTag(sc.conn.Ident().Conn)
		switch {
		case sc.source != nil:
			sc.source.serves++
			sc.source.conn.SendReliable(&wire.TicSource{To: uint32(sc.addr), Tag: tag, Serve: true})
			sc.conn.SendReliable(&wire.TicSource{To: uint32(sc.source.addr), Tag: tag})
		case had:
			sc.conn.SendReliable(&wire.TicSource{To: 0, Tag: tag}) // the server, until another can
		}
	}
}

// best returns the watcher that is to send sc the tics it misses: of
// those in the game, the one that answers fewest, the earliest to
// connect of those; nil if none can. Each answers one or two (n watchers
// answer n), below a copy's MaxServes.
func (ts *tickSources) best(now int64, sc *serverClient) *serverClient {
	var best *serverClient
	for _, o := range ts.s.slots {
		if o == nil || o == sc || !sourced(o) || o.addr == LocalClientAddr || !heard(now, o) {
			continue
		}
		if best == nil || o.serves < best.serves || o.serves == best.serves && o.connectMS < best.connectMS {
			best = o
		}
	}
	return best
}
