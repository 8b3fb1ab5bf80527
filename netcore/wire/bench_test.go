package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A busy 8-player game: everyone runs and strafes, most turn, some fire or
// switch weapons, a consistancy byte changes now and then, one player
// chats: diffs of 3 to 6 bytes, an 88-byte packet.
func busyDiff(tic, p int) TicDiff {
	prev := TicCmd{ForwardMove: 25, SideMove: 0, AngleTurn: 0, Buttons: 0, Consistency: uint8(p)}
	cur := prev
	cur.ForwardMove = int8(50 - 10*p)
	if p%2 == 0 {
		cur.SideMove = int8(24 - p)
	}
	if p != 3 {
		cur.AngleTurn = int16((p + 1) * (tic + 1) * 320)
	}
	if p%3 == 0 {
		cur.Buttons = 1 | uint8(p%4)<<3
	}
	if (tic+p)%4 == 0 {
		cur.Consistency = uint8(p*31 + tic)
	}
	if p == 5 && tic == 1 {
		cur.ChatChar = 'g'
	}
	return Diff(&prev, &cur)
}

// serverGameData8 is the server's GAMEDATA to a drone: 2 tics, 8 players.
func serverGameData8() *ServerGameData {
	m := &ServerGameData{Start: 200}
	for tic := range 2 {
		t := ServerTic{Latency: int16(35 + tic), InGame: 0xff}
		for p := range MaxPlayers {
			t.Cmds[p] = busyDiff(tic, p)
		}
		m.Tics = append(m.Tics, t)
	}
	return m
}

// clientGameData2 is a client's GAMEDATA: its last 2 tics.
func clientGameData2() *ClientGameData {
	return &ClientGameData{Ack: 199, Start: 200, Tics: []ClientTic{{Latency: 40, Diff: busyDiff(0, 2)}, {Latency: 41, Diff: busyDiff(1, 2)}}}
}

// ticSet8 is the extension's broadcast of the same 2 tics.
func ticSet8() *TicSet {
	s := &TicSet{Start: 1000, Timing: []PlayerTiming{{0, 12}, {3, -4}}}
	for i, t := range serverGameData8().Tics {
		t.Latency = 0 // not in a tic set
		s.Tics = append(s.Tics, SetTic{ServerTic: t, Substituted: uint8(i) << 6})
	}
	return s
}

func benchEncode(b *testing.B, m Message) {
	buf := Encode(nil, m, false, 0)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = Encode(buf[:0], m, false, 0)
	}
}

func benchDecode(b *testing.B, m Message) {
	pkt := Encode(nil, m, false, 0)
	into := fresh(m)
	b.SetBytes(int64(len(pkt)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(pkt, into); err != nil {
			b.Fatal(err)
		}
	}
}

// Server to client: 2 tics, 8 players.
func BenchmarkEncodeServerGameData(b *testing.B) { benchEncode(b, serverGameData8()) }
func BenchmarkDecodeServerGameData(b *testing.B) { benchDecode(b, serverGameData8()) }

// Client to server: 2 tics.
func BenchmarkEncodeClientGameData(b *testing.B) { benchEncode(b, clientGameData2()) }
func BenchmarkDecodeClientGameData(b *testing.B) { benchDecode(b, clientGameData2()) }

// The extension's broadcast: 2 tics, 8 players.
func BenchmarkEncodeTicSet(b *testing.B) { benchEncode(b, ticSet8()) }
func BenchmarkDecodeTicSet(b *testing.B) { benchDecode(b, ticSet8()) }

func TestBenchmarkPacketsAreRealistic(t *testing.T) {
	s := serverGameData8()
	sizes := map[int]bool{}
	for _, tic := range s.Tics {
		for p := range MaxPlayers {
			sizes[len(encodeDiff(tic.Cmds[p], false))] = true
		}
	}
	require.GreaterOrEqual(t, len(sizes), 4, "diff sizes %v: too uniform to be a fair benchmark", sizes)
	n := len(Encode(nil, s, false, 0))
	require.GreaterOrEqual(t, n, 60, "server packet of %d bytes", n)
	require.LessOrEqual(t, n, 1500, "server packet of %d bytes", n)
	for _, m := range []Message{s, clientGameData2(), ticSet8()} {
		got := fresh(m)
		_, err := Decode(Encode(nil, m, false, 0), got)
		require.NoError(t, err, "%T does not round-trip", m)
		require.True(t, sameMessage(got, m), "%T does not round-trip: %v", m, err)
	}
}

// assertNoAllocs checks that decoding into a used value and encoding into a
// used buffer allocate nothing: these run for every packet of a game.
func assertNoAllocs(t *testing.T, m Message) {
	t.Helper()
	pkt := Encode(nil, m, false, 0)
	buf := make([]byte, 0, len(pkt))
	into := fresh(m)
	_, err := Decode(pkt, into)
	require.NoError(t, err)
	a := testing.AllocsPerRun(1000, func() { buf = Encode(buf[:0], m, false, 0) })
	assert.Equal(t, float64(0), a, "encode %T into a used buffer: %v allocations", m, a)
	require.Equal(t, pkt, buf, "encoding into a used buffer gave other bytes")
	a = testing.AllocsPerRun(1000, func() {
		if _, err := Decode(pkt, into); err != nil {
			t.Fatal(err) // plain testing inside the measured closure
		}
	})
	assert.Equal(t, float64(0), a, "decode %T into a used value: %v allocations", m, a)
	require.True(t, sameMessage(into, m), "decoding into a used value gave another message")
}

func TestServerGameDataEncodeAndDecodeAllocateNothing(t *testing.T) {
	assertNoAllocs(t, serverGameData8())
}

func TestClientGameDataEncodeAndDecodeAllocateNothing(t *testing.T) {
	assertNoAllocs(t, clientGameData2())
}

func TestTicSetEncodeAndDecodeAllocateNothing(t *testing.T) {
	assertNoAllocs(t, ticSet8())
}

func TestAckAndResendEncodeAndDecodeAllocateNothing(t *testing.T) {
	assertNoAllocs(t, &GameDataAck{Ack: 3})
	assertNoAllocs(t, &ReliableAck{Ack: 3})
	assertNoAllocs(t, &GameDataResend{Start: 300, Count: 6})
}
