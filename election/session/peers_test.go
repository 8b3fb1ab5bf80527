package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/ticnet/ticnet/netcore/simnet"
)

// Every copy's stats name every player's figures, which the server
// reports every netcore.FiguresReportTics tics, a late joiner's too, and
// have none once the game ended. Four copies 20 ms apart each way, one
// of them joining late: the server's own player's
// round trip is under a tic (its client is in its own page), the others'
// 40 ms and the wait for the command that acknowledges (under a tic and
// the jitter); nothing lost, nothing substituted but the joiner's first
// commands (8 here; the same on every copy), no input delay.
func TestStatsNameEveryPlayersFigures(t *testing.T) {
	c := launchGame(t, 12, 3, simnet.Link{LatencyMS: 20, JitterMS: 2})
	c.runUntil(t, "tic 100 everywhere", 30000, func() bool { return c.allAt(100) })
	// A late joiner: it learns them too, itself among them.
	late := c.addWith(5000, ElectionLocal, tokenOf(4))
	c.runUntil(t, "the late copy plays, and every copy has its figures", 30000, func() bool {
		for _, p := range c.open() {
			if len(p.s.Stats().Peers) != 4 {
				return false
			}
		}
		return !late.s.Client().Joining()
	})
	const tic = 1000/35 + 1
	srvPlayer, latePlayer := c.serverOf().s.Client().Player(), late.s.Client().Player()
	for i, p := range c.open() {
		st := p.s.Stats()
		require.Len(t, st.Peers, 4, "copy %d: stats().peers", i)
		for j, pe := range st.Peers {
			assert.Equal(t, j, pe.Player, "copy %d: the order of the peers", i)
			assert.Equal(t, st.Players[j], pe.Name, "copy %d: peer %d's name", i, j)
			assert.NotEmpty(t, pe.Name, "copy %d: peer %d's name", i, j)
			if j == srvPlayer {
				assert.Less(t, pe.RTTMS, tic, "copy %d: the server's own player's round trip", i)
			} else {
				assert.GreaterOrEqual(t, pe.RTTMS, 40, "copy %d: peer %d's round trip", i, j)
				assert.Less(t, pe.RTTMS, 40+4+tic, "copy %d: peer %d's round trip", i, j)
			}
			assert.Zero(t, pe.Loss, "copy %d: peer %d's loss", i, j)
			if j == latePlayer {
				// Its first commands, as it entered, may have come late:
				// every copy counts the same.
				assert.Equal(t, c.open()[0].s.Stats().Peers[j].Substituted, pe.Substituted, "copy %d: the late player's substitutes", i)
			} else {
				assert.Zero(t, pe.Substituted, "copy %d: peer %d's substitutes", i, j)
			}
			assert.Zero(t, pe.InputDelay, "copy %d: peer %d's input delay", i, j)
		}
	}
	c.controller().s.RequestEnd()
	c.runUntil(t, "every copy back in its lobby", 10000, func() bool {
		for _, p := range c.open() {
			if len(eventsOf(p, "end")) == 0 {
				return false
			}
		}
		return c.oneLobby()
	})
	for i, p := range c.open() {
		require.Nil(t, p.s.Stats().Peers, "copy %d: stats().peers after the game", i)
	}
}
