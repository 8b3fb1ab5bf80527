package netcore

import (
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/wire"
)

type serverClient struct {
	addr      link.Addr
	conn      reliable.Conn
	connectMS int64
	name      string
	version   string
	protocol  string
	data      wire.ConnectData
	player    int       // -1 for a drone
	phase     slotPhase // moved only by to (slot_phase.go)
	live      bool      // connected at the last look: a change means it just left
	// heldUntilMS: a copy that got its player back by its token, until
	// when the player was held for it: it is held again, as long, if the
	// copy leaves before it is in the game.
	heldUntilMS int64

	lastWaitingMS  int64
	sendSeq        uint32
	acked          uint32
	queue          [BackupTics]sentServerTic
	lastGameDataMS int64
	pushFromMS     int64 // extension: no tic is pushed again (pushMissing) for a timeout after it
	lastPushMS     int64 // extension: when tics were last pushed again
	// repairing: the sets to everyone carry tics from its acknowledgement
	// on (repairFrom) while it stays at repairTic, the tic it was pushed.
	repairing bool
	repairTic uint32
	// The client's round trip (from acknowledgements: see takeAck), and
	// the jitter of its commands' arrival (from the
	// newest of each packet, jitterTic): when to send or ask again, and
	// how long a gap may be reordering.
	rtt       reliable.RTT
	jit       reliable.Jitter
	jitterTic uint32
	resentEnd uint32        // one past the last tic sent it again: their acks time no round trip
	loss      reliable.Loss // the share of its packets lost
	join      *joiner       // in slotJoining: how far its join is
	readyDue  bool          // it entered on its commands; its JoinReady is still to come
	hello     bool          // its Hello arrived
	// key is its copy's public key (a host's own client's: the
	// server's), with which it connected; nil: none (the reference).
	// rejoinable: its copy keeps the key across reloads (its Hello says
	// so), and comes back with it: its player is held when it leaves.
	key        *wire.PublicKey
	rejoinable bool
	roster     wire.Roster // the roster it was last sent
	rostered   bool        // it was sent one
	rosterGen  uint32      // the roster generation it was last checked at (migration.rosterGen)
	// confirmRTT is how long a tic takes to be acknowledged from when it
	// was first sent, sent again or not: what an automatic input delay
	// covers (rtt leaves out the tics sent again, whose acknowledgement
	// may be of either copy: on a lossy channel it can go without a
	// sample for seconds).
	confirmRTT reliable.RTT
	// inputDelay is how many tics before its tic the client builds its
	// commands, as it said (wire.InputDelay), and delayTold the automatic
	// delay it was told, plus one (0: none).
	inputDelay uint8
	delayTold  int
	// Its Resume's reliable sequence number, and when an unreliable copy
	// last went (0: none is due).
	resumeSeq    uint8
	resumeCopyMS int64
	feeding      int // the watchers it streams the state to (watchers.go)
	// A watcher's tic source, the watcher that sends it the tics it
	// misses, and the watchers a watcher is the source of
	// (watch_sources.go).
	source *serverClient
	serves int
}

func (sc *serverClient) connected() bool { return sc != nil && sc.conn.Connected() }

func (sc *serverClient) drone() bool { return sc.data.Drone }

// slotTable is the server's clients, a slot each, in the order the
// reference numbers players: wire.MaxNodes players and drones, and
// MaxWatchers watchers (watchers.go), slotCount in all. It is as long as
// one past the highest slot taken so far (put), nil where no client is:
// a server pass goes over it a dozen times, and a game of a few players
// has no watchers' slots to step over.
type slotTable []*serverClient

// slotCount is how many slots a server has.
const slotCount = wire.MaxNodes + MaxWatchers

// put sets slot i (below slotCount) to sc.
func (t *slotTable) put(i int, sc *serverClient) {
	for len(*t) <= i {
		*t = append(*t, nil)
	}
	(*t)[i] = sc
}

// disconnectAll sends every client away.
func (t *slotTable) disconnectAll(now int64) {
	for _, sc := range *t {
		if sc != nil {
			sc.conn.Disconnect(now, ReasonServerLeft)
		}
	}
}

func (t *slotTable) find(a link.Addr) *serverClient {
	for _, sc := range *t {
		if sc != nil && sc.addr == a {
			return sc
		}
	}
	return nil
}

// maxPlayers is the reference's NET_SV_MaxPlayers: the first connected
// client's game decides, within limit (the configured).
func (t *slotTable) maxPlayers(limit int) int {
	for _, sc := range *t {
		if sc.connected() {
			return min(int(sc.data.MaxPlayers), limit)
		}
	}
	return limit
}

// controller is the oldest connected player: it may launch and its settings
// are the game's.
func (t *slotTable) controller() *serverClient {
	var best *serverClient
	for _, sc := range *t {
		if sc.connected() && !sc.drone() && (best == nil || sc.connectMS < best.connectMS) {
			best = sc
		}
	}
	return best
}

// assignPlayers numbers the connected players in slot order.
func (t *slotTable) assignPlayers() {
	n := 0
	for _, sc := range *t {
		if sc.connected() && !sc.drone() {
			sc.player = n
			n++
		} else if sc != nil {
			sc.player = -1
		}
	}
}

// stateSource is the playing client to ask for the game's state, of those
// ok accepts: the server's own (no traffic on the channel), else the
// longest connected.
func (t *slotTable) stateSource(ok func(*serverClient) bool) *serverClient {
	var best *serverClient
	for _, sc := range *t {
		if !sc.connected() || sc.phase != slotPlaying || !ok(sc) {
			continue
		}
		if sc.addr == LocalClientAddr {
			return sc
		}
		if best == nil || sc.connectMS < best.connectMS {
			best = sc
		}
	}
	return best
}

// playing is the connected slot that plays player in the game, or nil.
func (t *slotTable) playing(player int) *serverClient {
	for _, sc := range *t {
		if sc.connected() && sc.player == player && sc.phase == slotPlaying {
			return sc
		}
	}
	return nil
}

func (t *slotTable) nameOf(player int) string {
	for _, sc := range *t {
		if sc != nil && sc.player == player && sc.inGame() {
			return sc.name
		}
	}
	return ""
}

func (sc *serverClient) joining() *joiner {
	if sc.connected() {
		return sc.join
	}
	return nil
}

// startGame puts the slot in the game that starts: its stream from tic 0.
func (sc *serverClient) startGame(now int64) {
	sc.to(slotPlaying)
	sc.sendSeq, sc.acked = 0, 0
	sc.inputDelay, sc.delayTold = 0, 0 // its client says it again, as does an automatic delay
	sc.queue = [BackupTics]sentServerTic{}
	sc.lastGameDataMS = now
}

// restream sends the slot the stream from next on: it is pushed nothing,
// nor taken for silent, for a timeout from now.
func (sc *serverClient) restream(now int64, next uint32) {
	sc.sendSeq = next
	sc.pushFromMS = now
	sc.lastGameDataMS = now
}

// reattach gives a copy that reattached its player p back, holding the
// tics before confirmed; it comes back as the player did (rejoinable).
func (sc *serverClient) reattach(now int64, p int, rejoinable bool, confirmed uint32) {
	sc.to(slotPlaying)
	sc.player, sc.hello = p, true
	sc.data.Drone = false
	sc.rejoinable = rejoinable
	sc.acked = confirmed
	sc.lastGameDataMS = now
}

// takeBack gives a copy that came back with its key the player held
// for it, under the name the copy gives now (what its own page shows).
func (sc *serverClient) takeBack(d departed) {
	sc.player, sc.heldUntilMS = d.player, d.untilMS
	sc.data.Drone = false
}

// sendRoster sends the client the roster r, unless it was sent it last.
// When no reliable message waits before it, it goes in this pass, with
// the tics, not the next: a player who enters the game does so in a tic
// its copies run after they know its name. (Late joins on the lossy
// channel, 200 seeds: median first SYN to playing 1 550 -> 1 465 ms with
// 64 KB, 2 565 -> 2 500 ms with 1 MB; p90 2 435 -> 2 230 and 3 040 ->
// 3 055 ms.)
func (sc *serverClient) sendRoster(now int64, r *wire.Roster, gen uint32) {
	if sc.rosterGen == gen {
		return // checked at this roster already: it holds it
	}
	sc.rosterGen = gen
	if !sc.rostered || sc.roster != *r {
		sc.roster, sc.rostered = *r, true
		alone := sc.conn.Acked()
		sc.conn.SendLatest(r)
		if alone {
			sc.conn.SendReliableHead(now)
		}
	}
}

// sendResume tells a reattached client the game resumes at tic. The
// Resume is reliable, and queued behind the server's reply to the
// client's SYN; an unreliable copy goes at once, and again until the
// reliable one is through (resendResumeCopy), so that neither waits for
// the other.
func (sc *serverClient) sendResume(now int64, tic uint32) {
	sc.resumeSeq = sc.conn.NextSeq()
	sc.conn.SendReliable(&wire.Resume{Tic: tic, Term: sc.conn.Ident().Term})
	sc.conn.SendReliableHead(now)
	sc.resumeCopyMS = now
	sc.conn.SendMessage(now, &wire.Resume{Tic: tic, Term: sc.conn.Ident().Term})
}

// resendResumeCopy sends the Resume for tic again, unreliably, every
// ReattachResendMS while the reliable one waits in its queue.
func (sc *serverClient) resendResumeCopy(now int64, tic uint32) {
	switch {
	case !sc.conn.Queued(sc.resumeSeq):
		sc.resumeCopyMS = 0 // the reliable one is through
	case now-sc.resumeCopyMS >= ReattachResendMS:
		sc.resumeCopyMS = now
		sc.conn.SendMessage(now, &wire.Resume{Tic: tic, Term: sc.conn.Ident().Term})
	}
}
