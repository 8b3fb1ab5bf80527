//go:build js && wasm

// Command jscost measures, in the browser, what safejs adds to each kind
// of crossing between Go and JS that ticnet.wasm makes: the same
// operation through syscall/js as ticnet.wasm made it before safejs (a
// call and a copy under a deferred recover, reads and writes bare) and
// through safejs. BenchmarkFourTabGame multiplies it by the crossings a
// tic makes. It publishes globalThis.__jscost: for each kind (named as
// wasm_exec.js's imports are), [ns before, ns with safejs] per operation.
package main

import (
	"syscall/js"
	"time"

	"github.com/hack-pad/safejs"
)

// rounds is how often each operation runs in a run.
const rounds = 50_000

// catch, deferred, recovers what syscall/js panics with (as ticnet.wasm's
// call did before safejs).
func catch(err *error) {
	if r := recover(); r != nil {
		*err = js.Error{}
	}
}

func invoke(fn js.Value, args ...any) (v js.Value, err error) {
	defer catch(&err)
	return fn.Invoke(args...), nil
}

func copyToGo(dst []byte, src js.Value) (n int, err error) {
	defer catch(&err)
	return js.CopyBytesToGo(dst, src), nil
}

func copyToJS(dst js.Value, src []byte) (n int, err error) {
	defer catch(&err)
	return js.CopyBytesToJS(dst, src), nil
}

// ns is the time of one run of op, in ns, over rounds runs.
func ns(op func(i int)) float64 {
	began := time.Now()
	for i := range rounds {
		op(i)
	}
	return float64(time.Since(began).Nanoseconds()) / rounds
}

func main() {
	g := js.Global()
	g.Set("__noop", js.Global().Get("Function").New("a", "return a"))
	fn, obj, buf := g.Get("__noop"), js.Global().Get("Object").New(), js.Global().Get("Uint8Array").New(64)
	sfn, sobj, sbuf := safejs.Safe(fn), safejs.Safe(obj), safejs.Safe(buf)
	ctor := g.Get("Object")
	sctor := safejs.Safe(ctor)
	b := make([]byte, 64)
	out := map[string]any{}
	// Each way's fastest of 5 runs, in turn: the least disturbed by
	// whatever else the machine runs.
	pair := func(name string, before, with func(i int)) {
		a, b := ns(before), ns(with)
		for range 4 {
			a, b = min(a, ns(before)), min(b, ns(with))
		}
		out[name] = []any{a, b}
	}
	pair("valueInvoke", func(i int) { invoke(fn, i) }, func(i int) { sfn.Invoke(i) })
	pair("valueGet", func(int) { obj.Get("x") }, func(int) { sobj.Get("x") })
	pair("valueSet", func(i int) { obj.Set("x", i) }, func(i int) { sobj.Set("x", i) })
	pair("valueNew", func(int) { ctor.New() }, func(int) { sctor.New() })
	pair("copyBytesToGo", func(int) { copyToGo(b, buf) }, func(int) { safejs.CopyBytesToGo(b, sbuf) })
	pair("copyBytesToJS", func(int) { copyToJS(buf, b) }, func(int) { safejs.CopyBytesToJS(sbuf, b) })
	g.Set("__jscost", js.ValueOf(out))
	select {}
}
