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
func TestBrowserStaticSearch(t *testing.T) {
	src := t.TempDir()
	out := filepath.Join(t.TempDir(), "archive")
	files := sources(t, src, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-sdk-compaction-custom.jsonl", "pi-v3-earth0-a.jsonl")
	res, err := Build(context.Background(), out, files, Options{})
	must(t, err)
	if len(res.Failed) != 1 {
		t.Fatalf("failed %v, want the empty file", res.Failed)
	}
	tab := browsertest.NewTab(t, browsertest.Start(t), 60*time.Second)
	do := func(actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(tab, actions...); err != nil {
			t.Fatal(err)
		}
	}
	wait := func(expr string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			ok, err := chromedp.Run(tab, chromedp.Evaluate[bool](expr))
			if err == nil && ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s (last error: %v)", expr, err)
			}
			time.Sleep(30 * time.Millisecond)
		}
	}
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(tab, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	index := (&url.URL{Scheme: "file", Path: filepath.Join(out, "index.html")}).String()
	do(chromedp.Navigate(index))
	wait(`document.querySelectorAll('table.sessions tbody tr').length === 3`)

	// An assistant message of one session, by two of its words.
	do(chromedp.SendKeys(`#static-search input`, "registered MUX"))
	wait(`document.getElementById('static-results').dataset.query === 'registered MUX'`)
	if got := eval(`document.querySelector('#static-results .hit-list a').getAttribute('href')`); got != pageA+"#6eea0e7d" {
		t.Errorf("first hit links %q, want %s#6eea0e7d", got, pageA)
	}
	if got := eval(`Array.from(document.querySelectorAll('#static-results mark')).map(m => m.textContent.toLowerCase()).join(' ')`); !strings.Contains(got, "registered") || !strings.Contains(got, "mux") {
		t.Errorf("marked words %q, want registered and mux", got)
	}
	if got := eval(`document.querySelector('#static-results .index-summary').textContent`); !strings.HasPrefix(got, "1 matching entry in 1 session") {
		t.Errorf("summary %q", got)
	}

	// Words in no session.
	do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#static-search input').value = ''`))
	do(chromedp.SendKeys(`#static-search input`, "zzyzx quokka"))
	wait(`document.getElementById('static-results').dataset.query === 'zzyzx quokka'`)
	if got := eval(`document.querySelector('#static-results .index-summary').textContent`); got != "Nothing matches." {
		t.Errorf("words in no session: %q", got)
	}

	// A hit opens its page at the entry.
	do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#static-search input').value = ''`))
	do(chromedp.SendKeys(`#static-search input`, "registered mux"))
	wait(`document.getElementById('static-results').dataset.query === 'registered mux'`)
	do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#static-results .hit-list a').click()`))
	wait(`location.hash === '#6eea0e7d' && document.title === 'Health endpoint'`)
}
