package page

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/piexport/piexport/internal/browsertest"
)

// TestBrowserPrintLongPath: Ctrl+P on a long path asks first what to
// print, with the path's size, in a dialog the keyboard works: the
// entries on screen, the part around the entry in view, or everything.
// What is chosen is drawn whole before the browser's print dialog opens,
// and stays drawn, whatever a later frame would draw, until printing
// ends.
func TestBrowserPrintLongPath(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	s := chainSession(t, 7, 1200)
	tb := browsertest.OpenTab(t, browser)
	tb.Navigate(writeExport(t, s, Options{}))
	tb.WaitJS(`!!document.querySelector('#tree a.sel')`)
	tb.Do(chromedp.Evaluate[chromedp.Void](`window.__printed = 0; window.print = () => { window.__printed++; }`))
	drawn := func() int {
		return browsertest.Eval[int](tb, `document.querySelectorAll('#path > article[data-entry]:not([data-placeholder])').length`)
	}
	ctrlP := func() {
		t.Helper()
		tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
				p := input.DispatchKeyEventParams{Type: typ, Key: "p", Code: "KeyP", WindowsVirtualKeyCode: 80, NativeVirtualKeyCode: 80, Modifiers: 2} // 2: Ctrl
				if _, err := cdp.Call(ctx, target, input.DispatchKeyEvent, p); err != nil {
					return err
				}
			}
			return nil
		}))
		tb.WaitJS(`!!document.querySelector('dialog.print-choice[open]')`)
	}
	focused := func() string { return browsertest.Eval[string](tb, `document.activeElement.textContent`) }
	afterPrint := func() {
		t.Helper()
		tb.Do(chromedp.Evaluate[chromedp.Void](`dispatchEvent(new Event('beforeprint')); dispatchEvent(new Event('afterprint'))`))
		tb.WaitJS(`!document.querySelector('#path.printing')`)
	}

	ctrlP()
	if text := browsertest.Eval[string](tb, `document.querySelector('dialog.print-choice').textContent`); !strings.Contains(text, "1,200 entries") || !strings.Contains(text, " MB)") {
		t.Errorf("the dialog says %q: not the path's size", text)
	}
	if got := focused(); !strings.HasPrefix(got, "The entries on screen") {
		t.Errorf("the dialog opens with %q focused, want the first choice", got)
	}
	tb.Shot("print-choice")
	// Escape closes it, and prints nothing.
	tb.Do(chromedp.KeyEvent(kb.Escape))
	tb.WaitJS(`!document.querySelector('dialog.print-choice[open]')`)
	if browsertest.Eval[int](tb, `window.__printed`) != 0 {
		t.Error("Escape in the dialog printed")
	}

	// Everything, chosen with the keyboard.
	ctrlP()
	tb.Press("Tab")
	tb.Press("Tab")
	if got := focused(); !strings.HasPrefix(got, "Everything (1,200 entries)") {
		t.Fatalf("two Tabs focus %q, want Everything", got)
	}
	tb.Do(chromedp.KeyEvent(kb.Enter))
	tb.WaitJSFor(`window.__printed === 1`, 60e9)
	if n := drawn(); n != 1200 {
		t.Errorf("everything chosen, %d of 1,200 entries are drawn when the print dialog opens", n)
	}
	// A later frame, a scroll and a resize leave it drawn.
	tb.Do(chromedp.Evaluate[chromedp.Void](`window.scrollBy(0, 5000); dispatchEvent(new Event('resize'))`))
	tb.Do(chromedp.Evaluate[chromedp.Void](`new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 100))))`, chromedp.EvalAwaitPromise))
	if n := drawn(); n != 1200 {
		t.Errorf("before printing ends, a later frame leaves %d of 1,200 entries drawn", n)
	}
	afterPrint()
	if n := drawn(); n >= 1200 {
		t.Errorf("after printing, %d entries are still drawn", n)
	}

	// The part around the entry in view: a hundred and one entries, the
	// spacers left out of the printout.
	ctrlP()
	tb.Press("Tab")
	tb.Do(chromedp.KeyEvent(kb.Enter))
	tb.WaitJSFor(`window.__printed === 2`, 60e9)
	if n := drawn(); n != 101 {
		t.Errorf("the part around the entry in view is %d entries drawn, want 101", n)
	}
	tb.EmulateMedia("print", "light")
	if n := browsertest.Eval[int](tb, `Array.from(document.querySelectorAll('#path > .path-spacer')).filter(e => e.getBoundingClientRect().height > 0).length`); n != 0 {
		t.Errorf("printed, %d spacers take room", n)
	}
	tb.EmulateMedia("screen", "light")
	afterPrint()
}
