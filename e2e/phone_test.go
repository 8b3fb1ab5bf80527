package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A phone's viewport in CSS px, where most chat apps run, and a desktop's.
const (
	phoneWidthPX, phoneHeightPX     = 390, 844
	desktopWidthPX, desktopHeightPX = 1280, 800
)

// phoneDelayMS is what ?delay holds each frame a tab sends: with it in
// both tabs the round trip is about twice that, a slow chat's.
const phoneDelayMS = 150

// layoutScript returns, as JSON, the viewport's size, the boxes of the
// game canvas and the stats overlay, where the page draws the arena (the
// canvas's data-arena, in CSS px from the canvas's corner) and the net
// graph's top for the round trip (its data-rtt-top-ms).
const layoutScript = `(() => {
	const box = (r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
	const canvas = document.getElementById("arena");
	return JSON.stringify({
		width: innerWidth, height: innerHeight,
		canvas: box(canvas.getBoundingClientRect()),
		overlay: box(document.getElementById("overlay").getBoundingClientRect()),
		arena: canvas.dataset.arena ? JSON.parse(canvas.dataset.arena) : null,
		rttTopMS: Number(document.getElementById("graph").dataset.rttTopMs) || 0,
	});
})()`

// box is a rectangle in CSS px from the viewport's top left corner.
type box struct {
	Left   float64 `json:"left"`
	Top    float64 `json:"top"`
	Right  float64 `json:"right"`
	Bottom float64 `json:"bottom"`
}

func (b box) area() float64 { return max(0, b.Right-b.Left) * max(0, b.Bottom-b.Top) }

func (b box) within(o box) bool {
	return b.Left >= o.Left && b.Top >= o.Top && b.Right <= o.Right && b.Bottom <= o.Bottom
}

func (b box) intersection(o box) box {
	return box{max(b.Left, o.Left), max(b.Top, o.Top), min(b.Right, o.Right), min(b.Bottom, o.Bottom)}
}

func (b box) String() string {
	return fmt.Sprintf("%.0f×%.0f at (%.0f, %.0f)", b.Right-b.Left, b.Bottom-b.Top, b.Left, b.Top)
}

// pageLayout is what layoutScript returns.
type pageLayout struct {
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
	Canvas  box     `json:"canvas"`
	Overlay box     `json:"overlay"`
	Arena   *struct {
		Left float64 `json:"left"`
		Top  float64 `json:"top"`
		Side float64 `json:"side"`
	} `json:"arena"` // nil when the page does not say
	RTTTopMS float64 `json:"rttTopMS"` // 0 when the graph does not say
}

func measureLayout(t testing.TB, ctx context.Context) pageLayout {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	text, err := chromedp.Run(c, chromedp.Evaluate[string](layoutScript))
	if err != nil {
		t.Fatalf("measuring the layout: %v", err)
	}
	var l pageLayout
	if err := json.Unmarshal([]byte(text), &l); err != nil {
		t.Fatalf("measuring the layout: %v in %s", err, text)
	}
	return l
}

// checkLayout fails unless the game canvas lies in the viewport, clear of
// the stats overlay, covering at least minCanvasShare of the viewport, and
// the arena drawn on it lies on it with a side of at least minArenaSidePX.
func checkLayout(t testing.TB, name string, l pageLayout, minCanvasShare, minArenaSidePX float64) {
	t.Helper()
	view := box{0, 0, l.Width, l.Height}
	share := l.Canvas.area() / view.area()
	t.Logf("%s: viewport %.0f×%.0f, canvas %v (%.0f %% of it), overlay %v", name, l.Width, l.Height, l.Canvas, 100*share, l.Overlay)
	if !l.Canvas.within(view) {
		t.Errorf("%s: the canvas, %v, goes out of the %.0f×%.0f viewport", name, l.Canvas, l.Width, l.Height)
	}
	if covered := l.Canvas.intersection(l.Overlay); covered.area() > 0 {
		t.Errorf("%s: the stats overlay covers %v of the canvas", name, covered)
	}
	if share < minCanvasShare {
		t.Errorf("%s: the canvas covers %.0f %% of the viewport, under %.0f %%", name, 100*share, 100*minCanvasShare)
	}
	if l.Arena == nil {
		t.Errorf("%s: the canvas does not say where it draws the arena (data-arena)", name)
		return
	}
	arena := box{l.Canvas.Left + l.Arena.Left, l.Canvas.Top + l.Arena.Top,
		l.Canvas.Left + l.Arena.Left + l.Arena.Side, l.Canvas.Top + l.Arena.Top + l.Arena.Side}
	t.Logf("%s: arena %v", name, arena)
	if !arena.within(l.Canvas) {
		t.Errorf("%s: the arena, %v, goes out of the canvas, %v", name, arena, l.Canvas)
	}
	if l.Arena.Side < minArenaSidePX {
		t.Errorf("%s: the arena's side is %.0f px, under %.0f", name, l.Arena.Side, minArenaSidePX)
	}
}

// sizedTab opens url in a new tab whose viewport is set before the page loads.
func sizedTab(t testing.TB, bctx context.Context, url string, viewport chromedp.Action[chromedp.Void]) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, viewport, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// TestDemoFitsAPhone plays the demo in two phone-sized tabs on a slow
// channel (a round trip of 300 ms or more) and checks what a player sees: the whole
// arena, clear of the stats, on most of the screen, and a net graph whose
// top is above the round trip, so that its line is not pinned to the top.
// Then one tab takes a desktop's size, where the arena takes the window's
// height. Screenshots of each are kept under the test's output folder.
func TestDemoFitsAPhone(t *testing.T) {
	url := serveDemo(t, buildDemo(t))
	bctx := browser(t)
	phone := chromedp.EmulateViewport(phoneWidthPX, phoneHeightPX, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch)
	var tabs []context.Context
	for i := range 2 {
		tabs = append(tabs, sizedTab(t, bctx, fmt.Sprintf("%s/?bot=%d&name=phone%d&delay=%d", url, 1000+i, i, phoneDelayMS), phone))
	}
	launch(t, tabs, waitFor(t, tabs, "one server and both tabs in its lobby", 20*time.Second, oneServerOneLobby(2)))
	time.Sleep(2 * time.Second)

	dir := outDir(t)
	for i, ctx := range tabs {
		name := fmt.Sprintf("phone %d", i)
		screenshot(t, ctx, filepath.Join(dir, fmt.Sprintf("phone%d.png", i)))
		l := measureLayout(t, ctx)
		// A square arena is at most as wide as the phone: 390² is 46 % of
		// its screen; the canvas below the arena is the touch pad.
		checkLayout(t, name, l, 0.6, 0.95*phoneWidthPX)

		st, ok := status(ctx)
		if !ok {
			t.Fatalf("%s: no status", name)
		}
		rtt := float64(st.Stats.RTTMS)
		t.Logf("%s (%s): round trip %.0f ms, the graph's top %.0f ms", name, st.Role, rtt, l.RTTTopMS)
		// The server's own client is in its page: only a client's frames
		// cross the channel, each way held phoneDelayMS.
		if st.Role == "client" && rtt < 2*phoneDelayMS {
			t.Fatalf("%s: a round trip of %.0f ms with ?delay=%d in both tabs: the delay hook is off", name, rtt, phoneDelayMS)
		}
		if l.RTTTopMS == 0 {
			t.Errorf("%s: the net graph does not say its top (data-rtt-top-ms)", name)
		} else if l.RTTTopMS <= rtt {
			t.Errorf("%s: the net graph's top, %.0f ms, is under the %.0f ms round trip: its line is pinned to the top", name, l.RTTTopMS, rtt)
		}
	}

	// A laptop's screen, 2 device px to the CSS px: the canvases' pixels,
	// set from their boxes, must not grow the boxes.
	desktop := tabs[0]
	if err := chromedp.Do(desktop, chromedp.EmulateViewport(desktopWidthPX, desktopHeightPX, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // a few frames drawn at the new size
	screenshot(t, desktop, filepath.Join(dir, "desktop.png"))
	checkLayout(t, "desktop", measureLayout(t, desktop), 0.5, 0.9*desktopHeightPX)
}
