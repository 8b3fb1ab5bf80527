// Command ticnet-replay reads ticnet replay files (netcore/wire/replay.go),
// as a client records its game (netcore.ClientConfig.Replay, JS
// net.replay()) or ticnet-server -record records every game it relays:
//
//	go run ./netcore/cmd/ticnet-replay info FILE
//	go run ./netcore/cmd/ticnet-replay verify FILE
//	go run ./netcore/cmd/ticnet-replay lmp FILE [-o OUT.lmp] [-player N] [-longtics]
//	go run ./netcore/cmd/ticnet-replay diff A B
//
// info prints the header (protocol, game settings, setup, player names),
// the tics (how many, from which, who was in the game and when that
// changed, how many commands were the server's substitutes), the
// snapshots, the checksums, and the file's size per tic per player.
//
// verify plays the replay into netcore/testgame, the repository's own
// test game, with replay.Verify, and compares every recorded
// checksum: it prints the first tic whose checksum differs and the players
// whose own checksums differ there. It can only verify a replay of that
// game; a Go game verifies its own replays the same way, by calling
// replay.Verify(file, game) with a new copy of itself (and
// replay.NewPlayer to step and seek). A server's replay holds no
// checksums (a server runs no game): there is nothing to verify.
//
// lmp writes a Doom demo (.lmp) of a Doom game (Doom's ticcmd input, not
// opaque input; players 0 to 3 only, as the demo format holds four) that
// Chocolate Doom plays: chocolate-doom -iwad freedoom2.wad -playdemo OUT
// (or -timedemo OUT). It writes the vanilla Doom 1.9 format (version 109,
// turning in one byte) when the game had lowres_turn set, and the
// "Doom 1.91" longtics format (version 111, turning in two bytes) that
// Chocolate Doom plays otherwise, or with -longtics. The demo shows
// -player's view (default: the recording copy's player, or the first in
// the game). A Doom demo holds one set of players: the demo stops before
// the first tic where a player left or joined, and says so. -o defaults
// to FILE with the extension .lmp.
//
// diff compares two copies' replays of one game (after a desync, the
// diverged copy's and one of the majority's): the tics both hold, the
// first tic whose commands differ (and whose players' commands), the first
// whose checksums differ (and the players whose own checksums differ
// there), and, of the snapshots both hold of one tic, the first whose
// states differ: how many bytes, and each run of them with its offsets and
// bytes in hex. Given two files that are not replays (two saved states, as
// a page saves them at a desync), it compares their bytes the same way.
//
// A file that ends inside a record (a server killed while it wrote, a
// download cut short), or whose records stop reading part way, is read up
// to its last whole record, with a warning on standard error.
//
// Exit status: 0; 1 when verify finds a checksum that differs, or diff
// finds commands, checksums or states that differ; 2 on a bad
// command line, a file that cannot be read or written, a replay lmp
// cannot export, or a replay with no checksum to verify.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  ticnet-replay info FILE
  ticnet-replay verify FILE
  ticnet-replay lmp FILE [-o OUT.lmp] [-player N] [-longtics]
  ticnet-replay diff A B
`

// run runs the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("ticnet-replay "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	var lmp lmpFlags
	if args[0] == "lmp" {
		fs.StringVar(&lmp.out, "o", "", "the demo file to write (default: FILE with the extension .lmp)")
		fs.IntVar(&lmp.player, "player", -1, "the player whose view the demo shows (default: the recording copy's, or the first in the game)")
		fs.BoolVar(&lmp.longtics, "longtics", false, "write the longtics format (version 111) even for a game with lowres_turn")
	}
	files, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return 2
	}
	if args[0] == "diff" {
		return runDiff(files, stdout, stderr)
	}
	if len(files) != 1 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	data, warning, err := readReplay(files[0])
	if err != nil {
		fmt.Fprintf(stderr, "ticnet-replay: %v\n", err)
		return 2
	}
	if warning != "" {
		fmt.Fprintf(stderr, "ticnet-replay: warning: %s\n", warning)
	}
	switch args[0] {
	case "info":
		err = info(stdout, files[0], data)
	case "verify":
		var status int
		status, err = verify(stdout, data)
		if err == nil {
			return status
		}
	case "lmp":
		err = writeDemo(stdout, files[0], data, lmp)
	default:
		fmt.Fprintf(stderr, "ticnet-replay: unknown command %q\n%s", args[0], usage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "ticnet-replay %s: %v\n", args[0], err)
		return 2
	}
	return 0
}

// runDiff runs diff of the two files named, and returns the exit status.
func runDiff(files []string, stdout, stderr io.Writer) int {
	if len(files) != 2 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var data [2][]byte
	for i, f := range files {
		file, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "ticnet-replay: %v\n", err)
			return 2
		}
		data[i] = file
		whole, cause, err := wholeRecords(file)
		if err == nil {
			data[i] = whole
		}
		if w := cutShort(f, whole, file, cause); w != "" {
			fmt.Fprintf(stderr, "ticnet-replay: warning: %s\n", w)
		}
	}
	differ, err := diff(stdout, data[0], data[1])
	if err != nil {
		fmt.Fprintf(stderr, "ticnet-replay diff: %v\n", err)
		return 2
	}
	if differ {
		return 1
	}
	return 0
}

// parseInterspersed parses args with fs, flags before and after the
// operands, and returns the operands.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return operands, nil
		}
		operands = append(operands, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
