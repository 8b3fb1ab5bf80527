package netcore

import (
	"github.com/ticnet/ticnet/netcore/reliable"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// commandStore is the players' commands the server holds, for the tics
// from start on (BackupTics of them): which of each player's arrived
// (win) and what they are (rows).
type commandStore struct {
	start uint32
	win   [tic.MaxPlayers]reliable.Window
	rows  [BackupTics][tic.MaxPlayers]recvCmd
}

// recvCmd is one player's command for one tic in the server's window.
type recvCmd struct {
	latency int16
	diff    wire.TicDiff
	from    *serverClient // the connection it came from
}

// forgetPlayer forgets every command of player p.
func (c *commandStore) forgetPlayer(p int) {
	c.win[p].Reset()
	for t := range c.rows {
		c.rows[t][p] = recvCmd{}
	}
}

// forgetTic frees tic t's place in every player's window.
func (c *commandStore) forgetTic(t uint32) {
	for p := range c.win {
		c.win[p].Forget(t)
	}
	c.rows[t%BackupTics] = [tic.MaxPlayers]recvCmd{}
}
