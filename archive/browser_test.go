package archive

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// The archive's index searches every session from file://, with its
// Content-Security-Policy (any violation fails the test): typing finds
// entries and links each to its place in its session's page; words of no
// session find nothing; the page still lists every session.
// PIEXPORT_SHOTS=dir saves screenshots, light and dark, and on a phone.
func TestBrowserStaticSearch(t *testing.T) {
	src := t.TempDir()
	out := filepath.Join(t.TempDir(), "archive")
	files := sources(t, src, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-sdk-compaction-custom.jsonl", "pi-v3-earth0-a.jsonl")
	res, err := Build(context.Background(), out, files, Options{})
	must(t, err)
	if len(res.Failed) != 1 {
		t.Fatalf("failed %v, want the empty file", res.Failed)
	}
	tb := browsertest.OpenTab(t, browsertest.Start(t))
	index := (&url.URL{Scheme: "file", Path: filepath.Join(out, "index.html")}).String()
	tb.Do(chromedp.Navigate(index))
	tb.WaitJS(`document.querySelectorAll('table.sessions tbody tr').length === 3`)
	search := func(q string) {
		t.Helper()
		tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#static-search input').value = ''`))
		tb.Do(chromedp.SendKeys(`#static-search input`, q))
		tb.WaitJSFor(`document.getElementById('static-results').dataset.query === `+browsertest.JSString(q), 10*time.Second)
	}

	// An assistant message of one session, by two of its words.
	search("registered MUX")
	if got := browsertest.Eval[string](tb, `document.querySelector('#static-results .hit-list a').getAttribute('href')`); got != pageA+"#6eea0e7d" {
		t.Errorf("first hit links %q, want %s#6eea0e7d", got, pageA)
	}
	if got := browsertest.Eval[string](tb, `Array.from(document.querySelectorAll('#static-results mark')).map(m => m.textContent.toLowerCase()).join(' ')`); !strings.Contains(got, "registered") || !strings.Contains(got, "mux") {
		t.Errorf("marked words %q, want registered and mux", got)
	}
	if got := browsertest.Eval[string](tb, `document.querySelector('#static-results .index-summary').textContent`); !strings.HasPrefix(got, "1 matching entry in 1 session") {
		t.Errorf("summary %q", got)
	}
	tb.Shot("archive-search-light")
	tb.Do(chromedp.Evaluate[chromedp.Void](`document.documentElement.setAttribute('data-theme', 'dark')`))
	tb.Shot("archive-search-dark")
	tb.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	tb.Shot("archive-search-phone")
	tb.Do(chromedp.EmulateViewport(1280, 860))

	// Words in no session; words too common to be indexed.
	search("zzyzx quokka")
	if got := browsertest.Eval[string](tb, `document.querySelector('#static-results .index-summary').textContent`); got != "Nothing matches." {
		t.Errorf("words in no session: %q", got)
	}
	search("the")
	if got := browsertest.Eval[string](tb, `document.querySelector('#static-results .index-summary').textContent`); !strings.Contains(got, "not indexed") {
		t.Errorf("a stopword: %q", got)
	}

	// A hit opens its page at the entry.
	search("registered mux")
	tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#static-results .hit-list a').click()`))
	tb.WaitJSFor(`location.hash === '#6eea0e7d' && document.title === 'Health endpoint'`, 10*time.Second)
}
