package election

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// servingGame returns a copy started at startMS that serves game 9, in
// progress, its page hidden or not; its frames go to out.
func servingGame(t *testing.T, startMS float64, hidden bool, out *[][]byte) *Election {
	t.Helper()
	e := New(Config{Cadence: Local, StartMS: startMS, Send: func(f []byte) { *out = append(*out, append([]byte(nil), f...)) },
		Rand: rand.New(rand.NewPCG(uint64(startMS), 5)).Uint32}, 0)
	e.Update(Local.WaitMS)
	require.Equal(t, Server, e.Role(), "copy started at %v: %v, want a server alone", startMS, e.Role())
	e.SetGame(9)
	e.SetInGame(true)
	e.SetHidden(hidden)
	*out = nil // its first beacon went out before it played a game
	return e
}

// Two servers of one game hear each other, one of them hidden (it took
// its game back while the copy it handed the game to was slow to take
// it over): the visible one keeps the game, whatever their order by
// identity, and the hidden one yields to it (Yielded) and becomes its
// client. The README's rule: a visible copy comes first in an election,
// so it is the earlier that keeps the game.
func TestAVisibleServerKeepsItsGameAgainstAHiddenOne(t *testing.T) {
	for _, hiddenFirst := range []bool{true, false} {
		hidStart, visStart := 1000.0, 2000.0
		if !hiddenFirst {
			hidStart, visStart = 2000, 1000
		}
		var hidOut, visOut [][]byte
		hid := servingGame(t, hidStart, true, &hidOut)
		vis := servingGame(t, visStart, false, &visOut)
		require.Equal(t, hiddenFirst, hid.Self().Before(vis.Self()), "hidden first %v: identities %v, %v", hiddenFirst, hid.Self(), vis.Self())
		var hidEvents, visEvents []EventKind
		// Each hears the other's frames (its game's announcement, then its
		// beacon) 10 ms after they were sent, for two seconds.
		for now := Local.WaitMS + 10; now <= Local.WaitMS+2000; now += 10 {
			toHid, toVis := visOut, hidOut
			hidOut, visOut = nil, nil
			for _, f := range toHid {
				hid.Handle(now, f)
			}
			for _, f := range toVis {
				vis.Handle(now, f)
			}
			hidEvents = append(hidEvents, kinds(hid.Update(now))...)
			visEvents = append(visEvents, kinds(vis.Update(now))...)
		}
		require.True(t, vis.cands.hiddenOf(hid.Self()), "hidden first %v: the visible server never heard the hidden one's announcement", hiddenFirst)
		require.Equal(t, 0, len(visEvents), "hidden first %v: the visible server had events %v and is %v of %v, want the server of its game still", hiddenFirst, visEvents, vis.Role(), vis.Server())
		require.Equal(t, Server, vis.Role(), "hidden first %v: the visible server had events %v and is %v of %v, want the server of its game still", hiddenFirst, visEvents, vis.Role(), vis.Server())
		require.Equal(t, vis.Self(), vis.Server(), "hidden first %v: the visible server had events %v and is %v of %v, want the server of its game still", hiddenFirst, visEvents, vis.Role(), vis.Server())
		require.Equal(t, 1, len(hidEvents), "hidden first %v: the hidden server had events %v and is %v of %v, want it to yield to %v", hiddenFirst, hidEvents, hid.Role(), hid.Server(), vis.Self())
		require.Equal(t, Yielded, hidEvents[0], "hidden first %v: the hidden server had events %v and is %v of %v, want it to yield to %v", hiddenFirst, hidEvents, hid.Role(), hid.Server(), vis.Self())
		require.Equal(t, Client, hid.Role(), "hidden first %v: the hidden server had events %v and is %v of %v, want it to yield to %v", hiddenFirst, hidEvents, hid.Role(), hid.Server(), vis.Self())
		require.Equal(t, vis.Self(), hid.Server(), "hidden first %v: the hidden server had events %v and is %v of %v, want it to yield to %v", hiddenFirst, hidEvents, hid.Role(), hid.Server(), vis.Self())
	}
}
