package site

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// TestIndexScreens opens the index, the search results and the 404 page
// on a phone (390 px) and a wide screen (1400 px), light and dark: the
// page never scrolls sideways (on a phone each session is a card, not a
// row of a table that scrolls), the footer lines up with the content,
// and with PIEXPORT_SHOTS set each view is saved for a person to look at.
func TestIndexScreens(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	dir := t.TempDir()
	items := indexItems()
	write := func(name string, fn func(*bytes.Buffer) error) string {
		var buf bytes.Buffer
		if err := fn(&buf); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return "file://" + filepath.ToSlash(path)
	}
	opt := IndexOptions{Home: "/home/alice", Generator: "piexport test", Search: true}
	pages := map[string]string{
		"index": write("index.html", func(b *bytes.Buffer) error { return WriteIndex(b, items, opt) }),
		"search": write("search.html", func(b *bytes.Buffer) error {
			return WriteSearchResults(b, SearchResults{Query: "mux", Total: 1, Sessions: 1, Hits: []SearchHit{
				{Session: items[0], EntryID: "6eea0e7d", Role: "assistant", Snippet: "…registered on the default mux after…", Marks: [][2]int{{29, 32}}}}}, opt)
		}),
		"404": write("404.html", func(b *bytes.Buffer) error {
			return WriteNotFound(b, "No session or page has this address.", "/", opt)
		}),
	}
	for name, url := range pages {
		for _, width := range []int64{390, 1400} {
			for _, theme := range []string{"light", "dark"} {
				shot := fmt.Sprintf("%s-%d-%s", name, width, theme)
				t.Run(shot, func(t *testing.T) {
					tb := browsertest.OpenTab(t, browser)
					if width < 600 {
						tb.Do(chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
					} else {
						tb.Do(chromedp.EmulateViewport(width, 900))
					}
					tb.Do(chromedp.Navigate(url))
					tb.Do(chromedp.Evaluate[chromedp.Void](`document.documentElement.dataset.theme = '` + theme + `'`))
					if sw := browsertest.Eval[int](tb, `document.documentElement.scrollWidth`); sw > int(width) {
						t.Errorf("the page is %d px wide in a %d px window", sw, width)
					}
					if over := browsertest.Eval[bool](tb, `Array.from(document.querySelectorAll('.table-wrap')).some(w => w.scrollWidth > w.clientWidth + 1)`); over && width < 600 {
						t.Error("a table of sessions scrolls sideways on a phone")
					}
					if gap := browsertest.Eval[float64](tb, `document.querySelector('.generator').getBoundingClientRect().left - document.querySelector('.index-head').getBoundingClientRect().left`); gap > 1 || gap < -1 {
						t.Errorf("the footer is %v px off the content's edge", gap)
					}
					tb.Shot(shot)
				})
			}
		}
	}
}
