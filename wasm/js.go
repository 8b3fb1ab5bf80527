//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"
)

// The little of JS this binding needs, on syscall/js alone: calls whose
// exceptions come back as errors, reading the page's values, and building
// the objects the page gets (events, stats, results), with no JSON either
// side. (encoding/json would add 227 KB to ticnet.wasm after brotli, fmt
// 113 KB: README.md.)

// call calls fn, a function that takes no this, with args; an exception it
// throws comes back as the error (a js.Error), not as a panic.
func call(fn js.Value, args ...any) (v js.Value, err error) {
	defer catch(&err)
	return fn.Invoke(args...), nil
}

// catch, deferred, turns a panic of syscall/js's into *err: a js.Error
// (an exception), a *js.ValueError (a value of the wrong type), or the
// text of a copy's (not a Uint8Array).
func catch(err *error) {
	switch r := recover().(type) {
	case nil:
	case error:
		*err = r
	case string:
		*err = errors.New(r)
	default:
		panic(r)
	}
}

// copyToGo copies the Uint8Array src into dst, as js.CopyBytesToGo, with
// an error instead of a panic when src is no Uint8Array.
func copyToGo(dst []byte, src js.Value) (n int, err error) {
	defer catch(&err)
	return js.CopyBytesToGo(dst, src), nil
}

// copyToJS copies src into the Uint8Array dst, as js.CopyBytesToJS, with
// an error instead of a panic.
func copyToJS(dst js.Value, src []byte) (n int, err error) {
	defer catch(&err)
	return js.CopyBytesToJS(dst, src), nil
}

// Constructors, looked up once.
var (
	uint8Array = js.Global().Get("Uint8Array")
	jsObject   = js.Global().Get("Object")
	jsArray    = js.Global().Get("Array")
)

// newBytes returns a new Uint8Array holding a copy of b.
func newBytes(b []byte) (js.Value, error) {
	buf := uint8Array.New(len(b))
	_, err := copyToJS(buf, b)
	return buf, err
}

// newObject returns a new empty JS object.
func newObject() js.Value { return jsObject.New() }

// newArray returns a new JS array of len(v) numbers or strings.
func newArray[T int | uint32 | string](v []T) js.Value {
	a := jsArray.New(len(v))
	for i, x := range v {
		a.SetIndex(i, x)
	}
	return a
}

// arrayOrNull is newArray of v, or null for a nil v (as encoding/json had
// it).
func arrayOrNull[T int | uint32 | string](v []T) any {
	if v == nil {
		return nil
	}
	return newArray(v)
}

// number is v as a number: 0 when it is none (undefined, or the wrong type).
func number(v js.Value) float64 {
	if v.Type() != js.TypeNumber {
		return 0
	}
	return v.Float()
}

// integer is v as an int, truncated: 0 when it is no number.
func integer(v js.Value) int { return int(number(v)) }

// isFunc reports whether obj[name] is a function.
func isFunc(obj js.Value, name string) bool {
	return obj.Type() == js.TypeObject && obj.Get(name).Type() == js.TypeFunction
}

// method returns obj[name], to be called with call: a function of the
// shim's or the page's, which takes no this, looked up once rather than on
// every call.
func method(obj js.Value, name string) js.Value { return obj.Get(name) }
