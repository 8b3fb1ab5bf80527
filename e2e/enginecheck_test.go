package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// gameCheckEnv names a game module of the developer's own, checked across
// the engines beside the float games: TICNET_GAME=path/to/game.js (its
// folder is served with it, for its imports; e2e/testdata/enginecheck/check.js
// says what the module exports).
const gameCheckEnv = "TICNET_GAME"

// engineSums is what e2e/testdata/enginecheck/check.js reports: every
// tic's checksum for each game it ran.
type engineSums struct {
	Engine    string              `json:"engine"`
	UserAgent string              `json:"userAgent"`
	Games     map[string][]uint32 `json:"games"`
}

// firstParting is the first tic at which some engine's checksum differs
// from the first engine's, -1 if none, and the engines' checksums there.
func firstParting(runs []engineSums, game string) (int, []uint32) {
	base := runs[0].Games[game]
	for tic := range base {
		for _, r := range runs[1:] {
			if tic >= len(r.Games[game]) || r.Games[game][tic] != base[tic] {
				var at []uint32
				for _, q := range runs {
					if tic < len(q.Games[game]) {
						at = append(at, q.Games[game][tic])
					}
				}
				return tic, at
			}
		}
	}
	return -1, nil
}

// TestAFloatGameAgreesAcrossEnginesOnlyWithDetmath runs a small float game
// (e2e/testdata/enginecheck/floatgame.js: sin, cos, atan2, hypot and exp
// every tic) for 3 000 tics of seeded commands in Chromium, Firefox and
// WebKit, once on Math.* and once on detmath.js, and reports the first tic
// where an engine's checksum differs: on Math.* Firefox parts from
// Chromium; on detmath.js every engine agrees at every tic. With
// TICNET_GAME set it checks that game the same way.
func TestAFloatGameAgreesAcrossEnginesOnlyWithDetmath(t *testing.T) {
	engines := allEngines(t)
	dir := t.TempDir()
	files := map[string]string{"js/detmath.js": "detmath.js"}
	for _, f := range []string{"index.html", "check.js", "floatgame.js", "game-math.js", "game-detmath.js"} {
		files["e2e/testdata/enginecheck/"+f] = f
	}
	games := "game-math.js,game-detmath.js"
	if yours := os.Getenv(gameCheckEnv); yours != "" {
		abs, err := filepath.Abs(yours)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(filepath.Join(dir, "yours"), os.DirFS(filepath.Dir(abs))); err != nil {
			t.Fatal(err)
		}
		games += ",yours/" + filepath.Base(abs)
	}
	copyFromRepo(t, dir, files)
	var runs []engineSums
	for _, reps := range runInEachEngine(t, engines, dir, nil, "/index.html?games="+games, "sums", 3*time.Minute) {
		var r engineSums
		if err := json.Unmarshal(lastOf(reps, "sums"), &r); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	names := []string{runs[0].Engine}
	for _, r := range runs[1:] {
		names = append(names, r.Engine)
	}
	for _, g := range []string{"game-math.js", "game-detmath.js"} {
		for _, r := range runs {
			if len(r.Games[g]) != 3000 {
				t.Fatalf("%s ran %s for %d tics, not 3 000", r.Engine, g, len(r.Games[g]))
			}
		}
	}

	// On Math.*: Firefox parts from Chromium, at the tic the check names.
	tic, at := firstParting(runs, "game-math.js")
	t.Logf("the float game on Math.*: engines %v first differ at tic %d: %x", names, tic, at)
	pair, _ := firstParting(runs[:2], "game-math.js")
	t.Logf("on Math.*, %s and %s first differ at tic %d", runs[0].Engine, runs[1].Engine, pair)
	if tic < 0 || pair < 0 {
		t.Errorf("the float game on Math.* agreed in %s and %s for 3 000 tics: the check shows no reason for detmath", runs[0].Engine, runs[1].Engine)
	}

	// On detmath.js: every engine, every tic.
	if tic, at := firstParting(runs, "game-detmath.js"); tic >= 0 {
		t.Errorf("the float game on detmath.js: engines %v differ at tic %d: %x", names, tic, at)
	} else {
		t.Logf("the float game on detmath.js: engines %v agree at all 3 000 tics (last checksum %08x)", names, runs[0].Games["game-detmath.js"][2999])
	}
	if yours := os.Getenv(gameCheckEnv); yours != "" {
		g := "yours/" + filepath.Base(yours)
		if tic, at := firstParting(runs, g); tic >= 0 {
			t.Errorf("%s: engines %v first differ at tic %d: %x", yours, names, tic, at)
		} else {
			t.Logf("%s: engines %v agree at all %d tics", yours, names, len(runs[0].Games[g]))
		}
	}
}
