package e2e

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// `make xdc GAME=folder` packs a game folder as an .xdc: every file of
// the folder (a subfolder's included, webxdc.js left out: the messenger
// serves its own), ticnet's runtime beside index.html as make builds it,
// and a manifest naming the app after the folder, which has none. The
// folder here is the README's quick start (its page as index.html, its
// import map naming ./ticnet.js): unpacked and served, it plays in two
// tabs.
func TestMakeXdcPacksAGameFolderThatPlays(t *testing.T) {
	root, tmp := repoRoot(t), t.TempDir()
	game := filepath.Join(tmp, "dots")
	files := map[string]string{"web/quickstart.html": "index.html", "web/quickstart.js": "quickstart.js", "web/icon.png": "art/icon.png"}
	for src, dst := range files {
		data, err := os.ReadFile(filepath.Join(root, src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(game, dst)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(game, dst), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(game, "webxdc.js"), []byte("// a stand-in: the messenger's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	build, dist := filepath.Join(tmp, "build"), filepath.Join(tmp, "dist")
	cmd := exec.Command("make", "-s", "xdc", "GAME="+game, "BUILD="+build, "DIST="+dist)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make xdc GAME=%s: %v\n%s", game, err, out)
	}
	z, err := zip.OpenReader(filepath.Join(dist, "dots.xdc"))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	unpacked := filepath.Join(tmp, "unpacked")
	var names []string
	content := map[string][]byte{}
	for _, f := range z.File {
		names = append(names, f.Name)
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		content[f.Name] = data
		if err := os.MkdirAll(filepath.Dir(filepath.Join(unpacked, f.Name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(unpacked, f.Name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"art/icon.png", "index.html", "manifest.toml", "quickstart.js", "shim.js", "ticnet.js", "ticnet.wasm", "wasm_exec.js"}
	if !slices.Equal(names, want) {
		t.Fatalf("dots.xdc holds %v, want %v", names, want)
	}
	if m := string(content["manifest.toml"]); !strings.Contains(m, `name = "dots"`) {
		t.Fatalf("dots.xdc's manifest.toml: %q", m)
	}
	for name, src := range map[string]string{"ticnet.wasm": filepath.Join(build, "runtime", "ticnet.wasm"), "ticnet.js": filepath.Join(root, "js", "ticnet.js"), "index.html": filepath.Join(root, "web", "quickstart.html")} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(content[name], data) {
			t.Fatalf("dots.xdc's %s is not %s", name, src)
		}
	}
	t.Logf("dots.xdc: %v", names)
	quickStartPlays(t, serveDemo(t, unpacked)+"/index.html")
}
