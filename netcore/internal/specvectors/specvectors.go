// Package specvectors finds shared/spec/vectors, the annotated captures of
// real Chocolate Doom traffic that the wire and dump tests check against.
// CI has ../shared beside the repository; a scratch clone may not, and
// then every test that reads the vectors fails saying so.
package specvectors

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// NotFound begins the failure of a test run where the vectors are missing.
const NotFound = "shared/spec/vectors not found"

// Find looks for shared/spec/vectors in from and every directory above it,
// as a test binary run anywhere in the repository should. The error names
// every path it looked at.
func Find(from string) (string, error) {
	var tried []string
	for d := from; ; d = filepath.Dir(d) {
		cand := filepath.Join(d, "shared", "spec", "vectors")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand, nil
		}
		tried = append(tried, cand)
		if filepath.Dir(d) == d {
			break
		}
	}
	return "", fmt.Errorf("%s (CI has ../shared beside the repository; looked for %s)", NotFound, strings.Join(tried, ", "))
}

// Dir is Find from the working directory, fatal to t when the vectors are
// missing.
func Dir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := Find(wd)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
