package page

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/piexport/piexport/internal/browsertest"
)

// The footer's keyboard hints show where there are keys to press, and
// not on a touch screen (Chromium's touch emulation: no hover, a coarse
// pointer).
func TestBrowserKeyHintsHideOnTouch(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	url := writeExport(t, loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl"), Options{})
	for _, touch := range []bool{false, true} {
		name := map[bool]string{false: "mouse", true: "touch"}[touch]
		t.Run(name, func(t *testing.T) {
			tb := browsertest.OpenTab(t, browser)
			if touch {
				tb.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
			} else {
				tb.Do(chromedp.EmulateViewport(1200, 900))
			}
			tb.Navigate(url)
			if coarse := browsertest.Eval[bool](tb, `matchMedia('(hover: none) and (pointer: coarse)').matches`); coarse != touch {
				t.Fatalf("the %s screen matches (hover: none) and (pointer: coarse): %v", name, coarse)
			}
			shown := browsertest.Eval[bool](tb, `(() => { const k = [...document.querySelectorAll('footer span')].find((s) => s.textContent.startsWith('Keys:')); return !!k && k.getClientRects().length > 0; })()`)
			if shown == touch {
				t.Errorf("on a %s screen the keyboard hints are shown: %v", name, shown)
			}
			tb.Do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.documentElement.scrollHeight)`))
			tb.Settle()
			tb.Shot("footer-" + name)
		})
	}
}

// The tree's status says what its figures are, and stays one line
// whatever it says: a line that wrapped would push the tree down as the
// reader types.
func TestBrowserTreeStatusOneLine(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	url := writeExport(t, wideSession(t, 3000), Options{})
	for _, width := range []int64{390, 1200} {
		t.Run(map[int64]string{390: "phone", 1200: "wide"}[width], func(t *testing.T) {
			tb := browsertest.OpenTab(t, browser)
			tb.Do(chromedp.EmulateViewport(width, 844))
			tb.Navigate(url)
			if width < 600 {
				tb.Do(chromedp.Click(chromedp.ID("side-toggle")))
				tb.WaitJS(`document.getElementById('sidebar').getBoundingClientRect().left >= 0`)
			}
			status := func() string {
				return browsertest.Eval[string](tb, `document.getElementById('tree-status').textContent`)
			}
			top := func() float64 {
				return browsertest.Eval[float64](tb, `document.getElementById('tree').getBoundingClientRect().top`)
			}
			lineHeight := browsertest.Eval[float64](tb, `document.getElementById('to-leaf').getBoundingClientRect().height`)
			if got := status(); got != "all 3,001 entries shown" {
				t.Errorf("at load the status says %q", got)
			}
			// The longest the script writes: a place among the matches and
			// a note.
			before := top()
			tb.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('tree-status').textContent = 'match 2,937 of 2,949 · the page is still loading'`))
			if h := browsertest.Eval[float64](tb, `document.getElementById('tree-status').getBoundingClientRect().height`); h > lineHeight {
				t.Errorf("the status is %v px tall, taller than the row's button (%v px): it wrapped", h, lineHeight)
			}
			if after := top(); after != before {
				t.Errorf("the tree moved from %v px to %v px as the status grew", before, after)
			}
			tb.Shot("tree-status-" + map[int64]string{390: "phone", 1200: "wide"}[width])
			// The page opens at its leaf, the last of the matches.
			if _, got := search(tb, "reply"); got != "match 3,000 of 3,000" {
				t.Errorf("searching, the status says %q", got)
			}
			tb.Do(chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierShift)))
			tb.WaitJS(`document.getElementById('tree-status').textContent === 'match 2,999 of 3,000'`)
			if title := browsertest.Eval[string](tb, `document.getElementById('tree-status').title`); title != "match 2,999 of 3,000" {
				t.Errorf("the status's title is %q, want the whole line it showed", title)
			}
		})
	}
}
