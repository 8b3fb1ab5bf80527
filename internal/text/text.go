// Package text builds the few texts of ticnet's packages that fmt would
// format with more than strconv: zero-padded hex, a list of numbers, and
// an error that wraps another. The packages ticnet.wasm links use it and
// strconv, not fmt, which formats through reflection: fmt kept them 113 KB
// smaller after brotli (docs/measurements.md) until safejs and crypto/rand brought it
// back in, and still keeps reflection and its allocations off the
// engine's paths. Each function gives what the fmt verb in its comment
// gives.
package text

import "strconv"

// Hex is v in lower-case hex, zero-padded to digits: fmt's %0<digits>x.
func Hex(v uint64, digits int) string {
	s := strconv.FormatUint(v, 16)
	for len(s) < digits {
		s = "0" + s
	}
	return s
}

// Ints is v as fmt's %v has a []int: "[1 2 3]".
func Ints(v []int) string {
	b := []byte{'['}
	for i, x := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(append(b, ']'))
}

// Wrap is an error whose text is prefix then err's, and which wraps err
// (errors.Is and errors.As see it): fmt.Errorf(prefix + "%w", err).
func Wrap(prefix string, err error) error {
	return &wrapped{text: prefix + err.Error(), err: err}
}

type wrapped struct {
	text string
	err  error
}

func (w *wrapped) Error() string { return w.text }
func (w *wrapped) Unwrap() error { return w.err }
