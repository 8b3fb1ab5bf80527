package e2e

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// pagePackageFiles are what the npm package holds: what a page needs
// (the module, the shim, Go's loader, the wasm), the deterministic math
// module, the types, and what npm always packs (package.json, the
// README); nothing from the tests.
var pagePackageFiles = []string{"README.md", "detmath.d.ts", "detmath.js", "package.json", "shim.js", "ticnet.d.ts", "ticnet.js", "ticnet.wasm", "wasm_exec.js"}

// npmOnce packs the npm package and installs it into a scratch project,
// once per test run.
var npmOnce struct {
	sync.Once
	dir, tgz, project string // dir: removed by TestMain
	err               error
}

// npmTool is a command of the project-local npm folder that `make test`
// installs (e2e/setup.sh).
func npmTool(t testing.TB, name string) string {
	t.Helper()
	bin := filepath.Join(repoRoot(t), ".npm-local", "node_modules", ".bin", name)
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed at %s: `make test` installs it (e2e/setup.sh)", name, bin)
		}
		t.Skipf("SKIPPED: %s is not installed at %s; run `sh e2e/setup.sh .npm-local`", name, bin)
	}
	return bin
}

// run runs a command in dir and fails the test with its output.
func run(t testing.TB, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// npmProject builds the package with `make npm` (into a folder of its
// own), and installs its tarball into a fresh scratch project holding
// e2e/testdata/npm's page, as a developer would: npm install
// ./ticnet-VERSION.tgz. It returns the tarball and the project.
func npmProject(t testing.TB) (tgz, project string) {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("SKIPPED: npm is not installed")
	}
	npmOnce.Do(func() {
		root := repoRoot(t)
		tmp, err := os.MkdirTemp("", "ticnet-npm-")
		if err != nil {
			npmOnce.err = err
			return
		}
		npmOnce.dir = tmp
		make := exec.Command("make", "-s", "npm", "BUILD="+filepath.Join(tmp, "build"), "DIST="+filepath.Join(tmp, "dist"))
		make.Dir = root
		if out, err := make.CombinedOutput(); err != nil {
			npmOnce.err = fmt.Errorf("make npm: %v\n%s", err, out)
			return
		}
		tgzs, _ := filepath.Glob(filepath.Join(tmp, "dist", "ticnet-*.tgz"))
		if len(tgzs) != 1 {
			npmOnce.err = fmt.Errorf("make npm packed %v, want one ticnet-*.tgz", tgzs)
			return
		}
		npmOnce.tgz = tgzs[0]
		npmOnce.project = filepath.Join(tmp, "project")
		files := map[string][]byte{"package.json": []byte(`{ "name": "scratch", "private": true, "type": "module" }` + "\n")}
		for _, f := range []string{"index.html", "page.js"} {
			if files[f], err = os.ReadFile(filepath.Join(root, "e2e", "testdata", "npm", f)); err != nil {
				npmOnce.err = err
				return
			}
		}
		if err := os.MkdirAll(npmOnce.project, 0o755); err != nil {
			npmOnce.err = err
			return
		}
		for f, data := range files {
			if err := os.WriteFile(filepath.Join(npmOnce.project, f), data, 0o644); err != nil {
				npmOnce.err = err
				return
			}
		}
		install := exec.Command("npm", "install", "--no-audit", "--no-fund", "--loglevel=error", npmOnce.tgz)
		install.Dir = npmOnce.project
		if out, err := install.CombinedOutput(); err != nil {
			npmOnce.err = fmt.Errorf("npm install %s: %v\n%s", npmOnce.tgz, err, out)
		}
	})
	if npmOnce.err != nil {
		t.Fatal(npmOnce.err)
	}
	return npmOnce.tgz, npmOnce.project
}

// `make npm`'s tarball, which `npm pack` wrote, holds what a page needs
// and the types, and nothing else; its package.json exports the API and
// the shim and types the API, each a file of the package.
func TestTheNpmPackageHoldsWhatAPageNeeds(t *testing.T) {
	tgz, _ := npmProject(t)
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var manifest []byte
	for r := tar.NewReader(gz); ; {
		h, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		name, ok := strings.CutPrefix(h.Name, "package/")
		if !ok {
			t.Fatalf("%s: %s is outside package/", tgz, h.Name)
		}
		names = append(names, name)
		if name == "package.json" {
			if manifest, err = io.ReadAll(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, pagePackageFiles) {
		t.Fatalf("%s holds %v, want %v", filepath.Base(tgz), names, pagePackageFiles)
	}
	var pkg struct {
		Name, Type, Types string
		Exports           map[string]any
	}
	if err := json.Unmarshal(manifest, &pkg); err != nil {
		t.Fatal(err)
	}
	dot, _ := pkg.Exports["."].(map[string]any)
	detmath, _ := pkg.Exports["./detmath.js"].(map[string]any)
	if pkg.Name != "ticnet" || pkg.Type != "module" || pkg.Types != "./ticnet.d.ts" || dot["types"] != "./ticnet.d.ts" ||
		dot["default"] != "./ticnet.js" || pkg.Exports["./shim.js"] != "./shim.js" || detmath["types"] != "./detmath.d.ts" || detmath["default"] != "./detmath.js" {
		t.Fatalf("package.json: %s", manifest)
	}
	t.Logf("%s: %v", filepath.Base(tgz), names)
}

// playsInTwoTabs opens the npm page served at url in two tabs, launches
// it, and checks that the tabs agree at every tic they both ran, for at
// least 100 tics.
func playsInTwoTabs(t *testing.T, url string) {
	t.Helper()
	bctx := browser(t)
	tabs := []context.Context{tab(t, bctx, url+"/?bot=11&name=ann"), tab(t, bctx, url+"/?bot=12&name=bob")}
	launch(t, tabs, waitFor(t, tabs, "one server and both tabs in its lobby", 20*time.Second, oneServerOneLobby(2)))
	compared := 0
	for range 3 {
		time.Sleep(2 * time.Second)
		compared += compareSums(t, statuses(t, tabs))
	}
	for i, st := range statuses(t, tabs) {
		if st.Protocol != "TICNET_1" || st.Gametic < 150 {
			t.Fatalf("tab %d: %s, %d tics in about 6 s", i, st.Protocol, st.Gametic)
		}
	}
	if compared < 100 {
		t.Fatalf("only %d tic checksums compared", compared)
	}
	t.Logf("%d tic checksums compared across two tabs, all equal", compared)
}

// The package, installed from its tarball into a scratch project, and a
// page importing "ticnet" bundled with esbuild: the bundle carries the
// module, the shim and Go's loader (the folder served holds the page,
// the bundle and the wasm, which esbuild does not carry: the build copies
// it beside the bundle, as the guide says), tsc finds the types through
// the package's exports, and two tabs play in step.
func TestTheNpmPackageBundledWithEsbuildPlaysInTwoTabs(t *testing.T) {
	esbuild, tsc := npmTool(t, "esbuild"), npmTool(t, "tsc")
	_, project := npmProject(t)
	run(t, project, tsc, "--noEmit", "--allowJs", "--checkJs", "--strict", "--target", "es2022", "--module", "es2022",
		"--moduleResolution", "bundler", "--lib", "es2022,dom,dom.iterable", "page.js")
	out := filepath.Join(project, "out")
	run(t, project, esbuild, "page.js", "--bundle", "--format=esm", "--outdir="+out, "--log-level=warning")
	for src, dst := range map[string]string{"index.html": "index.html", "node_modules/ticnet/ticnet.wasm": "ticnet.wasm"} {
		data, err := os.ReadFile(filepath.Join(project, src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, dst), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var served []string
	for _, e := range entries {
		served = append(served, e.Name())
	}
	if !slices.Equal(served, []string{"index.html", "page.js", "ticnet.wasm"}) {
		t.Fatalf("the bundle's folder holds %v", served)
	}
	playsInTwoTabs(t, serveDemo(t, out))
}

// The package's files used as they are, without a bundler: the scratch
// project served as it is, the page's import map naming
// node_modules/ticnet/ticnet.js, which loads the rest beside itself.
func TestTheNpmPackageWithoutABundlerPlaysInTwoTabs(t *testing.T) {
	_, project := npmProject(t)
	playsInTwoTabs(t, serveDemo(t, project))
}
