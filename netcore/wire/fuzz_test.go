package wire

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
)

// seed adds the vectors and a few random messages of every kind.
func seed(f *testing.F) {
	for _, v := range loadVectors(f) {
		f.Add(v.pkt)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for range 3 {
		for _, m := range randMessages(r) {
			f.Add(Encode(nil, m, false, 0))
		}
	}
	f.Add([]byte{})
	f.Add([]byte{0x80})
}

// checkDecoded re-encodes a decoded message: decoding that again must give
// the same message, and nothing decoded may be larger than the input.
func checkDecoded(t *testing.T, pkt []byte, h Header, m Message) {
	again := Encode(nil, m, h.Reliable, h.Seq)
	m2 := fresh(m)
	if _, err := Decode(again, m2); err != nil {
		t.Fatalf("%T re-encoded does not decode: %v", m, err)
	}
	if !reflect.DeepEqual(normal(m2), normal(m)) {
		t.Fatalf("%T changed through encode and decode", m)
	}
	if n := sliceLen(m); n > len(pkt) {
		t.Fatalf("%T holds %d elements from %d bytes", m, n, len(pkt))
	}
}

// sliceLen is the total length of a message's slices.
func sliceLen(m Message) int {
	v := reflect.ValueOf(m).Elem()
	n := 0
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Slice {
			n += f.Len()
		}
	}
	return n
}

func FuzzDecodePacket(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, pkt []byte) {
		for _, dir := range []Direction{ClientToServer, ServerToClient} {
			for _, lowres := range []bool{false, true} {
				h, m, err := DecodePacket(pkt, dir, lowres)
				if err != nil {
					if _, ok := err.(*DecodeError); !ok {
						t.Fatalf("error of type %T: %v", err, err)
					}
					continue
				}
				checkDecoded(t, pkt, h, m)
			}
		}
	})
}

// fuzzBody fuzzes one message type's decoder on raw bodies.
func fuzzBody(f *testing.F, mk func() Message) {
	seed(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		m := mk()
		if err := m.DecodeBody(body); err != nil {
			return
		}
		checkDecoded(t, body, Header{Type: m.Type()}, m)
	})
}

func FuzzSYN(f *testing.F)            { fuzzBody(f, func() Message { return &SYN{} }) }
func FuzzSYNReply(f *testing.F)       { fuzzBody(f, func() Message { return &SYNReply{} }) }
func FuzzRejected(f *testing.F)       { fuzzBody(f, func() Message { return &Rejected{} }) }
func FuzzWaitingData(f *testing.F)    { fuzzBody(f, func() Message { return &WaitingData{} }) }
func FuzzGameStart(f *testing.F)      { fuzzBody(f, func() Message { return &GameStart{} }) }
func FuzzClientGameData(f *testing.F) { fuzzBody(f, func() Message { return &ClientGameData{} }) }
func FuzzServerGameData(f *testing.F) {
	fuzzBody(f, func() Message { return &ServerGameData{LowResTurn: true} })
}
func FuzzGameDataAck(f *testing.F)    { fuzzBody(f, func() Message { return &GameDataAck{} }) }
func FuzzGameDataResend(f *testing.F) { fuzzBody(f, func() Message { return &GameDataResend{} }) }
func FuzzReliableAck(f *testing.F)    { fuzzBody(f, func() Message { return &ReliableAck{} }) }
func FuzzConsoleMessage(f *testing.F) { fuzzBody(f, func() Message { return &ConsoleMessage{} }) }
func FuzzQueryResponse(f *testing.F)  { fuzzBody(f, func() Message { return &QueryResponse{} }) }
func FuzzLaunch(f *testing.F)         { fuzzBody(f, func() Message { return &Launch{} }) }
func FuzzTicSet(f *testing.F)         { fuzzBody(f, func() Message { return &TicSet{} }) }
func FuzzChecksumReport(f *testing.F) { fuzzBody(f, func() Message { return &ChecksumReport{} }) }
func FuzzModeNotice(f *testing.F)     { fuzzBody(f, func() Message { return &ModeNotice{} }) }

// FuzzReusedDecodeLeavesNothingStale decodes two packets into one value: the
// result must equal decoding the second into a fresh value.
func FuzzReusedDecodeLeavesNothingStale(f *testing.F) {
	vs := loadVectors(f)
	for i := range vs {
		f.Add(vs[i].pkt, vs[(i+1)%len(vs)].pkt)
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		reused := []Message{&ClientGameData{}, &ServerGameData{}, &TicSet{}, &WaitingData{}, &SYN{}, &ChecksumReport{}}
		for _, m := range reused {
			m.DecodeBody(a)
			errB := m.DecodeBody(b)
			n := fresh(m)
			errN := n.DecodeBody(b)
			if (errB == nil) != (errN == nil) {
				t.Fatalf("%T: reused %v, fresh %v", m, errB, errN)
			}
			if errB == nil && !reflect.DeepEqual(normal(m), normal(n)) {
				t.Fatalf("%T: stale data after reuse", m)
			}
		}
	})
}

func TestHotPathsAllocateNothing(t *testing.T) {
	cases := []struct {
		name string
		m    Message
	}{
		{"server GAMEDATA", serverGameData8()},
		{"client GAMEDATA", clientGameData2()},
		{"TICNET tic set", ticSet8()},
	}
	for _, c := range cases {
		buf := Encode(nil, c.m, false, 0)
		pkt := bytes.Clone(buf)
		into := fresh(c.m)
		Decode(pkt, into)
		if a := testing.AllocsPerRun(1000, func() { buf = Encode(buf[:0], c.m, false, 0) }); a != 0 {
			t.Errorf("%s: encode into a reused buffer: %v allocs", c.name, a)
		}
		if a := testing.AllocsPerRun(1000, func() { Decode(pkt, into) }); a != 0 {
			t.Errorf("%s: decode into a reused value: %v allocs", c.name, a)
		}
	}
}
