package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Three tabs play; the game's onTic throws at tic 100 in one of them
// (the demo's ?throwAt hook): that tab gets an "error" event that names
// onTic, tic 100 and the exception, and leaves the game; the others see
// its player leave and play on in step.
func TestAGameThatThrowsLeavesAndTheOthersPlayOn(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	bctx := browser(t)
	var tabs []context.Context
	for i := range 3 {
		q := fmt.Sprintf("%s/?name=tab%d", url, i)
		if i == 2 {
			q += "&throwAt=100"
		}
		tabs = append(tabs, tab(t, bctx, q))
	}
	launch(t, tabs, waitFor(t, tabs, "one server and every tab in its lobby", 20*time.Second, oneServerOneLobby(3)))
	var failed map[string]any
	for end := time.Now().Add(20 * time.Second); failed == nil; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no error event within 20 s")
		}
		for _, e := range events(t, tabs[2]) {
			if e["kind"] == "error" {
				failed = e
			}
		}
	}
	t.Logf("the tab that threw: %v", failed)
	if failed["callback"] != "onTic" || failed["tic"] != float64(100) ||
		!strings.Contains(fmt.Sprint(failed["message"]), "throws at tic 100") || !strings.Contains(fmt.Sprint(failed["stack"]), "onTic") {
		t.Fatalf("error event %v, want onTic at tic 100 with the exception and its stack", failed)
	}
	player := statuses(t, tabs)[2].Player
	others := tabs[:2]
	waitFor(t, others, "the others saw its player leave", 10*time.Second, func([]demoStatus) bool {
		for _, ctx := range others {
			left := false
			for _, e := range events(t, ctx) {
				left = left || e["kind"] == "leave" && e["player"] == float64(player)
			}
			if !left {
				return false
			}
		}
		return true
	})
	playOnInStep(t, others, 3*time.Second, 80, "after the tab that threw left")
	if st := statuses(t, tabs[2:])[0]; st.Started {
		t.Fatalf("the tab that threw still plays: %+v", st)
	}
}

// Three tabs play; the channel of one client tab throws on every send
// (its BroadcastChannel's postMessage, under the shim's sendBatch): the
// exception reaches the wasm through safejs as an error, not a panic, and
// the page as the "error" event, which names the shim's function and the
// exception; that tab leaves the game, and the others play on in step.
func TestAChannelThatThrowsEndsTheGameWithAnErrorEvent(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	bctx := browser(t)
	var tabs []context.Context
	for i := range 3 {
		tabs = append(tabs, tab(t, bctx, fmt.Sprintf("%s/?name=tab%d", url, i)))
	}
	launch(t, tabs, waitFor(t, tabs, "one server and every tab in its lobby", 20*time.Second, oneServerOneLobby(3)))
	broken := -1
	for i, st := range statuses(t, tabs) {
		if st.Role != "server" {
			broken = i
		}
	}
	eval(t, tabs[broken], `BroadcastChannel.prototype.postMessage = function () { throw new Error("the channel broke (test)"); }`)
	var failed map[string]any
	for end := time.Now().Add(10 * time.Second); failed == nil; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no error event within 10 s")
		}
		for _, e := range events(t, tabs[broken]) {
			if e["kind"] == "error" {
				failed = e
			}
		}
	}
	t.Logf("the tab whose channel threw: %v", failed)
	if failed["callback"] != "" || !strings.Contains(fmt.Sprint(failed["reason"]), "shim.sendBatch: ") ||
		!strings.Contains(fmt.Sprint(failed["message"]), "the channel broke (test)") {
		t.Fatalf("error event %v, want no callback and shim.sendBatch's exception", failed)
	}
	others := append(append([]context.Context{}, tabs[:broken]...), tabs[broken+1:]...)
	playOnInStep(t, others, 3*time.Second, 80, "after the tab whose channel threw left")
	if st := statuses(t, tabs[broken:broken+1])[0]; st.Started {
		t.Fatalf("the tab whose channel threw still plays: %+v", st)
	}
}

// start rejects each bad option with a message that names it; launch on a
// copy that is not the controller rejects with the reason.
func TestBadOptionsAndLaunchesAreRefusedWithTheirReason(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	bctx := browser(t)
	tabs := []context.Context{tab(t, bctx, url+"/?name=tab0"), tab(t, bctx, url+"/?name=tab1")}
	sts := waitFor(t, tabs, "one server and every tab in its lobby", 20*time.Second, oneServerOneLobby(2))
	other := 1 - controller(t, sts)
	// Each case: the options, and what the message must name.
	cases := map[string]string{
		`{colour: 1}`:                     "unknown option colour",
		`{name: "x".repeat(30)}`:          "options.name is 30 bytes",
		`{name: "é".repeat(15)}`:          "options.name is 30 bytes in UTF-8",
		`{name: 7}`:                       "options.name must be a string",
		`{maxPlayers: 9}`:                 "options.maxPlayers must be an integer from 2 to 8",
		`{maxPlayers: 2.5}`:               "options.maxPlayers",
		`{predictTics: 65}`:               "options.predictTics must be an integer from 1 to 64",
		`{profile: "lan"}`:                `options.profile must be "local" or "gossip"`,
		`{timeout: 5}`:                    "options.timeout",
		`{predict: "yes"}`:                "options.predict must be a boolean",
		`{settings: {skill: 9}}`:          "options.settings.skill must be an integer from 0 to 4",
		`{settings: {gravity: 1}}`:        "unknown option settings.gravity",
		`{input: undefined}`:              "options.input must be a function",
		`{onTic: 1}`:                      "options.onTic must be a function",
		`{save: () => new Uint8Array(1)}`: "options.save and options.load",
		`{predict: true, save: undefined, load: undefined}`: "options.predict needs options.save",
		`{inputSize: 65}`:                      "options.inputSize must be an integer from 1 to 64",
		`{inputSize: 2, eventBits: [1, 2, 3]}`: "options.eventBits has 3 bytes, more than options.inputSize (2)",
		`{inputSize: 2, eventBits: [256]}`:     "options.eventBits must hold integers from 0 to 255",
		`{inputSize: 2, eventBits: "x"}`:       "options.eventBits must be an array of bytes",
	}
	var js strings.Builder
	js.WriteString(`(async () => {
  const m = await import("./ticnet.js");
  const base = { input: () => ({}), onTic: () => {}, checksum: () => 0 };
  const out = {};
  const cases = {`)
	for c := range cases {
		fmt.Fprintf(&js, "%q: %s,\n", c, c)
	}
	js.WriteString(`};
  for (const [k, o] of Object.entries(cases)) {
    try { await m.start(Object.assign({}, base, o)); out[k] = "resolved"; } catch (e) { out[k] = String(e.message); }
  }
  try { await globalThis.ticnetDemo.net.launch(); out.launch = "resolved"; } catch (e) { out.launch = String(e.message); }
  globalThis.__optionsOut = JSON.stringify(out);
})();
"ok"`)
	eval(t, tabs[other], js.String())
	var out map[string]string
	for end := time.Now().Add(10 * time.Second); out == nil; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the checks did not finish within 10 s")
		}
		c, cancel := context.WithTimeout(tabs[other], 5*time.Second)
		text, err := chromedp.Run(c, chromedp.Evaluate[string](`globalThis.__optionsOut || ""`))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if text != "" {
			if err := json.Unmarshal([]byte(text), &out); err != nil {
				t.Fatal(err)
			}
		}
	}
	for c, want := range cases {
		if !strings.Contains(out[c], want) {
			t.Errorf("start(%s): %q, want a message with %q", c, out[c], want)
		}
	}
	if !strings.Contains(out["launch"], "only the lobby's controller may launch") {
		t.Errorf("launch on a copy that is not the controller: %q", out["launch"])
	}

	// On the controller, bad launch options are refused, naming what is
	// wrong, and nothing launches.
	launches := map[string]string{
		`{colour: 1}`:                     "launch: unknown option colour",
		`{seed: -1}`:                      "launch: seed must be an integer from 0 to 2^32-1",
		`{options: "x".repeat(1100)}`:     "launch: options take 1103 bytes, at most 1024",
		`{options: new Uint8Array(1024)}`: "launch: options take 1025 bytes",
		`{options: () => 1}`:              "launch: options must be a Uint8Array or a JSON value",
	}
	js.Reset()
	js.WriteString("(async () => {\n  const out = {};\n")
	for c := range launches {
		fmt.Fprintf(&js, "  try { await globalThis.ticnetDemo.net.launch(%s); out[%q] = \"resolved\"; } catch (e) { out[%q] = String(e.message); }\n", c, c, c)
	}
	js.WriteString("  return JSON.stringify(out);\n})()")
	c, cancel := context.WithTimeout(tabs[1-other], 5*time.Second)
	text, err := chromedp.Run(c, chromedp.Evaluate[string](js.String(), chromedp.EvalAwaitPromise))
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	out = nil
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatal(err)
	}
	for c, want := range launches {
		if !strings.Contains(out[c], want) {
			t.Errorf("launch(%s): %q, want a message with %q", c, out[c], want)
		}
	}
	time.Sleep(500 * time.Millisecond)
	for i, st := range statuses(t, tabs) {
		if st.Started {
			t.Fatalf("tab %d started a game that no launch asked for", i)
		}
	}
}
