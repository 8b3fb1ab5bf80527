package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// told is what the events of kind told p, in order: each EventRoster's
// roster, or each EventLobbyChanged's lobby.
func told[T any](p *Peer, kind netcore.EventKind, of func(netcore.Event) *T) []T {
	var got []T
	for _, e := range p.Events {
		if e.Kind == kind {
			got = append(got, *of(e))
		}
	}
	return got
}

func rosterOf(e netcore.Event) *wire.Roster  { return e.Roster }
func lobbyOf(e netcore.Event) *netcore.Lobby { return e.Lobby }

// A client reports each roster and each lobby the server tells it, once:
// two in a row differ (the server sends a roster when it changed, and
// says the lobby again every second), and the last it reported is the one it holds: under
// the extension, the game's roster from its start, again when a player
// joins and when one leaves (the players with a token are in it); under the reference, which has no roster,
// none.
func TestAClientReportsEachRosterAndLobbyItIsToldOnce(t *testing.T) {
	for _, pr := range protocols {
		t.Run(pr.name, func(t *testing.T) {
			// The lobby a while: the server says it again every second.
			s := lobby(t, Options{Players: 3, Seed: 44, Strict: pr.strict, Tokens: true, Link: simnet.Link{LatencyMS: 20, JitterMS: 10}})
			s.RunFor(3 * netcore.WaitingDataPeriodMS)
			require.NoError(t, s.Start())
			require.NoError(t, s.RunTics(100, 60000))
			var late *Peer
			if !pr.strict {
				late = s.JoinWith([wire.RejoinTokenLen]byte{9, 9, 9})
				require.True(t, s.RunUntil(func() bool { return playing(late) }, 30000), "the late copy did not enter")
			}
			s.Peers[1].Client.Leave(s.Now())
			require.NoError(t, s.RunTics(s.Peers[0].Client.GameTic()+100, 60000))
			for _, p := range s.Peers {
				lobbies := told(p, netcore.EventLobbyChanged, lobbyOf)
				if p != late {
					require.NotEmpty(t, lobbies, "peer %d: lobbies reported", p.Index)
				}
				for i := 1; i < len(lobbies); i++ {
					require.NotEqual(t, lobbies[i-1], lobbies[i], "peer %d: lobby %d reported again", p.Index, i)
				}
				if len(lobbies) > 0 {
					require.Equal(t, p.Client.Lobby(), lobbies[len(lobbies)-1], "peer %d: the last lobby reported", p.Index)
				}
				rosters := told(p, netcore.EventRoster, rosterOf)
				held, ok := p.Client.Roster()
				if pr.strict {
					require.Empty(t, rosters, "peer %d: rosters of a reference game", p.Index)
					require.False(t, ok, "peer %d: holds a roster of a reference game", p.Index)
					continue
				}
				if p == s.Peers[1] {
					continue // it left
				}
				// Its start, the late copy's join, the leave: the late
				// copy sees the last two.
				want := 3
				if p == late {
					want = 1
				}
				require.GreaterOrEqual(t, len(rosters), want, "peer %d: rosters reported", p.Index)
				for i := 1; i < len(rosters); i++ {
					require.NotEqual(t, rosters[i-1], rosters[i], "peer %d: roster %d reported again", p.Index, i)
				}
				require.True(t, ok, "peer %d: holds no roster", p.Index)
				require.Equal(t, held, rosters[len(rosters)-1], "peer %d: the last roster reported", p.Index)
			}
		})
	}
}
