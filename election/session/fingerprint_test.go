package session

import (
	"testing"

	"github.com/ticnet/ticnet/internal/fingerprint"
	"github.com/ticnet/ticnet/netcore/scenario"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fingerprinted makes a sim show fp every frame its copies send, and
// hands the sim to *sim, for its events and tics once the game is over.
func fingerprinted(fp *fingerprint.Print, sim **channelSim) simOption {
	return func(c *channelSim) {
		c.net.Tap = fp.Frame
		*sim = c
	}
}

// fingerprint adds every copy's events and every tic its game ran (and
// its replay, when the copies record) to fp, and returns it.
func (c *channelSim) fingerprint(fp *fingerprint.Print) string {
	for i, p := range c.peers {
		for k, e := range p.events {
			fp.Event(p.times[k], i, e)
		}
	}
	for i, p := range c.peers {
		sums, ran := p.game.Sums(), p.game.Ran()
		for t, r := range ran.Before(len(sums)).All() {
			if r.OK {
				fp.Tic(i, uint32(t), sums[t], r)
			}
		}
		// Rollbacks and saves show in no frame and no tic: the engine's
		// calls of the game count them.
		fp.Value(i, "calls", p.game.Calls())
		if c.record {
			fp.Data(i, "replay", p.s.Replay())
		}
	}
	return fp.String()
}

// quiet is the migration tests' quiet channel.
var quiet = simnet.Link{LatencyMS: 2, JitterMS: 2}

// migrationGames are the games of whole sessions whose fingerprints are
// kept: a server that goes (with a goodbye, or silent), three in turn, a
// hidden one that hands off, a partition that heals, and a predicting,
// recording game that a copy joins late.
var migrationGames = []struct {
	name string
	// play runs the game, its copies set up with opt, and checks it as
	// the test it comes from does.
	play func(t *testing.T, opt simOption)
	want string
}{
	{"migrate/goodbye/quiet", func(t *testing.T, opt simOption) { playAndLose(t, 201, 4, quiet, goodbye, 300, 1, opt) },
		"frames 3609 2329618b65cb events 43 a30082c97316 tics 3004 77d00154fcb4"},
	{"migrate/silence/quiet", func(t *testing.T, opt simOption) { playAndLose(t, 202, 4, quiet, silence, 300, 1, opt) },
		"frames 3788 4deb0d0171f1 events 42 390f25ce71bd tics 3004 9ad111d28152"},
	{"migrate/goodbye/lossy", func(t *testing.T, opt simOption) { playAndLose(t, 203, 4, lossy, goodbye, 300, 1, opt) },
		"frames 3820 be143f3b9cbd events 45 0df45824bbdd tics 3016 23e64b4a5fc3"},
	{"migrate/silence/lossy", func(t *testing.T, opt simOption) { playAndLose(t, 204, 8, lossy, silence, 300, 1, opt) },
		"frames 8961 3494ea973785 events 95 e4222902a5c4 tics 6626 2e41303600d9"},
	{"migrate/three-in-turn", func(t *testing.T, opt simOption) { playAndLose(t, 205, 8, quiet, goodbye, 300, 3, opt) },
		"frames 16970 3ad756e7b0fd events 170 2d69a727f2f8 tics 14508 38d4697261b0"},
	{"handoff/quiet", func(t *testing.T, opt simOption) { handOff(t, 206, 4, quiet, 300, opt) },
		"frames 2918 83635f925820 events 37 2e44eebbf48d tics 2404 f3511f533860"},
	{"handoff/lossy", func(t *testing.T, opt simOption) { handOff(t, 207, 4, lossy, 300, opt) },
		"frames 3246 31f2e96ec2e8 events 38 560234c66281 tics 2411 5ad9f0395f71"},
	{"partition-heals/lossy", func(t *testing.T, opt simOption) { partitionAndHeal(t, 208, lossy, 300, 5000, opt) },
		"frames 9701 f18cd3f83a85 events 218 ae9c2ca6091a tics 7311 ec73eed3dafe"},
	{"join-leave-handoff/predict/replay", joinsLeavesAndHandsOffPredicting,
		"frames 4576 df46faebfb5b events 82 79a3cdc8bcfc tics 3717 9eadfaa0e44c"},
}

// joinsLeavesAndHandsOffPredicting is TestCopiesThatPredictJoinMigrateAndHandOff's
// game, every copy recording: checked as that test checks it.
func joinsLeavesAndHandsOffPredicting(t *testing.T, opt simOption) {
	c := newSim(209, simnet.Link{LatencyMS: 20, JitterMS: 10}, opt)
	c.predict, c.record = true, true
	c.openAndLaunch(t, 4)
	c.joinLeaveAndHandOff(t)
	var copies []scenario.Copy
	for i, p := range c.peers {
		require.False(t, p.wentBack, "copy %d: gametic went back", i)
		copies = append(copies, checkedLives(i, p, 0, 0)...)
	}
	require.NoError(t, c.recordErr)
	_, err := scenario.CheckCommandsAgainst(copies, true, c.recordsOf, c.allRecords())
	require.NoError(t, err)
	sameSumsOf(t, copies)
}

// Every fingerprinted session does what it did when its fingerprint was
// kept: the same frames at the same times (election messages included),
// the same events as a page sees them, the same tics with the same
// commands and checksums, the same replays. FINGERPRINT_LOG=dir writes
// each game's hashed lines to a file in dir, for two runs to be compared
// with diff.
func TestWholeSessionsKeepTheirFingerprints(t *testing.T) {
	for _, g := range migrationGames {
		t.Run(g.name, func(t *testing.T) {
			fp := fingerprint.For(t, "session/"+g.name)
			var c *channelSim
			g.play(t, fingerprinted(fp, &c))
			assert.Equal(t, g.want, c.fingerprint(fp), "fingerprint")
		})
	}
}
