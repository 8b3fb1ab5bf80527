package text

import (
	"errors"
	"fmt"
	"io"
	"testing"
)

// The functions give what the fmt verbs they replace give.
func TestTextIsWhatFmtGives(t *testing.T) {
	for _, c := range []struct {
		v      uint64
		digits int
		format string
	}{{0, 8, "%08x"}, {0xabc, 8, "%08x"}, {0xdeadbeef, 8, "%08x"}, {0x1_0000_0000, 8, "%08x"}, {7, 2, "%02x"}, {0xff, 2, "%02x"}, {0x1ff, 2, "%02x"}} {
		if got, want := Hex(c.v, c.digits), fmt.Sprintf(c.format, c.v); got != want {
			t.Errorf("Hex(%#x, %d) = %q, fmt gives %q", c.v, c.digits, got, want)
		}
	}
	for _, v := range [][]int{nil, {}, {3}, {0, -1, 7}} {
		if got, want := Ints(v), fmt.Sprintf("%v", v); got != want {
			t.Errorf("Ints(%v) = %q, fmt gives %q", v, got, want)
		}
	}
}

func TestWrapKeepsTheErrorItWraps(t *testing.T) {
	err := Wrap("replay: ", io.ErrUnexpectedEOF)
	if want := fmt.Errorf("replay: %w", io.ErrUnexpectedEOF).Error(); err.Error() != want {
		t.Errorf("text %q, fmt gives %q", err, want)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Error("errors.Is does not find the wrapped error")
	}
}
