package auth

import (
	"bytes"
	"crypto/ecdh"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testKey is a key pair for tests, from a name.
func testKey(name string) *ecdh.PrivateKey { return KeyFromSecret([]byte(name)) }

// pair agrees connection conn between a client and a server key and
// returns both ends, at time 0.
func pair(t testing.TB, client, server *ecdh.PrivateKey, conn uint32) (cli, srv *Conn) {
	ck, err := Agree(client, Public(server), conn, true)
	require.NoError(t, err)
	sk, err := Agree(server, Public(client), conn, false)
	require.NoError(t, err)
	return NewConn(ck, true, 0), NewConn(sk, false, 0)
}

func TestBothEndsOfAConnectionOpenWhatTheOtherSeals(t *testing.T) {
	cli, srv := pair(t, testKey("client"), testKey("server"), 7)
	for i := range 300 {
		msg := fmt.Appendf(nil, "command %d", i)
		f := cli.Seal(bytes.Clone(msg))
		require.Len(t, f, len(msg)+Overhead)
		got, err := srv.Open(int64(i), f)
		require.NoError(t, err, "frame %d to the server", i)
		require.Equal(t, msg, got)
		f = srv.Seal(bytes.Clone(msg))
		got, err = cli.Open(int64(i), f)
		require.NoError(t, err, "frame %d to the client", i)
		require.Equal(t, msg, got)
	}
}

func TestAFrameOfAnotherConnectionOrKeyOrDirectionDoesNotOpen(t *testing.T) {
	client, server, forger := testKey("client"), testKey("server"), testKey("forger")
	cli, srv := pair(t, client, server, 7)
	other, _ := pair(t, client, server, 8) // the same two copies, another connection
	fake, _ := pair(t, forger, server, 7)  // a member's own key, the same identity
	msg := []byte("move player 2")
	for name, f := range map[string][]byte{
		"another connection":  other.Seal(bytes.Clone(msg)),
		"another key":         fake.Seal(bytes.Clone(msg)),
		"reflected to sender": cli.Seal(bytes.Clone(msg)),
	} {
		to := srv
		if name == "reflected to sender" {
			to = cli
		}
		_, err := to.Open(0, f)
		assert.ErrorIs(t, err, ErrForged, name)
	}
	f := cli.Seal(bytes.Clone(msg))
	for i := range len(f) {
		g := bytes.Clone(f)
		g[i] ^= 0x10
		_, err := srv.Open(0, g)
		assert.ErrorIs(t, err, ErrForged, "bit flipped in byte %d", i)
	}
	_, err := srv.Open(0, f[:Overhead-1])
	assert.ErrorIs(t, err, ErrForged, "too short for a trailer")
	_, err = srv.Open(0, f)
	require.NoError(t, err, "the frame itself, after its forgeries")
}

func TestAFrameIsTakenOnceAndNotWhenTooOld(t *testing.T) {
	cli, srv := pair(t, testKey("client"), testKey("server"), 7)
	var fs [][]byte
	for i := range 400 { // fs[i] has counter i+1
		fs = append(fs, cli.Seal(fmt.Appendf(nil, "f%d", i)))
	}
	// Out of order within the window: each once.
	for _, i := range []int{1, 0, 3, 2, 10, 4} {
		_, err := srv.Open(0, fs[i])
		require.NoError(t, err, "frame %d", i)
	}
	for _, i := range []int{0, 1, 2, 3, 4, 10} {
		_, err := srv.Open(0, fs[i])
		require.ErrorIs(t, err, ErrReplayed, "frame %d again", i)
	}
	_, err := srv.Open(0, fs[10+WindowLen])
	require.NoError(t, err)
	_, err = srv.Open(0, fs[10])
	require.ErrorIs(t, err, ErrReplayed, "64 behind the highest: too old")
	_, err = srv.Open(0, fs[11])
	require.NoError(t, err, "63 behind: in the window")
	_, err = srv.Open(0, fs[300])
	require.ErrorIs(t, err, ErrForged, "226 frames ahead, read as 30 behind, without a silence")
	_, err = srv.Open(ResyncMS, fs[300])
	require.NoError(t, err, "after a silence, 256 further")
	// A frame 256 counters older than a fresh one has its low byte: it
	// is read as the fresh one, whose tag it does not have.
	_, err = srv.Open(0, fs[305-256])
	require.ErrorIs(t, err, ErrForged)
	_, err = srv.Open(0, fs[305])
	require.NoError(t, err, "the fresh one")
}

func TestACounterIsFoundAgainAfterALongSilence(t *testing.T) {
	cli, srv := pair(t, testKey("client"), testKey("server"), 7)
	_, err := srv.Open(0, cli.Seal([]byte("before")))
	require.NoError(t, err)
	for range 1100 { // lost
		cli.Seal([]byte("lost"))
	}
	f := cli.Seal([]byte("after")) // counter 1102: 78, and 4 epochs of 256 further
	_, err = srv.Open(3*ResyncMS, f)
	require.ErrorIs(t, err, ErrForged, "1100 frames are not sent in 384 ms: 3 epochs further, not 4")
	got, err := srv.Open(4*ResyncMS, f)
	require.NoError(t, err, "at 512 ms, 4 epochs ahead")
	require.Equal(t, "after", string(got))
	_, err = srv.Open(5*ResyncMS, cli.Seal([]byte("next")))
	require.NoError(t, err)
}

func TestABroadcastOpensForEachRecipientAndNoOneElse(t *testing.T) {
	server := testKey("server")
	var to [MaxRecipients]*Conn
	clients := map[int]*Conn{}
	for _, p := range []int{0, 2, 5} {
		c, s := pair(t, testKey(fmt.Sprint("player", p)), server, uint32(100+p))
		clients[p], to[p] = c, s
	}
	var b Broadcast
	msg := []byte("tic 35: every command")
	f := b.Seal(bytes.Clone(msg), &to)
	require.Len(t, f, len(msg)+3*TagLen+2)
	for p, c := range clients {
		got, err := c.OpenBroadcast(0, f, p)
		require.NoError(t, err, "player %d", p)
		require.Equal(t, msg, got)
		_, err = c.OpenBroadcast(0, f, p)
		require.ErrorIs(t, err, ErrReplayed, "player %d again", p)
	}
	_, err := clients[2].OpenBroadcast(0, f, 3)
	require.ErrorIs(t, err, ErrForged, "no tag for player 3")
	// A player forges the server's stream with the one key it has, its
	// own: the others do not take it.
	var mine [MaxRecipients]*Conn
	mine[0] = NewConn(Keys{send: clients[0].keys.recv}, false, 0) // player 0's key, as the server uses it
	for _, p := range []int{2, 5} {
		mine[p] = NewConn(Keys{send: clients[0].keys.recv}, false, 0)
	}
	forged := (&Broadcast{sent: 1}).Seal([]byte("tic 36: player 2 jumps off"), &mine)
	_, err = clients[0].OpenBroadcast(0, forged, 0)
	require.NoError(t, err, "the key is player 0's: it fools itself")
	for _, p := range []int{2, 5} {
		_, err := clients[p].OpenBroadcast(0, forged, p)
		require.ErrorIs(t, err, ErrForged, "player %d", p)
	}
}

func TestALowOrderPublicKeyIsRefused(t *testing.T) {
	_, err := Agree(testKey("server"), [PublicLen]byte{}, 7, false)
	require.ErrorIs(t, err, ErrBadPublic)
}

func TestAKeyFromASecretIsTheSameEachTime(t *testing.T) {
	a, b := KeyFromSecret([]byte("token")), KeyFromSecret([]byte("token"))
	require.True(t, a.Equal(b))
	require.NotEqual(t, Public(a), Public(KeyFromSecret([]byte("other"))))
}

func TestSealAndOpenAllocateNothing(t *testing.T) {
	cli, srv := pair(t, testKey("client"), testKey("server"), 7)
	buf := make([]byte, 0, 64)
	now := int64(0)
	allocs := testing.AllocsPerRun(100, func() {
		f := cli.Seal(append(buf[:0], "a command"...))
		now++
		if _, err := srv.Open(now, f); err != nil {
			panic(err)
		}
	})
	require.Equal(t, 0.0, allocs)
}

func FuzzOpen(f *testing.F) {
	cli, _ := pair(f, testKey("client"), testKey("server"), 7)
	f.Add(cli.Seal([]byte("a frame")), 0)
	f.Add([]byte{1, 2, 3, 4, 5, 0xff}, 3)
	f.Fuzz(func(t *testing.T, frame []byte, player int) {
		_, srv := pair(t, testKey("client"), testKey("server"), 7)
		if body, err := srv.Open(0, frame); err == nil && len(body) != len(frame)-Overhead {
			t.Fatalf("opened %d bytes of %d", len(body), len(frame))
		}
		c, _ := pair(t, testKey("client"), testKey("server"), 7)
		if body, err := c.OpenBroadcast(0, frame, player); err == nil && len(body) > len(frame)-2-TagLen {
			t.Fatalf("opened %d bytes of %d", len(body), len(frame))
		}
	})
}

func BenchmarkSealOpen(b *testing.B) {
	for _, size := range []int{32, 1200} {
		b.Run(fmt.Sprint("bytes=", size), func(b *testing.B) {
			cli, srv := pair(b, testKey("client"), testKey("server"), 7)
			buf := make([]byte, size, size+Overhead)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := srv.Open(int64(i), cli.Seal(buf[:size])); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAgree(b *testing.B) {
	client, server := testKey("client"), testKey("server")
	for b.Loop() {
		if _, err := Agree(client, Public(server), 7, true); err != nil {
			b.Fatal(err)
		}
	}
}
