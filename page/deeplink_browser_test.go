package page

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// TestBrowserDeepLinkHiddenRow: a link to an entry the tree's default
// filter hides (an assistant message of only thinking and a tool call)
// selects its row all the same: the row is shown, in the tree's view,
// selected and the tree's active descendant, and the status says why a
// row the filter hides is there. Choosing another row, or another
// filter, lets the filter have its way again.
func TestBrowserDeepLinkHiddenRow(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	s := loadCorpus(t, "pi-v3-paradocs-research.jsonl")
	const id = "f11de2f6"
	e := s.Entry(id)
	if e == nil {
		t.Fatalf("the corpus session has no entry %s", id)
	}
	url := writeExport(t, s, Options{})
	tb := browsertest.OpenTab(t, browser)

	// The default filter does hide it.
	tb.Navigate(url)
	tb.WaitJS(`document.querySelectorAll('#tree a[data-row]').length > 0`)
	if browsertest.Eval[bool](tb, `!!document.querySelector('#tree a[data-tree-node="`+id+`"]')`) {
		t.Fatalf("the default filter shows %s: the test needs an entry it hides", id)
	}

	tb.Navigate(url + "#" + id)
	tb.WaitJS(`!!document.querySelector('#tree a.sel')`)
	type row struct {
		Selected, Node, Active, Status string
		InView                         bool
	}
	got := browsertest.Eval[row](tb, `(() => {
		const tree = document.getElementById('tree');
		const sel = document.querySelector('#tree a.sel');
		const active = document.getElementById(tree.getAttribute('aria-activedescendant') || '');
		const r = sel.getBoundingClientRect(), box = tree.getBoundingClientRect();
		return {
			selected: sel.dataset.treeNode,
			node: sel.getAttribute('aria-selected'),
			active: active ? active.dataset.treeNode : '',
			status: document.getElementById('tree-status').textContent,
			inView: r.top >= box.top && r.bottom <= box.bottom,
		};
	})()`)
	if got.Selected != id || got.Node != "true" {
		t.Errorf("the row selected is %q (aria-selected %q), want %s", got.Selected, got.Node, id)
	}
	if got.Active != id {
		t.Errorf("the tree's aria-activedescendant is %q, want %s's row", got.Active, id)
	}
	if !got.InView {
		t.Errorf("%s's row is not scrolled into the tree's view", id)
	}
	if !strings.Contains(got.Status, "opened row shown unfiltered") {
		t.Errorf("the status %q does not say the row opened is one the filter hides", got.Status)
	}
	if top := browsertest.Eval[float64](tb, `document.getElementById('e:`+id+`').getBoundingClientRect().top`); top < 0 || top > 400 {
		t.Errorf("the entry is %v px down the window, not in view", top)
	}
	tb.Shot("deeplink-hidden-row")

	// Another row chosen: the filter hides the entry again.
	tb.Click(nodeSelector(s.Leaf.ID))
	tb.WaitJS(`!document.querySelector('#tree a[data-tree-node="` + id + `"]')`)
	if status := browsertest.Eval[string](tb, `document.getElementById('tree-status').textContent`); strings.Contains(status, "hides") {
		t.Errorf("with the leaf chosen, the status still says %q", status)
	}
	tb.Do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	tb.WaitJS(`!!document.querySelector('#tree a.sel[data-tree-node="` + id + `"]')`)
}
