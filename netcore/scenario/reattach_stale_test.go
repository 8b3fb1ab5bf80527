package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/simnet"

	"github.com/stretchr/testify/require"
)

// A copy that served the game, handed it off while hidden and stayed as a
// client, may have to take it back before its successor's roster reached
// it: the roster it holds still names its own player the server's. The
// server it resumes with takes the old server's player for gone (its
// copy went silent), but that copy is this one: its own client reattaches
// at once, with its token, before the game resumes, and plays on as the
// same player. Before the fix the new server refused it
// (ReasonReattachRefused) and the copy's game ended.
func TestACopyResumingWithARosterThatNamesItTheServerKeepsItsPlayer(t *testing.T) {
	t.Parallel()
	s := start(t, Options{Players: 3, Seed: 21, Link: simnet.Link{LatencyMS: 5}, Quiet: true, Tokens: true})
	require.NoError(t, s.RunTics(100, 60000))
	heir := s.Peers[1]
	player := heir.Client.Player()
	s.StopHost()
	now := s.Now()
	roster, ok := heir.Client.Roster()
	require.True(t, ok, "no roster")
	roster.ServerPlayer = int8(player) // stale: the copy was the server when it was sent
	srv, _ := resumeAtHeir(t, heir, netcore.Resume{Roster: roster}, netcore.ServerConfig{}, now)
	var refused []netcore.Event
	for ms := now; ms <= now+3000; ms += 5 {
		for _, e := range heir.Client.Update(ms) {
			if e.Kind == netcore.EventDisconnected {
				refused = append(refused, e)
			}
		}
		srv.Update(ms)
	}
	require.Empty(t, refused, "the copy's own client was sent away")
	require.Zero(t, srv.Counters().RejoinRefused, "reattaches refused")
	require.False(t, srv.Resuming(), "after 3 s: server resuming")
	require.Equal(t, netcore.ClientInGame, heir.Client.State(), "after 3 s: the copy's client")
	require.Equal(t, player, heir.Client.Player(), "after 3 s: the copy's client's player")
	tl := heir.Client.Timeline()
	last := tl.Tic(tl.Confirmed() - 1)
	require.NotNil(t, last, "the game's newest tic %d", tl.Confirmed()-1)
	require.True(t, last.Playing(player), "the copy's player is not in the game's newest tic %d", tl.Confirmed()-1)
}
