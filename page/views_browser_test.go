package page

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// TestBrowserTreeReusesRows scrolls the tree of a long session and
// changes its filter: the rows that come into view are painted in the
// elements of those that left (no new element is made), each as tall as
// page.css says a row is, at its place in the list.
func TestBrowserTreeReusesRows(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	tb.Navigate(writeExport(t, chainSession(t, 7, 3000), Options{}))
	tb.WaitJS(`document.querySelectorAll('#tree a[data-row]').length > 10`)
	// From the middle of the tree, where as many rows are drawn above
	// the view as below.
	frame := `new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))`
	tb.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('tree').scrollTop = 20000`))
	tb.Do(chromedp.Evaluate[chromedp.Void](frame, chromedp.EvalAwaitPromise))
	tb.Do(chromedp.Evaluate[chromedp.Void](`for (const a of document.querySelectorAll('#tree a[data-row]')) a.__made = true`))
	type rows struct {
		Count, Fresh, Misplaced, Height int
		Pitch                           float64
	}
	look := `(() => {
		const tree = document.getElementById('tree');
		const pitch = parseFloat(getComputedStyle(tree).getPropertyValue('--tree-row'));
		const sizer = tree.querySelector('.tree-sizer').getBoundingClientRect().top;
		const rows = Array.from(tree.querySelectorAll('a[data-row]'));
		const first = Number(rows[0].getAttribute('aria-posinset')) - 1;
		let misplaced = 0, height = 0;
		rows.forEach((a, k) => {
			const r = a.getBoundingClientRect();
			if (Math.abs(r.top - sizer - (first + k) * pitch) > 0.5) misplaced++;
			if (Math.abs(r.height - pitch) > 0.5) height++;
		});
		return {count: rows.length, fresh: rows.filter(a => !a.__made).length, misplaced, height, pitch};
	})()`
	start := browsertest.Eval[rows](tb, look)
	if start.Pitch <= 0 {
		t.Fatalf("page.css gives the tree no row height (--tree-row): %v", start.Pitch)
	}
	// A new element is made only when more rows are drawn than ever
	// before (a row more or less shows, by where the rows fall).
	most := start.Count
	for step := 1; step <= 20; step++ {
		tb.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('tree').scrollTop += document.getElementById('tree').clientHeight * 0.7`))
		tb.Do(chromedp.Evaluate[chromedp.Void](frame, chromedp.EvalAwaitPromise))
		got := browsertest.Eval[rows](tb, look)
		if got.Fresh > max(0, got.Count-most) {
			t.Fatalf("scrolled %d times, the tree made %d new row elements for %d rows (%d at most before)", step, got.Fresh, got.Count, most)
		}
		most = max(most, got.Count)
		tb.Do(chromedp.Evaluate[chromedp.Void](`for (const a of document.querySelectorAll('#tree a[data-row]')) a.__made = true`))
		if got.Misplaced > 0 || got.Height > 0 {
			t.Fatalf("scrolled %d times, %d rows are out of place and %d not %vpx tall", step, got.Misplaced, got.Height, got.Pitch)
		}
	}
	tb.Click(`[data-filter="all"]`)
	tb.Do(chromedp.Evaluate[chromedp.Void](frame, chromedp.EvalAwaitPromise))
	if got := browsertest.Eval[rows](tb, look); got.Fresh > max(0, got.Count-most) || got.Misplaced > 0 {
		t.Errorf("after another filter, %d of %d rows are new elements, %d out of place", got.Fresh, got.Count, got.Misplaced)
	}
}

// TestBrowserDrawAllInOrder draws the whole path of a long session for
// printing, from its end (where the page opens): every entry is drawn
// once, in order, at its place in the feed, and measured.
func TestBrowserDrawAllInOrder(t *testing.T) {
	const n = 3000
	s := chainSession(t, 8, n)
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	tb.Navigate(writeExport(t, s, Options{}))
	type drawn struct {
		Count, Disordered, Unmeasured, Size int
		First                               int
	}
	look := `(() => {
		const arts = Array.from(document.querySelectorAll('#path > article'));
		let disordered = 0;
		arts.forEach((a, k) => { if (Number(a.getAttribute('aria-posinset')) !== k + 1) disordered++; });
		return {count: arts.length, disordered, size: arts.length ? Number(arts[0].getAttribute('aria-setsize')) : 0,
			first: arts.length ? Number(arts[0].getAttribute('aria-posinset')) : 0,
			unmeasured: Array.from(document.querySelectorAll('.path-spacer')).filter(s => parseFloat(s.style.height) > 0.5).length};
	})()`
	if before := browsertest.Eval[drawn](tb, look); before.First <= 1 {
		t.Fatalf("the page opens at entry %d of its path: the test needs it to open at the end", before.First)
	}
	tb.Do(chromedp.Evaluate[chromedp.Void](`dispatchEvent(new Event('beforeprint'))`))
	got := browsertest.Eval[drawn](tb, look)
	if got.Count != got.Size || got.Size < n/2 {
		t.Errorf("printing draws %d of the path's %d entries", got.Count, got.Size)
	}
	if got.Disordered > 0 || got.Unmeasured > 0 {
		t.Errorf("printing draws %d entries out of order, and leaves %d spacers", got.Disordered, got.Unmeasured)
	}
}
