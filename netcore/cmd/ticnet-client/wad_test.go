package main

import (
	"encoding/hex"
	"os"
	"testing"

	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const freedoom2 = "/usr/share/games/doom/freedoom2.wad"

// TestWADDescribesFreedoomAsDebiansChocolateDoomDoes checks the connect
// data against what Debian's client sends with Debian's freedoom2.wad
// (spec §6.6 and the captures in spec/vectors), and the player starts
// -input doom relies on.
func TestWADDescribesFreedoomAsDebiansChocolateDoomDoes(t *testing.T) {
	if _, err := os.Stat(freedoom2); err != nil {
		t.Skipf("SKIPPED: %s missing (sh e2e/setup-chocolate.sh installs it)", freedoom2)
	}
	w, err := readWAD(freedoom2)
	require.NoError(t, err)
	c := w.connectData()
	got := hex.EncodeToString(c.WADSHA1[:])
	assert.Equal(t, "0f9caf3cac3392deea003d3159a14f6156bd7a46", got, "wad_sha1 %s", got)
	assert.Equal(t, uint8(wire.ModeCommercial), c.GameMode, "connect data %+v", c)
	assert.Equal(t, uint8(wire.MissionDoom2), c.GameMission, "connect data %+v", c)
	assert.Equal(t, uint8(1), c.IsFreedoom, "connect data %+v", c)
	assert.Equal(t, uint8(4), c.MaxPlayers, "connect data %+v", c)
	for p, want := range [][3]int16{{-192, -160, 0}, {-192, -208, 0}} {
		x, y, a, err := w.playerStart(wire.MissionDoom2, 1, 1, p)
		assert.NoError(t, err, "player %d starts at %d,%d facing %d (%v); want %v", p, x, y, a, err, want)
		assert.Equal(t, want, [3]int16{x, y, a}, "player %d starts at %d,%d facing %d (%v); want %v", p, x, y, a, err, want)
	}
}

func TestWADRejectsWhatIsNotAWAD(t *testing.T) {
	path := t.TempDir() + "/x.wad"
	os.WriteFile(path, []byte("IWAD\xff\xff\x00\x00\x0c\x00\x00\x00"), 0o644)
	_, err := readWAD(path)
	assert.Error(t, err, "a directory past the end accepted")
	os.WriteFile(path, []byte("hello"), 0o644)
	_, err = readWAD(path)
	assert.Error(t, err, "not a WAD accepted")
}
