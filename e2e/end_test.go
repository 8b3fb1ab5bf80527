package e2e

import (
	"context"
	"testing"
	"time"
)

// A player asks to end the game; the controller's copy is asked, and ends
// it: every tab gets "end" at one tic and is back in the lobby, from which
// the controller launches a second game that every tab plays in step.
func TestAnEndedGameGoesBackToTheLobbyAndPlaysAgain(t *testing.T) {
	_, tabs, _ := playTogether(t, 3)
	sts := waitFor(t, tabs, "every tab past tic 100", 20*time.Second, func(sts []demoStatus) bool {
		for _, st := range sts {
			if st.Gametic < 100 {
				return false
			}
		}
		return true
	})
	ctrl := -1
	for i, st := range sts {
		if st.Player == 0 {
			ctrl = i
		}
	}
	if ctrl < 0 {
		t.Fatalf("no tab plays player 0, the controller: %+v", sts)
	}
	other := (ctrl + 1) % len(tabs)
	eval(t, tabs[other], "ticnetDemo.net.endGame()")
	asked := func(ctx context.Context) int {
		n := 0
		for _, e := range events(t, ctx) {
			if e["kind"] == "endAsked" && e["player"] == float64(sts[other].Player) {
				n++
			}
		}
		return n
	}
	for end := time.Now().Add(5 * time.Second); asked(tabs[ctrl]) == 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the controller's tab was not asked to end the game within 5 s")
		}
	}
	for i, ctx := range tabs {
		if i != ctrl && asked(ctx) != 0 {
			t.Fatalf("tab %d, not the controller's, was asked to end the game", i)
		}
	}
	if st := statuses(t, tabs)[ctrl]; !st.Started {
		t.Fatal("a player's request ended the game")
	}

	eval(t, tabs[ctrl], "ticnetDemo.net.endGame()")
	// (A tab's lobby is the last one it heard: "end" is what says it left the game.)
	inLobby := oneServerOneLobby(3)
	waitFor(t, tabs, "every tab's game ended, and every tab back in a lobby of 3", 10*time.Second, func(sts []demoStatus) bool {
		for _, st := range sts {
			if st.Started {
				return false
			}
		}
		return inLobby(sts)
	})
	ends := map[float64]int{}
	for i, ctx := range tabs {
		for _, e := range events(t, ctx) {
			if e["kind"] == "end" {
				ends[e["tic"].(float64)]++
			}
			if e["kind"] == "desync" || e["kind"] == "error" || e["kind"] == "disconnect" {
				t.Fatalf("tab %d: %v", i, e)
			}
		}
	}
	if len(ends) != 1 {
		t.Fatalf("the tabs' games ended at tics %v, want one tic", ends)
	}
	for tic, n := range ends {
		if n != len(tabs) || tic < 100 {
			t.Fatalf("%d of %d tabs ended at tic %v", n, len(tabs), tic)
		}
		t.Logf("every tab's game ended at tic %v", tic)
	}
	for i, st := range statuses(t, tabs) {
		if st.Started {
			t.Fatalf("tab %d still plays after the end", i)
		}
	}

	launch(t, tabs, statuses(t, tabs))
	for i, st := range statuses(t, tabs) {
		if st.Start == nil || st.Start.Joined || st.Start.Tic != 0 {
			t.Fatalf("tab %d's second start: %+v", i, st.Start)
		}
	}
	compared := 0
	for range 3 {
		time.Sleep(2 * time.Second)
		compared += compareSums(t, statuses(t, tabs))
	}
	if compared < 100 {
		t.Fatalf("only %d tics of the second game compared", compared)
	}
	t.Logf("the second game: %d tic checksums compared, all equal", compared)
}
