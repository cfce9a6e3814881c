package page

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// TestBrowserTreeFollowsReading: the tree marks the entry at the top of
// the window (aria-current="location") and keeps its row in the tree's
// view, wherever the reader goes in a long path: to its start with
// Ctrl+Home, to its middle with the scroll bar.
func TestBrowserTreeFollowsReading(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	s := chainSession(t, 11, 800)
	tb := browsertest.OpenTab(t, browser)
	tb.Navigate(writeExport(t, s, Options{}))
	tb.WaitJS(`!!document.querySelector('#tree a.sel')`)

	// marked waits until the row marked is that of the entry at the top
	// of the window, and checks that it is the only one and in the tree's
	// view; it returns the entry.
	marked := func(step string) string {
		t.Helper()
		tb.WaitJS(`(() => {
			const off = document.querySelector('.topbar').getBoundingClientRect().bottom;
			const top = Array.from(document.querySelectorAll('#path > article[data-entry]')).find(a => a.getBoundingClientRect().bottom > off);
			const here = document.querySelector('#tree a[aria-current="location"]');
			return !!top && !!here && here.dataset.treeNode === top.dataset.entry;
		})()`)
		type mark struct {
			ID     string
			Count  int
			InView bool
			Class  bool
		}
		got := browsertest.Eval[mark](tb, `(() => {
			const tree = document.getElementById('tree'), all = document.querySelectorAll('#tree [aria-current]');
			const here = all[0], r = here.getBoundingClientRect(), box = tree.getBoundingClientRect();
			return {id: here.dataset.treeNode, count: all.length, inView: r.top >= box.top - 1 && r.bottom <= box.bottom + 1, class: here.classList.contains('here')};
		})()`)
		if got.Count != 1 {
			t.Errorf("%s: %d rows are marked as the one in view", step, got.Count)
		}
		if !got.InView {
			t.Errorf("%s: the row of %s is not in the tree's view", step, got.ID)
		}
		if !got.Class {
			t.Errorf("%s: the row of %s is not drawn as the one in view", step, got.ID)
		}
		return got.ID
	}
	atEnd := marked("at load")

	// Ctrl+Home, as a keyboard sends it.
	tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
			p := input.DispatchKeyEventParams{Type: typ, Key: "Home", Code: "Home", WindowsVirtualKeyCode: 36, NativeVirtualKeyCode: 36, Modifiers: 2} // 2: Ctrl
			if _, err := cdp.Call(ctx, target, input.DispatchKeyEvent, p); err != nil {
				return err
			}
		}
		return nil
	}))
	tb.WaitJS(`scrollY === 0`)
	tb.Settle()
	if got := marked("after Ctrl+Home"); got != s.Entries[0].ID {
		t.Errorf("after Ctrl+Home the tree marks %s, want the first entry %s", got, s.Entries[0].ID)
	}

	tb.Do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.documentElement.scrollHeight / 2)`))
	tb.Settle()
	middle := marked("in the middle")
	if middle == atEnd || middle == s.Entries[0].ID {
		t.Errorf("in the middle of the path the tree marks %s, an end", middle)
	}
	if top := browsertest.Eval[float64](tb, `document.getElementById('tree').scrollTop`); top == 0 {
		t.Error("in the middle of the path the tree is still scrolled to its top")
	}
	tb.Shot("tree-follows-reading")
}
