package scenario

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's 2-player figures, to the byte over the 1 000 tics
// TestTicnetSendsFewerBytesPerTicThanTheReferenceFromFourPlayers
// measures: what the channel carried under each protocol and, under
// TICNET_1, its split into the server's tic sets to the one remote client
// and that client's GAMEDATA (busy / idle: reference 78.0 / 43.0 bytes a
// tic; TICNET_1 85.7 / 51.6, sets 44.7 / 27.3 and GAMEDATA 41.0 / 24.4,
// each frame with its 5 bytes of authentication; the players' figures,
// 13 bytes on every 32nd set, are 0.4 of it).
func TestTwoPlayerGamesSendTheBytesPerTicTheREADMEStates(t *testing.T) {
	t.Parallel()
	const tics = 1000
	want := map[string]struct{ reference, ticnet, sets, gamedata int64 }{
		"busy": {77987, 85718, 44695, 41023},
		"idle": {42968, 51637, 27262, 24375},
	}
	for _, idle := range []bool{false, true} {
		what := map[bool]string{false: "busy", true: "idle"}[idle]
		var total [2]int64
		var sets int64
		for i, proto := range []string{"chocolate", "ticnet"} {
			s, err := simGame(proto, 2, idle)
			require.NoError(t, err)
			b0, h0 := s.Net.Stats.Bytes, s.HostNode.BytesSent()
			perTic(s, tics)
			total[i] = s.Net.Stats.Bytes - b0
			if proto == "ticnet" {
				sets = s.HostNode.BytesSent() - h0
			}
		}
		w := want[what]
		got := fmt.Sprintf("reference %d, ticnet %d (sets %d, GAMEDATA %d)", total[0], total[1], sets, total[1]-sets)
		t.Logf("%s, bytes in %d tics: %s; a tic: reference %.1f, ticnet %.1f (sets %.1f, GAMEDATA %.1f)", what, tics, got,
			float64(total[0])/tics, float64(total[1])/tics, float64(sets)/tics, float64(total[1]-sets)/tics)
		assert.Equal(t, w.reference, total[0], "%s: reference bytes", what)
		assert.Equal(t, w.ticnet, total[1], "%s: ticnet bytes", what)
		assert.Equal(t, w.sets, sets, "%s: ticnet's bytes in sets", what)
		assert.Equal(t, w.gamedata, total[1]-sets, "%s: ticnet's bytes in GAMEDATA", what)
	}
}
