package text

import (
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The functions give what the fmt verbs they replace give.
func TestTextIsWhatFmtGives(t *testing.T) {
	for _, c := range []struct {
		v      uint64
		digits int
		format string
	}{{0, 8, "%08x"}, {0xabc, 8, "%08x"}, {0xdeadbeef, 8, "%08x"}, {0x1_0000_0000, 8, "%08x"}, {7, 2, "%02x"}, {0xff, 2, "%02x"}, {0x1ff, 2, "%02x"}} {
		got, want := Hex(c.v, c.digits), fmt.Sprintf(c.format, c.v)
		assert.Equal(t, want, got, "Hex(%#x, %d) = %q, fmt gives %q", c.v, c.digits, got, want)
	}
	for _, v := range [][]int{nil, {}, {3}, {0, -1, 7}} {
		got, want := Ints(v), fmt.Sprintf("%v", v)
		assert.Equal(t, want, got, "Ints(%v) = %q, fmt gives %q", v, got, want)
	}
}

func TestWrapKeepsTheErrorItWraps(t *testing.T) {
	err := Wrap("replay: ", io.ErrUnexpectedEOF)
	want := fmt.Errorf("replay: %w", io.ErrUnexpectedEOF).Error()
	assert.Equal(t, want, err.Error(), "text %q, fmt gives %q", err, want)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "errors.Is does not find the wrapped error")
}
