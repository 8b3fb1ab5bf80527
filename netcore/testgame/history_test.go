package testgame

import (
	"reflect"
	"testing"

	"github.com/ticnet/ticnet/netcore/tic"

	"github.com/stretchr/testify/require"
)

// Every field of every command RunTic is given comes back from the
// history, whatever the field: each is set alone, by reflection, so that
// a field added to tic.Cmd and not kept fails here. A tic run again (a
// rollback) keeps its second commands, opaque input or not, and a tic
// never run reads as not run.
func TestTheHistoryKeepsEveryFieldOfEveryCommand(t *testing.T) {
	g := New(1)
	var ingame [tic.MaxPlayers]bool
	ingame[2], ingame[5] = true, true
	var want []Ran
	typ := reflect.TypeFor[tic.Cmd]()
	for f := range typ.NumField() {
		var cmds [tic.MaxPlayers]tic.Cmd
		for p := range cmds {
			v := reflect.ValueOf(&cmds[p]).Elem().Field(f)
			switch v.Kind() {
			case reflect.Int8, reflect.Int16:
				v.SetInt(int64(-1 - p))
			case reflect.Uint8, reflect.Uint16:
				v.SetUint(uint64(200 + p))
			case reflect.Array:
				v.Index(v.Len() - 1 - p).SetUint(uint64(100 + p))
			default:
				t.Fatalf("field %s of kind %v: teach this test to set it", typ.Field(f).Name, v.Kind())
			}
		}
		before := g.Checksum()
		g.RunTic(uint32(f), &cmds, &ingame)
		want = append(want, Ran{Cmds: cmds, InGame: 1<<2 | 1<<5, Before: before, OK: true})
	}
	h := g.Ran()
	require.Equal(t, len(want), h.Len())
	for f, w := range want {
		require.Equal(t, w, h.At(uint32(f)), "tic %d: field %s", f, typ.Field(f).Name)
		in, before, ok := h.Head(uint32(f))
		require.Equal(t, [3]any{w.InGame, w.Before, true}, [3]any{in, before, ok}, "tic %d: head", f)
	}

	// Run again: the last tic (opaque input) with none, the first with some.
	last := uint32(len(want) - 1)
	var plain, opaque [tic.MaxPlayers]tic.Cmd
	plain[2].Buttons = 7
	opaque[5].Input[0] = 9
	g.RunTic(last, &plain, &ingame)
	g.RunTic(0, &opaque, &ingame)
	require.Equal(t, plain, g.Ran().At(last).Cmds, "tic %d run again without opaque input", last)
	require.Equal(t, opaque, g.Ran().At(0).Cmds, "tic 0 run again with opaque input")

	g.RunTic(last+3, &plain, &ingame)
	require.Equal(t, Ran{}, g.Ran().At(last+1), "a tic skipped")
	require.Equal(t, Ran{}, g.Ran().At(last+9), "a tic beyond the history")
	require.Equal(t, int(last)+4, g.Ran().Len())
}
