// Command serve serves the built demo for `make run`, and packs it as a
// .xdc bundle for `make xdc`.
//
//	go run ./web/serve -dir build/web -addr 127.0.0.1:8080
//	go run ./web/serve -dir build/web -pack dist/ticnet-demo.xdc
//
// Served locally there is no messenger, so /webxdc.js is an empty script and
// the shim falls back to a BroadcastChannel: open the page in several tabs.
// The .xdc holds every file of the folder except webxdc.js, which the
// messenger injects.
package main

import (
	"archive/zip"
	"flag"
	"fmt"
	"io"
	"log"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	dir := flag.String("dir", "build/web", "folder of the built demo")
	addr := flag.String("addr", "127.0.0.1:8080", "address to serve on")
	pack := flag.String("pack", "", "write a .xdc bundle of -dir to this file instead of serving")
	flag.Parse()
	if *pack != "" {
		if err := packXDC(*dir, *pack); err != nil {
			log.Fatal(err)
		}
		fmt.Println("wrote", *pack)
		return
	}
	if err := mime.AddExtensionType(".wasm", "application/wasm"); err != nil {
		log.Fatal(err)
	}
	files := http.FileServer(http.Dir(*dir))
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if r.URL.Path == "/webxdc.js" {
			w.Header().Set("Content-Type", "text/javascript")
			io.WriteString(w, "// no messenger here: ticnet uses a BroadcastChannel\n")
			return
		}
		files.ServeHTTP(w, r)
	})
	fmt.Printf("ticnet demo: http://%s/  (open it in several tabs)\n", *addr)
	log.Fatal(http.ListenAndServe(*addr, nil))
}

// packXDC zips every file of dir, index.html at the root, webxdc.js left out.
func packXDC(dir, out string) error {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if rel != "webxdc.js" {
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	if i := sort.SearchStrings(names, "index.html"); i == len(names) || names[i] != "index.html" {
		return fmt.Errorf("%s has no index.html: build the demo first", dir)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	z := zip.NewWriter(f)
	for _, name := range names {
		w, err := z.Create(name)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	if err := z.Close(); err != nil {
		return err
	}
	return f.Close()
}
