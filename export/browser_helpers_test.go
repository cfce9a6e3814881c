package export

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// startBrowser starts the one headless browser a test uses.
func startBrowser(t *testing.T) context.Context { return browsertest.Start(t) }

// browserTab is one browser tab; the page's console errors fail the test.
type browserTab struct {
	t   *testing.T
	ctx context.Context
}

// newBrowserTab opens a tab that closes when the test ends.
func newBrowserTab(t *testing.T, browser context.Context) *browserTab {
	t.Helper()
	return &browserTab{t: t, ctx: browsertest.NewTab(t, browser, 30*time.Second)}
}

func (tb *browserTab) do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.t.Fatal(err)
	}
}

// open loads url and checks that no text from the session ran as script.
func (tb *browserTab) open(url string, want *pageView) {
	tb.t.Helper()
	tb.navigate(url)
	tb.checkNoXSS(want)
}

// navigate loads url and waits until the page has shown what it asks for:
// a deep link to another branch unpacks its entries first.
func (tb *browserTab) navigate(url string) {
	tb.t.Helper()
	tb.do(chromedp.Navigate(url))
	tb.settle()
}

func (tb *browserTab) checkNoXSS(want *pageView) {
	tb.t.Helper()
	if ran := browserEval[bool](tb, `typeof window.__xss !== 'undefined'`); ran {
		tb.t.Errorf("session text ran as script: window.__xss = %v", browserEval[any](tb, `window.__xss`))
	}
	if title := browserEval[string](tb, `document.title`); title != want.Title {
		tb.t.Errorf("document.title = %q, want %q", title, want.Title)
	}
}

// press sends one key, named as in KeyboardEvent.key, the way a keyboard
// does: a keyDown that carries its text (for a printable key), so a handler that cancels the keydown also cancels the typing.
// (chromedp.KeyEvent sends the text as a separate char event, which a
// cancelled keydown does not stop.)
func (tb *browserTab) press(key string) {
	tb.t.Helper()
	tb.do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
			p := input.DispatchKeyEventParams{Type: typ, Key: key}
			if typ == input.DispatchKeyEventTypeKeyDown && len([]rune(key)) == 1 {
				p.Text = key
			}
			if _, err := cdp.Call(ctx, target, input.DispatchKeyEvent, p); err != nil {
				return err
			}
		}
		return nil
	}))
	tb.settle()
}

func browserEval[T any](tb *browserTab, expr string, opts ...chromedp.EvaluateOption) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		tb.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// click clicks the element sel finds and waits until the page has shown
// what the click asked for: entries whose bodies were packed are
// unpacked asynchronously, and a long path is shown a chunk per frame,
// with #entries marked aria-busy meanwhile.
//
// Like a reader, it first scrolls the element into view and waits until it
// is drawn: rows of a long tree out of view are not laid out
// (content-visibility), and a click aimed at where one will be can land
// on another while the rows around it are being drawn.
func (tb *browserTab) click(sel chromedp.CSS) {
	tb.t.Helper()
	el := `document.querySelector(` + jsString(string(sel)) + `)`
	tb.do(chromedp.Evaluate[chromedp.Void](el + `.scrollIntoView({block: 'center'})`))
	tb.waitJS(`(() => {
		const e = ` + el + `, r = e.getBoundingClientRect();
		if (!e.checkVisibility({contentVisibilityAuto: true}) || r.height === 0) return false;
		const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return !!hit && e.contains(hit);
	})()`)
	tb.do(chromedp.Click(sel))
	tb.settle()
}

// settle waits until no entry is being unpacked or shown. That may take
// a few frames, and frames are slow on a busy machine, so it waits longer
// than waitJS does.
func (tb *browserTab) settle() {
	tb.t.Helper()
	tb.waitJSFor(`!document.querySelector('#entries[aria-busy]')`, 10*time.Second)
}

// waitJS polls expr until it is true; it fails the test after two seconds.
func (tb *browserTab) waitJS(expr string) {
	tb.t.Helper()
	tb.waitJSFor(expr, 2*time.Second)
}

// waitJSFor polls expr until it is true; it fails the test after wait.
func (tb *browserTab) waitJSFor(expr string, wait time.Duration) {
	tb.t.Helper()
	deadline := time.Now().Add(wait)
	for !browserEval[bool](tb, expr) {
		if time.Now().After(deadline) {
			tb.t.Fatalf("timed out waiting for %s", expr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// visibleEntries lists the entries the reader can see (rendered, not
// display:none), from the top of the page down: the order they are shown
// in, which is not their order in the file.
func (tb *browserTab) visibleEntries() []string {
	tb.t.Helper()
	// Groups of entries out of view are not laid out (content-visibility),
	// so their entries have no position until they are drawn; lay them
	// all out first (important: the page's ::part() rules outrank a normal
	// declaration inside the shadow tree).
	return browserEval[[]string](tb, `(() => {
		const root = document.getElementById('entries').shadowRoot;
		for (const g of root ? root.children : []) g.style.setProperty('content-visibility', 'visible', 'important');
		const shown = Array.from(document.querySelectorAll('article[data-entry]')).filter(a => a.checkVisibility());
		const order = shown.map(a => [a.getBoundingClientRect().top, a.dataset.entry]).sort((x, y) => x[0] - y[0]).map(x => x[1]);
		for (const g of root ? root.children : []) g.style.removeProperty('content-visibility');
		return order;
	})()`)
}

// visibleNodes lists the tree nodes that are rendered.
func (tb *browserTab) visibleNodes() []string {
	tb.t.Helper()
	return browserEval[[]string](tb, `Array.from(document.querySelectorAll('#tree a[data-tree-node]')).filter(a => a.checkVisibility()).map(a => a.dataset.treeNode)`)
}

// shot saves a screenshot of the viewport to $PIEXPORT_SHOTS/name.png when
// that variable names a directory.
func (tb *browserTab) shot(name string) {
	tb.t.Helper()
	tb.saveShot(name, chromedp.CaptureScreenshot())
}

// fullShot is shot for the whole page, below the fold included.
func (tb *browserTab) fullShot(name string) {
	tb.t.Helper()
	tb.saveShot(name, chromedp.FullScreenshot(100))
}

func (tb *browserTab) saveShot(name string, capture chromedp.Action[[]byte]) {
	tb.t.Helper()
	dir := os.Getenv("PIEXPORT_SHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(tb.ctx, capture)
	if err != nil {
		tb.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
}

// writePageFile renders v into a temporary file and returns its file:// URL.
func writePageFile(t *testing.T, v *pageView) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	err = errors.Join(writePage(f, v), f.Close())
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(path)
}

// browserJSString quotes s as a JavaScript string literal.
func browserJSString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "<", `\x3c`)
	return "'" + r.Replace(s) + "'"
}
