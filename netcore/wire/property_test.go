package wire

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// Property tests: random values from a fixed seed, thousands of times.

// cmdPair returns two random commands, often close to each other so that
// diffs of every size occur.
func (g gen) cmdPair() (TicCmd, TicCmd) {
	a, b := g.cmd(), g.cmd()
	switch g.r.IntN(4) {
	case 0: // nothing but events may differ
		b = a
		b.ChatChar, b.Arti, b.Inventory = 0, 0, 0
		if g.bool() {
			b.ChatChar = g.u8()
		}
	case 1: // one field changed
		b = a
		b.ChatChar, b.Arti, b.Inventory = 0, 0, 0
		switch g.r.IntN(7) {
		case 0:
			b.ForwardMove++
		case 1:
			b.SideMove--
		case 2:
			b.AngleTurn += 256
		case 3:
			b.Buttons ^= 1
		case 4:
			b.Consistency++
		case 5:
			b.LookFly++
		case 6:
			b.Buttons2++
		}
	}
	return a, b
}

func TestPropertyPatchOfDiffGivesTheNewCommand(t *testing.T) {
	g := newGen(1)
	for i := range 20000 {
		a, b := g.cmdPair()
		d := Diff(&a, &b)
		got := Patch(&a, &d)
		require.Equal(t, b, got, "#%d: Patch(%+v, Diff) = %+v, want %+v (diff %+v)", i, a, got, b, d)
	}
}

func TestPropertyDiffThroughTheWireThenPatchGivesTheNewCommand(t *testing.T) {
	g := newGen(2)
	for i := range 20000 {
		a, b := g.cmdPair()
		lowres := g.bool()
		if lowres { // only multiples of 256 survive one-byte turning
			a.AngleTurn = a.AngleTurn / 256 * 256
			b.AngleTurn = b.AngleTurn / 256 * 256
		}
		d := Diff(&a, &b)
		buf := encodeDiff(d, lowres)
		got, r := decodeDiff(buf, lowres)
		require.NoError(t, r.Err(), "#%d: % x: %v, %d left", i, buf, r.Err(), r.Remaining())
		require.Equal(t, 0, r.Remaining(), "#%d: % x: %v, %d left", i, buf, r.Err(), r.Remaining())
		require.Equal(t, d, got, "#%d lowres=%v: diff %+v came back %+v", i, lowres, d, got)
		c := Patch(&a, &got)
		require.Equal(t, b, c, "#%d lowres=%v: patched", i, lowres)
	}
}

func TestPropertyACommandStreamSurvivesClientAndServerGameData(t *testing.T) {
	// A sender diffs each tic against the one before; the receiver patches
	// in tic order, starting from zero (spec §8.2 "Diff base").
	g := newGen(3)
	for i := range 500 {
		lowres := g.bool()
		n := 1 + g.r.IntN(MaxTicsPerPacket)
		cmds := make([]TicCmd, n)
		prev := TicCmd{}
		c := &ClientGameData{LowResTurn: lowres, Ack: g.u8(), Start: g.u8()}
		s := &ServerGameData{LowResTurn: lowres, Start: c.Start}
		for k := range cmds {
			_, cmds[k] = g.cmdPair()
			if k > 0 && g.bool() {
				_, cmds[k] = cmdPairFrom(g, cmds[k-1])
			}
			if lowres {
				cmds[k].AngleTurn = cmds[k].AngleTurn / 256 * 256
			}
			d := Diff(&prev, &cmds[k])
			prev = cmds[k]
			c.Tics = append(c.Tics, ClientTic{Latency: int16(g.u16()), Diff: d})
			tic := ServerTic{InGame: 1 << (k % MaxPlayers)}
			tic.Cmds[k%MaxPlayers] = d
			s.Tics = append(s.Tics, tic)
		}
		gotC := &ClientGameData{LowResTurn: lowres}
		_, err := Decode(Encode(nil, c, false, 0), gotC)
		require.NoError(t, err, "#%d", i)
		gotS := &ServerGameData{LowResTurn: lowres}
		_, err = Decode(Encode(nil, s, false, 0), gotS)
		require.NoError(t, err, "#%d", i)
		base := TicCmd{}
		for k := range cmds {
			sd := gotS.Tics[k].Cmds[k%MaxPlayers]
			require.Equal(t, sd, gotC.Tics[k].Diff, "#%d tic %d: client and server layouts disagree", i, k)
			base = Patch(&base, &gotC.Tics[k].Diff)
			require.Equal(t, cmds[k], base, "#%d lowres=%v tic %d", i, lowres, k)
		}
	}
}

// cmdPairFrom returns a command close to a.
func cmdPairFrom(g gen, a TicCmd) (TicCmd, TicCmd) {
	b := a
	b.ChatChar, b.Arti, b.Inventory = 0, 0, 0
	if g.bool() {
		b.ForwardMove = int8(g.u8())
	}
	if g.bool() {
		b.AngleTurn = int16(g.u16())
	}
	if g.oneIn(4) {
		b.Inventory = g.u16()
	}
	return a, b
}

func TestPropertyEveryMessageTypeDecodesToWhatWasEncoded(t *testing.T) {
	g := newGen(4)
	seen := map[string]int{}
	for i := range 3000 {
		for _, m := range g.messages() {
			reliable, seq := g.bool(), g.u8()
			pkt := Encode(nil, m, reliable, seq)
			got := fresh(m)
			h, err := Decode(pkt, got)
			require.NoError(t, err, "#%d %T: %v\n% x", i, m, err, pkt)
			require.Equal(t, m.Type(), h.Type, "#%d %T: header %+v", i, m, h)
			require.Equal(t, reliable, h.Reliable, "#%d %T: header %+v", i, m, h)
			if reliable {
				require.Equal(t, seq, h.Seq, "#%d %T: header %+v", i, m, h)
			}
			require.True(t, sameMessage(got, m), "#%d %T:\n got %+v\nwant %+v", i, m, got, m)
			// Encoding is a function of the message: the decoded copy
			// encodes to the same bytes.
			again := Encode(nil, got, reliable, seq)
			require.Equal(t, string(pkt), string(again), "#%d %T: re-encoded differently", i, m)
			key := fmt.Sprintf("%T", m)
			if e, ok := m.(*Empty); ok {
				key += e.Kind.String()
			}
			seen[key]++
		}
	}
	// Every type was exercised, the Empty kinds each on their own.
	require.Equal(t, 36+len(emptyKinds), len(seen), "exercised %d kinds: %v", len(seen), seen)
}

func TestPropertyDecodingIntoAUsedValueEqualsDecodingIntoAFreshOne(t *testing.T) {
	g := newGen(5)
	for i := range 2000 {
		a, b := g.messages(), g.messages()
		for k := range a {
			require.Equal(t, fmt.Sprintf("%T", b[k]), fmt.Sprintf("%T", a[k]), "generator order changed")
			m := fresh(b[k])
			setOptions(m, a[k])
			_, err := Decode(Encode(nil, a[k], false, 0), m)
			require.NoError(t, err, "#%d %T", i, a[k])
			setOptions(m, b[k])
			_, err = Decode(Encode(nil, b[k], false, 0), m)
			require.NoError(t, err, "#%d %T", i, b[k])
			require.True(t, sameMessage(m, b[k]), "#%d %T: stale data from the first decode:\n got %+v\nwant %+v", i, m, m, b[k])
		}
	}
}

// setOptions gives m the options of from that are not on the wire.
func setOptions(m, from Message) {
	switch v := m.(type) {
	case *ClientGameData:
		o := from.(*ClientGameData)
		v.LowResTurn, v.InputSize, v.Ext, v.Near = o.LowResTurn, o.InputSize, o.Ext, o.Near
	case *ServerGameData:
		v.LowResTurn = from.(*ServerGameData).LowResTurn
	case *TicSet:
		o := from.(*TicSet)
		v.LowResTurn, v.InputSize, v.Near = o.LowResTurn, o.InputSize, o.Near
	}
}

func TestPropertyEveryMessageTypeCutAtEveryLengthFailsAtANonDecreasingOffsetWithinTheCut(t *testing.T) {
	g := newGen(6)
	for range 40 { // each message is cut at every length: O(n²) per message
		for _, m := range g.messages() {
			_, isSYN := m.(*SYN)
			_, isReply := m.(*SYNReply)
			reliable := isReply || (!isSYN && g.bool())
			var valid func(int) bool
			switch v := m.(type) {
			case *Empty: // the header alone is the whole message
				valid = func(n int) bool { return n >= (Header{Reliable: reliable}).Len() }
			case *QueryResponse: // the protocol list is optional
				if v.HasProtocols {
					c := *v
					c.HasProtocols = false
					listAt := len(Encode(nil, &c, reliable, 0))
					valid = func(n int) bool { return n == listAt }
				}
			case *ClientGameData: // so is a report
				if len(v.Report.Sums) > 0 {
					c := *v
					c.Report.Sums = nil
					reportAt := len(Encode(nil, &c, reliable, 0))
					valid = func(n int) bool { return n == reportAt }
				}
			}
			offs := checkTruncations(t, m, reliable, valid)
			last := 0
			for n, off := range offs {
				if off < 0 {
					continue
				}
				require.GreaterOrEqual(t, off, last, "%T: cut at %d fails at %d, before the failure at %d of a shorter cut", m, n, off, last)
				last = off
			}
		}
	}
}
