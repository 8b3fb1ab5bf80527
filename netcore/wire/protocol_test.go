package wire

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stretchr/testify/assert"
)

func TestChooseProtocolTakesTheServersFirstPreferenceThatTheClientOffers(t *testing.T) {
	both := []string{ProtocolTicnet, ProtocolChocolate}
	for _, tc := range []struct {
		name      string
		offered   []string
		preferred []string
		want      string
		ok        bool
	}{
		{"reference client", []string{ProtocolChocolate}, both, ProtocolChocolate, true},
		{"ticnet client, either order", []string{ProtocolChocolate, ProtocolTicnet}, both, ProtocolTicnet, true},
		{"ticnet client listing it first", []string{ProtocolTicnet, ProtocolChocolate}, both, ProtocolTicnet, true},
		{"reference server", []string{ProtocolTicnet, ProtocolChocolate}, []string{ProtocolChocolate}, ProtocolChocolate, true},
		{"unknown names are skipped", []string{"FORK_9", ProtocolChocolate, "FORK_10"}, both, ProtocolChocolate, true},
		{"nothing in common", []string{"FORK_9"}, both, "", false},
		{"empty offer", nil, both, "", false},
		{"server speaks nothing", []string{ProtocolChocolate}, nil, "", false},
		{"names compare exactly", []string{"chocolate_doom_0", ProtocolChocolate + " "}, both, "", false},
	} {
		got, ok := ChooseProtocol(tc.offered, tc.preferred)
		assert.Equal(t, tc.want, got, "%s: got %q %v, want %q %v", tc.name, got, ok, tc.want, tc.ok)
		assert.Equal(t, tc.ok, ok, "%s: got %q %v, want %q %v", tc.name, got, ok, tc.want, tc.ok)
	}
}

func TestKnownAcceptsOnlyASupportedProtocolName(t *testing.T) {
	require.True(t, Known(ProtocolChocolate, []string{ProtocolTicnet, ProtocolChocolate}), "Known is wrong")
	require.False(t, Known(ProtocolTicnet, []string{ProtocolChocolate}), "Known is wrong")
	require.False(t, Known("", nil), "Known is wrong")
}

func TestProtocolNamesAreTheOnesOnTheWire(t *testing.T) {
	require.Equal(t, "CHOCOLATE_DOOM_0", ProtocolChocolate, ProtocolChocolate)
	require.Less(t, len(ProtocolTicnet), MaxPlayerName, ProtocolTicnet)
	require.NotEqual(t, ProtocolChocolate, ProtocolTicnet, ProtocolTicnet)
}
