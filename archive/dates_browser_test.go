package archive

import (
	"context"
	"net/url"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// TestBrowserDatesAlike: the archive's search writes a session's date as
// its index does: in the reader's locale and time zone, the zone named.
func TestBrowserDatesAlike(t *testing.T) {
	src := t.TempDir()
	out := filepath.Join(t.TempDir(), "archive")
	files := sources(t, src, "pi-v3-sdk-branches-labels.jsonl")
	if _, err := Build(context.Background(), out, files, Options{}); err != nil {
		t.Fatal(err)
	}
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	tb.SetTimeZone("America/New_York")
	tb.Navigate((&url.URL{Scheme: "file", Path: filepath.Join(out, "index.html")}).String())
	tb.WaitJS(`document.querySelectorAll('table.sessions tbody tr').length === 1`)
	listed := browsertest.Eval[string](tb, `document.querySelector('table.sessions time').textContent`)
	tb.Do(chromedp.SendKeys(`#static-search input`, "registered mux"))
	tb.WaitJSFor(`!!document.querySelector('#static-results .hits-meta')`, 10*time.Second)
	found := browsertest.Eval[string](tb, `(() => { const t = document.querySelector('#static-results .hits-meta time'); return t ? t.textContent : document.querySelector('#static-results .hits-meta').textContent; })()`)
	if found != listed {
		t.Errorf("the search dates the session %q, the index %q", found, listed)
	}
	if !regexp.MustCompile(`\b(EST|EDT|GMT-[45])$`).MatchString(listed) {
		t.Errorf("the index's date %q does not name the reader's time zone", listed)
	}
}
