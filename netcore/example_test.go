package netcore_test

import (
	"fmt"
	"slices"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"
)

// walker is a whole game: each player's position, moved by its forward
// input. Integers only, so every copy that runs the same commands agrees.
type walker struct {
	pos  [tic.MaxPlayers]int32
	sums []uint32 // the checksum after each tic, to compare copies by tic
}

func (g *walker) BuildTiccmd(t uint32) tic.Cmd {
	return tic.Cmd{ForwardMove: int8(t%3) - 1} // the local player's input
}

func (g *walker) RunTic(tic uint32, cmds *[tic.MaxPlayers]tic.Cmd, ingame *[tic.MaxPlayers]bool) {
	for p := range cmds {
		if ingame[p] {
			g.pos[p] += int32(cmds[p].ForwardMove)
		}
	}
	g.sums = append(g.sums, g.Checksum())
}

func (g *walker) Checksum() uint32 {
	h := uint32(2166136261) // FNV-1a over the positions
	for _, x := range g.pos {
		h = (h ^ uint32(x)) * 16777619
	}
	return h
}

// The README's quick start in Go: a host serves and plays, a second copy
// joins over a simulated broadcast channel, the host's player (the lobby's
// controller) launches, and both copies run the same tics.
func Example() {
	const hostUID, bobUID = 1, 2
	channel := simnet.New(1, simnet.Link{LatencyMS: 10}) // 10 ms each way
	srvEnd, annEnd := netcore.NewLoopback(hostUID)
	srv := netcore.NewServer(netcore.ServerConfig{BroadcastTics: true}, &netcore.HostTransport{
		Channel: simnet.NewFrameTransport(channel.AddNode(), hostUID), Local: srvEnd})
	annGame, bobGame := &walker{}, &walker{}
	// The controller's settings are Doom's, which the server checks: a
	// game that is not Doom still names its episode and map.
	ann := netcore.NewClient(netcore.ClientConfig{Name: "ann", Settings: wire.Settings{Episode: 1, Map: 1}},
		annEnd, hostUID, annGame, 0)
	bob := netcore.NewClient(netcore.ClientConfig{Name: "bob"},
		simnet.NewFrameTransport(channel.AddNode(), bobUID), hostUID, bobGame, 0)

	// The caller owns the clock: every 5 ms, deliver what the channel
	// carried by now, then let each part run and report its events.
	for now := int64(0); now <= 5000; now += 5 {
		channel.AdvanceTo(now)
		srv.Update(now)
		for _, c := range []*netcore.Client{ann, bob} {
			for _, e := range c.Update(now) {
				if e.Kind == netcore.EventGameStarted && c == ann {
					fmt.Println("game started:", e.Protocol)
				}
			}
		}
		if lobby := ann.Lobby(); lobby.IsController && len(lobby.Players) == 2 && ann.State() == netcore.ClientWaitingLaunch {
			ann.Launch() // once both are in its lobby
		}
	}
	n := min(len(annGame.sums), len(bobGame.sums))
	fmt.Println("tics both ran:", n > 100, "agreeing:", slices.Equal(annGame.sums[:n], bobGame.sums[:n]))
	// Output:
	// game started: TICNET_1
	// tics both ran: true agreeing: true
}
