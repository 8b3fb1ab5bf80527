package wasmsize

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// Package is a package of a build, as go list -json gives it.
type Package struct {
	ImportPath string
	Imports    []string
	Module     *struct{ Path string }
}

// List lists the packages that pkg (a pattern go list takes, run in
// dir) links for GOOS=js GOARCH=wasm, pkg itself last.
func List(dir, pkg string) ([]Package, error) {
	cmd := exec.Command("go", "list", "-deps", "-json", pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v: %s", pkg, err, stderr.Bytes())
	}
	var pkgs []Package
	for d := json.NewDecoder(bytes.NewReader(out)); ; {
		var p Package
		if err := d.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		return nil, errors.New("go list " + pkg + ": no packages")
	}
	return pkgs, nil
}

// Dependency is what one dependency adds to a binary: the packages that
// only it brings (its own among them: without it, they would not be
// linked), and their code.
type Dependency struct {
	Path     string // a module's path, or a standard-library tree's ("crypto")
	Packages []string
	Code     int // bytes of function bodies
}

// Adds says what each dependency of the root's module adds to the binary
// measured in s: a dependency is a module, or a tree of the standard
// library ("crypto": crypto/sha256 and crypto/rand), that a package of the
// root's module imports; what it adds is the packages no longer reachable
// from the root without it. Packages that two dependencies both bring
// count for neither: the last Dependency, "(shared)", holds them (the
// runtime and what syscall/js brings are every such binary's, and in
// none). pkgs is
// List's, the root last; the largest come first.
func Adds(pkgs []Package, s Sizes) []Dependency {
	root := pkgs[len(pkgs)-1]
	mod := func(p Package) string {
		if p.Module != nil {
			return p.Module.Path
		}
		return strings.SplitN(p.ImportPath, "/", 2)[0]
	}
	byPath := map[string]Package{}
	for _, p := range pkgs {
		byPath[p.ImportPath] = p
	}
	// reach is the packages from reaches through none of skip's.
	reach := func(from string, skip map[string]bool) map[string]bool {
		seen := map[string]bool{}
		var visit func(string)
		visit = func(path string) {
			if skip[path] || seen[path] {
				return
			}
			seen[path] = true
			for _, q := range byPath[path].Imports {
				if _, ok := byPath[q]; ok {
					visit(q)
				}
			}
		}
		visit(from)
		return seen
	}
	groups := map[string]map[string]bool{} // a dependency's imported packages
	every := map[string]bool{}
	for _, p := range pkgs {
		if mod(p) != mod(root) {
			continue
		}
		for _, q := range p.Imports {
			if d, ok := byPath[q]; ok && mod(d) != mod(root) {
				if groups[mod(d)] == nil {
					groups[mod(d)] = map[string]bool{}
				}
				groups[mod(d)][q], every[q] = true, true
			}
		}
	}
	all := reach(root.ImportPath, nil)
	// What every Go program for the browser links is no dependency's.
	base := reach("syscall/js", nil)
	code := func(path string) int { return s.Pkgs[symbolPath.Replace(path)] }
	var deps []Dependency
	counted := map[string]bool{}
	for name, skip := range groups {
		without := reach(root.ImportPath, skip)
		dep := Dependency{Path: name}
		for path := range all {
			if !without[path] && !base[path] {
				dep.Packages = append(dep.Packages, path)
				dep.Code += code(path)
				counted[path] = true
			}
		}
		slices.Sort(dep.Packages)
		deps = append(deps, dep)
	}
	slices.SortFunc(deps, func(a, b Dependency) int {
		if a.Code != b.Code {
			return b.Code - a.Code
		}
		return strings.Compare(a.Path, b.Path)
	})
	shared := Dependency{Path: "(shared)"}
	withoutAny := reach(root.ImportPath, every)
	for path := range all {
		if !withoutAny[path] && !counted[path] && !base[path] {
			shared.Packages = append(shared.Packages, path)
			shared.Code += code(path)
		}
	}
	slices.Sort(shared.Packages)
	return append(deps, shared)
}

// symbolPath turns an import path into PkgOf's name of it: Go's wasm
// symbols have underscores for slashes and dashes.
var symbolPath = strings.NewReplacer("_", "/", "-", "/")

// PrintAdds writes one line per dependency: its code, how many packages
// it brings, and its path; for the shared packages, which.
func PrintAdds(w io.Writer, deps []Dependency) {
	for _, d := range deps {
		fmt.Fprintf(w, "%9d  %3d packages  %s", d.Code, len(d.Packages), d.Path)
		if d.Path == "(shared)" {
			fmt.Fprintf(w, ": %s", strings.Join(d.Packages, " "))
		}
		fmt.Fprintln(w)
	}
}
