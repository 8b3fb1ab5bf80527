package netcore

import (
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// referenceClock is Chocolate Doom's protocol on the client: the clock
// follows the PID filter of spec §11.3 (clockSync) when the game asks for
// it (NewSync), commands are diffed against the one before, complete tics
// come as GAMEDATA, and the server never sends a client its own commands.
type referenceClock struct{}

// ReferenceStartDelayMS is how long after GAMESTART a client in a reference
// game builds its first tic. A real Chocolate Doom client reads the network
// every 100 ms while it waits for GAMESTART, and learns its player number
// only after the pass that brought it: a tic that reaches it in that same
// pass is stored as if it were player 0, player 0's command for that tic is
// dropped, and its game says "Player 1 left the game" at tic 0 (seen with
// Debian's build, in d_loop.c's D_StartNetGame and D_ReceiveTic). Real
// clients load their level for about a second before their first tic, so
// they never do this to each other; a ticnet client waits long enough for
// every peer to have taken its GAMESTART.
const ReferenceStartDelayMS = 500

func (referenceClock) ticRate() int { return TicRate }

func (referenceClock) refuses(in *tic.InputLayout) string {
	if in.Opaque() {
		return ReasonNeedsTicnet
	}
	return ""
}

func (referenceClock) startDelayMS() int64 { return ReferenceStartDelayMS }

func (referenceClock) encodes(g *wire.ClientGameData) { g.Ext = false }

func (referenceClock) offsetMS(c *Client) int64 {
	if c.settings.NewSync {
		return c.sync.offset / 65536
	}
	return 0
}

func (referenceClock) paced(*Client, int64) bool { return true }

func (referenceClock) skipComplete(*Client) {}

func (referenceClock) lead() uint32 { return MaxClientLeadTics }

func (referenceClock) diffBase(last *tic.Cmd) tic.Cmd { return *last }

func (referenceClock) copies(c *Client) uint32 { return uint32(c.settings.ExtraTics) }

func (referenceClock) absent(*tic.Cmd) {}

// runTics runs a tic only once the client has built its own command for
// it.
func (referenceClock) runTics(c *Client) {
	limit := c.loop.tl.Confirmed()
	if !c.cfg.Drone && int32(c.send.maketic-limit) < 0 {
		limit = c.send.maketic
	}
	c.loop.runConfirmed(limit)
}

// own: the reference never sends a client its own commands; it runs the
// ones it built.
func (referenceClock) own(c *Client, g uint32, cmds *[tic.MaxPlayers]tic.Cmd, in uint8) uint8 {
	if c.cfg.Drone {
		return in
	}
	cmds[c.player] = c.send.queue[g%BackupTics].cmd
	return in | 1<<c.player
}

func (referenceClock) ran(*Client, uint32, uint32) {}

func (referenceClock) substituted(*Client, uint32, uint8) {}

func (referenceClock) gameData(c *Client, now int64, body []byte) error {
	if c.phase.state() != ClientInGame {
		return errUnexpected{}
	}
	if err := c.inSGD.DecodeBody(body); err != nil {
		return err
	}
	g := &c.inSGD
	start := wire.ExpandTic(c.recv.start, g.Start)
	for i := range g.Tics {
		c.recv.storeTic(now, start+uint32(i), &g.Tics[i], 0, false, false)
	}
	c.recv.afterTics(now, start, len(g.Tics))
	return nil
}

// inGame: a reference game takes none of the extension's frames.
func (referenceClock) inGame(*Client, int64, uint8, wire.Header, []byte) error {
	return errUnexpected{}
}

func (referenceClock) canReattach() bool { return false }

func (referenceClock) tellDelay(*Client, bool) {}

func (referenceClock) requestEnd(*Client) {}

// over: the reference protocol has no end of a game; the game's word is
// ignored, as Chocolate Doom would.
func (referenceClock) over(*Client, uint32) {}

// clockSync is the reference's PID clock synchronisation (spec §11.3): it
// moves this client's tic clock so that its commands reach the server at
// the same time as the slowest other player's. Its latency goes with the
// commands under either protocol; its offset moves the clock of a
// reference game only.
type clockSync struct {
	offset      int64 // fixed 16.16 milliseconds
	cumulError  int64
	lastError   int64
	lastLatency int64
	extOffsetMS int64 // the extension protocol's clock offset (ticnetClock)
}

// update is the PID filter (KP 0.1, KI 0.01, KD 0.02) on a command's round
// trip, latency, and the one the server reported, remote.
func (s *clockSync) update(latency, remote int64) {
	e := latency - remote
	s.cumulError += e
	s.offset = int64(0.1*float64(65536*e) - 0.01*float64(65536*s.cumulError) + 0.02*65536*float64(s.lastError-e))
	s.lastError = e
	s.lastLatency = latency
}
