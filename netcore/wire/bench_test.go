package wire

import "testing"

// A busy 8-player tic: everyone moves, turns and fires.
func busyDiff(p int) TicDiff {
	prev := TicCmd{}
	cur := TicCmd{ForwardMove: int8(25 + p), SideMove: int8(-10 - p), AngleTurn: int16(300 * (p + 1)), Buttons: 1, Consistency: uint8(p * 7)}
	return Diff(&prev, &cur)
}

func serverGameData8() *ServerGameData {
	m := &ServerGameData{Start: 200}
	for range 2 {
		t := ServerTic{Latency: 40, InGame: 0xff}
		for p := range MaxPlayers {
			t.Cmds[p] = busyDiff(p)
		}
		m.Tics = append(m.Tics, t)
	}
	return m
}

func clientGameData2() *ClientGameData {
	return &ClientGameData{Ack: 199, Start: 200, Tics: []ClientTic{{Latency: 40, Diff: busyDiff(1)}, {Latency: 40, Diff: busyDiff(2)}}}
}

func ticSet8() *TicSet {
	s := &TicSet{Start: 1000}
	for _, t := range serverGameData8().Tics {
		s.Tics = append(s.Tics, SetTic{ServerTic: t})
	}
	return s
}

func benchEncode(b *testing.B, m Message) {
	buf := Encode(nil, m, false, 0)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for range b.N {
		buf = Encode(buf[:0], m, false, 0)
	}
}

func benchDecode(b *testing.B, m Message) {
	pkt := Encode(nil, m, false, 0)
	into := fresh(m)
	b.SetBytes(int64(len(pkt)))
	b.ReportAllocs()
	for range b.N {
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
