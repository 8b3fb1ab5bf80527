package netcore

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/ticnet/ticnet/netcore/transfer"
	"github.com/ticnet/ticnet/netcore/wire"
)

// tapeGame's state is the tics it ran, a byte each, in order.
type tapeGame struct{ ran []byte }

func (*tapeGame) BuildTiccmd(uint32) TicCmd { return TicCmd{} }
func (g *tapeGame) RunTic(tic uint32, _ *[MaxPlayers]TicCmd, _ *[MaxPlayers]bool) {
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
			c.loop.tl.Confirm(ConfirmedTic{InGame: 1})
		}
	}
	confirm(5)
	c.loop.runTics()
	if c.GameTic() != 5 || c.PredictedTic() != 13 {
		t.Fatalf("ran to tic %d, predicted to %d; want 5 and 13", c.GameTic(), c.PredictedTic())
	}
	const tic, stream = 7, 9
	if !c.loop.tl.SaveBefore(tic) {
		t.Fatal("SaveBefore refused a tic ahead of the game")
	}
	c.join.saves = append(c.join.saves, pendingSave{tic: tic, stream: stream})
	confirm(4) // tics 5-8, as predicted
	c.loop.runTics()
	if out, _ := c.xfer.Open(); out != 1 {
		t.Fatalf("%d streams going out, want the state's", out)
	}
	data := tr.chunkSent(t, c.xfer)
	if got, want := data, binary.BigEndian.AppendUint32(nil, tic); len(got) < 4 || !slices.Equal(got[:4], want) ||
		!slices.Equal(got[4:], []byte{0, 1, 2, 3, 4, 5, 6}) {
		t.Fatalf("the stream is %v, want tic %d and the state before it, tics 0-6", got, tic)
	}
	if c.loop.tl.SavesPending() || len(c.join.saves) != 0 {
		t.Fatalf("a save is still pending: %v, %v", c.loop.tl.saves, c.join.saves)
	}
	if c.GameTic() != 9 || c.PredictedTic() != 17 {
		t.Fatalf("ran to tic %d, predicted to %d; want 9 and 17", c.GameTic(), c.PredictedTic())
	}
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
		if err != nil {
			t.Fatal(err)
		}
		var m wire.TransferChunk
		if h.Type == wire.TypeTicnet && m.DecodeBody(body) == nil {
			chunks = append(chunks, m.Data)
		}
	}
	if len(chunks) != 1 {
		t.Fatalf("%d chunks went out, want one", len(chunks))
	}
	return chunks[0]
}
