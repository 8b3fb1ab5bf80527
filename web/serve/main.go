// Command serve serves the built demo for `make run`, and packs a game
// folder as a .xdc bundle for `make xdc`.
//
//	go run ./web/serve -dir build/web -addr 127.0.0.1:8080
//	go run ./web/serve -dir build/web -pack dist/ticnet-demo.xdc
//	go run ./web/serve -dir path/to/game -runtime "build/runtime/ticnet.js ..." -pack dist/game.xdc
//
// Served locally there is no messenger, so every webxdc.js is an empty
// script and the shim falls back to a BroadcastChannel: open the page in
// several tabs. The .xdc holds every file of the folder but webxdc.js,
// which the messenger injects, and but the folders below that hold an
// index.html of their own (another app: the demo's examples); the
// -runtime files beside index.html where the folder has none of that
// name; and a manifest.toml naming the app after the folder when it has
// none.
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
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	dir := flag.String("dir", "build/web", "folder of the built demo")
	addr := flag.String("addr", "127.0.0.1:8080", "address to serve on")
	pack := flag.String("pack", "", "write a .xdc bundle of -dir to this file instead of serving")
	runtime := flag.String("runtime", "", "with -pack: files, separated by spaces, to put beside index.html (ticnet's runtime)")
	flag.Parse()
	if *pack != "" {
		if err := packXDC(*dir, strings.Fields(*runtime), *pack); err != nil {
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
		if path.Base(r.URL.Path) == "webxdc.js" {
			w.Header().Set("Content-Type", "text/javascript")
			io.WriteString(w, "// no messenger here: ticnet uses a BroadcastChannel\n")
			return
		}
		files.ServeHTTP(w, r)
	})
	fmt.Printf("ticnet demo: http://%s/  (open it in several tabs)\n", *addr)
	log.Fatal(http.ListenAndServe(*addr, nil))
}

// packXDC zips every file of dir (webxdc.js and other apps' folders left
// out) and each of runtime that dir has none of, beside index.html, with a
// manifest.toml when dir has none.
func packXDC(dir string, runtime []string, out string) error {
	files := map[string]string{} // name in the .xdc: its path
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if _, err := os.Stat(filepath.Join(p, "index.html")); rel != "." && err == nil {
				return filepath.SkipDir // another app
			}
			return nil
		}
		if rel != "webxdc.js" {
			files[filepath.ToSlash(rel)] = p
		}
		return nil
	})
	if err != nil {
		return err
	}
	if files["index.html"] == "" {
		return fmt.Errorf("%s has no index.html: a .xdc opens it", dir)
	}
	for _, p := range runtime {
		if _, ok := files[filepath.Base(p)]; !ok {
			files[filepath.Base(p)] = p
		}
	}
	names := make([]string, 0, len(files)+1)
	for name := range files {
		names = append(names, name)
	}
	if files["manifest.toml"] == "" {
		names = append(names, "manifest.toml")
	}
	sort.Strings(names)
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
		data, err := manifest(dir)
		if p := files[name]; p != "" {
			data, err = os.ReadFile(p)
		}
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

// manifest is the manifest.toml of a game folder that has none: the app
// is named after the folder.
func manifest(dir string) ([]byte, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, "name = %s\nmin_api = 1\n", strconv.Quote(filepath.Base(abs))), nil
}
