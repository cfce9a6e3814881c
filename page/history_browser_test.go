package page

import (
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/internal/browsertest"
)

// TestBrowserHistory: each row the reader chooses in the tree is an entry
// of the browser's history. Back and Forward go from one to another in
// the page, without loading it again (a mark left on the window stays),
// and a reload opens the one the address names.
func TestBrowserHistory(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	v := samplePage()
	tb := browsertest.OpenTab(t, browser)
	openPage(tb, writePageFile(t, v), v)
	tb.Do(chromedp.Evaluate[chromedp.Void](`window.__stayed = true`))
	start := browsertest.Eval[int](tb, `history.length`)

	// shows checks that the page shows the path to end with sel selected,
	// and that it was not loaded again.
	shows := func(step, hash, sel, end string) {
		t.Helper()
		tb.WaitJS(`location.hash === ` + browsertest.JSString(hash) + ` && !!document.querySelector('#tree a.sel[data-tree-node=` + browsertest.JSString(sel) + `]')`)
		tb.Settle()
		if !browsertest.Eval[bool](tb, `window.__stayed === true`) {
			t.Fatalf("%s loaded the page again", step)
		}
		if got := browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('#tree a.sel')).map(a => a.dataset.treeNode)`); !slices.Equal(got, []string{sel}) {
			t.Errorf("%s: selected rows %v, want [%s]", step, got, sel)
		}
		if diff := cmp.Diff(samplePath(v, end), visibleEntries(tb)); diff != "" {
			t.Errorf("%s: the path shown (-want +got):\n%s", step, diff)
		}
	}

	tb.Click(nodeSelector("b2")) // the oldest branch, whose leaf is b3
	tb.Click(nodeSelector("c1")) // the middle one, to c6
	if n := browsertest.Eval[int](tb, `history.length`); n != start+2 {
		t.Errorf("two rows chosen make history.length %d, want %d", n, start+2)
	}
	shows("the second row", "#c1", "c1", "c6")

	tb.Do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	shows("Back", "#b2", "b2", "b3")
	tb.Do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	shows("Back to the page as it opened", "", "d6", "d6")
	tb.Do(chromedp.Evaluate[chromedp.Void](`history.forward()`))
	shows("Forward", "#b2", "b2", "b3")

	// Back to leaf is a choice too; Back from it goes back to b2.
	tb.Click(chromedp.CSS("#to-leaf"))
	shows("Back to leaf", "", "d6", "d6")
	tb.Do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	shows("Back from the leaf", "#b2", "b2", "b3")

	// A fragment that names no entry (the skip link's) leaves the view.
	tb.Do(chromedp.Evaluate[chromedp.Void](`location.hash = '#main'`))
	tb.Do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	shows("Back from #main", "#b2", "b2", "b3")

	// A reload opens the entry the address names, on its branch.
	tb.Do(chromedp.Reload())
	tb.Settle()
	tb.WaitJS(`!!document.querySelector('#tree a.sel[data-tree-node="b2"]')`)
	if diff := cmp.Diff(samplePath(v, "b3"), visibleEntries(tb)); diff != "" {
		t.Errorf("after a reload, the path shown (-want +got):\n%s", diff)
	}
}
