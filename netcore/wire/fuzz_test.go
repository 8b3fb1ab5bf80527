package wire

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// Fuzz targets: one for the any-type decoder, one per message type's
// DecodeBody, and one for decoding into a used value. Each checks that
// decoding never panics, fails only with a *DecodeError inside the input,
// holds no more elements than the input could carry, and that a decoded
// message re-encodes to bytes that decode to the same message.
//
// Run one with: go test -run='^$' -fuzz='^FuzzDecodePacket$' -fuzztime=10s ./netcore/wire

// typeName names a message's Go type, Empty's kind included.
func typeName(m Message) string {
	if _, ok := m.(*Empty); ok {
		return "Empty"
	}
	return fmt.Sprintf("%T", m)
}

// seedPackets adds every vector packet, random packets of every type and a
// few hand-made ones.
func seedPackets(f *testing.F) [][]byte {
	vs, _ := loadVectors(f)
	var seeds [][]byte
	for _, v := range vs {
		seeds = append(seeds, v.pkt)
	}
	g := newGen(7)
	for range 3 {
		for _, m := range g.messages() {
			seeds = append(seeds, Encode(nil, m, g.bool(), g.u8()))
		}
	}
	seeds = append(seeds, nil, []byte{0x80}, []byte{0x80, 0x06}, []byte{0, 6, 0, 0, 0xff},
		[]byte{0, 6, 0, 0x80}, []byte{0, 0x70, 9}, []byte{0xff, 0xff, 0xff})
	return seeds
}

// seedBodies returns bodies of messages of m's type: from the vectors, from
// random messages and a few hand-made ones.
func seedBodies(f *testing.F, like Message) [][]byte {
	want := typeName(like)
	var seeds [][]byte
	vs, _ := loadVectors(f)
	for _, v := range vs {
		h, m, err := DecodePacket(v.pkt, v.dir, isLowresVector(v.file))
		if err == nil && typeName(m) == want {
			seeds = append(seeds, v.pkt[h.Len():])
		}
	}
	g := newGen(8)
	for range 5 {
		for _, m := range g.messages() {
			if typeName(m) == want {
				seeds = append(seeds, m.AppendBody(nil))
			}
		}
	}
	return append(seeds, nil, []byte{0}, []byte{1, 2, 3}, bytes.Repeat([]byte{0xff}, 40))
}

// checkDecoded checks a successfully decoded message against its input of
// n bytes (the body, or the whole packet: bodyLen is the body's length).
func checkDecoded(t *testing.T, h Header, m Message, inputLen, bodyLen int) {
	t.Helper()
	checkBounds(t, m, bodyLen)
	again := Encode(nil, m, h.Reliable, h.Seq)
	// Nothing is invented: the encoding is never longer than the input
	// (trailing bytes are dropped and flag bytes become 0 or 1).
	require.LessOrEqual(t, len(again), inputLen+h.Len(), "%T re-encodes to %d bytes from %d", m, len(again), inputLen)
	m2 := fresh(m)
	h2, err := Decode(again, m2)
	require.NoError(t, err, "%T re-encoded does not decode: %v\n% x", m, err, again)
	require.Equal(t, h, h2, "%T header %+v came back %+v", m, h, h2)
	require.True(t, sameMessage(m2, m), "%T changed through encode and decode:\n%+v\n%+v", m, m, m2)
	third := Encode(nil, m2, h.Reliable, h.Seq)
	require.Equal(t, again, third, "%T: encoding is not idempotent", m)
}

// checkBounds checks that a decoded message holds no more elements than a
// body of n bytes can carry.
func checkBounds(t *testing.T, m Message, n int) {
	t.Helper()
	// atMost fails unless got is within every limit.
	atMost := func(what string, got int, limits ...int) {
		for _, limit := range limits {
			require.LessOrEqual(t, got, limit, "%T holds %d %s from a %d-byte body", m, got, what, n)
		}
	}
	switch v := m.(type) {
	case *ClientGameData:
		minTic := 3
		if v.Ext {
			minTic = 1
		}
		atMost("tics", len(v.Tics), (n-3)/minTic, MaxTicsPerPacket)
		atMost("sums", len(v.Report.Sums), n/2, MaxChecksums)
	case *ServerGameData:
		atMost("tics", len(v.Tics), (n-2)/3, MaxTicsPerPacket)
	case *TicSet:
		atMost("tics", len(v.Tics), n-5, MaxTicsPerPacket)
		atMost("timings", len(v.Timing), n/3, MaxPlayers)
		atMost("figures", len(v.Figures), n/playerFiguresLen, MaxPlayers)
	case *SYN:
		atMost("protocols", len(v.Protocols), n, MaxProtocols)
	case *QueryResponse:
		atMost("protocols", len(v.Protocols), n, MaxProtocols)
	case *WaitingData:
		atMost("players", len(v.Players), n/2, MaxPlayers)
	case *ChecksumReport:
		atMost("sums", len(v.Sums), n/2, MaxChecksums)
	case *TransferChunk:
		atMost("data bytes", len(v.Data), n-TransferChunkHeaderLen, MaxTransferChunkSize)
	case *TransferAck:
		atMost("bitmap bytes", len(v.Bitmap), n-10, MaxTransferAckBitmap)
	case *GameStart:
		atMost("players", int(v.Settings.NumPlayers), MaxPlayers)
	}
}

// fuzzContexts are the sessions FuzzDecodePacket decodes each input in: the
// reference's, with either turning, and the extension's, with Doom's
// ticcmd and with opaque input.
var fuzzContexts = []Context{{}, {LowResTurn: true}, {Ext: true, Near: 70000}, {LowResTurn: true, InputSize: 4, Ext: true, Near: 1 << 31}}

func FuzzDecodePacket(f *testing.F) {
	for _, s := range seedPackets(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pkt []byte) {
		for _, dir := range []Direction{ClientToServer, ServerToClient} {
			for _, ctx := range fuzzContexts {
				h, m, err := DecodePacketIn(pkt, dir, ctx)
				if err != nil {
					decodeError(t, err, len(pkt))
					continue
				}
				checkDecoded(t, h, m, len(pkt)-h.Len(), len(pkt)-h.Len())
			}
		}
	})
}

// fuzzBody fuzzes one message type's DecodeBody.
func fuzzBody(f *testing.F, mk func() Message) {
	for _, s := range seedBodies(f, mk()) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m := mk()
		if err := m.DecodeBody(body); err != nil {
			decodeError(t, err, len(body))
			return
		}
		checkDecoded(t, Header{Type: m.Type()}, m, len(body), len(body))
	})
}

// fuzzBodyFormat fuzzes a GAMEDATA-like DecodeBody in both turning modes
// and with every input size.
func fuzzBodyFormat(f *testing.F, mk func(CmdFormat) Message) {
	for _, s := range seedBodies(f, mk(CmdFormat{})) {
		f.Add(s, false, uint8(0))
		f.Add(s, true, uint8(0))
		f.Add(s, false, uint8(16))
	}
	f.Fuzz(func(t *testing.T, body []byte, lowres bool, size uint8) {
		m := mk(CmdFormat{LowResTurn: lowres, InputSize: size % (MaxInputBytes + 1)})
		if err := m.DecodeBody(body); err != nil {
			decodeError(t, err, len(body))
			return
		}
		checkDecoded(t, Header{Type: m.Type()}, m, len(body), len(body))
	})
}

func FuzzSYN(f *testing.F)            { fuzzBody(f, func() Message { return &SYN{} }) }
func FuzzSYNReply(f *testing.F)       { fuzzBody(f, func() Message { return &SYNReply{} }) }
func FuzzRejected(f *testing.F)       { fuzzBody(f, func() Message { return &Rejected{} }) }
func FuzzWaitingData(f *testing.F)    { fuzzBody(f, func() Message { return &WaitingData{} }) }
func FuzzGameStart(f *testing.F)      { fuzzBody(f, func() Message { return &GameStart{} }) }
func FuzzGameDataAck(f *testing.F)    { fuzzBody(f, func() Message { return &GameDataAck{} }) }
func FuzzGameDataResend(f *testing.F) { fuzzBody(f, func() Message { return &GameDataResend{} }) }
func FuzzReliableAck(f *testing.F)    { fuzzBody(f, func() Message { return &ReliableAck{} }) }
func FuzzConsoleMessage(f *testing.F) { fuzzBody(f, func() Message { return &ConsoleMessage{} }) }
func FuzzQueryResponse(f *testing.F)  { fuzzBody(f, func() Message { return &QueryResponse{} }) }
func FuzzLaunch(f *testing.F)         { fuzzBody(f, func() Message { return &Launch{} }) }
func FuzzEmpty(f *testing.F)          { fuzzBody(f, func() Message { return &Empty{Kind: TypeKeepalive} }) }
func FuzzChecksumReport(f *testing.F) { fuzzBody(f, func() Message { return &ChecksumReport{} }) }
func FuzzModeNotice(f *testing.F)     { fuzzBody(f, func() Message { return &ModeNotice{} }) }
func FuzzLaunchOptions(f *testing.F)  { fuzzBody(f, func() Message { return &LaunchOptions{} }) }
func FuzzEndRequest(f *testing.F)     { fuzzBody(f, func() Message { return &EndRequest{} }) }
func FuzzEndAsked(f *testing.F)       { fuzzBody(f, func() Message { return &EndAsked{} }) }
func FuzzGameEnd(f *testing.F)        { fuzzBody(f, func() Message { return &GameEnd{} }) }
func FuzzGameOver(f *testing.F)       { fuzzBody(f, func() Message { return &GameOver{} }) }
func FuzzDesync(f *testing.F)         { fuzzBody(f, func() Message { return &Desync{} }) }
func FuzzInputDelay(f *testing.F)     { fuzzBody(f, func() Message { return &InputDelay{} }) }
func FuzzRepair(f *testing.F)         { fuzzBody(f, func() Message { return &Repair{} }) }
func FuzzRepairDone(f *testing.F)     { fuzzBody(f, func() Message { return &RepairDone{} }) }
func FuzzRepaired(f *testing.F)       { fuzzBody(f, func() Message { return &Repaired{} }) }
func FuzzStatesRequest(f *testing.F)  { fuzzBody(f, func() Message { return &StatesRequest{} }) }
func FuzzStateFeed(f *testing.F)      { fuzzBody(f, func() Message { return &StateFeed{} }) }
func FuzzTicSource(f *testing.F)      { fuzzBody(f, func() Message { return &TicSource{} }) }
func FuzzWatcherList(f *testing.F)    { fuzzBody(f, func() Message { return &WatcherList{} }) }
func FuzzTransferChunk(f *testing.F)  { fuzzBody(f, func() Message { return &TransferChunk{} }) }
func FuzzTransferAck(f *testing.F)    { fuzzBody(f, func() Message { return &TransferAck{} }) }
func FuzzTransferAbort(f *testing.F)  { fuzzBody(f, func() Message { return &TransferAbort{} }) }

func FuzzClientGameData(f *testing.F) {
	fuzzBodyFormat(f, func(c CmdFormat) Message { return &ClientGameData{LowResTurn: c.LowResTurn, InputSize: c.InputSize} })
}

func FuzzServerGameData(f *testing.F) {
	fuzzBodyFormat(f, func(c CmdFormat) Message { return &ServerGameData{LowResTurn: c.LowResTurn, InputSize: c.InputSize} })
}

func FuzzTicSet(f *testing.F) {
	fuzzBodyFormat(f, func(c CmdFormat) Message { return &TicSet{LowResTurn: c.LowResTurn, InputSize: c.InputSize} })
}

// reusable are the message types that hold slices or arrays a decode must
// fully replace.
func reusable(lowres bool) []Message {
	return []Message{&ClientGameData{LowResTurn: lowres}, &ServerGameData{LowResTurn: lowres}, &TicSet{LowResTurn: lowres},
		&ClientGameData{InputSize: 16}, &ServerGameData{InputSize: 3}, &TicSet{InputSize: 64}, &ModeNotice{}, &JoinStart{}, &LaunchOptions{},
		&WaitingData{}, &SYN{}, &QueryResponse{}, &ChecksumReport{}, &GameStart{}, &TransferChunk{}, &TransferAck{}}
}

// FuzzDecodeIntoAUsedValueLeavesNothingStale decodes body a, then body b,
// into one value: that must equal decoding b into a fresh value. GAMEDATA
// both ways, TicSet and the transfer's chunk and ack are the hot paths that
// reuse their values; the other types with lists are checked too.
func FuzzDecodeIntoAUsedValueLeavesNothingStale(f *testing.F) {
	var bodies [][]byte
	for _, m := range reusable(false) {
		bodies = append(bodies, seedBodies(f, m)...)
	}
	for i := range bodies {
		f.Add(bodies[i], bodies[(i+1)%len(bodies)], i%2 == 0)
		f.Add(bodies[(i+1)%len(bodies)], bodies[i], i%2 == 1)
	}
	f.Fuzz(func(t *testing.T, a, b []byte, lowres bool) {
		used, clean := reusable(lowres), reusable(lowres)
		for i, m := range used {
			m.DecodeBody(a)
			errUsed := m.DecodeBody(b)
			errClean := clean[i].DecodeBody(b)
			require.Equal(t, (errClean == nil), (errUsed == nil), "%T: used value: %v; fresh value: %v", m, errUsed, errClean)
			if errUsed != nil {
				require.Equal(t, errClean.Error(), errUsed.Error(), "%T: used value: %v; fresh value: %v", m, errUsed, errClean)
			}
			if errUsed == nil {
				require.True(t, sameMessage(m, clean[i]), "%T: stale data after reuse:\n used %+v\nfresh %+v", m, m, clean[i])
			}
		}
	})
}
