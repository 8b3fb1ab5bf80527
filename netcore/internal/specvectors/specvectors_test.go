package specvectors

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// In a clone without ../shared the error says the vectors are missing and
// where they were looked for.
func TestAMissingVectorsDirectoryIsNamedWithThePathsLookedAt(t *testing.T) {
	root := t.TempDir()
	from := filepath.Join(root, "ticnet", "netcore", "wire")
	if err := os.MkdirAll(from, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Find(from)
	if err == nil {
		t.Fatal("found vectors in an empty directory tree")
	}
	want := filepath.Join(root, "ticnet", "netcore", "shared", "spec", "vectors")
	if !strings.Contains(err.Error(), NotFound) || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not say %q and name %s", err, NotFound, want)
	}
}

// With shared/spec/vectors beside the repository, a test in a package
// two levels down finds it.
func TestVectorsBesideTheRepositoryAreFound(t *testing.T) {
	root := t.TempDir()
	vectors := filepath.Join(root, "shared", "spec", "vectors")
	from := filepath.Join(root, "ticnet", "netcore", "wire")
	for _, d := range []string{vectors, from} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Find(from)
	if err != nil || got != vectors {
		t.Fatalf("Find = %q, %v; want %s", got, err, vectors)
	}
}
