package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Tab is one tab of the browser a test started, with the steps the tests
// of pages take in it. Any step that fails fails the test, and so does
// an error the page reports (see NewTab).
type Tab struct {
	T   testing.TB
	Ctx context.Context
}

// OpenTab opens a tab that closes when the test ends, after at most two
// minutes. The limit only stops a page that hangs: the tests measure no
// time, and a busy machine may take long over a 30,000-entry page.
func OpenTab(t testing.TB, browser context.Context) *Tab {
	t.Helper()
	return OpenTabFor(t, browser, 2*time.Minute)
}

// OpenTabFor is OpenTab for a tab that lives up to limit: one that
// checks many pages in turn (a built site's) needs longer on a busy
// machine than one page does.
func OpenTabFor(t testing.TB, browser context.Context, limit time.Duration) *Tab {
	t.Helper()
	return &Tab{T: t, Ctx: NewTab(t, browser, limit)}
}

// Do runs actions in the tab.
func (tb *Tab) Do(actions ...chromedp.Action[chromedp.Void]) {
	tb.T.Helper()
	if err := chromedp.Do(tb.Ctx, actions...); err != nil {
		tb.T.Fatal(err)
	}
}

// Navigate loads url and waits until the page has shown what it asks for:
// a deep link to another branch unpacks its entries first.
func (tb *Tab) Navigate(url string) {
	tb.T.Helper()
	tb.Do(chromedp.Navigate(url))
	tb.Settle()
}

// BeforeScripts runs src in every document the tab loads from now on,
// before any script of the document's own: a test's probe of what the
// page's scripts do.
func (tb *Tab) BeforeScripts(src string) {
	tb.T.Helper()
	tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return err
	}))
}

// Press sends one key, named as in KeyboardEvent.key, the way a keyboard
// does: a keyDown that carries its text (for a printable key), so a
// handler that cancels the keydown also cancels the typing.
// (chromedp.KeyEvent sends the text as a separate char event, which a
// cancelled keydown does not stop.)
func (tb *Tab) Press(key string) {
	tb.T.Helper()
	tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
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
	tb.Settle()
}

// Eval evaluates the JavaScript expression expr in the tab.
func Eval[T any](tb *Tab, expr string, opts ...chromedp.EvaluateOption) T {
	tb.T.Helper()
	v, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		tb.T.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// Click clicks the element sel finds and waits until the page has shown
// what the click asked for: entries whose articles were packed are
// unpacked asynchronously, with the path marked aria-busy meanwhile.
//
// Like a reader, it first scrolls the element into view and waits until it
// is drawn, so that the click lands on it and on nothing drawn over it.
func (tb *Tab) Click(sel chromedp.CSS) {
	tb.T.Helper()
	el := `document.querySelector(` + JSString(string(sel)) + `)`
	tb.Do(chromedp.Evaluate[chromedp.Void](el + `.scrollIntoView({block: 'center'})`))
	tb.WaitJS(`(() => {
		const e = ` + el + `, r = e.getBoundingClientRect();
		if (!e.checkVisibility({contentVisibilityAuto: true}) || r.height === 0) return false;
		const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return !!hit && e.contains(hit);
	})()`)
	// A virtual list draws its rows again as it likes (the tree marks the
	// entry in view every frame): the node found can be gone before the
	// click lands. Then the element is found again.
	for try := 1; ; try++ {
		err := chromedp.Do(tb.Ctx, chromedp.Click(sel))
		if err == nil {
			break
		}
		if try == 5 || !strings.Contains(err.Error(), "Could not find node") {
			tb.T.Fatal(err)
		}
	}
	tb.Settle()
}

// Settle waits until a session page shows what it was asked for: no
// entry being unpacked or waited for (on other pages it returns at
// once). That may take a few frames, and frames are slow on a busy
// machine, so it waits longer than WaitJS does. Like every wait here, the
// limit only catches a page that never gets there; it is no measure of
// speed.
func (tb *Tab) Settle() {
	tb.T.Helper()
	tb.WaitJSFor(`document.readyState !== 'loading' && !document.querySelector('#path[aria-busy], #path [aria-busy]')`, 30*time.Second)
}

// WaitJS polls expr until it is true; it fails the test after ten seconds.
func (tb *Tab) WaitJS(expr string) {
	tb.T.Helper()
	tb.WaitJSFor(expr, 10*time.Second)
}

// WaitJSFor polls expr until it is true; it fails the test after wait.
func (tb *Tab) WaitJSFor(expr string, wait time.Duration) {
	tb.T.Helper()
	deadline := time.Now().Add(wait)
	for !Eval[bool](tb, expr) {
		if time.Now().After(deadline) {
			tb.T.Fatalf("timed out waiting for %s", expr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Shot saves a screenshot of the viewport to $PIEXPORT_SHOTS/name.png when
// that variable names a directory.
func (tb *Tab) Shot(name string) {
	tb.T.Helper()
	tb.saveShot(name, chromedp.CaptureScreenshot())
}

// FullShot is Shot for the whole page, below the fold included.
func (tb *Tab) FullShot(name string) {
	tb.T.Helper()
	tb.saveShot(name, chromedp.FullScreenshot(100))
}

func (tb *Tab) saveShot(name string, capture chromedp.Action[[]byte]) {
	tb.T.Helper()
	dir := os.Getenv("PIEXPORT_SHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(tb.Ctx, capture)
	if err != nil {
		tb.T.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.T.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		tb.T.Fatal(err)
	}
}

// JSString quotes s as a JavaScript string literal that is safe inside
// HTML too: no <, > or control character appears in it as itself.
func JSString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == '<' || r == '>':
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
