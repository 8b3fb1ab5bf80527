package main

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ticnet/ticnet/netcore/wire"
)

// debianDEHSHA1 is the deh_sha1 that Debian's Chocolate Doom sends with no
// dehacked patch loaded (spec §6.6): it hashes the game's tables, which
// this client does not have, and peers only warn when it differs.
var debianDEHSHA1 = [20]byte{0xda, 0xaf, 0x56, 0xc1, 0xdc, 0xc0, 0x8a, 0x2e, 0x76, 0x68,
	0x81, 0x48, 0x11, 0xb2, 0xca, 0xb0, 0xcc, 0x7d, 0x52, 0xc1}

// wad is what this client needs from an IWAD.
type wad struct {
	path  string
	lumps []lump
	data  []byte
}

type lump struct {
	name      string
	pos, size uint32
}

func readWAD(path string) (*wad, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) < 12 || (string(data[:4]) != "IWAD" && string(data[:4]) != "PWAD") {
		return nil, fmt.Errorf("%s: not a WAD file", path)
	}
	n := binary.LittleEndian.Uint32(data[4:])
	dir := binary.LittleEndian.Uint32(data[8:])
	if uint64(dir)+uint64(n)*16 > uint64(len(data)) {
		return nil, fmt.Errorf("%s: lump directory (%d lumps at %d) past the end", path, n, dir)
	}
	w := &wad{path: path, data: data}
	for i := range n {
		e := data[dir+16*i:]
		name := e[8:16]
		if k := bytes.IndexByte(name, 0); k >= 0 {
			name = name[:k]
		}
		w.lumps = append(w.lumps, lump{name: string(name),
			pos: binary.LittleEndian.Uint32(e), size: binary.LittleEndian.Uint32(e[4:])})
	}
	return w, nil
}

func (w *wad) index(name string) int {
	for i, l := range w.lumps {
		if strings.EqualFold(l.name, name) {
			return i
		}
	}
	return -1
}

// sha1 is Chocolate Doom's wad_sha1 of this WAD loaded alone: over each
// lump, its name and a NUL, then the file number (0), offset and size as
// big-endian u32 (spec §6.6).
func (w *wad) sha1() [20]byte {
	h := sha1.New()
	var b [12]byte
	for _, l := range w.lumps {
		h.Write([]byte(l.name))
		h.Write([]byte{0})
		binary.BigEndian.PutUint32(b[4:], l.pos)
		binary.BigEndian.PutUint32(b[8:], l.size)
		h.Write(b[:])
	}
	var s [20]byte
	h.Sum(s[:0])
	return s
}

// game is the mode and mission Chocolate Doom gives this IWAD. Final
// Doom's two IWADs are told by their file names (D_FindIWAD); others by
// the levels present: Doom II (and Freedoom: Phase 2) has MAP01, Doom has
// episodes, four in the retail game (and Freedoom: Phase 1).
func (w *wad) game() (mode, mission uint8) {
	switch strings.ToLower(filepath.Base(w.path)) {
	case "tnt.wad":
		return wire.ModeCommercial, wire.MissionPackTNT
	case "plutonia.wad":
		return wire.ModeCommercial, wire.MissionPackPlut
	}
	switch {
	case w.index("MAP01") >= 0:
		return wire.ModeCommercial, wire.MissionDoom2
	case w.index("E4M1") >= 0:
		return wire.ModeRetail, wire.MissionDoom
	case w.index("E3M1") >= 0:
		return wire.ModeRegistered, wire.MissionDoom
	}
	return wire.ModeShareware, wire.MissionDoom
}

// connectData is the connect data a real client would send with this WAD.
func (w *wad) connectData() wire.ConnectData {
	mode, mission := w.game()
	c := wire.ConnectData{GameMode: mode, GameMission: mission, MaxPlayers: 4, WADSHA1: w.sha1(),
		DEHSHA1: debianDEHSHA1}
	if w.index("FREEDOOM") >= 0 {
		c.IsFreedoom = 1
	}
	return c
}

// playerStart returns where player p (0-3) starts a cooperative game of a
// level: its map coordinates and facing, in degrees as the map has them.
func (w *wad) playerStart(mission uint8, episode, mapNum uint8, p int) (x, y, angle int16, err error) {
	name := fmt.Sprintf("E%dM%d", episode, mapNum)
	if mission != wire.MissionDoom {
		name = fmt.Sprintf("MAP%02d", mapNum)
	}
	i := w.index(name)
	if i < 0 || i+1 >= len(w.lumps) || !strings.EqualFold(w.lumps[i+1].name, "THINGS") {
		return 0, 0, 0, fmt.Errorf("no level %s with THINGS", name)
	}
	l := w.lumps[i+1]
	if uint64(l.pos)+uint64(l.size) > uint64(len(w.data)) {
		return 0, 0, 0, fmt.Errorf("%s THINGS past the end of the file", name)
	}
	things := w.data[l.pos : l.pos+l.size]
	for k := 0; k+10 <= len(things); k += 10 {
		t := things[k:]
		if int(int16(binary.LittleEndian.Uint16(t[6:]))) == p+1 {
			return int16(binary.LittleEndian.Uint16(t)), int16(binary.LittleEndian.Uint16(t[2:])),
				int16(binary.LittleEndian.Uint16(t[4:])), nil
		}
	}
	return 0, 0, 0, fmt.Errorf("%s has no start for player %d", name, p+1)
}
