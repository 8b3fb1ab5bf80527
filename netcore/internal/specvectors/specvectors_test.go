package specvectors

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// In a clone without ../shared the error says the vectors are missing and
// where they were looked for.
func TestAMissingVectorsDirectoryIsNamedWithThePathsLookedAt(t *testing.T) {
	root := t.TempDir()
	from := filepath.Join(root, "ticnet", "netcore", "wire")
	err := os.MkdirAll(from, 0o755)
	require.NoError(t, err)
	_, err = Find(from)
	require.Error(t, err, "found vectors in an empty directory tree")
	want := filepath.Join(root, "ticnet", "netcore", "shared", "spec", "vectors")
	require.Contains(t, err.Error(), NotFound, "error %q does not say %q and name %s", err, NotFound, want)
	require.Contains(t, err.Error(), want, "error %q does not say %q and name %s", err, NotFound, want)
}

// With shared/spec/vectors beside the repository, a test in a package
// two levels down finds it.
func TestVectorsBesideTheRepositoryAreFound(t *testing.T) {
	root := t.TempDir()
	vectors := filepath.Join(root, "shared", "spec", "vectors")
	from := filepath.Join(root, "ticnet", "netcore", "wire")
	for _, d := range []string{vectors, from} {
		err := os.MkdirAll(d, 0o755)
		require.NoError(t, err)
	}
	got, err := Find(from)
	require.NoError(t, err, "Find = %q, %v; want %s", got, err, vectors)
	require.Equal(t, vectors, got, "Find = %q, %v; want %s", got, err, vectors)
}
