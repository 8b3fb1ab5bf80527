package tic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func confirmN(t *testing.T, tl *Timeline, from, n uint32) {
	t.Helper()
	for i := range n {
		var ct ConfirmedTic
		ct.InGame = 1
		ct.Cmds[0].AngleTurn = int16(from + i)
		require.True(t, tl.Confirm(ct), "tic %d refused with %d room", from+i, tl.Room())
	}
}

func TestTimelineRunsConfirmedTicsInOrderOnce(t *testing.T) {
	var tl Timeline
	tl.Reset(1000)
	require.Empty(t, tl.Requests(2000, 10), "requests with nothing confirmed")
	confirmN(t, &tl, 1000, 5)
	reqs := tl.Requests(1003, 10) // run up to 1003 only
	require.Len(t, reqs, 3, "requests")
	for i, r := range reqs {
		require.Equal(t, RequestAdvance, r.Kind, "request %d: kind", i)
		require.Equal(t, 1000+uint32(i), r.Tic, "request %d: tic", i)
		require.Equal(t, int16(r.Tic), r.Confirmed.Cmds[0].AngleTurn, "request %d: cmd %+v", i, r.Confirmed.Cmds[0])
		tl.Ran(r.Tic, 7*r.Tic)
	}
	require.Equal(t, uint32(1003), tl.GameTic(), "gametic")
	require.Empty(t, tl.Requests(1002, 10), "requests from a limit behind the game")
	reqs = tl.Requests(5000, 1)
	require.Len(t, reqs, 1, "at most one request")
	require.Equal(t, uint32(1003), reqs[0].Tic, "the one request's tic")
	c := tl.Tic(1001)
	require.NotNil(t, c, "tic 1001 not held")
	require.True(t, c.Ran, "tic 1001 held as not run: %+v", c)
	require.Equal(t, uint32(7*1001), c.Sum, "tic 1001's sum")
}

func TestTimelineKeepsItsBoundsAndGrowsInPlace(t *testing.T) {
	tl := Timeline{KeepTics: 10, MaxTics: 40}
	tl.Reset(0)
	confirmN(t, &tl, 0, 40)
	require.Zero(t, tl.Room(), "a full timeline's room")
	require.False(t, tl.Confirm(ConfirmedTic{}), "a full timeline took a tic")
	for _, r := range tl.Requests(100, 100) {
		require.Equal(t, int16(r.Tic), tl.Tic(r.Tic).Cmds[0].AngleTurn, "tic %d moved when the ring grew", r.Tic)
		tl.Ran(r.Tic, 0)
	}
	require.Equal(t, 30, tl.Room(), "room after running everything")
	require.Equal(t, uint32(30), tl.First(), "first after running everything")
	require.Nil(t, tl.Tic(29), "held tics are not [30, 40)")
	require.NotNil(t, tl.Tic(30), "held tics are not [30, 40)")
	require.Nil(t, tl.Tic(40), "held tics are not [30, 40)")
	confirmN(t, &tl, 40, 30)
	require.LessOrEqual(t, len(tl.ring), 64, "ring for at most 40 tics")
}

// A rewind loads the state before a tic the game ran already, then runs
// the tics from it again, in order, with their commands; one of a tic no
// longer held or not run yet, without a state, or while another load
// waits is refused.
func TestTimelineRewindLoadsAStateAndRunsTheTicsSinceAgain(t *testing.T) {
	tl := Timeline{KeepTics: 10}
	tl.Reset(100)
	confirmN(t, &tl, 100, 30)
	for _, r := range tl.Requests(130, 100) {
		tl.Ran(r.Tic, 1)
	}
	require.False(t, tl.Rewind(Snapshot{Tic: 119, State: []byte{1}}), "a tic no longer held")
	require.Equal(t, uint32(120), tl.First(), "first, 10 tics behind the game")
	require.False(t, tl.Rewind(Snapshot{Tic: 125}), "no state")
	require.True(t, tl.Rewind(Snapshot{Tic: 122, State: []byte{9}}), "tic 122")
	require.True(t, tl.Loading(), "loading")
	require.False(t, tl.Rewind(Snapshot{Tic: 123, State: []byte{9}}), "another load waits")
	confirmN(t, &tl, 130, 2)
	reqs := tl.Requests(200, 100)
	require.Len(t, reqs, 11, "the load, then tics 122-131")
	require.Equal(t, RequestLoad, reqs[0].Kind)
	require.Equal(t, uint32(122), reqs[0].Tic)
	require.Equal(t, []byte{9}, reqs[0].State)
	for i, r := range reqs[1:] {
		require.Equal(t, RequestAdvance, r.Kind, "request %d", i+1)
		require.Equal(t, 122+uint32(i), r.Tic, "request %d", i+1)
		require.Equal(t, int16(r.Tic), r.Confirmed.Cmds[0].AngleTurn, "tic %d's command", r.Tic)
		tl.Ran(r.Tic, 2)
	}
	require.Equal(t, uint32(132), tl.GameTic())
	require.False(t, tl.Loading())
	require.Equal(t, uint32(2), tl.Tic(125).Sum, "a tic run again keeps its new sum")

	// A state of a tic the game has not run yet is refused: the caller
	// holds it until the game gets there.
	tl.Reset(0)
	confirmN(t, &tl, 0, 5)
	require.False(t, tl.Rewind(Snapshot{Tic: 8, State: []byte{7}}), "tic 8, the game at tic 0")
	require.False(t, tl.Loading())
}

// Forward moves a game whose load a Rewind asked for refused it back to
// where it was: the tics before are not run again; before the game, or
// past the tics held, it changes nothing.
func TestTimelineForwardSkipsTheTicsARefusedRewindWouldRunAgain(t *testing.T) {
	tl := Timeline{}
	tl.Reset(0)
	confirmN(t, &tl, 0, 20)
	for _, r := range tl.Requests(15, 100) {
		tl.Ran(r.Tic, 1)
	}
	require.True(t, tl.Rewind(Snapshot{Tic: 10, State: []byte{1}}))
	reqs := tl.Requests(15, 1)
	require.Equal(t, RequestLoad, reqs[0].Kind)
	require.Equal(t, uint32(10), tl.GameTic(), "at the load")
	require.False(t, tl.Forward(9), "back past the game")
	require.False(t, tl.Forward(21), "past the tics held")
	require.True(t, tl.Forward(15))
	require.Equal(t, uint32(15), tl.GameTic())
	reqs = tl.Requests(17, 100)
	require.Len(t, reqs, 2, "tics 15 and 16")
	require.Equal(t, uint32(15), reqs[0].Tic)
}
