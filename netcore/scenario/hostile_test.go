package scenario

import (
	"math/rand/v2"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// hostile is a peer on the channel that sends junk: random frames and
// mutations of the real packets it overhears, from UIDs that are not in the
// game, and undecodable packets under the UIDs of real players and of the
// server. Its links are perfect, so every junk frame arrives exactly once.
type hostile struct {
	node      *simnet.Node
	rng       *rand.Rand
	real      []link.Addr // UIDs in the game
	overheard [][]byte
	sent      int
	// expected counts the receptions every junk frame must cause: one per
	// endpoint it is addressed to (all of them for UID 0).
	expected int
	out      []byte
	// bad is what it sends under real UIDs; default undecodable.
	bad [][]byte
}

// undecodable payloads: too short for a header; a reliable GAMESTART with no
// body (it must not use up a sequence number); a GAMEDATA whose tic count
// cannot fit, in either direction's layout.
var undecodable = [][]byte{{0x00}, {0x80, 0x05, 0x00}, {0x80, 0x05, 0x01}, {0x00, 0x06, 0x05, 0x05, 0xc8}}

func (h *hostile) send(endpoints int) {
	r := h.rng
	var to, from link.Addr
	var payload []byte
	switch k := r.IntN(10); {
	case k < 4: // random bytes from a stranger
		from = link.Addr(0x50000000 + r.Uint32N(1<<20))
		payload = make([]byte, r.IntN(64))
		for i := range payload {
			payload[i] = byte(r.UintN(256))
		}
	case k < 7 && len(h.overheard) > 0: // a mutated real packet from a stranger
		from = link.Addr(0x50000000 + r.Uint32N(1<<20))
		payload = append([]byte(nil), h.overheard[r.IntN(len(h.overheard))]...)
		for range 1 + r.IntN(3) {
			if len(payload) > 0 {
				payload[r.IntN(len(payload))] ^= byte(1 + r.UintN(255))
			}
		}
		if r.IntN(3) == 0 {
			payload = payload[:r.IntN(len(payload)+1)]
		}
	default: // undecodable, under a real UID
		from = h.real[r.IntN(len(h.real))]
		bad := h.bad
		if bad == nil {
			bad = undecodable
		}
		payload = bad[r.IntN(len(bad))]
		// The endpoint whose UID is forged drops it too, whoever it is
		// addressed to: no frame from the channel can come from itself.
		h.expected++
	}
	switch r.IntN(3) {
	case 0:
		to = link.Broadcast
		h.expected += endpoints
	case 1:
		to = ServerUID
		h.expected++
	default:
		to = h.real[1+r.IntN(len(h.real)-1)]
		h.expected++
	}
	if to == from || (to == link.Broadcast && h.isReal(from)) {
		h.expected-- // the forged endpoint was counted twice above
	}
	h.out = link.AppendFrame(h.out[:0], to, from, payload)
	h.node.Broadcast(h.out)
	h.sent++
}

func (h *hostile) isReal(a link.Addr) bool {
	for _, r := range h.real {
		if r == a {
			return true
		}
	}
	return false
}

// overhear keeps a sample of the real packets on the channel.
func (h *hostile) overhear() {
	for {
		f, ok := h.node.Receive()
		if !ok {
			return
		}
		if _, _, p, ok := link.ParseFrame(f); ok && len(h.overheard) < 512 && h.rng.IntN(20) == 0 {
			h.overheard = append(h.overheard, append([]byte(nil), p...))
		}
	}
}

// junkCounted sums what the endpoints counted as dropped: transports'
// malformed frames, the engines' malformed, unexpected, refused and
// answered-as-query packets, and their bulk streams' undecodable packets
// (junk from strangers never reaches a stream: the engines drop it first).
func junkCounted(s *Scenario) int64 {
	c := s.Server.Counters()
	xc := s.Server.Transfers().Counters()
	n := c.Malformed + c.Unexpected + c.Stale + c.Rejected + c.Queries + s.hostFrame.Filter.Malformed + xc.Malformed
	for _, p := range s.Peers[1:] {
		pc, xc := p.Client.Counters(), p.Client.Transfers().Counters()
		n += pc.Malformed + pc.Unexpected + pc.Stale + p.Frame.Filter.Malformed + xc.Malformed
	}
	return n
}

func TestHostilePeerCannotCrashOrDesyncTheGame(t *testing.T) {
	t.Parallel()
	// The junk receptions of each seeded game, as the README states them.
	receptions := map[string]int{"chocolate": 349950, "ticnet": 350793}
	for _, proto := range protocols {
		t.Run(proto.name, func(t *testing.T) { hostileRun(t, proto.strict, receptions[proto.name]) })
	}
}

func hostileRun(t *testing.T, strict bool, receptions int) {
	const junk = 100000
	s := start(t, Options{Players: 8, Seed: 9, Strict: strict, Link: lossy})
	baseline := junkCounted(s)
	h := &hostile{node: s.Net.AddNode(), rng: rand.New(rand.NewPCG(9, 9)), real: []link.Addr{ServerUID}}
	s.Net.SetLinks(h.node, simnet.Link{})
	s.Net.SetBandwidth(h.node, -1) // perfect links: no uplink limit either
	for _, p := range s.Peers[1:] {
		h.real = append(h.real, p.UID)
	}
	endpoints := len(s.Peers) // the server's channel endpoint and the 7 remote clients
	s.OnStep = func(int64) {
		h.overhear()
		for h.sent < junk && h.rng.IntN(4) != 0 { // 3 a step on average: all sent within 10 000 tics
			h.send(endpoints)
		}
	}
	require.NoError(t, s.RunTics(10000, 3000000))
	require.GreaterOrEqual(t, h.sent, junk, "junk frames sent")
	check(t, s, 10000)
	s.Net.AdvanceTo(s.Now() + 1) // every junk frame delivered
	s.Step()
	counted := junkCounted(s) - baseline
	t.Logf("%d junk frames, %d receptions expected to be dropped, %d counted", h.sent, h.expected, counted)
	// Every junk frame is counted once where it arrives, and nothing else
	// is: the game's own frames are all taken during the game (the lobby's
	// late WAITING_DATA and the like, dropped before the baseline, are
	// left out).
	require.Equal(t, int64(h.expected), counted, "drops counted for the junk receptions")
	require.Equal(t, receptions, h.expected, "junk receptions")
	require.Zero(t, s.Count(netcore.EventPlayerLeft)+s.Count(netcore.EventDisconnected), "players left or disconnected under junk")
}
