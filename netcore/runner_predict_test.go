package netcore

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// tapeGame's state is the tics it ran, a byte each, in order.
type tapeGame struct{ ran []byte }

func (*tapeGame) BuildTiccmd(uint32) tic.Cmd { return tic.Cmd{} }
func (g *tapeGame) RunTic(tic uint32, _ *[tic.MaxPlayers]tic.Cmd, _ *[tic.MaxPlayers]bool) {
	g.ran = append(g.ran, byte(tic))
}
func (g *tapeGame) Checksum() uint32         { return uint32(len(g.ran)) }
func (g *tapeGame) SaveState() []byte        { return slices.Clone(g.ran) }
func (g *tapeGame) LoadState(b []byte) error { g.ran = slices.Clone(b); return nil }

// The server asks a predicting client for the state before a tic it
// predicted, and the tic is confirmed, as predicted, in the same pass: the
// state goes out, the one saved before the predicted tic ran, and the
// client goes on predicting (it would otherwise wait for a save that
// could never come).
func TestASaveDueBeforeAPredictedTicThatStandsGoesOut(t *testing.T) {
	g := &tapeGame{}
	tr := &kept{}
	c := NewClient(ClientConfig{Predict: true, PredictTics: 8}, tr, 1, g, 0)
	c.clock, c.phase, c.player, c.settings.TicDup = ticnetClock{}, phasePlaying, 0, 1
	for m := range uint32(20) {
		c.send.queue[m] = sentTic{seq: m, valid: true} // its commands, built
	}
	c.send.maketic = 20
	confirm := func(n int) {
		for range n {
			c.loop.tl.Confirm(tic.ConfirmedTic{InGame: 1})
		}
	}
	confirm(5)
	c.loop.runTics()
	require.Equal(t, uint32(5), c.GameTic(), "ran to tic")
	require.Equal(t, uint32(13), c.PredictedTic(), "predicted to tic")
	const tic, stream = 7, 9
	require.True(t, c.loop.tl.SaveBefore(tic), "SaveBefore refused a tic ahead of the game")
	c.join.saves = append(c.join.saves, pendingSave{tic: tic, stream: stream})
	confirm(4) // tics 5-8, as predicted
	c.loop.runTics()
	out, _ := c.xfer.Open()
	require.Equal(t, 1, out, "streams going out, want the state's")
	data := tr.chunkSent(t, c.xfer)
	require.GreaterOrEqual(t, len(data), 4, "the stream is %v, want tic %d and the state before it", data, tic)
	require.Equal(t, binary.BigEndian.AppendUint32(nil, tic), data[:4], "the stream's tic")
	require.Equal(t, []byte{0, 1, 2, 3, 4, 5, 6}, data[4:], "the stream's state: the one before tic %d, tics 0-6", tic)
	require.False(t, c.loop.tl.SavesPending(), "a save is still pending in the timeline")
	require.Empty(t, c.join.saves, "a save is still pending")
	require.Equal(t, uint32(9), c.GameTic(), "ran to tic")
	require.Equal(t, uint32(17), c.PredictedTic(), "predicted to tic")
}

// chunkSent pumps x and returns the data of the one chunk it sends: the
// whole of a stream of one chunk.
func (k *kept) chunkSent(t *testing.T, x *transfer.Endpoint) []byte {
	t.Helper()
	k.pkts = nil
	x.Pump(0, nil)
	var chunks [][]byte
	for _, p := range k.pkts {
		h, body, err := wire.ParseHeader(p)
		require.NoError(t, err)
		var m wire.TransferChunk
		if h.Type == wire.TypeTicnet && m.DecodeBody(body) == nil {
			chunks = append(chunks, m.Data)
		}
	}
	require.Len(t, chunks, 1, "chunks that went out")
	return chunks[0]
}
