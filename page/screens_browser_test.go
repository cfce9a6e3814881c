package page

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// TestBrowserScreens opens real sessions on a phone (390 px) and a wide
// screen (1400 px), light and dark: nothing makes the page scroll
// sideways, the token table and the settings dividers fit, and with
// PIEXPORT_SHOTS set each view is saved for a person to look at.
func TestBrowserScreens(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	for _, file := range []string{"pi-v3-paradocs-research.jsonl", "pi-v3-sdk-branches-labels.jsonl"} {
		url := writeExport(t, loadCorpus(t, file), Options{})
		for _, width := range []int64{390, 1400} {
			for _, theme := range []string{"light", "dark"} {
				name := fmt.Sprintf("%s-%d-%s", file[:len(file)-6], width, theme)
				t.Run(name, func(t *testing.T) {
					tb := browsertest.OpenTab(t, browser)
					if width < 600 {
						tb.Do(chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
					} else {
						tb.Do(chromedp.EmulateViewport(width, 900))
					}
					tb.Navigate(url)
					tb.Do(chromedp.Evaluate[chromedp.Void](`document.documentElement.dataset.theme = '` + theme + `'`))
					if sw := browsertest.Eval[int](tb, `document.documentElement.scrollWidth`); sw > int(width) {
						t.Errorf("the page is %d px wide in a %d px window", sw, width)
					}
					// The token table fits its column: no cell is cut.
					if over := browsertest.Eval[bool](tb, `(() => { const t = document.querySelector('.tokens'); return t.scrollWidth > t.clientWidth + 1; })()`); over {
						t.Error("the token table scrolls inside its box")
					}
					// A settings divider is one line.
					if h := browsertest.Eval[float64](tb, `(() => { const e = document.querySelector('#path > article[data-kind="settings"]'); return e ? e.getBoundingClientRect().height : 0; })()`); h > 30 {
						t.Errorf("a settings divider is %v px tall, more than one line", h)
					}
					tb.Shot(name)
					tb.Do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.documentElement.scrollHeight)`))
					tb.Settle()
					tb.Shot(name + "-end")
					if width < 600 {
						tb.Do(chromedp.Click(chromedp.ID("side-toggle")))
						tb.WaitJS(`document.getElementById('sidebar').getBoundingClientRect().left >= 0`)
						tb.Shot(name + "-tree")
					}
				})
			}
		}
	}
}
