package wire

import "strings"

// GameMission values (GameMission_t, spec §16). The numbering of the ones
// after Strife differs by version and none of them is ever sent.
const (
	MissionDoom     = 0
	MissionDoom2    = 1
	MissionPackTNT  = 2
	MissionPackPlut = 3
	MissionPackChex = 4
	MissionPackHacx = 5
	MissionHeretic  = 6
	MissionHexen    = 7
	MissionStrife   = 8
)

// GameMode values (GameMode_t).
const (
	ModeShareware    = 0
	ModeRegistered   = 1
	ModeCommercial   = 2
	ModeRetail       = 3
	ModeIndetermined = 4
)

// ValidGameMode reports whether the server accepts a (mission, mode) pair
// from a client's connect data; it drops a SYN with any other.
func ValidGameMode(mission, mode uint8) bool {
	switch mission {
	case MissionPackChex:
		return mode == ModeRetail
	case MissionDoom, MissionHeretic:
		return mode == ModeShareware || mode == ModeRegistered || mode == ModeRetail
	case MissionDoom2, MissionPackTNT, MissionPackPlut, MissionPackHacx, MissionHexen, MissionStrife:
		return mode == ModeCommercial
	}
	return false
}

// GameVersion is an executable version, in ticnet's own numbering: the byte
// on the wire means different versions to different Chocolate Doom releases
// (spec §15), so convert with Numbering.Encode and Numbering.Decode.
type GameVersion uint8

// Game versions.
const (
	Doom12 GameVersion = iota
	Doom15
	Doom1666
	Doom17
	Doom18
	Doom19
	Hacx
	Ultimate
	Final
	Final2
	Chex
	Heretic13
	Hexen11
	Hexen11R2
	Strife12
	Strife131
	numGameVersions
)

var gameVersionNames = [numGameVersions]string{
	"doom1.2", "doom1.5", "doom1.666", "doom1.7", "doom1.8", "doom1.9", "hacx",
	"ultimate", "final", "final2", "chex", "heretic1.3", "hexen1.1", "hexen1.1r2",
	"strife1.2", "strife1.31",
}

func (v GameVersion) String() string {
	if v < numGameVersions {
		return gameVersionNames[v]
	}
	return "unknown"
}

// Numbering is one release family's GameVersion_t numbering.
type Numbering uint8

const (
	// Numbering30 is Chocolate Doom 3.0.x: 1.9 = 4, Strife 1.2 = 12.
	Numbering30 Numbering = iota
	// Numbering310 is 3.1.0 and the Debian snapshot that calls itself
	// 3.0.0: 1.9 = 4, Hexen 1.1r2 = 12, Strife 1.2 = 13.
	Numbering310
	// Numbering311 is 3.1.1 and later: Doom 1.5 inserted, so 1.9 = 5.
	Numbering311
)

// wireOrder lists, per numbering, the version each byte value means.
var wireOrder = [...][]GameVersion{
	Numbering30: {Doom12, Doom1666, Doom17, Doom18, Doom19, Hacx, Ultimate, Final, Final2,
		Chex, Heretic13, Hexen11, Strife12, Strife131},
	Numbering310: {Doom12, Doom1666, Doom17, Doom18, Doom19, Hacx, Ultimate, Final, Final2,
		Chex, Heretic13, Hexen11, Hexen11R2, Strife12, Strife131},
	Numbering311: {Doom12, Doom15, Doom1666, Doom17, Doom18, Doom19, Hacx, Ultimate, Final,
		Final2, Chex, Heretic13, Hexen11, Hexen11R2, Strife12, Strife131},
}

// Decode returns the version a byte means in this numbering.
func (n Numbering) Decode(b uint8) (GameVersion, bool) {
	order := wireOrder[n]
	if int(b) >= len(order) {
		return 0, false
	}
	return order[b], true
}

// Encode returns the byte for v in this numbering; ok is false when the
// numbering has no value for v (Doom 1.5 before 3.1.1, say).
func (n Numbering) Encode(v GameVersion) (uint8, bool) {
	for i, o := range wireOrder[n] {
		if o == v {
			return uint8(i), true
		}
	}
	return 0, false
}

// NumberingFor picks the numbering of a peer from its version string. The
// Debian build that says "Chocolate Doom 3.0.0" numbers as 3.1.0 does, and so
// does anything this function does not recognise as older or newer.
func NumberingFor(version string) Numbering {
	v, ok := strings.CutPrefix(version, "Chocolate Doom ")
	switch {
	case !ok:
		return Numbering310
	case v == "3.0.1":
		return Numbering30
	case v == "3.0.0", v == "3.1.0", strings.HasPrefix(v, "2."):
		return Numbering310
	case strings.HasPrefix(v, "3.1.") || strings.HasPrefix(v, "3.2") || v >= "4":
		return Numbering311
	}
	return Numbering310
}
