package scenario

import (
	"bytes"
	"testing"

	"github.com/ticnet/ticnet/netcore"

	"github.com/stretchr/testify/require"
)

// statesOf returns the states each EventDesyncStates peer p got handed.
func statesOf(p *Peer) []netcore.DesyncStates {
	return told(p, netcore.EventDesyncStates, func(e netcore.Event) *netcore.DesyncStates { return e.States })
}

// differing returns the offsets where a and b differ.
func differing(a, b []byte) []int {
	var at []int
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			at = append(at, i)
		}
	}
	return at
}

// Four players keep their states (ClientConfig.KeepStates); peer 3's game
// adds 1 to player 0's x at tic 300 (testgame's BreakAt). Every copy hands
// up its states around tic 300 once, peer 3's marked as the one that
// diverged, and peer 3 then a copy of the majority's, which it fetched
// (the same as copy 0's): the states before the tic are the same on every copy, the
// majority's states after it are the same, and peer 3's differs from
// theirs in exactly the bytes the break changed: the hash (bytes 4 to 7)
// and the low byte of player 0's x (byte 12). With prediction (and idle
// players, so that the predicted tics stand), the states are those the
// predicting copies saved before each tic.
func TestEveryCopyKeepsItsStatesAroundTheFirstTicOfADesync(t *testing.T) {
	t.Parallel()
	for _, predict := range []bool{false, true} {
		s := start(t, Options{Players: 4, Seed: 21, Link: near, KeepStates: true, Predict: predict})
		s.Peers[3].Game.BreakAt = 300
		for _, p := range s.Peers {
			p.Game.Idle = predict
		}
		runTo(t, s, 500)
		var ref netcore.DesyncStates
		for _, p := range s.Peers {
			got := statesOf(p)
			want := 1
			if p.Index == 3 {
				want = 2 // its own, then a copy of the majority's, fetched
			}
			require.Len(t, got, want, "predict %v, copy %d: the states handed up", predict, p.Index)
			st := got[0]
			require.False(t, st.Fetched, "predict %v, copy %d: its own first", predict, p.Index)
			require.Equal(t, uint32(300), st.Tic, "predict %v, copy %d: the tic", predict, p.Index)
			require.Equal(t, p.Index == 3, st.Diverged, "predict %v, copy %d: diverged", predict, p.Index)
			require.NotEmpty(t, st.Before, "predict %v, copy %d", predict, p.Index)
			if predict {
				require.Greater(t, p.Client.PredictCounters().Stood, int64(400), "copy %d: predicted tics that stood", p.Index)
			}
			if p.Index == 0 {
				ref = st
				continue
			}
			require.True(t, bytes.Equal(ref.Before, st.Before), "predict %v, copy %d: the state before tic 300 differs from copy 0's at %v",
				predict, p.Index, differing(ref.Before, st.Before))
			differ := []int(nil)
			if p.Index == 3 {
				differ = []int{4, 5, 6, 7, 12}
				fetched := got[1]
				require.True(t, fetched.Fetched && !fetched.Diverged, "predict %v: the fetched states are the majority's", predict)
				require.Equal(t, uint32(300), fetched.Tic)
				require.Equal(t, ref.Before, fetched.Before, "predict %v: the fetched state before tic 300", predict)
				require.Equal(t, ref.After, fetched.After, "predict %v: the fetched state after tic 300", predict)
			}
			require.Equal(t, differ, differing(ref.After, st.After), "predict %v, copy %d: the bytes of the state after tic 300 that differ from copy 0's",
				predict, p.Index)
		}
	}
}

// A copy that does not keep its states hands none up, and a game with no
// desync none either.
func TestNoStatesAreHandedUpUnlessKeptAndADesyncCame(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 22, Link: near})
	s.Peers[2].Game.BreakAt = 300
	runTo(t, s, 400)
	s2 := start(t, Options{Players: 3, Seed: 22, Link: near, KeepStates: true})
	runTo(t, s2, 400)
	for i := range s.Peers {
		require.Empty(t, statesOf(s.Peers[i]), "not kept: copy %d", i)
		require.Empty(t, statesOf(s2.Peers[i]), "no desync: copy %d", i)
	}
	require.Len(t, repairsOf(s.Peers[0]), 1, "the desync of the game that kept no states")
}
