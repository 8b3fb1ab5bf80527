package reliable

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore/auth"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wireTap parses what a connection sends, and receives nothing.
type wireTap struct {
	t     *testing.T
	got   []sent
	bytes int64
	raw   []byte // the last packet, as sent
}

// last is the last packet sent, as it went.
func (w *wireTap) last() []byte { return w.raw }

// sent is one packet a connection sent, parsed, its tag apart.
type sent struct {
	typ      wire.Type
	reliable bool
	seq      uint8
	tag      uint8
	body     []byte
}

func (w *wireTap) Send(_ link.Addr, pkt []byte) {
	w.bytes += int64(len(pkt))
	pkt = slices.Clone(pkt) // the connection's may be scratch
	w.raw = slices.Clone(pkt)
	tag := wire.TagOf(pkt)
	wire.SetTag(pkt, 0)
	h, body, err := wire.ParseHeader(pkt)
	require.NoError(w.t, err)
	w.got = append(w.got, sent{typ: h.Type, reliable: h.Reliable, seq: h.Seq, tag: tag, body: body})
}

func (*wireTap) Recv() (link.Addr, []byte, bool) { return 0, nil, false }

// take returns what the connection sent since the last take.
func (w *wireTap) take() []sent {
	got := w.got
	w.got = nil
	return got
}

// types returns the types of what the connection sent since the last take.
func (w *wireTap) types() []wire.Type {
	var out []wire.Type
	for _, s := range w.take() {
		out = append(out, s.typ)
	}
	return out
}

var timers = Timers{TimeoutMS: 4000, KeepaliveMS: 500}

func newTestConn(t *testing.T, s State) (*Conn, *wireTap, *Counters) {
	tap, count := &wireTap{t: t}, &Counters{}
	c := NewConn(7, tap, timers, 0, s, count)
	return &c, tap, count
}

// receive hands the connection a packet as the peer encodes it.
func receive(t *testing.T, c *Conn, now int64, m wire.Message, reliable bool, seq uint8) bool {
	t.Helper()
	h, body, err := wire.ParseHeader(wire.Encode(nil, m, reliable, seq))
	require.NoError(t, err)
	return c.Handle(now, h, body)
}

func ack(t *testing.T, c *Conn, now int64, n uint8) {
	t.Helper()
	require.False(t, receive(t, c, now, &wire.ReliableAck{Ack: n}, false, 0), "an ack goes no further")
}

// Reliable messages go one at a time, in order: the queue's head, sent
// again every resend period (and counted) until its ack comes; an ack of
// another sequence number leaves it in flight.
func TestConnSendsItsReliableQueueInOrderOneAtATime(t *testing.T) {
	c, tap, count := newTestConn(t, Connected)
	c.SetResendMS(250)
	require.Equal(t, int64(250), c.ResendMS())
	require.Equal(t, uint8(0), c.NextSeq())
	c.SendReliable(&wire.ConsoleMessage{Text: "a"})
	c.SendReliable(&wire.ConsoleMessage{Text: "b"})
	require.Equal(t, uint8(2), c.NextSeq())
	require.False(t, c.Acked())
	require.True(t, c.Queued(0))
	require.True(t, c.Queued(1))

	c.Run(10)
	got := tap.take()
	require.Len(t, got, 1, "only the head is in flight")
	assert.Equal(t, sent{typ: wire.TypeConsoleMessage, reliable: true, seq: 0, body: got[0].body}, got[0])
	c.Run(10 + 250)
	require.Empty(t, tap.take(), "resent at the resend period, not later than it")
	c.Run(10 + 251)
	got = tap.take()
	require.Len(t, got, 1, "resent after the resend period")
	assert.Equal(t, uint8(0), got[0].seq, "the head again")
	assert.Equal(t, int64(1), count.ReliableResends)

	ack(t, c, 300, 2) // acknowledges a message not sent yet
	c.Run(300)
	require.Empty(t, tap.take(), "a wrong ack moved the queue")
	require.True(t, c.Queued(0), "a wrong ack took the head")

	ack(t, c, 400, 1) // the ack names the next sequence number expected
	require.False(t, c.Queued(0))
	c.Run(400)
	got = tap.take()
	require.Len(t, got, 1)
	assert.Equal(t, uint8(1), got[0].seq, "the next message goes once the head is acknowledged")
	ack(t, c, 500, 2)
	require.True(t, c.Acked())
	assert.Equal(t, int64(1), count.ReliableResends, "first sends counted as resends")
}

// An urgent message goes Repeats times more, RepeatMS apart, while it is
// not acknowledged, under its sequence number (counted as repeats, not
// resends); then its resend timer runs from the first send. One
// acknowledged before its repeat is not repeated, and an ordinary message
// never is.
func TestConnRepeatsAnUrgentMessageUntilAcknowledged(t *testing.T) {
	c, tap, count := newTestConn(t, Connected)
	c.SetResendMS(250)
	c.SendUrgent(&wire.ConsoleMessage{Text: "now"})
	var at []int64
	for now := int64(0); now <= 260; now += 5 {
		c.Run(now)
		for _, p := range tap.take() {
			require.Equal(t, uint8(0), p.seq, "at %d ms", now)
			at = append(at, now)
		}
	}
	require.Equal(t, []int64{0, RepeatMS, 2 * RepeatMS, 255}, at, "sent at (ms)")
	require.Equal(t, int64(Repeats), count.ReliableRepeats)
	require.Equal(t, int64(1), count.ReliableResends)

	ack(t, c, 300, 1)
	c.SendUrgent(&wire.ConsoleMessage{Text: "acked"})
	c.Run(300)
	require.Len(t, tap.take(), 1)
	ack(t, c, 310, 2)
	c.SendReliable(&wire.ConsoleMessage{Text: "ordinary"})
	for now := int64(310); now <= 500; now += 5 {
		c.Run(now)
	}
	require.Len(t, tap.take(), 1, "the ordinary message, once (the urgent one was acknowledged)")
	require.Equal(t, int64(Repeats), count.ReliableRepeats)
}

// A state sent with SendLatest replaces the one queued before it while
// that one has not gone, under its sequence number: the peer reads the
// newest only. One already in flight is not touched (the peer may hold
// it), and one that follows another kind of message queues as usual.
func TestConnSendLatestReplacesAStateThatHasNotGone(t *testing.T) {
	c, tap, _ := newTestConn(t, Connected)
	c.SetResendMS(250)
	roster := func(game uint32) *wire.Roster {
		return &wire.Roster{Game: game, ServerPlayer: wire.NoPlayer, Controller: wire.NoPlayer}
	}
	gameOf := func(s sent) uint32 {
		var r wire.Roster
		require.NoError(t, r.DecodeBody(s.body))
		return r.Game
	}
	c.SendLatest(roster(1))
	c.Run(0)
	got := tap.take()
	require.Len(t, got, 1)
	require.Equal(t, uint32(1), gameOf(got[0]))

	c.SendLatest(roster(2)) // behind the one in flight
	c.SendLatest(roster(3)) // replaces 2, which has not gone
	c.SendReliable(&wire.ConsoleMessage{Text: "a"})
	c.SendLatest(roster(4)) // after another kind: queued
	require.Equal(t, uint8(4), c.NextSeq(), "sequence numbers used: 1, 3 (in 2's place), a, 4")

	c.Run(300) // the resend period passed: roster 1 again, not replaced
	got = tap.take()
	require.Len(t, got, 1)
	require.Equal(t, uint8(0), got[0].seq)
	require.Equal(t, uint32(1), gameOf(got[0]), "a state in flight was replaced")

	var order []string
	for seq := uint8(1); seq <= 3; seq++ {
		ack(t, c, 400+int64(seq), seq)
		c.Run(400 + int64(seq))
		got = tap.take()
		require.Len(t, got, 1)
		require.Equal(t, seq, got[0].seq)
		if got[0].typ == wire.TypeTicnet {
			order = append(order, fmt.Sprint("roster ", gameOf(got[0])))
		} else {
			order = append(order, got[0].typ.String())
		}
	}
	ack(t, c, 500, 4)
	require.True(t, c.Acked())
	assert.Equal(t, []string{"roster 3", wire.TypeConsoleMessage.String(), "roster 4"}, order)
}

// A reliable packet in sequence goes on, and is acknowledged with the
// next number expected; one again, or out of sequence, is acknowledged
// but stops here (a duplicate); one that does not decode is malformed and
// uses no sequence number, so the real one after it still goes on.
func TestConnDeliversReliablePacketsOnceInSequence(t *testing.T) {
	c, tap, count := newTestConn(t, Connected)
	msg := &wire.ConsoleMessage{Text: "hello"}
	acks := func() []uint8 {
		var out []uint8
		for _, s := range tap.take() {
			require.Equal(t, wire.TypeReliableAck, s.typ)
			var a wire.ReliableAck
			require.NoError(t, a.DecodeBody(s.body))
			out = append(out, a.Ack)
		}
		return out
	}

	require.True(t, receive(t, c, 10, msg, true, 0), "sequence 0 goes on")
	assert.Equal(t, []uint8{1}, acks())
	require.False(t, receive(t, c, 20, msg, true, 0), "sequence 0 again goes on")
	assert.Equal(t, []uint8{1}, acks(), "a duplicate is acknowledged: its ack was lost")
	require.False(t, receive(t, c, 30, msg, true, 2), "sequence 2 before 1 goes on")
	assert.Equal(t, []uint8{1}, acks())
	assert.Equal(t, int64(2), count.Duplicates)

	bad := wire.Encode(nil, msg, true, 1)
	bad = bad[:len(bad)-1] // the text's terminator lost
	h, body, err := wire.ParseHeader(bad)
	require.NoError(t, err)
	require.False(t, c.Handle(40, h, body), "a malformed packet goes on")
	assert.Empty(t, acks(), "a malformed packet acknowledged")
	assert.Equal(t, int64(1), count.Malformed)
	require.True(t, receive(t, c, 50, msg, true, 1), "sequence 1 after a malformed one that claimed it")
	assert.Equal(t, []uint8{2}, acks())
	assert.Equal(t, int64(2), count.Duplicates)

	require.True(t, receive(t, c, 60, msg, false, 0), "an unreliable packet goes on")
	require.False(t, receive(t, c, 60, wire.Keepalive, false, 0), "a keepalive goes on")
	assert.Empty(t, acks(), "unreliable packets acknowledged")
}

// A connection that has sent nothing for KeepaliveMS sends a KEEPALIVE
// (what went to the peer another way counts); one that has received
// nothing for TimeoutMS is over, timed out.
func TestConnKeepsAliveAndTimesOut(t *testing.T) {
	c, tap, _ := newTestConn(t, Connected)
	c.Run(timers.KeepaliveMS)
	require.Empty(t, tap.take(), "a keepalive before KeepaliveMS passed")
	c.Run(timers.KeepaliveMS + 1)
	require.Equal(t, []wire.Type{wire.TypeKeepalive}, tap.types())
	c.NoteSent(1000)
	c.Run(1000 + timers.KeepaliveMS)
	require.Empty(t, tap.take(), "a keepalive though a broadcast went")

	receive(t, c, 2000, wire.Keepalive, false, 0)
	c.Run(2000 + timers.TimeoutMS)
	require.True(t, c.Connected(), "timed out at TimeoutMS, not after it")
	c.Run(2000 + timers.TimeoutMS + 1)
	require.Equal(t, Disconnected, c.State())
	require.True(t, c.TimedOut())
	require.Equal(t, ReasonTimeout, c.Reason())
	require.False(t, c.PeerLeft())
}

// The peer's DISCONNECT is acknowledged, each time it comes, and the
// connection lingers DisconnectSleepMS for its retries, then is over: the
// peer left.
func TestConnAcknowledgesThePeersDisconnectAndLingers(t *testing.T) {
	c, tap, _ := newTestConn(t, Connected)
	receive(t, c, 100, wire.Disconnect, false, 0)
	require.Equal(t, []wire.Type{wire.TypeDisconnectAck}, tap.types())
	require.Equal(t, DisconnectedSleep, c.State())
	require.True(t, c.PeerLeft())
	require.Equal(t, ReasonLeft, c.Reason())
	receive(t, c, 1100, wire.Disconnect, false, 0) // its ack was lost
	require.Equal(t, []wire.Type{wire.TypeDisconnectAck}, tap.types())
	c.Run(100 + DisconnectSleepMS - 1)
	require.Equal(t, DisconnectedSleep, c.State(), "the linger counts from the first DISCONNECT")
	c.Run(100 + DisconnectSleepMS)
	require.Equal(t, Disconnected, c.State())
	require.True(t, c.PeerLeft())
}

// A connection that leaves sends DISCONNECT at once and every
// DisconnectRetryMS until the peer acknowledges it, or gives up after
// DisconnectRetries; either way it is over, and the peer did not leave.
func TestConnDisconnectsWithRetries(t *testing.T) {
	c, tap, _ := newTestConn(t, Connected)
	c.Disconnect(100, "bye")
	require.Equal(t, []wire.Type{wire.TypeDisconnect}, tap.types(), "DISCONNECT at once")
	require.Equal(t, Disconnecting, c.State())
	require.Equal(t, "bye", c.Reason())
	sends := 1
	for now := int64(100); c.State() == Disconnecting; now += 10 {
		c.Run(now)
		sends += len(tap.types())
		require.Less(t, now, int64(100+DisconnectRetries*DisconnectRetryMS+10), "never gave up")
	}
	assert.Equal(t, DisconnectRetries, sends, "DISCONNECTs sent")
	assert.Equal(t, Disconnected, c.State())
	assert.False(t, c.PeerLeft(), "the peer left, though this end did")

	c, tap, _ = newTestConn(t, Connected)
	c.Disconnect(100, "bye")
	receive(t, c, 150, wire.DisconnectAck, false, 0)
	require.Equal(t, Disconnected, c.State(), "acknowledged: over at once")
	c.Run(100 + DisconnectRetryMS)
	require.Equal(t, []wire.Type{wire.TypeDisconnect}, tap.types(), "the first only")

	c, _, _ = newTestConn(t, Connected)
	receive(t, c, 150, wire.DisconnectAck, false, 0)
	require.True(t, c.Connected(), "an ack of a DISCONNECT never sent ended the connection")

	// This end leaves, as a player does (ReasonLeft), and the peer's
	// DISCONNECT crosses its own: the peer did not leave first.
	c, _, _ = newTestConn(t, Connected)
	c.Disconnect(100, ReasonLeft)
	require.False(t, c.PeerLeft(), "this end left: the peer left")
	receive(t, c, 150, wire.Disconnect, false, 0)
	require.Equal(t, ReasonLeft, c.Reason())
	require.False(t, c.PeerLeft(), "DISCONNECTs crossed: the peer left first")
}

// A connection its owner drops is over at once, without a word to the
// peer; the reason given says why, and none keeps the one it had.
func TestConnDropEndsItAtOnce(t *testing.T) {
	c, tap, _ := newTestConn(t, Connected)
	c.Drop("connected again")
	require.Equal(t, Disconnected, c.State())
	require.Equal(t, "connected again", c.Reason())
	c.Run(5000)
	require.Empty(t, tap.take(), "a dropped connection sent")

	c, _, _ = newTestConn(t, Connected)
	receive(t, c, 100, wire.Disconnect, false, 0)
	c.Drop("")
	require.Equal(t, Disconnected, c.State())
	require.True(t, c.PeerLeft(), "dropped without a reason: the peer's leaving forgotten")

	c, _, _ = newTestConn(t, Connecting)
	c.Establish()
	require.True(t, c.Connected())
}

// A framed connection's frames carry its tag, its own acks and resends
// included, all but the SYN reply, whose name carries the identity; an
// unframed one's carry none. A frame sent is tagged in a copy.
func TestConnTagsEveryFrameOnceFramed(t *testing.T) {
	c, tap, _ := newTestConn(t, Connected)
	id := wire.Ident{Conn: 1000, Term: 3}
	c.Name(id)
	require.Equal(t, id, c.Ident())
	require.False(t, c.Framed(), "named: framed")
	c.SendMessage(0, wire.Keepalive)
	require.Equal(t, uint8(0), tap.take()[0].tag, "an unframed connection's frame tagged")

	c.Frame(id)
	require.True(t, c.Framed())
	tag := wire.ConnTag(id.Conn)
	c.SendReply(&wire.SYNReply{Version: "v", Protocol: wire.ReplyName(id.Conn, id.Term, nil)}, false)
	c.SendReliable(&wire.ConsoleMessage{Text: "a"})
	c.Run(10)
	c.Run(10 + ResendMS + 1)
	receive(t, c, 20, &wire.ConsoleMessage{Text: "b"}, true, 0) // acknowledged
	c.SendMessage(30, wire.Keepalive)
	ack(t, c, 40, 1)
	c.Run(40)
	var tags []uint8
	for _, s := range tap.take() {
		tags = append(tags, s.tag)
	}
	assert.Equal(t, []uint8{0, 0, tag, tag, tag}, tags, "reply, its resend, the ack, the keepalive, the next reliable message")

	pkt := wire.Encode(nil, wire.Keepalive, false, 0)
	out := c.Tag(pkt)
	assert.Equal(t, tag, wire.TagOf(out))
	assert.Equal(t, uint8(0), wire.TagOf(pkt), "the packet itself tagged")
}

// The filter: a frame of a framed connection must carry its tag, or,
// where broadcasts are allowed, its known term's; anything else is stale,
// dropped and counted. The frame goes on with its tag cleared, in a copy.
func TestConnUntagAcceptsOnlyItsConnectionAndTerm(t *testing.T) {
	c, _, count := newTestConn(t, Connected)
	id := wire.Ident{Conn: 1000, Term: 3}
	c.Frame(id)
	frame := func(tag uint8) []byte {
		f := wire.Encode(nil, wire.Keepalive, false, 0)
		wire.SetTag(f, tag)
		if tag >= 128 { // a broadcast: its counter and no recipient (netcore/auth)
			f = append(f, 1, 0)
		}
		return f
	}
	other := id.Conn + 1
	for _, tc := range []struct {
		name      string
		tag       uint8
		broadcast bool
		ok        bool
	}{
		{"this connection", wire.ConnTag(id.Conn), false, true},
		{"this connection, broadcasts allowed", wire.ConnTag(id.Conn), true, true},
		{"this term's broadcast", wire.TermTag(id.Term), true, true},
		{"this term's broadcast, none allowed", wire.TermTag(id.Term), false, false},
		{"another connection", wire.ConnTag(other), true, false},
		{"an earlier term's broadcast", wire.TermTag(id.Term - 1), true, false},
		{"no tag", 0, true, false},
	} {
		before := count.Stale
		f := frame(tc.tag)
		kept := append([]byte(nil), f...)
		out, ok := c.Untag(0, f, tc.broadcast, -1)
		require.Equal(t, tc.ok, ok, tc.name)
		assert.Equal(t, kept, f, "%s: the frame received changed", tc.name)
		if !ok {
			assert.Equal(t, before+1, count.Stale, "%s: stale", tc.name)
			continue
		}
		assert.Equal(t, before, count.Stale, "%s: stale", tc.name)
		assert.Equal(t, frame(0), out, "%s: the tag cleared", tc.name)
	}

	c.Name(wire.Ident{Conn: id.Conn}) // the term not known yet
	_, ok := c.Untag(0, frame(wire.TermTag(0)), true, -1)
	assert.False(t, ok, "a broadcast taken before the term is known")
}

// A secured connection seals what it sends, and takes a frame only if it
// checks and did not come before: a forgery and a replay are dropped and
// counted, each once.
func TestASecuredConnTakesOnlyItsPeersFramesOnce(t *testing.T) {
	client, server := auth.KeyFromSecret([]byte("client")), auth.KeyFromSecret([]byte("server"))
	ck, err := auth.Agree(client, auth.Public(server), 1000, true)
	require.NoError(t, err)
	sk, err := auth.Agree(server, auth.Public(client), 1000, false)
	require.NoError(t, err)
	cli, tap, _ := newTestConn(t, Connected)
	srv, _, count := newTestConn(t, Connected)
	id := wire.Ident{Conn: 1000, Term: 3}
	cli.Frame(id)
	srv.Frame(id)
	cli.Secure(auth.NewConn(ck, true, 0))
	srv.Secure(auth.NewConn(sk, false, 0))
	cli.SendMessage(0, wire.Keepalive)
	sent := tap.last()
	require.Len(t, sent, 2+auth.Overhead, "a keepalive, sealed")
	out, ok := srv.Untag(0, sent, false, -1)
	require.True(t, ok)
	assert.Equal(t, wire.Encode(nil, wire.Keepalive, false, 0), out)
	_, ok = srv.Untag(0, sent, false, -1)
	assert.False(t, ok, "the same frame again")
	assert.Equal(t, int64(1), count.Replayed)
	forged := slices.Clone(sent)
	forged[len(forged)-2] ^= 1
	forged[len(forged)-1]++ // a fresh counter, a tag guessed
	_, ok = srv.Untag(0, forged, false, -1)
	assert.False(t, ok, "a forgery")
	assert.Equal(t, int64(1), count.Forged)
	assert.Zero(t, count.Stale)
}

// A connection counts what it sends into the counters it shares.
func TestConnCountsWhatItSends(t *testing.T) {
	c, tap, count := newTestConn(t, Connected)
	c.SendMessage(0, wire.Keepalive)
	c.SendBare(0, []byte{1, 2, 3})
	assert.Equal(t, int64(2), count.PacketsSent)
	assert.Equal(t, tap.bytes, count.BytesSent)
	assert.Equal(t, int64(len(wire.Encode(nil, wire.Keepalive, false, 0))+3), tap.bytes)
}
