package netcore

import "github.com/ticnet/ticnet/netcore/wire"

// Watchers, under the extension: a copy that connects as a drone
// (wire.ConnectData.Drone), or that joins a running game with no player
// free, watches. It runs the game from the tic sets the server broadcasts
// and sends no commands and no checksums; it is never a player. Watchers
// do not count against the reference's wire.MaxNodes, which bounds the
// players' and reference drones' slots: a chat of dozens can watch a game
// of four. Their channel's loss does not make the sets to everyone carry
// more tics (redundantTics, repairFrom): a watcher that misses a tic is
// sent it alone (pushMissing), so that the players' traffic does not
// grow with the watchers.

// MaxWatchers bounds the watchers a server takes at once, beside the
// wire.MaxNodes players and drones of the reference's limits. A watcher
// costs the server its acknowledgements (GameDataAckDelayMS: five frames
// a second) and the tics it misses; the tic sets are broadcast once
// whatever their number.
const MaxWatchers = 128

// watcher reports whether sc watches: a drone under the extension.
func (sc *serverClient) watcher() bool {
	return sc.drone() && sc.protocol == wire.ProtocolTicnet
}

// headcount counts the connected slots: the nodes of the reference's
// limit, and the watchers beside them.
func (t *slotTable) headcount() (nodes, watchers int) {
	for _, sc := range t {
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
