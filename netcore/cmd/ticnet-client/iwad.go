package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ticnet/ticnet/netcore/wire"
)

// A real Chocolate Doom server adopts the game (mode and mission) of its
// first player and rejects every later one that describes another game
// (spec §6.2, step 8). This client describes an IWAD as a real client
// loading it would, so the IWAD it chooses decides which servers take it.

// iwadDirs and iwadNames are where a real client looks for an IWAD when
// given none, and in which order (Debian's packages put them in the
// first directory; Chocolate Doom tries the commercial IWADs before
// Freedoom's, and Debian packages only Freedoom's).
var (
	iwadDirs  = []string{"/usr/share/games/doom", "/usr/local/share/games/doom"}
	iwadNames = []string{"doom2.wad", "plutonia.wad", "tnt.wad", "doom.wad", "doom1.wad", "freedoom2.wad", "freedoom1.wad"}
)

// noIWAD is the connect data sent when there is no IWAD to describe:
// Doom II's game, which servers whose players load doom2.wad or
// freedoom2.wad accept.
var noIWAD = wire.ConnectData{GameMode: wire.ModeCommercial, GameMission: wire.MissionDoom2, DEHSHA1: debianDEHSHA1}

// defaultIWAD returns the IWAD a real client would load from dirs without
// -iwad, or "" when there is none.
func defaultIWAD(dirs []string) string {
	for _, name := range iwadNames {
		for _, dir := range dirs {
			if p := filepath.Join(dir, name); fileExists(p) {
				return p
			}
		}
	}
	return ""
}

// describeIWAD returns the IWAD to describe and the connect data that
// describes it: the one named, or else the one a real client would load
// from dirs, or else none (a nil wad) and noIWAD.
func describeIWAD(named string, dirs []string) (*wad, wire.ConnectData, error) {
	path := named
	if path == "" {
		if path = defaultIWAD(dirs); path == "" {
			return nil, noIWAD, nil
		}
	}
	w, err := readWAD(path)
	if err != nil {
		return nil, wire.ConnectData{}, err
	}
	return w, w.connectData(), nil
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// iwadsFor names the IWADs Chocolate Doom describes as each game, as the
// server's REJECTED text names the game: "mission (mode)". Freedoom's come
// first because Debian packages them.
var iwadsFor = map[string][]string{
	"doom2 (commercial)":    {"freedoom2.wad", "doom2.wad"},
	"doom (retail)":         {"freedoom1.wad", "doom.wad"},
	"doom (registered)":     {"doom.wad"},
	"doom (shareware)":      {"doom1.wad"},
	"tnt (commercial)":      {"tnt.wad"},
	"plutonia (commercial)": {"plutonia.wad"},
}

// mismatchServerGame matches the game the server plays in Chocolate Doom
// 3.1's text, "Game mismatch: server is doom2 (commercial), client is doom
// (retail)". Chocolate Doom 3.0.x sends "You are playing the wrong game!",
// which names no game.
var mismatchServerGame = regexp.MustCompile(`^Game mismatch: server is (\S+) \((\S+)\)`)

// rejected is the error for a REJECTED reply with this reason. For a game
// mismatch it adds how to fix it: the -iwad to pass for the game the
// server plays, a path in dirs when one is there.
func rejected(reason string, dirs []string) error {
	if !strings.HasPrefix(reason, "Game mismatch") && reason != "You are playing the wrong game!" {
		return fmt.Errorf("rejected: %s", reason)
	}
	m := mismatchServerGame.FindStringSubmatch(reason)
	if m == nil {
		return fmt.Errorf("rejected: %s; to join, pass -iwad with the IWAD the server's players load", reason)
	}
	game := fmt.Sprintf("%s (%s)", m[1], m[2])
	if m[2] == "unknown" {
		// The server adopts a game from its first player, never from a drone.
		return fmt.Errorf("rejected: %s; the server has no game yet: a drone can join only after a player", reason)
	}
	names := iwadsFor[game]
	if names == nil {
		return fmt.Errorf("rejected: %s; to join, pass -iwad with a %s IWAD", reason, game)
	}
	for _, name := range names {
		for _, dir := range dirs {
			if p := filepath.Join(dir, name); fileExists(p) {
				return fmt.Errorf("rejected: %s; to join, pass -iwad %s, a %s IWAD", reason, p, game)
			}
		}
	}
	hint := fmt.Sprintf("rejected: %s; to join, pass -iwad with a %s IWAD (%s)", reason, game, strings.Join(names, " or "))
	if strings.HasPrefix(names[0], "freedoom") {
		hint += "; Debian: apt install freedoom"
	}
	return errors.New(hint)
}
