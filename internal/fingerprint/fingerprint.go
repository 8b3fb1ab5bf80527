// Package fingerprint hashes what a whole simulated game did into one
// value: every frame its copies sent, every event they reported, every
// tic their games ran (the commands, who was in, the checksum). A
// restructuring of the engine that changes nothing observable leaves the
// fingerprints of the seeded games in netcore/scenario and
// election/session as they were; one that changes them must say which,
// and why.
//
// A fingerprint keeps three parts apart (frames, events, tics), each with
// its count, so that a changed value says where it changed. Values are
// written in a canonical text (Canon): a struct's fields that are not
// zero, by name, so that a field added to an event changes no print
// until the field is set. For a closer look, Log writes that text, line
// by line, for two runs to be compared with diff (For does it when
// FINGERPRINT_LOG names a folder).
package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Print is the fingerprint of one game.
type Print struct {
	frames, events, tics part
	// Log, if set, receives every line hashed, tagged with its part.
	Log io.Writer
}

// part is one hashed stream and its count.
type part struct {
	h hash.Hash
	n int
}

func (p *part) add(log io.Writer, tag string, line []byte) {
	if p.h == nil {
		p.h = sha256.New()
	}
	p.h.Write(line)
	p.h.Write([]byte{'\n'})
	p.n++
	if log != nil {
		fmt.Fprintf(log, "%s %s\n", tag, line)
	}
}

func (p *part) sum() string {
	if p.h == nil {
		return "-"
	}
	return hex.EncodeToString(p.h.Sum(nil)[:6])
}

// Frame adds a frame that node sent at ms.
func (f *Print) Frame(ms int64, node int, frame []byte) {
	f.frames.add(f.Log, "frame", fmt.Appendf(nil, "%d %d %x", ms, node, frame))
}

// Event adds an event that who (a copy, or -1 for a server of its own)
// reported at ms.
func (f *Print) Event(ms int64, who int, e any) {
	f.events.add(f.Log, "event", fmt.Appendf(nil, "%d %d %s", ms, who, Canon(e)))
}

// Tic adds what who's game did at tic: ran is anything that says it
// (Canon writes it), sum the checksum after it.
func (f *Print) Tic(who int, tic uint32, sum uint32, ran any) {
	f.tics.add(f.Log, "tic", fmt.Appendf(nil, "%d %d %08x %s", who, tic, sum, Canon(ran)))
}

// Value adds a named value about who's game (how often the engine called
// it, say: a rollback shows in no frame and no tic): hashed with the tics.
func (f *Print) Value(who int, name string, v any) {
	f.tics.add(f.Log, "value", fmt.Appendf(nil, "%d %s %s", who, name, Canon(v)))
}

// Data adds a named blob that a copy produced (a replay, say): hashed with
// the tics.
func (f *Print) Data(who int, name string, data []byte) {
	d := sha256.Sum256(data)
	f.tics.add(f.Log, "data", fmt.Appendf(nil, "%d %s %d %x", who, name, len(data), d[:8]))
}

// String is the fingerprint: each part's count and hash.
func (f *Print) String() string {
	return fmt.Sprintf("frames %d %s events %d %s tics %d %s",
		f.frames.n, f.frames.sum(), f.events.n, f.events.sum(), f.tics.n, f.tics.sum())
}

// Canon writes v in the canonical text the fingerprint hashes: numbers,
// strings and byte slices as they are, a value with a String method (an
// enum) by it, a pointer by what it points to, a slice or array element
// by element, and a struct by its fields that are not zero,
// "Name=value", in the order they are declared.
func Canon(v any) string {
	var b strings.Builder
	canon(&b, reflect.ValueOf(v))
	return b.String()
}

func canon(b *strings.Builder, v reflect.Value) {
	if !v.IsValid() {
		b.WriteString("nil")
		return
	}
	if v.Kind() != reflect.Struct && v.CanInterface() {
		if s, ok := v.Interface().(fmt.Stringer); ok {
			b.WriteString(s.String())
			return
		}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		canon(b, v.Elem())
	case reflect.Struct:
		b.WriteByte('{')
		first := true
		for i := range v.NumField() {
			fv := v.Field(i)
			if fv.IsZero() {
				continue
			}
			if !first {
				b.WriteByte(' ')
			}
			first = false
			b.WriteString(v.Type().Field(i).Name)
			b.WriteByte('=')
			canon(b, fv)
		}
		b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b.WriteString(hexOf(v))
			return
		}
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(' ')
			}
			canon(b, v.Index(i))
		}
		b.WriteByte(']')
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	default:
		fmt.Fprintf(b, "%v", v)
	}
}

// hexOf is a byte slice's or array's bytes in hex.
func hexOf(v reflect.Value) string {
	bs := make([]byte, v.Len())
	for i := range bs {
		bs[i] = byte(v.Index(i).Uint())
	}
	return hex.EncodeToString(bs)
}

// LogDirEnv names the environment variable that, when set to a folder,
// makes For log each game's hashed lines to <folder>/<name>.log.
const LogDirEnv = "FINGERPRINT_LOG"

// For returns a new print for the game a test names; with LogDirEnv set,
// its lines go to a log file, closed when the test ends.
func For(t testing.TB, name string) *Print {
	f := &Print{}
	dir := os.Getenv(LogDirEnv)
	if dir == "" {
		return f
	}
	file, err := os.Create(filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { file.Close() })
	f.Log = file
	return f
}
