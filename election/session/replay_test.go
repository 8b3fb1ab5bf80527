package session

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"

	"github.com/stretchr/testify/require"
)

// Whole replay files are compared with bytes.Equal and told apart by
// their lengths: a byte-by-byte dump of two files helps no one.

// checkReplay fails unless data, copy i's replay, holds the tics from
// from to end, every one with the commands the copy's game ran, and plays
// back into a new game to every recorded checksum.
func checkReplay(t *testing.T, i int, p *copyOf, data []byte, from, end uint32) {
	t.Helper()
	require.NotNil(t, data, "copy %d has no replay", i)
	g := testgame.New(99) // another copy: only its input differs, and a replay builds none
	res, err := replay.Verify(bytes.Clone(data), g)
	require.NoError(t, err, "copy %d", i)
	pl, err := replay.NewPlayer(data, testgame.New(1))
	require.NoError(t, err)
	require.Equal(t, from, pl.Start(), "copy %d: its replay's first tic", i)
	require.Equal(t, end, pl.End(), "copy %d: its replay's end", i)
	n := int(end - from)
	require.Equal(t, n, res.Tics, "copy %d: tics played back", i)
	require.Equal(t, n, res.Checked, "copy %d: checksums compared", i)
	require.Equal(t, 0, res.Mismatches, "copy %d: checksums that differ (%v)", i, res.Mismatch)
	want, got := p.game.Ran(), g.Ran()
	for tic := from; tic < end; tic++ {
		require.Equal(t, want.At(tic), got.At(tic), "copy %d, tic %d: the game ran (want), the replay (got)", i, tic)
	}
}

// Copies that record play through what a chat does to a game
// (joinLeaveAndHandOff), with prediction and without: a copy opens late,
// the server leaves, the next one hands the game off.
// Migration and hand-off keep each copy's client, so each copy's replay is
// one file: from tic 0 (the late copy: from the tic it joined at) to the
// last tic it ran, every tic with the commands it ran and a checksum that
// plays back.
func TestEveryCopysReplayCoversItsGameThroughJoinMigrationAndHandOff(t *testing.T) {
	for _, predict := range []bool{false, true} {
		t.Run(fmt.Sprintf("predict=%v", predict), func(t *testing.T) {
			c := newSim(31, simnet.Link{LatencyMS: 20, JitterMS: 10})
			c.predict, c.record = predict, true
			c.openAndLaunch(t, 4)
			late := c.joinLeaveAndHandOff(t)
			for i, p := range c.peers {
				// The test plays what it says: one start, one client, a migration.
				starts := eventsOf(p, "start")
				require.Len(t, starts, 1, "copy %d: starts", i)
				require.Equal(t, 0, p.newClient, "copy %d: new clients", i)
				if !p.closed {
					require.NotEmpty(t, eventsOf(p, "migrating"), "copy %d: migrations", i)
				}
				require.Equal(t, p == late, starts[0].Tic > 0, "copy %d (the late one: want) started after tic 0 (got): at tic %d", i, starts[0].Tic)
				checkReplay(t, i, p, p.s.Replay(), starts[0].Tic, p.s.Client().GameTic())
				st := p.s.Stats()
				require.Equal(t, len(p.s.Replay()), st.ReplayBytes, "copy %d: the replay's bytes (want), the stats' (got)", i)
				require.False(t, st.ReplayStopped, "copy %d: stats say the replay stopped", i)
			}
			t.Logf("the late copy's replay: tics %d to %d, %d bytes",
				eventsOf(late, "start")[0].Tic, late.s.Client().GameTic(), len(late.s.Replay()))
		})
	}
}

// A game ends, and its server's page closes while the others sit in its
// lobby: they elect a new server and the session builds them new clients,
// but each copy's replay is still the game that ended, until the next game
// records its first tic.
func TestTheEndedGamesReplayOutlivesTheClientThatRecordedIt(t *testing.T) {
	c := newSim(7, simnet.Link{LatencyMS: 2, JitterMS: 2})
	c.record = true
	c.openAndLaunch(t, 3)
	c.runUntil(t, "tic 200 everywhere", 30000, func() bool { return c.allAt(200) })
	c.controller().s.RequestEnd()
	c.runUntil(t, "every copy back in its lobby", 10000, func() bool {
		for _, p := range c.peers {
			if len(eventsOf(p, "end")) == 0 {
				return false
			}
		}
		return c.oneLobby()
	})
	end := eventsOf(c.peers[0], "end")[0].Tic
	ended := map[*copyOf][]byte{}
	clients := map[*copyOf]*netcore.Client{}
	for _, p := range c.peers {
		ended[p], clients[p] = bytes.Clone(p.s.Replay()), p.s.Client()
	}
	c.closeWithGoodbye(c.serverOf())
	c.runUntil(t, "the other two in a new server's lobby", 20000, func() bool {
		return c.oneLobby() && c.serverOf() != nil && c.serverOf().s.Client() != clients[c.serverOf()]
	})
	for i, p := range c.open() {
		require.NotSame(t, clients[p], p.s.Client(), "copy %d kept its client: the test did not drop it", i)
		require.True(t, bytes.Equal(ended[p], p.s.Replay()), "copy %d: its replay is %d bytes, not the ended game's %d", i, len(p.s.Replay()), len(ended[p]))
		require.Equal(t, len(ended[p]), p.s.Stats().ReplayBytes, "copy %d: the stats' replay bytes", i)
		checkReplay(t, i, p, p.s.Replay(), 0, end)
	}
	c.controller().s.Launch()
	c.runUntil(t, "tic 100 of the next game everywhere", 30000, func() bool {
		for _, p := range c.open() {
			if len(eventsOf(p, "start")) < 2 {
				return false
			}
		}
		return c.allAt(100)
	})
	for i, p := range c.open() {
		pl, err := replay.NewPlayer(p.s.Replay(), testgame.New(1))
		require.NoError(t, err)
		require.False(t, bytes.Equal(ended[p], p.s.Replay()), "copy %d, in the next game: its replay is the ended game's", i)
		require.Equal(t, uint32(0), pl.Start(), "copy %d, in the next game: its replay's first tic", i)
		require.Equal(t, p.s.Client().GameTic(), pl.End(), "copy %d, in the next game: its replay's end (got), its game's tic (want)", i)
	}
	t.Logf("the ended game: %d tics, replays of %d bytes", end, len(ended[c.peers[0]]))
}

// A client frozen for 5 s is sent away and joins its game again with a new
// client (TestAClientThatSleptPastTheWindowJoinsAgain). Its replay cannot
// go on across the tics it never ran: it is recorded afresh from the tic
// it joined at, from the state it was given, and plays back from there;
// until the new client has run a tic, the replay is the old client's.
func TestACopyThatJoinsAgainRecordsFromWhereItJoined(t *testing.T) {
	c := newSim(3, simnet.Link{LatencyMS: 2, JitterMS: 2})
	c.record = true
	c.openAndLaunch(t, 4)
	c.runUntil(t, "tic 200 everywhere", 60000, func() bool { return c.allAt(200) })
	sleeper, srv := c.aClient(), c.serverOf()
	old := sleeper.s.Client()
	sleeper.busyUntil = c.net.Now() + 5000
	// Until its new client has run a tic, the replay is the old one's.
	c.runUntil(t, "the sleeper's new client", 30000, func() bool { return sleeper.s.Client() != old })
	require.Len(t, eventsOf(sleeper, "start"), 1, "the sleeper's starts as it joins again")
	require.True(t, bytes.Equal(old.Replay(), sleeper.s.Replay()), "as the sleeper joins again, its replay is %d bytes, not its old client's %d",
		len(sleeper.s.Replay()), len(old.Replay()))
	c.runUntil(t, "the sleeper back in the game, and 200 more tics", 30000, func() bool {
		return len(eventsOf(sleeper, "start")) == 2 && !sleeper.s.Client().Joining() &&
			c.allAt(eventsOf(sleeper, "start")[1].Tic+200)
	})
	for i, p := range c.peers {
		from := uint32(0)
		if p == sleeper {
			from = eventsOf(p, "start")[1].Tic
		}
		checkReplay(t, i, p, p.s.Replay(), from, p.s.Client().GameTic())
	}
	t.Logf("the sleeper's replay: tics %d to %d; the server's: 0 to %d",
		eventsOf(sleeper, "start")[1].Tic, sleeper.s.Client().GameTic(), srv.s.Client().GameTic())
}
