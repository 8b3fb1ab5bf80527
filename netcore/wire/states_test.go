package wire

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A request for states is its tic and stream; a stream of states is the
// tic, the length of the state before, then both states. A body cut short,
// another kind, or a length past the stream's end is an error naming the
// field.
func TestARequestForStatesAndItsStreamAreTheirFieldsInOrder(t *testing.T) {
	var de *DecodeError
	m := StatesRequest{Tic: 0x010203, Stream: StatesRequestStreamBit | 5}
	body := m.AppendBody(nil)
	require.Equal(t, []byte{TicnetKindStatesRequest, 0, 1, 2, 3, 0x80, 0, 0, 5}, body)
	var got StatesRequest
	require.NoError(t, got.DecodeBody(body))
	require.Equal(t, m, got)
	require.ErrorAs(t, got.DecodeBody([]byte{TicnetKindRepair, 0, 1, 2, 3, 0x80, 0, 0, 5}), &de)
	require.Equal(t, "kind", de.Field, "another kind: %v", de)
	require.ErrorAs(t, got.DecodeBody(body[:7]), &de)
	require.Equal(t, "stream", de.Field, "cut short: %v", de)

	st := StatesStream{Tic: 300, Before: []byte{1, 2}, After: []byte{3, 4, 5}}
	b := st.AppendTo(nil)
	require.Equal(t, []byte{0, 0, 1, 0x2c, 0, 0, 0, 2, 1, 2, 3, 4, 5}, b)
	var gotS StatesStream
	require.NoError(t, gotS.Decode(b))
	require.Equal(t, st, gotS)
	b[7] = 9 // before's length past the end
	require.ErrorAs(t, gotS.Decode(b), &de)
	require.Equal(t, "before's length", de.Field, "%v", de)
	require.ErrorAs(t, gotS.Decode(b[:5]), &de)
	require.Equal(t, "before's length", de.Field, "cut short: %v", de)
}

// A stream of states is input from the network: whatever its bytes, it
// decodes or is an error, never a panic, and what decodes encodes back
// the same.
func FuzzStatesStream(f *testing.F) {
	f.Add((&StatesStream{Tic: 1, Before: []byte{1}, After: []byte{2}}).AppendTo(nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		var s StatesStream
		if s.Decode(b) == nil {
			require.Equal(t, b, s.AppendTo(nil))
		}
	})
}
