package scenario

import (
	"testing"

	"github.com/ticnet/ticnet/netcore"
	"github.com/ticnet/ticnet/netcore/link"
	"github.com/ticnet/ticnet/netcore/tic"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// forgeForWatchers sends one frame that would show the watchers a false
// game: as the server, a broadcast tic set of commands no player built,
// for a tic just sent or about to be, or an attest of a chain it made up
// (one in four); or, as another watcher, a tic set to a watcher with its
// connection's tag (its tic source's UID, as likely as not). Each
// broadcast has a trailer for no player. It reports whether it sent a
// broadcast, and whether that was an attest.
func (m *member) forgeForWatchers(watchers []*Peer) (cast, attest bool) {
	s := m.s
	if m.termTag == 0 {
		return false, false // nothing overheard of the server's stream yet
	}
	next := s.Server.SendSeq()
	cmd := wire.Diff(&tic.Cmd{}, &tic.Cmd{ForwardMove: 50, SideMove: -50, Buttons: 2})
	set := wire.TicSet{Start: next - 3 + m.rng.Uint32N(6), Tics: []wire.SetTic{{ServerTic: wire.ServerTic{InGame: 0b1111,
		Cmds: [wire.MaxPlayers]wire.TicDiff{cmd, cmd, cmd, cmd}}}}}
	switch m.rng.IntN(4) {
	case 0:
		a := wire.Attest{Tic: next + 1 + m.rng.Uint32N(8)}
		for i := range a.Chain {
			a.Chain[i] = byte(m.rng.Uint32())
		}
		for i := range a.Sig {
			a.Sig[i] = byte(m.rng.Uint32())
		}
		m.send(link.Broadcast, ServerUID, m.castTrailer(wire.Encode(nil, &a, false, 0)))
		return true, true
	case 1:
		m.send(link.Broadcast, ServerUID, m.castTrailer(wire.Encode(nil, &set, false, 0)))
		return true, false
	default:
		w, as := watchers[m.rng.IntN(len(watchers))], watchers[m.rng.IntN(len(watchers))]
		tag, ok := m.tag[w.Index]
		if !ok || w == as {
			return false, false
		}
		pkt := wire.Encode(nil, &set, false, 0)
		wire.SetTag(pkt, tag)
		m.send(w.UID, as.UID, pkt)
	}
	return false, false
}

// castTrailer gives pkt the server's term tag and a broadcast's trailer
// for no player: a counter byte past the server's last, and no tag.
func (m *member) castTrailer(pkt []byte) []byte {
	wire.SetTag(pkt, m.termTag)
	return append(pkt, m.castLast+20, 0)
}

// A member cannot show a watcher a false game: 4 players and 8 watchers,
// quiet and lossy (without duplicates, which would blur the count). The
// member sends, as the server, broadcast tic sets of commands no player
// built, for the tics just sent and those about to be, and attests of
// chains it made up; and, as the watchers' fellow watchers, tic sets to
// each with its tag. Every copy, each watcher with it, runs the commands
// the players built (check) and never desyncs, and no one leaves. Each
// forged attest is dropped and counted as forged at every watcher, and
// each forged broadcast at every player, exactly; a watcher counts once
// more each time the chain of the tics it held did not match the
// server's (quiet: 1 003 times in all, lossy 306), drops them and asks
// the server itself for them again.
func TestAMemberCannotShowAWatcherAFalseGame(t *testing.T) {
	t.Parallel()
	for _, tc := range forgeChannels() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const frames = 20000
			s := start(t, Options{Players: 4, Seed: 39, Link: tc.link})
			require.NoError(t, s.RunTics(100, 60000))
			var watchers []*Peer
			for range 8 {
				p := s.Watch()
				s.Net.SetLinks(p.Node, tc.link)
				watchers = append(watchers, p)
			}
			require.True(t, s.RunUntil(func() bool {
				for _, p := range watchers {
					if p.Client.State() != netcore.ClientInGame || p.Client.Joining() {
						return false
					}
				}
				return true
			}, 30000), "every watcher watches")
			m := newMember(s, 39)
			require.NoError(t, s.RunTics(s.Server.SendSeq()+35, 60000)) // it overhears the stream
			forged0 := map[int]int64{}
			for _, p := range s.Peers[1:] {
				forged0[p.Index], _ = dropped(p.Client.Counters())
			}
			attests, casts := 0, 0
			s.OnStep = func(int64) {
				for range 2 { // 400 a second
					if m.sent < frames {
						cast, attest := m.forgeForWatchers(watchers)
						if cast {
							casts++
						}
						if attest {
							attests++
						}
					}
				}
			}
			end := s.Server.SendSeq() + 35*60
			require.NoError(t, s.RunTics(end, 3000000))
			s.OnStep = nil
			s.Net.AdvanceTo(s.Now() + 1)
			s.Step()
			t.Logf("%s: %d frames, %d broadcast as the server (%d attests)", tc.name, m.sent, casts, attests)
			for _, p := range s.Peers[1:4] {
				f, _ := dropped(p.Client.Counters())
				require.Equal(t, int64(casts), f-forged0[p.Index], "player %d: forged broadcasts it counted", p.Index)
			}
			broken := int64(0)
			for _, p := range watchers {
				f, _ := dropped(p.Client.Counters())
				f -= forged0[p.Index]
				require.Equal(t, netcore.ClientInGame, p.Client.State(), "watcher %d: %v %+v", p.Index, p.Events, p.Client.Counters())
				require.GreaterOrEqual(t, f, int64(attests), "watcher %d: forged frames it counted, at least every forged attest", p.Index)
				broken += f - int64(attests)
			}
			t.Logf("%s: the watchers found %d chains broken", tc.name, broken)
			require.Positive(t, broken, "chains the watchers found broken")
			require.Zero(t, s.Count(netcore.EventPlayerLeft)+s.Count(netcore.EventDisconnected), "copies that left")
			check(t, s, int(end))
			noDesync(t, s)
		})
	}
}
