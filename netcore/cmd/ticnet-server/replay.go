package main

import (
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// replayFiles writes the server's replays, one file a game: each pass
// appends what the server recorded since the last, so that the file is
// whole up to its last tic whenever the process dies.
type replayFiles struct {
	path    string   // -record's FILE
	game    int      // the game of the file open, or last open
	f       *os.File // nil between games
	name    string
	written int  // bytes of the game's replay in the file
	full    bool // the game's recording stopped at its size bound
	failed  bool
}

// replayName is the file of game n (from 1) of -record path: path itself,
// then path with -n before its extension.
func replayName(path string, n int) string {
	if n <= 1 {
		return path
	}
	ext := filepath.Ext(path)
	if ext == filepath.Base(path) {
		ext = "" // a name that is all extension, ".replay": ".replay-2"
	}
	return strings.TrimSuffix(path, ext) + "-" + strconv.Itoa(n) + ext
}

// update writes what the server recorded of game (its ReplayGame) so far,
// data (its Replay), which stopped at its size bound when full: a new
// game's goes to a new file. A file that cannot be written is reported,
// and the recording stops: the game goes on.
func (r *replayFiles) update(game int, data []byte, full bool) {
	if r.failed || game == 0 {
		return
	}
	if game != r.game {
		r.finish()
		r.game, r.name, r.written, r.full = game, replayName(r.path, game), 0, false
		f, err := os.Create(r.name)
		if err != nil {
			r.fail(err)
			return
		}
		r.f = f
		log.Printf("replay: recording game %d to %s", game, r.name)
	}
	if r.f == nil || len(data) <= r.written {
		return
	}
	if _, err := r.f.Write(data[r.written:]); err != nil {
		r.fail(err)
		return
	}
	r.written = len(data)
	if full && !r.full {
		r.full = true
		log.Printf("replay: game %d reached its size bound (%d bytes): its recording stops there", game, len(data))
	}
}

// finish closes the file of the game that ended, if one is open.
func (r *replayFiles) finish() {
	if r.f == nil {
		return
	}
	err := r.f.Close()
	r.f = nil
	if err != nil {
		r.fail(err)
		return
	}
	log.Printf("replay: game %d written to %s (%d bytes)", r.game, r.name, r.written)
}

func (r *replayFiles) fail(err error) {
	log.Printf("replay: %v; recording stops", err)
	if r.f != nil {
		r.f.Close()
		r.f = nil
	}
	r.failed = true
}
