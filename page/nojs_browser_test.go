package page

import (
	"bytes"
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/session"
)

// TestBrowserNoScriptLoadEnds: without JavaScript a long path is the
// page, and laying out all of it while the parser adds it took longer
// than the page grew (a 50 MB session's page never finished loading). A
// group of entries out of view is left out of layout until it is seen:
// the load event fires, the groups far down are not laid out, and a
// link to the last entry, and printing, still reach them.
func TestBrowserNoScriptLoadEnds(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	s, err := session.Read(bytes.NewReader(sessiongen.Sample(8<<20)), "big.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := pathIDs(s, s.Leaf)
	first, last := path[0], path[len(path)-1]
	url := writeExport(t, s, Options{})
	tb := browsertest.OpenTab(t, browser)
	tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}))
	tb.Navigate(url) // returns once the load event has fired
	if !browsertest.Eval[bool](tb, `document.readyState === 'complete' && performance.getEntriesByType('navigation')[0].loadEventEnd > 0`) {
		t.Fatal("the load event has not fired")
	}
	if n := browsertest.Eval[int](tb, `document.querySelectorAll('#entries > noscript.g:not([hidden])').length`); n < 3 {
		t.Fatalf("the path is %d groups: too few to leave any out of layout", n)
	}
	article := func(id string) string {
		return `document.getElementById(` + browsertest.JSString("e:"+id) + `)`
	}
	laidOut := func(id string) bool {
		return browsertest.Eval[bool](tb, article(id)+`.checkVisibility({contentVisibilityAuto: true})`)
	}
	if !laidOut(first) {
		t.Errorf("the first entry, in view, is not laid out")
	}
	if laidOut(last) {
		t.Errorf("the last entry, far out of view, is laid out: every group is")
	}

	// A link to the last entry shows it.
	tb.Do(chromedp.Evaluate[chromedp.Void](`location.hash = ` + browsertest.JSString("#e:"+last)))
	tb.WaitJS(`(() => { const r = ` + article(last) + `.getBoundingClientRect(); return r.height > 0 && r.top < innerHeight && r.bottom > 0; })()`)
	if !laidOut(last) {
		t.Errorf("the last entry, linked to, is not laid out")
	}

	// A printout has every group.
	tb.EmulateMedia("print", "light")
	if got := browsertest.Eval[string](tb, `getComputedStyle(document.querySelector('#entries > noscript.g:not([hidden])')).contentVisibility`); got != "visible" {
		t.Errorf("printed, the groups' content-visibility is %q, want visible", got)
	}
}
