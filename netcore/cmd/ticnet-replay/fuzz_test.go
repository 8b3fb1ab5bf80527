package main

import (
	"io"
	"testing"

	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// A replay file is input from anywhere (a download, a chat): whatever its
// bytes, every command reads it to an answer or an error, never a panic.
func FuzzReplayCommands(f *testing.F) {
	st := doomSettings
	st.LowResTurn = true
	f.Add(replayOf(f, wire.ReplayHeader{Settings: doomSettings, Names: []string{"ann", "", "bob"}}, twoPlayers()...))
	f.Add(replayOf(f, wire.ReplayHeader{Settings: st}, wire.ReplayTic{InGame: 1, Cmds: [wire.MaxPlayers]wire.TicCmd{{AngleTurn: 512}}}))
	f.Add(replayOf(f, wire.ReplayHeader{Settings: doomSettings, Setup: wire.GameSetup{Input: wire.InputLayout{Size: 3}}},
		wire.ReplayTic{InGame: 3, HasSum: true, Sum: 7}))
	f.Fuzz(func(t *testing.T, file []byte) {
		data, _, err := wholeRecords(file)
		if err != nil {
			return
		}
		_, err = summarize(data)
		require.NoError(t, err, "summarize of whole records")
		d, err := makeDemo(data, demoOptions{player: -1})
		if err == nil {
			require.Equal(t, byte(demoEndMarker), d.bytes[len(d.bytes)-1], "a demo without its end marker")
		}
		verify(io.Discard, data)
		_, err = diff(io.Discard, data, data)
		require.NoError(t, err, "diff of whole records with themselves")
		diff(io.Discard, data, file) // a replay against what may be none
	})
}
