package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// badInputPage is a game of 2 bytes of opaque input whose input returns 3:
// it plays alone, and keeps its events.
const badInputPage = `<!doctype html><script src="webxdc.js"></script><script src="shim.js"></script><script src="wasm_exec.js"></script>
<script type="module">
import { start } from "./ticnet.js";
globalThis.events = [];
const net = await start({ name: "bad", inputSize: 2, input: () => new Uint8Array(3), onTic() {}, checksum: () => 0,
  onEvent: (e) => { globalThis.events.push(e); if (e.kind === "lobby" && e.lobby.controller) net.launch().catch(() => {}); } });
</script>`

// A game whose input returns the wrong number of bytes gets an "error"
// event that names input and says what it returned, and leaves its game.
func TestOpaqueInputOfTheWrongSizeIsAnErrorNamingInput(t *testing.T) {
	dir := buildDemo(t)
	if err := os.WriteFile(filepath.Join(dir, "badinput.html"), []byte(badInputPage), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := tab(t, browser(t), serveDemo(t, dir)+"/badinput.html")
	var text string
	for end := time.Now().Add(20 * time.Second); !strings.Contains(text, `"kind":"error"`); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("no error event within 20 s; events: %s", text)
		}
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		var err error
		text, err = chromedp.Run(c, chromedp.Evaluate[string](`JSON.stringify(globalThis.events || [])`))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{`"callback":"input"`, `a Uint8Array of inputSize (2) bytes, not 3 bytes`} {
		if !strings.Contains(text, want) {
			t.Fatalf("the error event lacks %s: %s", want, text)
		}
	}
}
