package wasmsize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPkgOfReadsGoWasmSymbols(t *testing.T) {
	for sym, want := range map[string]string{
		"encoding_json.__decodeState_.object":                 "encoding/json",
		"runtime.mallocgc":                                    "runtime",
		"github.com_hack-pad_safejs.Value.Get":                "github.com/hack-pad/safejs",
		"github.com_ticnet_ticnet_netcore_synctest.Run.func1": "github.com/ticnet/ticnet/netcore/synctest",
		"github.com_ticnet_ticnet_netcore.__Client_.run":      "github.com/ticnet/ticnet/netcore",
		"":                "(unnamed)",
		"wasm_export_run": "wasm_export_run",
	} {
		assert.Equal(t, want, PkgOf(sym), "PkgOf(%q)", sym)
	}
}

// A module of one imported function and two bodies, the second named:
// the bodies' bytes go to their packages, the data section counts apart.
func TestMeasureAddsBodiesByPackage(t *testing.T) {
	mod := []byte("\x00asm\x01\x00\x00\x00")
	mod = append(mod, 2, 7, 1, 1, 'm', 1, 'f', 0, 0)       // imports: one function
	mod = append(mod, 10, 8, 2, 2, 0, 0x0b, 3, 0, 1, 0x0b) // code: bodies of 2 and 3 bytes
	mod = append(mod, 11, 3, 0, 0, 0)                      // data: 3 bytes
	name := []byte{4, 'n', 'a', 'm', 'e', 1, 0}
	fns := []byte{1, 2, 8}
	fns = append(fns, "fmt.Sprintf"[:8]...)
	name[6] = byte(len(fns))
	name = append(name, fns...)
	mod = append(mod, 0, byte(len(name)))
	mod = append(mod, name...)
	s, err := Measure(mod)
	require.NoError(t, err)
	require.Equal(t, 5, s.Code, "%+v", s)
	require.Equal(t, 3, s.Data, "%+v", s)
	require.Equal(t, 3, s.Pkgs["fmt"], "%+v", s)
	require.Equal(t, 2, s.Pkgs["(unnamed)"], "%+v", s)
	_, err = Measure(mod[:len(mod)-3])
	require.Error(t, err, "a truncated module measured")
	_, err = Measure([]byte("nope"))
	require.Error(t, err, "not a module, measured")
}
