package replay_test

import (
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/testgame"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// header is the header of a two-player game under the extension.
func header() wire.ReplayHeader {
	return wire.ReplayHeader{Protocol: wire.ProtocolTicnet, Settings: wire.Settings{NumPlayers: 2, TicDup: 1}}
}

// cmdsOf is both players' commands of tic t, different every tic.
func cmdsOf(t uint32) *[tic.MaxPlayers]tic.Cmd {
	var cmds [tic.MaxPlayers]tic.Cmd
	for p := range 2 {
		cmds[p] = tic.Cmd{ForwardMove: int8(t), SideMove: int8(p), AngleTurn: int16(t * 7)}
	}
	return &cmds
}

var bothIn = [tic.MaxPlayers]bool{true, true}

// readTics returns the tics of file data, and its header.
func readTics(t *testing.T, data []byte) (wire.ReplayHeader, []wire.ReplayTic) {
	t.Helper()
	r, err := wire.NewReplayReader(data)
	require.NoError(t, err)
	var tics []wire.ReplayTic
	var rec wire.ReplayRecord
	for {
		err := r.Next(&rec)
		if err == io.EOF {
			return r.Header, tics
		}
		require.NoError(t, err)
		if !rec.IsSnapshot() {
			tics = append(tics, rec.Tic)
		}
	}
}

// A client records each tic it runs, Before and After: the file plays
// back to every checksum, and seeks through a snapshot every SnapshotEvery
// tics.
func TestAClientsRecordingPlaysBackToEveryChecksum(t *testing.T) {
	g := testgame.New(1)
	rec := replay.NewRecorder(replay.Config{Record: true, SnapshotEvery: 10}, header)
	for at := range uint32(35) {
		cmds := cmdsOf(at)
		rec.Before(at, cmds, 0b11, 0, g.SaveState)
		in := bothIn
		g.RunTic(at, cmds, &in)
		rec.After(at, g.Checksum(), nil)
	}
	require.Equal(t, 1, rec.Games())

	res, err := replay.Verify(rec.Bytes(), testgame.New(1))
	require.NoError(t, err)
	require.Equal(t, replay.Result{Tics: 35, Checked: 35}, res)

	p, err := replay.NewPlayer(rec.Bytes(), testgame.New(1))
	require.NoError(t, err)
	require.Equal(t, []uint32{0, 10, 20, 30}, p.Snapshots())
	h, _ := readTics(t, rec.Bytes())
	require.Equal(t, uint8(1), h.SumEvery, "a client's file says it has a checksum every tic")
}

// A server records the commands it lets go, from the Start of a game on,
// with no checksum: the file plays the commands back, and a tic that does
// not follow the last is not recorded.
func TestAServersRecordingHoldsItsCommandsOnly(t *testing.T) {
	rec := replay.NewServerRecorder(replay.ServerConfig{Record: true}, header)
	rec.Add(0, 0b11, 0, cmdsOf(0))
	require.Nil(t, rec.Bytes(), "a tic before the game's Start")

	rec.Start(0, nil)
	want := testgame.New(1)
	for at := range uint32(20) {
		rec.Add(at, 0b11, 0b10, cmdsOf(at))
		in := bothIn
		want.RunTic(at, cmdsOf(at), &in)
	}
	rec.Add(25, 0b11, 0, cmdsOf(25))
	require.Equal(t, 1, rec.Games())

	h, tics := readTics(t, rec.Bytes())
	require.Equal(t, uint8(0), h.SumEvery, "a server's file says it has no checksum")
	require.Len(t, tics, 20)
	for _, rt := range tics {
		require.False(t, rt.HasSum, "tic %d", rt.Tic)
		require.Equal(t, uint8(0b10), rt.Substituted, "tic %d", rt.Tic)
	}
	g := testgame.New(1)
	res, err := replay.Verify(rec.Bytes(), g)
	require.NoError(t, err)
	require.Equal(t, replay.Result{Tics: 20}, res)
	require.Equal(t, want.Checksum(), g.Checksum(), "the game played back runs the commands recorded")
}

// A recording stops once its file passes MaxBytes, whole up to its last
// tic; the next game's starts afresh.
func TestARecordingStopsWholeAtItsBound(t *testing.T) {
	const bound = 300
	rec := replay.NewServerRecorder(replay.ServerConfig{Record: true, MaxBytes: bound}, header)
	rec.Start(0, nil)
	var at uint32
	for ; !rec.Stopped(); at++ {
		require.Less(t, at, uint32(1000), "never stopped")
		require.LessOrEqual(t, len(rec.Bytes()), bound, "tic %d went in past the bound", at)
		rec.Add(at, 0b11, 0, cmdsOf(at))
	}
	n := len(rec.Bytes())
	require.Greater(t, n, bound)
	rec.Add(at, 0b11, 0, cmdsOf(at))
	require.Len(t, rec.Bytes(), n, "a tic after the stop")
	_, tics := readTics(t, rec.Bytes())
	require.Len(t, tics, int(at), "every tic up to the stop, whole")

	rec.Start(100, nil)
	require.False(t, rec.Stopped())
	require.Equal(t, 2, rec.Games())
	rec.Add(100, 0b11, 0, cmdsOf(100))
	_, tics = readTics(t, rec.Bytes())
	require.Len(t, tics, 1, "the next game's file")
}

// A copy whose state was repaired runs the tics since the state again:
// the file keeps what it ran first, those tics are not recorded twice,
// and it records on from the next tic it had not run.
func TestARecordingKeepsTheTicsACopyRunsAgain(t *testing.T) {
	rec := replay.NewRecorder(replay.Config{Record: true}, header)
	run := func(from, to uint32, sum uint32) {
		for at := from; at < to; at++ {
			rec.Before(at, cmdsOf(at), 0b11, 0, func() []byte { return nil })
			rec.After(at, sum+at, nil)
		}
	}
	run(0, 20, 1000)
	run(12, 25, 5000) // tics 12-19 again, then 20-24
	_, tics := readTics(t, rec.Bytes())
	require.Len(t, tics, 25, "tics recorded")
	for i, tc := range tics {
		want := 1000 + uint32(i)
		if i >= 20 {
			want = 5000 + uint32(i)
		}
		require.Equal(t, uint32(i), tc.Tic, "record %d's tic", i)
		require.Equal(t, want, tc.Sum, "tic %d's checksum", i)
	}
	require.Equal(t, 1, rec.Games(), "one file")
}
