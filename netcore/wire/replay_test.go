package wire

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// sampleReplay writes a replay of n tics of random commands in format f,
// with snapshots now and then, players entering and leaving; it returns
// the file and what it wrote.
func sampleReplay(t testing.TB, n int, input uint8, seed uint64) ([]byte, []ReplayRecord) {
	r := rand.New(rand.NewPCG(seed, 1))
	h := ReplayHeader{Protocol: ProtocolTicnet, Settings: Settings{TicDup: 1, NumPlayers: 3, Skill: 2, Map: 7},
		Setup: GameSetup{Input: InputLayout{Size: input}, TicRate: 20, Seed: 42, Options: []byte("opts")},
		Names: []string{"ann", "bob", "cy"}, Start: 100, SumEvery: 1}
	w := NewReplayWriter(&h)
	var want []ReplayRecord
	in := uint8(0b011)
	for i := range n {
		tic := h.Start + uint32(i)
		if i%37 == 0 {
			state := make([]byte, r.IntN(50))
			for j := range state {
				state[j] = byte(r.Uint32())
			}
			if err := w.Snapshot(tic, state); err != nil {
				t.Fatal(err)
			}
			want = append(want, ReplayRecord{Tic: ReplayTic{Tic: tic}, State: state})
		}
		if r.IntN(50) == 0 {
			in ^= 1 << r.IntN(3)
		}
		rt := ReplayTic{Tic: tic, InGame: in, HasSum: r.IntN(3) > 0}
		if rt.HasSum {
			rt.Sum = r.Uint32()
		}
		if r.IntN(10) == 0 {
			rt.Substituted = in & uint8(r.IntN(8))
		}
		if rt.HasSum && r.IntN(2) == 0 {
			rt.HasPlayerSums = true
		}
		for p := range MaxPlayers {
			if in&(1<<p) == 0 {
				continue
			}
			if rt.HasPlayerSums {
				rt.PlayerSums[p] = uint16(r.Uint32())
			}
			c := &rt.Cmds[p]
			if input > 0 {
				c.Input[r.IntN(int(input))] = byte(r.Uint32())
				continue
			}
			*c = TicCmd{ForwardMove: int8(r.IntN(100)), AngleTurn: int16(r.Uint32()), Buttons: uint8(r.IntN(4))}
			if r.IntN(5) == 0 {
				c.ChatChar = 'x'
			}
		}
		if err := w.Tic(&rt); err != nil {
			t.Fatal(err)
		}
		want = append(want, ReplayRecord{Tic: rt})
	}
	return bytes.Clone(w.Bytes()), want
}

func TestReplayFileRoundTrips(t *testing.T) {
	for _, input := range []uint8{0, 5} {
		data, want := sampleReplay(t, 500, input, uint64(input))
		r, err := NewReplayReader(data)
		if err != nil {
			t.Fatal(err)
		}
		if h := r.Header; h.Protocol != ProtocolTicnet || h.Start != 100 || h.Settings.Map != 7 || h.Setup.Seed != 42 ||
			string(h.Setup.Options) != "opts" || h.Setup.Input.Size != input || len(h.Names) != 3 || h.Names[2] != "cy" {
			t.Fatalf("header %+v", h)
		}
		var got ReplayRecord
		for i := range want {
			if err := r.Next(&got); err != nil {
				t.Fatalf("record %d: %v", i, err)
			}
			w := &want[i]
			if w.IsSnapshot() != got.IsSnapshot() || !bytes.Equal(w.State, got.State) || w.Tic != got.Tic {
				t.Fatalf("record %d: got %+v, want %+v", i, got, *w)
			}
		}
		if err := r.Next(&got); err != io.EOF {
			t.Fatalf("after the last record: %v", err)
		}
	}
}

// A file cut anywhere reads up to its last whole record, then says the
// next is cut short; nothing reads a record that was not written.
func TestACutReplayFileFailsAtTheCut(t *testing.T) {
	data, want := sampleReplay(t, 120, 0, 3)
	ends := map[int]bool{len(data): true} // where a record ends
	for _, rec := range readAllRecords(t, data) {
		ends[rec.Offset] = true
	}
	for cut := len(ReplayMagic); cut < len(data); cut++ {
		r, err := NewReplayReader(data[:cut])
		if err != nil {
			continue // the header is cut
		}
		var rec ReplayRecord
		i := 0
		for ; ; i++ {
			err = r.Next(&rec)
			if err != nil {
				break
			}
			if rec.Tic != want[i].Tic {
				t.Fatalf("cut at %d: record %d is %+v, want %+v", cut, i, rec.Tic, want[i].Tic)
			}
		}
		if err == io.EOF && !ends[cut] {
			t.Fatalf("cut at %d, inside a record: read %d records, then the end", cut, i)
		}
		if err != io.EOF && !strings.Contains(err.Error(), "the file is cut short") {
			t.Fatalf("cut at %d: %v", cut, err)
		}
	}
}

func readAllRecords(t *testing.T, data []byte) []ReplayRecord {
	r, err := NewReplayReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var recs []ReplayRecord
	var rec ReplayRecord
	for r.Next(&rec) == nil {
		recs = append(recs, rec)
	}
	return recs
}

func TestReplayWriterRefusesTicsOutOfOrder(t *testing.T) {
	w := NewReplayWriter(&ReplayHeader{Start: 5})
	if err := w.Tic(&ReplayTic{Tic: 6}); err == nil {
		t.Fatal("tic 6 recorded first")
	}
	if err := w.Snapshot(4, nil); err == nil {
		t.Fatal("a snapshot of tic 4 recorded before tic 5")
	}
	if _, err := NewReplayReader([]byte("TICNETRX\x01")); !errors.Is(err, ErrNotReplay) {
		t.Fatalf("another file: %v", err)
	}
}

// FuzzReplay: any bytes give records or an error, never a panic; a file
// that reads whole is read again identically after a rewind.
func FuzzReplay(f *testing.F) {
	for i, input := range []uint8{0, 3} {
		data, _ := sampleReplay(f, 40, input, uint64(i))
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReplayReader(data)
		if err != nil {
			return
		}
		var first []ReplayRecord
		var rec ReplayRecord
		for r.Next(&rec) == nil {
			if len(rec.State) > MaxReplaySnapshot {
				t.Fatalf("a snapshot of %d bytes", len(rec.State))
			}
			first = append(first, rec)
		}
		r.Rewind()
		for i := range first {
			if err := r.Next(&rec); err != nil || rec.Tic != first[i].Tic || !bytes.Equal(rec.State, first[i].State) {
				t.Fatalf("record %d reads differently after a rewind: %v", i, err)
			}
		}
	})
}
