package archive

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// The archive's search lives in its address: typing rewrites it, a page
// of results is a step of the history, and an address with a search
// (index.html?q=wombat&page=2) opens with its results, at that page.
func TestBrowserStaticSearchAddress(t *testing.T) {
	index := wombatArchive(t)
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	shown := func(q string, page int) {
		t.Helper()
		tb.WaitJS(`(() => { const r = document.getElementById('static-results'); return !!r && r.dataset.query === ` + browsertest.JSString(q) +
			` && r.dataset.page === '` + string(rune('0'+page)) + `'; })()`)
		if got := browsertest.Eval[string](tb, `document.querySelector('#static-search input').value`); got != q {
			t.Errorf("the search box holds %q, want %q", got, q)
		}
	}
	search := func() string { return browsertest.Eval[string](tb, `location.search`) }

	tb.Do(chromedp.Navigate(index))
	tb.WaitJS(`document.querySelectorAll('table.sessions tbody tr').length === 1`)
	start := browsertest.Eval[int](tb, `history.length`)
	tb.Do(chromedp.SendKeys(`#static-search input`, "wombat"))
	shown("wombat", 1)
	if got := search(); got != "?q=wombat" {
		t.Errorf("after typing, the address's query is %q, want ?q=wombat", got)
	}
	if n := browsertest.Eval[int](tb, `history.length`); n != start {
		t.Errorf("typing added %d steps to the history, want none", n-start)
	}
	tb.Do(chromedp.Evaluate[chromedp.Void](`Array.from(document.querySelectorAll('#static-results .search-pages button')).find(b => b.textContent.includes('Next')).click()`))
	shown("wombat", 2)
	if got := search(); got != "?q=wombat&page=2" {
		t.Errorf("after Next page, the address's query is %q, want ?q=wombat&page=2", got)
	}
	if n := browsertest.Eval[int](tb, `history.length`); n != start+1 {
		t.Errorf("Next page made history.length %d, want %d", n, start+1)
	}
	if got := browsertest.Eval[string](tb, `document.querySelector('#static-results .index-summary').textContent`); !strings.Contains(got, "51 to 100") {
		t.Errorf("page 2: %q", got)
	}
	tb.Do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	shown("wombat", 1)

	// A reload, or a bookmark, opens the search at its page.
	tb.Do(chromedp.Navigate(index + "?q=wombat&page=3"))
	shown("wombat", 3)
	if got := browsertest.Eval[string](tb, `document.querySelector('#static-results .index-summary').textContent`); !strings.Contains(got, "101 to 120") {
		t.Errorf("?q=wombat&page=3 shows %q, want 101 to 120", got)
	}
	// Back from a hit's page comes back to the search.
	tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#static-results .hit-list a').click()`))
	tb.WaitJS(`location.hash.startsWith('#e')`)
	tb.Do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	shown("wombat", 3)

	// Emptying the box takes the search out of the address.
	tb.Press("Escape")
	tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#static-search input').focus()`))
	tb.Press("Escape")
	tb.WaitJS(`location.search === ''`)
}
