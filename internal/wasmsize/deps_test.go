package wasmsize

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The root imports a module's package and a standard-library tree's two
// packages; both bring a shared package, the module its own internal
// one, the tree one more; the runtime comes with syscall/js. Each
// dependency adds what only it brings; the shared package, and not the
// runtime, is "(shared)"; the code is the name section's.
func TestAddsCountsWhatOnlyEachDependencyBrings(t *testing.T) {
	mod := func(p string) *struct{ Path string } { return &struct{ Path string }{p} }
	pkgs := []Package{
		{ImportPath: "runtime"},
		{ImportPath: "syscall/js", Imports: []string{"runtime"}},
		{ImportPath: "fmt", Imports: []string{"runtime"}},
		{ImportPath: "github.com/x-y/z/internal/in", Imports: []string{"fmt"}, Module: mod("github.com/x-y/z")},
		{ImportPath: "github.com/x-y/z", Imports: []string{"github.com/x-y/z/internal/in", "syscall/js"}, Module: mod("github.com/x-y/z")},
		{ImportPath: "crypto/internal/c", Imports: []string{"fmt"}},
		{ImportPath: "crypto/a", Imports: []string{"crypto/internal/c"}},
		{ImportPath: "crypto/b", Imports: []string{"crypto/internal/c"}},
		{ImportPath: "example.com/game/own", Imports: []string{"crypto/a"}, Module: mod("example.com/game")},
		{ImportPath: "example.com/game", Imports: []string{"example.com/game/own", "crypto/b", "github.com/x-y/z", "syscall/js"}, Module: mod("example.com/game")},
	}
	s := Sizes{Pkgs: map[string]int{"runtime": 1000, "syscall/js": 100, "fmt": 50, "github.com/x/y/z": 7, "github.com/x/y/z/internal/in": 3,
		"crypto/internal/c": 20, "crypto/a": 2, "crypto/b": 1}}
	want := []Dependency{
		{Path: "crypto", Packages: []string{"crypto/a", "crypto/b", "crypto/internal/c"}, Code: 23},
		{Path: "github.com/x-y/z", Packages: []string{"github.com/x-y/z", "github.com/x-y/z/internal/in"}, Code: 10},
		{Path: "syscall", Packages: nil, Code: 0},
		{Path: "(shared)", Packages: []string{"fmt"}, Code: 50},
	}
	require.Equal(t, want, Adds(pkgs, s))
}
