package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// framesReport is what e2e/testdata/frames/frames.js posts: the time since
// its phase began and every copy's status.
type framesReport struct {
	MS       int          `json:"ms"`
	Statuses []demoStatus `json:"statuses"`
}

// TestThreeCopiesPlayAndMigrateInEachEngine plays the demo in three copies
// (frames of one page, one BroadcastChannel) in Chromium, in Firefox and in
// WebKit, each engine alone: one server, 30 s at the tic rate with every
// checksum agreeing, then the server's frame is removed and the other two
// resume the same game under a new server and play on in step.
func TestThreeCopiesPlayAndMigrateInEachEngine(t *testing.T) {
	engines := allEngines(t)
	demo := buildDemo(t)
	extra := map[string][]byte{"/webxdc.js": {}} // no messenger: a BroadcastChannel
	for _, f := range []string{"frames.html", "frames.js"} {
		data, err := os.ReadFile(filepath.Join(repoRoot(t), "e2e/testdata/frames", f))
		if err != nil {
			t.Fatal(err)
		}
		extra["/"+f] = data
	}
	url, reports := reportServer(t, demo, extra)
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			reps := runInEngine(t, e, url+"/frames.html", reports, "done", 4*time.Minute)
			var play, after []framesReport
			var resumed *framesReport
			for _, r := range reps {
				var fr framesReport
				if r.kind != "done" {
					if err := json.Unmarshal(r.body, &fr); err != nil {
						t.Fatalf("%s report: %v", r.kind, err)
					}
				}
				switch r.kind {
				case "play":
					play = append(play, fr)
				case "resumed":
					resumed = &fr
				case "after":
					after = append(after, fr)
				}
			}
			if len(play) < 2 || resumed == nil || len(after) < 2 {
				t.Fatalf("%d play reports, resumed %v, %d after", len(play), resumed != nil, len(after))
			}
			if n := playedInStep(t, e.name+" copy", play); n < 1000 {
				t.Errorf("%s: only %d tic checksums compared across the copies", e.name, n)
			}

			// The server's frame went: the two others resumed and play on.
			t.Logf("%s: the two others resumed %d ms after the server's frame was removed", e.name, resumed.MS)
			for i, st := range resumed.Statuses {
				if !st.Started || st.Migrating || !strings.Contains(st.Notice, "Host left") {
					t.Errorf("%s survivor %d after the resume: started %v, migrating %v, notice %q", e.name, i, st.Started, st.Migrating, st.Notice)
				}
			}
			servers := 0
			for _, st := range after[len(after)-1].Statuses {
				if st.Role == "server" {
					servers++
				}
			}
			if n := playedInStep(t, e.name+" survivor", after); servers != 1 || n < 100 {
				t.Errorf("%s after the resume: %d servers, %d tic checksums compared", e.name, servers, n)
			}
		})
	}
}

// playedInStep checks that the copies' reports agree at every tic they
// all report and that each copy ran at least 30 tics a second from the
// first report to the last, and returns how many checksums it compared.
func playedInStep(t *testing.T, label string, reps []framesReport) int {
	t.Helper()
	compared := 0
	for _, r := range reps {
		compared += compareSums(t, r.Statuses)
	}
	first, last := reps[0], reps[len(reps)-1]
	seconds := float64(last.MS-first.MS) / 1000
	for i, st := range last.Statuses {
		ran := st.Gametic - first.Statuses[i].Gametic
		t.Logf("%s %d: %s, %d tics in %.1f s (%.1f a second), protocol %s", label, i, st.Role, ran, seconds, float64(ran)/seconds, st.Protocol)
		if float64(ran) < 30*seconds {
			t.Errorf("%s %d ran %d tics in %.1f s: fewer than 30 a second", label, i, ran, seconds)
		}
	}
	t.Logf("%s: %d tic checksums compared across %d copies in %.0f s: all equal", label, compared, len(last.Statuses), seconds)
	return compared
}
