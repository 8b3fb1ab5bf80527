package main

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/ticnet/ticnet/netcore"
)

func TestTicLogWritesOneJSONLinePerTic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tics.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	l := &ticLog{f: f, w: bufio.NewWriter(f)}
	if err := l.write([]netcore.TicRecord{{Tic: 0, Players: 0b11, Received: 0b11}, {Tic: 1, Players: 0b101, Received: 0b1}}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path) // flushed by write, before close
	want := `{"tic":0,"players":[0,1],"received":[0,1]}` + "\n" + `{"tic":1,"players":[0,2],"received":[0]}` + "\n"
	if string(b) != want {
		t.Fatalf("got\n%s\nwant\n%s", b, want)
	}
	l.close()
}

func TestTimeoutsAreNamedAsOnTheCommandLine(t *testing.T) {
	for name, want := range map[string]netcore.Timeouts{"reference": netcore.ReferenceTimeouts, "browser": netcore.BrowserTimeouts} {
		if p, err := timeoutsNamed(name); err != nil || p != want {
			t.Errorf("%s: %+v, %v", name, p, err)
		}
	}
	if _, err := timeoutsNamed("fast"); err == nil {
		t.Error("an unknown profile accepted")
	}
}
