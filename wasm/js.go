//go:build js && wasm

package main

import "github.com/hack-pad/safejs"

// The little of JS this binding needs, through safejs: every call, read
// and write of a JS value returns what JS threw (or a value of the wrong
// type) as an error, never a panic, and the net loop hands it to the page
// as an "error" event (loop.fail). What the page gets (events, stats,
// results) are JS objects built here, and what it gives is read from its
// objects: no JSON either side (encoding/json added 227 KB to
// ticnet.wasm after brotli when it was measured: docs/measurements.md).

// Constructors, looked up once (undefined, and every New of them an
// error, on a page without them).
var (
	uint8Array = global("Uint8Array")
	jsObject   = global("Object")
	jsArray    = global("Array")
)

// global is globalThis[name]; undefined when reading it throws.
func global(name string) safejs.Value {
	v, err := safejs.Global().Get(name)
	if err != nil {
		return safejs.Undefined()
	}
	return v
}

// errs keeps the first error of a run of reads and writes of JS values,
// so that the run reads as plain code and is checked once, at its end.
// After an error, reads give undefined and writes do nothing.
type errs struct{ err error }

func (x *errs) keep(err error) {
	if x.err == nil {
		x.err = err
	}
}

// get is obj[name].
func (x *errs) get(obj safejs.Value, name string) safejs.Value {
	if x.err != nil {
		return safejs.Undefined()
	}
	v, err := obj.Get(name)
	x.keep(err)
	return v
}

// index is obj[i].
func (x *errs) index(obj safejs.Value, i int) safejs.Value {
	if x.err != nil {
		return safejs.Undefined()
	}
	v, err := obj.Index(i)
	x.keep(err)
	return v
}

// set sets obj[name] to v.
func (x *errs) set(obj safejs.Value, name string, v any) {
	if x.err == nil {
		x.keep(obj.Set(name, v))
	}
}

// object returns a new empty JS object.
func (x *errs) object() safejs.Value { return x.construct(jsObject) }

// construct returns new c(args...).
func (x *errs) construct(c safejs.Value, args ...any) safejs.Value {
	if x.err != nil {
		return safejs.Undefined()
	}
	v, err := c.New(args...)
	x.keep(err)
	return v
}

// bytes returns a new Uint8Array holding a copy of b.
func (x *errs) bytes(b []byte) safejs.Value {
	buf := x.construct(uint8Array, len(b))
	if x.err == nil {
		_, err := safejs.CopyBytesToJS(buf, b)
		x.keep(err)
	}
	return buf
}

// newArray returns a new JS array of len(v) numbers or strings.
func newArray[T int | uint32 | string](x *errs, v []T) safejs.Value {
	a := x.construct(jsArray, len(v))
	for i, e := range v {
		if x.err != nil {
			break
		}
		x.keep(a.SetIndex(i, e))
	}
	return a
}

// arrayOrNull is newArray of v, or null for a nil v (as encoding/json had
// it).
func arrayOrNull[T int | uint32 | string](x *errs, v []T) safejs.Value {
	if v == nil {
		return safejs.Null()
	}
	return newArray(x, v)
}

// number is v as a number: 0 when it is none (undefined, or the wrong
// type).
func number(v safejs.Value) float64 {
	if v.Type() != safejs.TypeNumber {
		return 0
	}
	f, err := v.Float()
	if err != nil {
		return 0
	}
	return f
}

// integer is v as an int, truncated: 0 when it is no number.
func integer(v safejs.Value) int { return int(number(v)) }

// truthy is whether v is truthy in JS.
func truthy(v safejs.Value) bool {
	t, err := v.Truthy()
	return err == nil && t
}

// text is v as a string: "" when it is no string.
func text(v safejs.Value) string {
	if v.Type() != safejs.TypeString {
		return ""
	}
	s, err := v.String()
	if err != nil {
		return ""
	}
	return s
}

// isFunc reports whether obj[name] is a function.
func isFunc(obj safejs.Value, name string) bool {
	var x errs
	return obj.Type() == safejs.TypeObject && x.get(obj, name).Type() == safejs.TypeFunction && x.err == nil
}
