package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidGameModeAcceptsExactlyTheReferencesPairs(t *testing.T) {
	// Spec §16, written out independently of the code.
	valid := map[[2]uint8]bool{
		{MissionPackChex, ModeRetail}: true,
		{MissionDoom, ModeShareware}:  true, {MissionDoom, ModeRegistered}: true, {MissionDoom, ModeRetail}: true,
		{MissionDoom2, ModeCommercial}: true, {MissionPackTNT, ModeCommercial}: true,
		{MissionPackPlut, ModeCommercial}: true, {MissionPackHacx, ModeCommercial}: true,
		{MissionHeretic, ModeShareware}: true, {MissionHeretic, ModeRegistered}: true, {MissionHeretic, ModeRetail}: true,
		{MissionHexen, ModeCommercial}: true, {MissionStrife, ModeCommercial}: true,
	}
	n := 0
	for mission := range 256 {
		for mode := range 256 {
			want := valid[[2]uint8{uint8(mission), uint8(mode)}]
			got := ValidGameMode(uint8(mission), uint8(mode))
			assert.Equal(t, want, got, "ValidGameMode(mission %d, mode %d) =", mission, mode)
			if want {
				n++
			}
		}
	}
	require.Equal(t, 13, n, "%d valid pairs", n)
	// doom2f (9) and none are never valid; indetermined never is.
	for _, m := range []uint8{9, 10} {
		require.False(t, ValidGameMode(m, ModeCommercial), "mission %d accepted", m)
	}
}

func TestGameVersionNumberingsMatchEachReleaseFamily(t *testing.T) {
	// Spec §16: the byte each version travels as, per family.
	pre := []GameVersion{Doom12, Doom1666, Doom17, Doom18, Doom19, Hacx, Ultimate, Final, Final2, Chex, Heretic13, Hexen11}
	tables := map[Numbering][]GameVersion{
		Numbering30:  append(append([]GameVersion{}, pre...), Strife12, Strife131),
		Numbering310: append(append([]GameVersion{}, pre...), Hexen11R2, Strife12, Strife131),
		Numbering311: {Doom12, Doom15, Doom1666, Doom17, Doom18, Doom19, Hacx, Ultimate, Final, Final2, Chex, Heretic13, Hexen11, Hexen11R2, Strife12, Strife131},
	}
	for n, table := range tables {
		for b, v := range table {
			got, ok := n.Decode(uint8(b))
			assert.True(t, ok, "numbering %d: byte %d decodes to %v %v, want %v", n, b, got, ok, v)
			assert.Equal(t, v, got, "numbering %d: byte %d decodes to %v %v, want %v", n, b, got, ok, v)
			enc, ok := n.Encode(v)
			assert.True(t, ok, "numbering %d: %v does not encode", n, v)
			assert.Equal(t, uint8(b), enc, "numbering %d: %v encodes", n, v)
		}
		for b := len(table); b < 256; b++ {
			v, ok := n.Decode(uint8(b))
			assert.False(t, ok, "numbering %d: byte %d decodes to %v", n, b, v)
		}
	}
	// Versions a family does not have.
	for _, tc := range []struct {
		n Numbering
		v GameVersion
	}{{Numbering30, Doom15}, {Numbering30, Hexen11R2}, {Numbering310, Doom15}, {Numbering311, numGameVersions}} {
		b, ok := tc.n.Encode(tc.v)
		assert.False(t, ok, "numbering %d encodes %v as %d", tc.n, tc.v, b)
	}
}

func TestNumberingForPicksTheFamilyFromTheVersionString(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    Numbering
		doom19  uint8
	}{
		{"Chocolate Doom 3.0.0", Numbering310, 4}, // the Debian snapshot
		{"Chocolate Doom 3.0.1", Numbering30, 4},
		{"Chocolate Doom 3.1.0", Numbering310, 4},
		{"Chocolate Doom 3.1.1", Numbering311, 5},
		{"Chocolate Doom 3.1.2", Numbering311, 5},
		{"Chocolate Doom 3.2.0", Numbering311, 5},
		{"Chocolate Doom 4.0.0", Numbering311, 5},
		{"Chocolate Doom 2.3.0", Numbering310, 4},
		{"VectorDoom", Numbering310, 4},
		{"", Numbering310, 4},
	} {
		n := NumberingFor(tc.version)
		assert.Equal(t, tc.want, n, "%q: numbering", tc.version)
		b, ok := n.Encode(Doom19)
		assert.True(t, ok, "%q: Doom 1.9 travels as %d, want %d", tc.version, b, tc.doom19)
		assert.Equal(t, tc.doom19, b, "%q: Doom 1.9 travels as", tc.version)
	}
	// §15: the same byte means different versions across the 3.1.1 split.
	v, _ := NumberingFor("Chocolate Doom 3.0.0").Decode(5)
	assert.Equal(t, Hacx, v, "Debian's 5 is %v, want hacx", v)
	v, _ = NumberingFor("Chocolate Doom 3.1.1").Decode(4)
	assert.Equal(t, Doom18, v, "3.1.1's 4 is %v, want doom1.8", v)
}

func TestGameVersionsPrintTheirNamesAndUnknownOutOfRange(t *testing.T) {
	for v, want := range map[GameVersion]string{Doom19: "doom1.9", Doom15: "doom1.5", Strife131: "strife1.31", numGameVersions: "unknown", 200: "unknown"} {
		got := v.String()
		assert.Equal(t, want, got, "%d", v)
	}
}
