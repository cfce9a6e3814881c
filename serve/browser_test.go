package serve

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/internal/browsertest"
)

// browserTab is one tab of a headless browser; the test fails if the page
// reports an error, a CSP violation included.
type browserTab struct {
	t   *testing.T
	ctx context.Context
}

func newBrowserTab(t *testing.T) *browserTab {
	t.Helper()
	return &browserTab{t: t, ctx: browsertest.NewTab(t, browsertest.Start(t), 60*time.Second)}
}

func (tb *browserTab) do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.t.Fatal(err)
	}
}

func eval[T any](tb *browserTab, expr string) (T, error) {
	return chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr))
}

// waitJS polls expr until it is true, through reloads; the deadline only
// keeps a broken page from hanging the test.
func (tb *browserTab) waitJS(expr string) {
	tb.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := eval[bool](tb, expr)
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			tb.t.Fatalf("timed out waiting for %s (last error: %v)", expr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// From the index, a search finds an entry and opens its page there; the
// page then follows its file as it grows.
func TestBrowser(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-earth0-a.jsonl")
	cat, err := catalog.New(context.Background(), []string{dir}, catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	s := newServer(cat, nil, Options{Home: "/home/dev", FollowEvery: 50 * time.Millisecond}, &logger{}, "")
	hs := httptest.NewServer(s.handler())
	defer hs.Close()
	defer close(s.stopping)

	tb := newBrowserTab(t)
	tb.do(chromedp.Navigate(hs.URL + "/"))
	if n, _ := eval[int](tb, `document.querySelectorAll('table.sessions tbody tr').length`); n != 2 {
		t.Errorf("index rows = %d, want 2", n)
	}
	tb.do(
		chromedp.SetValue(`input[name=q]`, "default mux"),
		chromedp.Submit(`form.search`),
	)
	tb.waitJS(`location.pathname === '/search' && document.querySelector('.hit-list a') !== null`)
	tb.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('.hit-list a').click()`))
	tb.waitJS(`location.hash === '#6eea0e7d' && document.title === 'Health endpoint'`)
	tb.waitJS(`document.getElementById('e:6eea0e7d').checkVisibility()`)

	// Follow: at the leaf, scrolled to the bottom, the page shows an entry
	// appended to its file, and stays at the bottom.
	tb.do(chromedp.Navigate(strings.Split(mustEval[string](tb, `location.href`), "#")[0]))
	tb.waitJS(`document.readyState === 'complete'`)
	tb.do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.documentElement.scrollHeight)`))
	file := filepath.Join(dir, "--home-dev-projects-webapp--", "pi-v3-sdk-branches-labels.jsonl")
	appendTo(t, file, `{"type":"message","id":"live0001","parentId":"a1eb6cb5","timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"a new question, asked live"}}`+"\n")
	tb.waitJS(`!!document.getElementById('e:live0001') && document.getElementById('e:live0001').checkVisibility()`)
	tb.waitJS(`window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 60`)
}

func mustEval[T any](tb *browserTab, expr string) T {
	tb.t.Helper()
	v, err := eval[T](tb, expr)
	if err != nil {
		tb.t.Fatal(err)
	}
	return v
}

// A session page links back to the index; an address that names nothing
// answers a page in the index's style that does too.
func TestBrowserBackLinkAndNotFound(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	cat, err := catalog.New(context.Background(), []string{dir}, catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	s := newServer(cat, nil, Options{Home: "/home/dev"}, &logger{}, "")
	hs := httptest.NewServer(s.handler())
	defer hs.Close()
	defer close(s.stopping)

	tb := &browserTab{t: t, ctx: browsertest.NewTabExpecting(t, browsertest.Start(t), 60*time.Second, "status of 404")}
	tb.do(chromedp.Navigate(hs.URL + "/"))
	tb.waitJS(`document.querySelector('td.title a') !== null`)
	tb.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('td.title a').click()`))
	// The title comes first; the page's header may still be on its way.
	tb.waitJS(`document.title === 'Health endpoint' && document.querySelector('.crumbs a') !== null`)
	tb.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('.crumbs a').click()`))
	tb.waitJS(`location.pathname === '/' && document.querySelector('table.sessions') !== null`)

	for _, path := range []string{"/s/0123456789abcdef", "/nosuch", "/s/" + strings.Repeat("f", 16) + "/events"} {
		tb.do(chromedp.Navigate(hs.URL + path))
		tb.waitJS(`document.querySelector('.not-found h2') !== null`)
		if text, _ := eval[string](tb, `document.querySelector('.not-found').innerText`); !strings.Contains(text, "No session or page has this address") {
			t.Errorf("%s: the 404 page reads %q", path, text)
		}
		// In the site's style: the index's stylesheet applies.
		if bg, _ := eval[string](tb, `getComputedStyle(document.querySelector('.index-head')).borderBottomStyle`); bg != "solid" {
			t.Errorf("%s: the 404 page is not styled like the index", path)
		}
	}
	tb.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('.not-found a').click()`))
	tb.waitJS(`location.pathname === '/' && document.querySelector('table.sessions') !== null`)
}
