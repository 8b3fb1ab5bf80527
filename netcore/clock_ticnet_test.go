package netcore

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The extension's clock follows its server's reports however far its
// server's clock moved, in sum, since the game began: a migration moves it
// by the time the migration took, seconds, far more than the most a
// client may lead by. One report moves it by at most that much.
func TestTheExtensionsClockFollowsItsServerHoweverFarItMoved(t *testing.T) {
	k := ticnetClock{}
	limit := int64(ExtMaxClientLeadTics) * 1000 / TicRate
	one := NewClient(ClientConfig{}, nil, 1, nil, 0)
	k.adjust(one, 10000)
	require.Equal(t, -limit, one.sync.extOffsetMS, "one report 10 s early: the clock moved by at most the lead, ms")

	// The new server's clock is 3.3 s behind the one the client kept: its
	// commands arrive that much earlier than the target margin, less what
	// its clock moved since. Each report halves the error; the halves
	// are whole ms, and leave 1.
	c := NewClient(ClientConfig{}, nil, 1, nil, 0)
	const want = -3300
	margin := func() int64 { return ExtTargetMarginMS + c.sync.extOffsetMS - want }
	for range 20 {
		k.adjust(c, margin())
	}
	require.Equal(t, int64(want+1), c.sync.extOffsetMS, "after 20 reports: the clock's offset, ms")
	require.Equal(t, int64(ExtTargetMarginMS+1), margin(), "after 20 reports: the margin, ms")
}
