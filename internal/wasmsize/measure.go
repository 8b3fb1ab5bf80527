// Package wasmsize says what a Go wasm binary's code is made of: the
// bytes of function bodies per Go package (from the binary's name
// section: build without -ldflags=-s), the data segments' bytes, and what
// each dependency adds (the code of the packages only it brings). It is
// how ticnet measures what each dependency costs in ticnet.wasm
// (BenchmarkWasmSize, web/wasmsize).
package wasmsize

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// Sizes is what Measure found.
type Sizes struct {
	Total, Code, Data int
	Pkgs              map[string]int // code bytes per package, by PkgOf's name
}

// Measure reads a wasm module's import, code, data and name sections.
func Measure(b []byte) (Sizes, error) {
	s := Sizes{Total: len(b), Pkgs: map[string]int{}}
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return s, errors.New("not a wasm module")
	}
	r := reader{b: b, off: 8}
	imports := 0
	var bodies []int
	names := map[int]string{}
	for r.off < len(r.b) && r.err == nil {
		id := r.byte()
		n := int(r.uleb())
		sec := reader{b: r.take(n)}
		switch id {
		case 2: // imports: the imported functions come first in the index space
			for range sec.uleb() {
				sec.name()
				sec.name()
				switch kind := sec.byte(); kind {
				case 0:
					sec.uleb()
					imports++
				case 1: // table
					sec.byte()
					sec.limits()
				case 2:
					sec.limits()
				case 3:
					sec.byte()
					sec.byte()
				}
			}
		case 10: // code
			for range sec.uleb() {
				size := int(sec.uleb())
				sec.take(size)
				bodies = append(bodies, size)
				s.Code += size
			}
		case 11: // data
			s.Data += n
		case 0:
			if sec.name() != "name" {
				continue
			}
			for sec.off < len(sec.b) && sec.err == nil {
				sub := sec.byte()
				sn := int(sec.uleb())
				ss := reader{b: sec.take(sn)}
				if sub != 1 {
					continue
				}
				for range ss.uleb() {
					idx := int(ss.uleb())
					names[idx] = ss.name()
				}
				sec.err = errors.Join(sec.err, ss.err)
			}
		}
		r.err = errors.Join(r.err, sec.err)
	}
	if r.err != nil {
		return s, r.err
	}
	for i, size := range bodies {
		s.Pkgs[PkgOf(names[imports+i])] += size
	}
	return s, nil
}

// PkgOf is the package of a function's symbol, as Go's wasm names it
// (slashes as underscores): "encoding/json" of
// "encoding_json.__decodeState_.object", "github.com/hack-pad/safejs" of
// "github.com_hack-pad_safejs.Value.Get". Underscores in a package's own
// name come back as slashes too: the listing is for reading.
func PkgOf(sym string) string {
	if sym == "" {
		return "(unnamed)"
	}
	end := strings.IndexByte(sym, '.')
	// A module path's host keeps its dot: skip it.
	for _, tld := range []string{"com_", "org_", "io_", "net_", "in_", "dev_"} {
		if end >= 0 && strings.HasPrefix(sym[end+1:], tld) {
			next := strings.IndexByte(sym[end+1:], '.')
			if next < 0 {
				return strings.ReplaceAll(sym, "_", "/")
			}
			end += 1 + next
			break
		}
	}
	if end < 0 {
		return sym
	}
	return strings.ReplaceAll(sym[:end], "_", "/")
}

// reader reads a wasm binary; the first error sticks.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n < 0 || r.off+n > len(r.b) {
		r.err = errors.Join(r.err, fmt.Errorf("truncated at byte %d", r.off))
		r.off = len(r.b)
		return nil
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

func (r *reader) byte() byte {
	if p := r.take(1); p != nil {
		return p[0]
	}
	return 0
}

func (r *reader) uleb() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.err = fmt.Errorf("bad LEB128 at byte %d", r.off)
		r.off = len(r.b)
		return 0
	}
	r.off += n
	return v
}

func (r *reader) name() string { return string(r.take(int(r.uleb()))) }

func (r *reader) limits() {
	if r.byte()&1 != 0 {
		r.uleb()
	}
	r.uleb()
}
