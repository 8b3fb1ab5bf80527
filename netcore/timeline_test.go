package netcore

import "testing"

func confirmN(t *testing.T, tl *Timeline, from, n uint32) {
	t.Helper()
	for i := range n {
		var ct ConfirmedTic
		ct.InGame = 1
		ct.Cmds[0].AngleTurn = int16(from + i)
		if !tl.Confirm(ct) {
			t.Fatalf("tic %d refused with %d room", from+i, tl.Room())
		}
	}
}

func TestTimelineRunsConfirmedTicsInOrderOnce(t *testing.T) {
	var tl Timeline
	tl.Reset(1000)
	if r := tl.Requests(2000, 10); len(r) != 0 {
		t.Fatalf("%d requests with nothing confirmed", len(r))
	}
	confirmN(t, &tl, 1000, 5)
	reqs := tl.Requests(1003, 10) // run up to 1003 only
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, r := range reqs {
		if r.Kind != RequestAdvance || r.Tic != 1000+uint32(i) || r.Confirmed.Cmds[0].AngleTurn != int16(r.Tic) {
			t.Fatalf("request %d: %v tic %d cmd %+v", i, r.Kind, r.Tic, r.Confirmed.Cmds[0])
		}
		tl.Ran(r.Tic, 7*r.Tic)
	}
	if tl.GameTic() != 1003 {
		t.Fatalf("gametic %d", tl.GameTic())
	}
	if got := tl.Requests(1002, 10); len(got) != 0 {
		t.Fatalf("a limit behind the game gave %d requests", len(got))
	}
	reqs = tl.Requests(5000, 1)
	if len(reqs) != 1 || reqs[0].Tic != 1003 {
		t.Fatalf("at most one request: %+v", reqs)
	}
	if c := tl.Tic(1001); c == nil || !c.Ran || c.Sum != 7*1001 {
		t.Fatalf("tic 1001 held as %+v", c)
	}
}

func TestTimelineKeepsItsBoundsAndGrowsInPlace(t *testing.T) {
	tl := Timeline{KeepTics: 10, MaxTics: 40}
	tl.Reset(0)
	confirmN(t, &tl, 0, 40)
	if tl.Room() != 0 || tl.Confirm(ConfirmedTic{}) {
		t.Fatal("a full timeline took a tic")
	}
	for _, r := range tl.Requests(100, 100) {
		if tl.Tic(r.Tic).Cmds[0].AngleTurn != int16(r.Tic) {
			t.Fatalf("tic %d moved when the ring grew", r.Tic)
		}
		tl.Ran(r.Tic, 0)
	}
	if tl.Room() != 30 || tl.First() != 30 {
		t.Fatalf("room %d, first %d after running everything; want 30 and 30", tl.Room(), tl.First())
	}
	if tl.Tic(29) != nil || tl.Tic(30) == nil || tl.Tic(40) != nil {
		t.Fatal("held tics are not [30, 40)")
	}
	confirmN(t, &tl, 40, 30)
	if len(tl.ring) > 64 {
		t.Fatalf("ring of %d for at most 40 tics", len(tl.ring))
	}
}
