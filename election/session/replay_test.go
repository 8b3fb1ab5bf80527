package session

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/testgame"
)

// checkReplay fails unless data, copy i's replay, holds the tics from
// from to end, every one with the commands the copy's game ran, and plays
// back into a new game to every recorded checksum.
func checkReplay(t *testing.T, i int, p *copyOf, data []byte, from, end uint32) {
	t.Helper()
	if data == nil {
		t.Fatalf("copy %d has no replay", i)
	}
	g := testgame.New(99) // another copy: only its input differs, and a replay builds none
	res, err := netcore.VerifyReplay(bytes.Clone(data), g)
	if err != nil {
		t.Fatalf("copy %d: %v", i, err)
	}
	pl, err := netcore.NewReplayPlayer(data, testgame.New(1))
	if err != nil {
		t.Fatal(err)
	}
	if pl.Start() != from || pl.End() != end {
		t.Fatalf("copy %d: its replay holds tics %d to %d, want %d to %d", i, pl.Start(), pl.End(), from, end)
	}
	if n := int(end - from); res.Tics != n || res.Checked != n || res.Mismatches != 0 {
		t.Fatalf("copy %d: %d tics played back, %d checksums compared, %d differ (%v); want %d, %d, 0",
			i, res.Tics, res.Checked, res.Mismatches, res.Mismatch, n, n)
	}
	want, got := p.game.Ran(), g.Ran()
	for tic := from; tic < end; tic++ {
		if got[tic] != want[tic] {
			t.Fatalf("copy %d, tic %d: the replay ran %+v, the game %+v", i, tic, got[tic], want[tic])
		}
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
				starts := eventsOf(p, "start")
				if len(starts) != 1 || p.newClient != 0 || len(eventsOf(p, "migrating")) == 0 && !p.closed {
					t.Fatalf("copy %d: %d starts, %d new clients, %d migrations: the test did not play what it says",
						i, len(starts), p.newClient, len(eventsOf(p, "migrating")))
				}
				if (p == late) != (starts[0].Tic > 0) {
					t.Fatalf("copy %d started at tic %d", i, starts[0].Tic)
				}
				checkReplay(t, i, p, p.s.Replay(), starts[0].Tic, p.s.Client().GameTic())
				if st := p.s.Stats(); st.ReplayBytes != len(p.s.Replay()) || st.ReplayStopped {
					t.Fatalf("copy %d: stats say the replay has %d bytes (stopped %v), it has %d",
						i, st.ReplayBytes, st.ReplayStopped, len(p.s.Replay()))
				}
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
		if p.s.Client() == clients[p] {
			t.Fatalf("copy %d kept its client: the test did not drop it", i)
		}
		if !bytes.Equal(p.s.Replay(), ended[p]) || p.s.Stats().ReplayBytes != len(ended[p]) {
			t.Fatalf("copy %d: its replay is %d bytes, the ended game's %d", i, len(p.s.Replay()), len(ended[p]))
		}
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
		pl, err := netcore.NewReplayPlayer(p.s.Replay(), testgame.New(1))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(p.s.Replay(), ended[p]) || pl.Start() != 0 || pl.End() != p.s.Client().GameTic() {
			t.Fatalf("copy %d, in the next game: its replay holds tics %d to %d, the game is at tic %d",
				i, pl.Start(), pl.End(), p.s.Client().GameTic())
		}
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
	if !bytes.Equal(sleeper.s.Replay(), old.Replay()) || len(eventsOf(sleeper, "start")) != 1 {
		t.Fatalf("as the sleeper joins again (%d starts), its replay is %d bytes, its old client's %d",
			len(eventsOf(sleeper, "start")), len(sleeper.s.Replay()), len(old.Replay()))
	}
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
