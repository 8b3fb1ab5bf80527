package fingerprint

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type kind int

func (k kind) String() string { return [...]string{"none", "joined", "left"}[k] }

type event struct {
	Kind    kind
	Player  *int
	Name    string
	Tic     uint32
	Players []int
	Data    []byte
}

// game feeds a print a small game: two frames, two events, two tics.
func game(frame byte, reason string, sum uint32) string {
	var f Print
	f.Frame(5, 0, []byte{1, 2, frame})
	f.Frame(10, 1, []byte{4, 5, 6})
	two := 2
	f.Event(10, -1, event{Kind: 1, Player: &two, Name: "copy2"})
	f.Event(15, 1, event{Kind: 2, Name: reason, Players: []int{0, 2}})
	f.Tic(0, 0, 0x1234, [2]uint16{7, 8})
	f.Tic(0, 1, sum, [2]uint16{7, 9})
	return f.String()
}

// parts splits a print into its three parts.
func parts(s string) [3]string {
	w := strings.Fields(s)
	return [3]string{strings.Join(w[0:3], " "), strings.Join(w[3:6], " "), strings.Join(w[6:9], " ")}
}

// One byte of one frame, one field of one event, one checksum: each
// changes the print, in its own part and in no other.
func TestOneChangedByteEventOrChecksumChangesItsPartOnly(t *testing.T) {
	base := game(3, "left", 0x5678)
	again := game(3, "left", 0x5678)
	require.Equal(t, base, again, "the same game printed %q and %q", base, again)
	for i, changed := range []string{game(4, "left", 0x5678), game(3, "lefT", 0x5678), game(3, "left", 0x5679)} {
		b, c := parts(base), parts(changed)
		for part := range 3 {
			assert.Equal(t, (part == i), (b[part] != c[part]), "change %d: part %d went from %q to %q", i, part, b[part], c[part])
		}
	}
	require.True(t, strings.HasPrefix(base, "frames 2 "), "counts wrong: %q", base)
	require.Contains(t, base, " events 2 ", "counts wrong: %q", base)
	require.Contains(t, base, " tics 2 ", "counts wrong: %q", base)
}

// Canon writes a struct's fields that are set, by name: a field added to
// an event changes no print until it is set.
func TestCanonWritesTheFieldsThatAreSet(t *testing.T) {
	two := 2
	for _, c := range []struct {
		v    any
		want string
	}{
		{event{Kind: 1, Player: &two}, "{Kind=joined Player=2}"},
		{event{Name: "a b", Players: []int{1, 3}, Data: []byte{0xab, 1}}, `{Name="a b" Players=[1 3] Data=ab01}`},
		{event{}, "{}"},
		{[2]uint16{7, 9}, "[7 9]"},
		{nil, "nil"},
	} {
		got := Canon(c.v)
		assert.Equal(t, c.want, got, "Canon(%#v) =", c.v)
	}
}
