package netcore

import (
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Watchers, under the extension: a copy that connects as a drone
// (wire.ConnectData.Drone), or that joins a running game with no player
// free, watches. It runs the game from the tic sets the server broadcasts
// and sends no commands and no checksums; it is never a player. Watchers
// do not count against the reference's wire.MaxNodes, which bounds the
// players' and reference drones' slots: a chat of dozens can watch a game
// of four. Their channel's loss does not make the sets to everyone carry
// more tics (redundantTics measures the loss of commands, which a watcher
// sends none of; repairFrom leaves watchers out): a watcher that misses a
// tic gets it alone, from another watcher (its tic source,
// watch_sources.go) or, failing that, from the server (pushMissing), so
// that neither the players' traffic nor the server's grows with lossy
// watchers.
//
// A watcher that joins a running game gets the state straight from a
// watcher that watches already, the one that feeds fewest, not through
// the server (wire.StateFeed): neither the server's uplink nor the
// players' carries the state of every watcher. The first watcher gets it
// as a player that joins does, from the server's own copy, or, from a
// server that has none (ticnet-server), straight from the player that
// feeds fewest; one that opens while no watcher can feed it, but one
// will (it joins, or feeds MaxFeeds others), waits for it (wait), so
// that a chat that opens the game at once costs the server one state.

// MaxWatchers bounds the watchers a server takes at once, beside the
// wire.MaxNodes players and drones of the reference's limits. A watcher
// costs the server its acknowledgements (GameDataAckDelayMS: five frames
// a second) and the tics it misses that its source did not send; the tic
// sets are broadcast once whatever their number.
const MaxWatchers = 128

// watcher reports whether sc watches: a drone under the extension.
func (sc *serverClient) watcher() bool {
	return sc.drone() && sc.protocol == wire.ProtocolTicnet
}

// headcount counts the connected slots: the nodes of the reference's
// limit, and the watchers beside them.
func (t *slotTable) headcount() (nodes, watchers int) {
	for _, sc := range *t {
		switch {
		case !sc.connected():
		case sc.watcher():
			watchers++
		default:
			nodes++
		}
	}
	return nodes, watchers
}

// hasRoom reports whether the server can take one more connection: a
// watcher (an extension drone) within MaxWatchers, any other within
// wire.MaxNodes.
func (t *slotTable) hasRoom(drone bool, proto string) bool {
	nodes, watchers := t.headcount()
	if drone && proto == wire.ProtocolTicnet {
		return watchers < MaxWatchers
	}
	return nodes < wire.MaxNodes
}

// MaxFeeds bounds the watchers one copy streams the state to at once.
const MaxFeeds = 4

// MaxFeedWaitMS is how long a watcher that no watcher can feed yet waits
// for one (lateJoins.wait) before the server relays it its own copy's
// state: a watcher that opens while the first watchers join waits for
// them, rather than the server's uplink carrying each one's state.
// Measured, 64 watchers opening within a second on the lossy channel
// with a 256 KB state, 3 seeds: with 6 000 the server sent one state a
// game and 1.4 MB in all, watchers watched in 4.7 s at the median, 7.7 at
// worst; with 3 000 it sent 19 states, 6.6 MB, for 4.8 and 6.9 s; without
// waiting, not one watcher watched in 20 s (the server relayed 8 states
// at once, its most, to each game, and sent the others away).
const MaxFeedWaitMS = 6000

// wait makes watcher sc wait for a watcher that can feed it, when none
// can now but one will: one joins, fed already, or every one that
// watches feeds MaxFeeds others. It reports whether sc waits; past
// MaxFeedWaitMS it no longer does.
func (lj *lateJoins) wait(now int64, sc *serverClient) bool {
	j := sc.join
	if !sc.watcher() || j.waitFeedMS != 0 && now-j.waitFeedMS >= MaxFeedWaitMS {
		j.waitFeedMS = 0
		return false
	}
	for _, o := range lj.s.slots {
		if o == sc || !o.connected() || !o.watcher() || o.addr == LocalClientAddr || !heard(now, o) {
			continue
		}
		if o.phase == slotPlaying || o.phase == slotJoining && o.join.waitFeedMS == 0 {
			if j.waitFeedMS == 0 {
				j.waitFeedMS = now
			}
			return true
		}
	}
	j.waitFeedMS = 0
	return false
}

// waited asks again for the state of a watcher that waits for a feeder
// (wait): from a watcher that can feed it now, at the next tic, or,
// once it has waited MaxFeedWaitMS, relayed by the server.
func (lj *lateJoins) waited(now int64, sc *serverClient) {
	if source := lj.snapshotSource(); source != nil {
		lj.requestSnapshot(now, sc, source)
		return
	}
	sc.conn.Disconnect(now, ReasonNoSnapshot)
}

// QuietFeederMS is how long a copy may go unheard before the server no
// longer asks it to feed a watcher, nor names it a watcher's tic source
// (watch_sources.go): a watcher acknowledges five times a second, and one
// that falls silent has most likely gone (a closed tab), which the server
// would take for gone only at the connection's timeout.
const QuietFeederMS = 1000

// heard reports whether o was heard from lately (QuietFeederMS).
func heard(now int64, o *serverClient) bool { return now-o.conn.HeardMS() < QuietFeederMS }

// feed asks a copy to stream sc's snapshot straight to it, if sc watches
// and a copy can; it reports whether one was asked.
func (lj *lateJoins) feed(now int64, sc *serverClient) bool { return lj.feedExcept(now, sc, nil) }

// feedExcept is feed by a copy other than stalled.
func (lj *lateJoins) feedExcept(now int64, sc, stalled *serverClient) bool {
	j := sc.join
	if !sc.watcher() || sc.conn.Ident().Conn == 0 {
		return false
	}
	own := lj.s.slots.find(LocalClientAddr) != nil
	var best *serverClient
	for _, o := range lj.s.slots {
		if !o.connected() || o == sc || o == stalled || o.phase != slotPlaying || o.protocol != wire.ProtocolTicnet ||
			o.addr == LocalClientAddr || o.feeding >= MaxFeeds || own && !o.watcher() || !heard(now, o) {
			continue
		}
		switch {
		case best == nil, o.watcher() && !best.watcher():
		case o.watcher() != best.watcher(), o.feeding > best.feeding:
			continue
		case o.feeding == best.feeding && o.connectMS >= best.connectMS:
			continue
		}
		best = o
	}
	if best == nil {
		return false
	}
	best.feeding++
	j.feeder = best
	tag := wire.ConnTag(sc.conn.Ident().Conn)
	best.conn.SendReliable(&wire.StateFeed{Tic: j.start, Stream: j.stream, To: uint32(sc.addr), Tag: tag})
	sc.conn.SendReliable(&wire.StateFeed{Tic: j.start, Stream: j.stream, To: uint32(best.addr), Tag: tag})
	return true
}

// RefeedAfterMS is how long a watcher's state may make no progress before
// it asks for another feeder (wire.StateFeed, from the watcher): half the
// stall deadline after which it gives its join up. Its feeder most
// likely went (a closed tab), and the server would take that for gone
// only at the same deadline.
const RefeedAfterMS = transfer.DefaultStallMS / 2

// onRefeed takes a watcher's word that the state its feeder streams it
// stalled: another copy feeds it, from the same tic, on a new stream, or
// the server relays its own copy's; the watcher is told which
// (wire.StateFeed, To 0 for the server).
func (lj *lateJoins) onRefeed(now int64, sc *serverClient, body []byte) error {
	var m wire.StateFeed
	if err := m.DecodeBody(body); err != nil {
		return err
	}
	j := sc.joining()
	if j == nil || !j.started || j.feeder == nil || uint32(j.feeder.addr) != m.To || m.Stream != j.stream {
		return errUnexpected{}
	}
	stalled := j.feeder
	lj.release(sc)
	lj.nextStream++
	j.stream = lj.nextStream
	if lj.feedExcept(now, sc, stalled) {
		return nil
	}
	source := lj.snapshotSource()
	if source == nil || !lj.relay(now, sc, source) {
		sc.conn.Disconnect(now, ReasonNoSnapshot)
		return nil
	}
	sc.conn.SendReliable(&wire.StateFeed{Tic: j.start, Stream: j.stream, Tag: wire.ConnTag(sc.conn.Ident().Conn)})
	return nil
}

// release frees the copy that fed sc, once sc has its state, or is gone.
func (lj *lateJoins) release(sc *serverClient) {
	if j := sc.join; j != nil && j.feeder != nil {
		j.feeder.feeding--
		j.feeder = nil
	}
}
