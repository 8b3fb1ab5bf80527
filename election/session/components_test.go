package session

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"

	"github.com/stretchr/testify/require"
)

// Unit tests of the session's small components; the whole sessions they
// serve are in session_test.go and migrate_test.go.

func TestTheLobbyIsReportedWhenItChangesAndAgainAfterAReset(t *testing.T) {
	var v lobbyView
	two := netcore.Lobby{MaxPlayers: 4, Player: 0, IsController: true,
		Players: []netcore.LobbyPlayer{{Name: "a", Addr: "host"}, {Name: "b", Addr: "uid 00000002"}}}
	three := two
	three.Players = append(two.Players[:2:2], netcore.LobbyPlayer{Name: "c", Addr: "uid 00000003"})
	// Each of these differs from the one before in one field only.
	handed := three
	handed.IsController = false
	seated := handed
	seated.Player = 2
	bigger := seated
	bigger.MaxPlayers = 8
	renamed := bigger
	renamed.Players = append([]netcore.LobbyPlayer{}, bigger.Players...)
	renamed.Players[2].Name = "carol"
	steps := []struct {
		what    string
		l       netcore.Lobby
		waiting bool
		reset   bool
		want    bool
	}{
		{"no lobby described yet", netcore.Lobby{}, true, false, false},
		{"not waiting for the game to start", two, false, false, false},
		{"the first lobby", two, true, false, true},
		{"the same lobby again", two, true, false, false},
		{"a player came", three, true, false, true},
		{"the same lobby after a reset (back from a game)", three, true, true, true},
		{"the controller passed to another copy", handed, true, false, true},
		{"this copy's player number changed", seated, true, false, true},
		{"the game's size changed", bigger, true, false, true},
		{"a player was renamed", renamed, true, false, true},
		{"the same lobby again, after those changes", renamed, true, false, false},
	}
	var reported, wanted []*LobbyReport
	for _, s := range steps {
		if s.reset {
			v.reset()
		}
		cv := clientView{state: netcore.ClientWaitingLaunch, lobby: s.l, player: -1}
		if !s.waiting {
			cv.state = netcore.ClientInGame // and no roster yet
		}
		r, ok := v.update(&cv, 8)
		require.Equal(t, s.want, ok, "%s: reported", s.what)
		if ok {
			require.Len(t, r.Players, len(s.l.Players), "%s: players reported", s.what)
			require.Equal(t, cv.players(8), r, "%s: the report", s.what)
			reported, wanted = append(reported, r), append(wanted, cv.players(8))
		}
	}
	// A report is the page's: the later passes, which find the players
	// anew, leave it as it was.
	require.Equal(t, wanted, reported, "the reports, after every later pass")
	cv := clientView{state: netcore.ClientWaitingStart, lobby: two, player: -1}
	v = lobbyView{}
	r, _ := v.update(&cv, 8)
	want := &LobbyReport{Players: []LobbyPlayer{{"a", "host", 0}, {"b", "uid 00000002", 1}}, Controller: true, MaxPlayers: 4}
	require.Equal(t, want, r, "report")
}

func TestADisconnectWithoutALeavingWaitsLongerForACopyThatHadJustWoken(t *testing.T) {
	const beaconMS = 500
	check := func(what string, got, want bool) {
		t.Helper()
		require.Equal(t, want, got, what)
	}
	var w leavingWait
	check("pending before any DISCONNECT", w.pending(), false)
	w.start(1000, false)
	check("pending", w.pending(), true)
	check("overdue at LeavingWaitMS", w.overdue(1000+LeavingWaitMS, beaconMS), false)
	check("overdue after LeavingWaitMS", w.overdue(1000+LeavingWaitMS+1, beaconMS), true)
	check("a copy awake reads the server heard as serving on", w.serverHeardAfter(5000), false)
	w.stop()
	check("pending after stop", w.pending(), false)

	w.start(1000, true)
	check("a copy that had just woken overdue at two beacon periods", w.overdue(1000+2*beaconMS, beaconMS), false)
	check("a copy that had just woken overdue after two beacon periods", w.overdue(1000+2*beaconMS+1, beaconMS), true)
	check("server heard before the DISCONNECT", w.serverHeardAfter(1000), false)
	check("server heard after the DISCONNECT", w.serverHeardAfter(1001), true)
}

func TestJoinStatsCountFromTheServersWordToTheStateAndTheEntry(t *testing.T) {
	var j joinTimes
	var st Stats
	j.entered(500) // entered a game it did not join in progress: not counted
	j.report(&st)
	require.Equal(t, int64(0), st.JoinMS, "join ms for a copy that did not join in progress")
	j.told(1000)
	j.stateArrived(1800)
	j.stateArrived(1900) // a later catch-up report
	j.entered(2500)
	j.entered(2600)
	j.report(&st)
	require.Equal(t, int64(800), st.TransferMS, "transfer ms")
	require.Equal(t, int64(1500), st.JoinMS, "join ms")
}
