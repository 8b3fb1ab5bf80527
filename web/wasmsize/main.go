// Command wasmsize says what a Go wasm binary's code is made of: the
// bytes of function bodies per Go package (from the binary's name
// section), largest first, and the data segments' bytes; with -deps, the
// package the binary was built from, what each of its dependencies adds
// (internal/wasmsize). It is how ticnet measures what each dependency
// costs in ticnet.wasm:
//
//	GOOS=js GOARCH=wasm go build -o /tmp/t.wasm ./wasm && go run ./web/wasmsize -deps ./wasm /tmp/t.wasm
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/ticnet/ticnet/internal/wasmsize"
)

func main() {
	top := flag.Int("top", 30, "packages to list")
	deps := flag.String("deps", "", "the package the binary was built from (GOOS=js GOARCH=wasm): list what each of its dependencies adds")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-top N] [-deps ./pkg] file.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err == nil {
		var s wasmsize.Sizes
		if s, err = wasmsize.Measure(b); err == nil {
			printPackages(os.Stdout, s, *top)
		}
		if err == nil && *deps != "" {
			var pkgs []wasmsize.Package
			if pkgs, err = wasmsize.List(".", *deps); err == nil {
				fmt.Fprintln(os.Stdout, "what each dependency adds (the code of the packages only it brings):")
				wasmsize.PrintAdds(os.Stdout, wasmsize.Adds(pkgs, s))
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

// printPackages lists the top packages by code bytes.
func printPackages(w io.Writer, s wasmsize.Sizes, top int) {
	type row struct {
		pkg string
		n   int
	}
	var rows []row
	for p, n := range s.Pkgs {
		rows = append(rows, row{p, n})
	}
	sort.Slice(rows, func(i, j int) bool {
		return rows[i].n > rows[j].n || rows[i].n == rows[j].n && rows[i].pkg < rows[j].pkg
	})
	fmt.Fprintf(w, "%d bytes: code %d, data %d\n", s.Total, s.Code, s.Data)
	for i, r := range rows {
		if i == top {
			break
		}
		fmt.Fprintf(w, "%9d %5.1f%%  %s\n", r.n, 100*float64(r.n)/float64(s.Code), r.pkg)
	}
}
