package wire

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
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
			err := w.Snapshot(tic, state)
			require.NoError(t, err)
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
		err := w.Tic(&rt)
		require.NoError(t, err)
		want = append(want, ReplayRecord{Tic: rt})
	}
	return bytes.Clone(w.Bytes()), want
}

func TestReplayFileRoundTrips(t *testing.T) {
	for _, input := range []uint8{0, 5} {
		data, want := sampleReplay(t, 500, input, uint64(input))
		r, err := NewReplayReader(data)
		require.NoError(t, err)
		h := r.Header
		require.Equal(t, ProtocolTicnet, h.Protocol, "header %+v", h)
		require.Equal(t, uint32(100), h.Start, "header %+v", h)
		require.Equal(t, uint8(7), h.Settings.Map, "header %+v", h)
		require.Equal(t, uint32(42), h.Setup.Seed, "header %+v", h)
		require.Equal(t, "opts", string(h.Setup.Options), "header %+v", h)
		require.Equal(t, input, h.Setup.Input.Size, "header %+v", h)
		require.Equal(t, 3, len(h.Names), "header %+v", h)
		require.Equal(t, "cy", h.Names[2], "header %+v", h)
		var got ReplayRecord
		for i := range want {
			err := r.Next(&got)
			require.NoError(t, err, "record %d", i)
			w := &want[i]
			require.Equal(t, w.IsSnapshot(), got.IsSnapshot(), "record %d: got %+v, want %+v", i, got, *w)
			require.Equal(t, w.State, got.State, "record %d: got %+v, want %+v", i, got, *w)
			require.Equal(t, w.Tic, got.Tic, "record %d: got %+v, want %+v", i, got, *w)
		}
		err = r.Next(&got)
		require.True(t, err == io.EOF, "after the last record: %v, want io.EOF", err)
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
			require.Equal(t, want[i].Tic, rec.Tic, "cut at %d: record %d is", cut, i)
		}
		if err == io.EOF {
			require.True(t, ends[cut], "cut at %d, inside a record: read %d records, then the end", cut, i)
		}
		if err != io.EOF {
			require.Contains(t, err.Error(), "the file is cut short", "cut at %d: %v", cut, err)
		}
	}
}

func readAllRecords(t *testing.T, data []byte) []ReplayRecord {
	r, err := NewReplayReader(data)
	require.NoError(t, err)
	var recs []ReplayRecord
	var rec ReplayRecord
	for r.Next(&rec) == nil {
		recs = append(recs, rec)
	}
	return recs
}

func TestReplayWriterRefusesTicsOutOfOrder(t *testing.T) {
	w := NewReplayWriter(&ReplayHeader{Start: 5})
	err := w.Tic(&ReplayTic{Tic: 6})
	require.Error(t, err, "tic 6 recorded first")
	err = w.Snapshot(4, nil)
	require.Error(t, err, "a snapshot of tic 4 recorded before tic 5")
	_, err = NewReplayReader([]byte("TICNETRX\x01"))
	require.ErrorIs(t, err, ErrNotReplay, "another file: %v", err)
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
			require.LessOrEqual(t, len(rec.State), MaxReplaySnapshot, "a snapshot of %d bytes", len(rec.State))
			first = append(first, rec)
		}
		r.Rewind()
		for i := range first {
			err := r.Next(&rec)
			require.NoError(t, err, "record %d reads differently after a rewind", i)
			require.Equal(t, first[i].Tic, rec.Tic, "record %d reads differently after a rewind: %v", i, err)
			require.Equal(t, first[i].State, rec.State, "record %d reads differently after a rewind: %v", i, err)
		}
	})
}
