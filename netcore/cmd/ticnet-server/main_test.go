package main

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/ticnet/ticnet/netcore"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTicLogWritesOneJSONLinePerTic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tics.jsonl")
	f, err := os.Create(path)
	require.NoError(t, err)
	l := &ticLog{f: f, w: bufio.NewWriter(f)}
	err = l.write([]netcore.TicRecord{{Tic: 0, Players: 0b11, Received: 0b11}, {Tic: 1, Players: 0b101, Received: 0b1}})
	require.NoError(t, err)
	b, _ := os.ReadFile(path) // flushed by write, before close
	want := `{"tic":0,"players":[0,1],"received":[0,1]}` + "\n" + `{"tic":1,"players":[0,2],"received":[0]}` + "\n"
	require.Equal(t, want, string(b), "got\n%s\nwant\n%s", b, want)
	l.close()
}

func TestTimeoutsAreNamedAsOnTheCommandLine(t *testing.T) {
	for name, want := range map[string]netcore.Timeouts{"reference": netcore.ReferenceTimeouts, "browser": netcore.BrowserTimeouts} {
		p, err := timeoutsNamed(name)
		assert.NoError(t, err, "%s: %+v", name, p)
		assert.Equal(t, want, p, "%s: %+v, %v", name, p, err)
	}
	_, err := timeoutsNamed("fast")
	assert.Error(t, err, "an unknown profile accepted")
}
