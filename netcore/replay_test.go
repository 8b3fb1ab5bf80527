package netcore

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ticnet/ticnet/netcore/replay"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// Under the reference protocol a server's replay records each player's
// diff patched onto its command of the tic before, and a new file (the
// next game, a resumed one) patches its first diffs onto none: a diff
// that leaves a field out does not carry the last game's value into it.
func TestAReferenceServersNewReplayPatchesOntoNoCommand(t *testing.T) {
	rec := replay.NewServerRecorder(replay.ServerConfig{Record: true}, func() wire.ReplayHeader { return wire.ReplayHeader{} })
	var b relayedCmds
	var row [tic.MaxPlayers]recvCmd
	first := tic.Cmd{ForwardMove: 25, SideMove: -5}
	row[0].diff = wire.Diff(&tic.Cmd{}, &first)

	rec.Start(0, nil)
	require.Equal(t, first, b.patch(&rec, &row, 0b1)[0], "the first game's first tic")
	turn := tic.Cmd{ForwardMove: 25, SideMove: -5, AngleTurn: 300}
	row[0].diff = wire.Diff(&first, &turn)
	require.Equal(t, turn, b.patch(&rec, &row, 0b1)[0], "its next: the diff patched onto the tic before")

	rec.Start(0, nil)
	require.Equal(t, tic.Cmd{AngleTurn: 300}, b.patch(&rec, &row, 0b1)[0], "the next game's first tic: the same diff onto no command")

	off := replay.NewServerRecorder(replay.ServerConfig{}, func() wire.ReplayHeader { return wire.ReplayHeader{} })
	require.Nil(t, b.patch(&off, &row, 0b1), "a server that does not record")
}
