package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore/simnet"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// A copy that reattaches lacking tics gets them with the new server's
// Resume, in the same batch; those that did not come with it were lost,
// and the copy asks for them in the pass that read the Resume, not a
// reorder window or a resend timeout later: every ms of it, the game
// stands still on that copy.
func TestAResumedCopyAsksAtOnceForTheTicsLostWithItsResume(t *testing.T) {
	s := start(t, Options{Players: 3, Seed: 21, Link: simnet.Link{LatencyMS: 5}, Quiet: true})
	require.NoError(t, s.RunTics(100, 60000))
	heir, behind := s.Peers[1], s.Peers[2]
	behind.Paused = true // it holds fewer tics than the heir
	s.RunFor(200)
	s.StopHost()
	now := s.Now()
	srv, ch := heirTakesOver(t, heir, now)
	held := behind.Client.Timeline().Confirmed()

	tr := &hand{}
	require.True(t, behind.Client.Reattach(tr, now), "the copy cannot reattach")
	behind.Client.Update(now)
	for _, p := range tr.take() {
		ch.in = append(ch.in, handPacket{behind.UID, p.pkt})
	}
	srv.Update(now + 5)
	require.False(t, srv.Resuming(), "the server did not resume")
	resumeAt := srv.ResumedAt()
	require.Greater(t, resumeAt, held, "the tic the game resumed at, beyond the %d the copy holds", held)
	var sets int
	for _, p := range ch.take() {
		if _, k := kindOf(t, p.pkt); k == wire.TicnetKindTicSet {
			sets++
			continue // lost
		}
		tr.in = append(tr.in, handPacket{ServerUID, p.pkt})
	}
	require.NotZero(t, sets, "tic sets the server sent with its Resume")
	behind.Client.Update(now + 10)
	require.False(t, behind.Client.Resuming(), "the copy did not resume")
	var asked []wire.GameDataResend
	for _, p := range tr.take() {
		h, body, err := wire.ParseHeader(untagged(p.pkt))
		require.NoError(t, err)
		if h.Type == wire.TypeGameDataResend {
			var m wire.GameDataResend
			require.NoError(t, m.DecodeBody(body))
			asked = append(asked, m)
		}
	}
	require.Equal(t, []wire.GameDataResend{{Start: held, Count: uint8(resumeAt - held)}}, asked,
		"resend requests in the pass that read the Resume: the tics from the copy's first missing to the resume")
}
