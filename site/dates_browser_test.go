package site

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// TestBrowserDatesAlike: the server's search writes a session's date as
// the index does: in the reader's locale and time zone, the zone named.
func TestBrowserDatesAlike(t *testing.T) {
	items := indexItems()
	dir := t.TempDir()
	index := filepath.Join(dir, "index.html")
	if err := os.WriteFile(index, []byte(renderIndex(t, items[:1], IndexOptions{})), 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res := SearchResults{Query: "mux", Total: 1, Sessions: 1, Hits: []SearchHit{{Session: items[0], EntryID: "a", Role: "user", Snippet: "mux"}}}
	if err := WriteSearchResults(&buf, res, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	search := filepath.Join(dir, "search.html")
	if err := os.WriteFile(search, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	browser := browsertest.Start(t)
	t.Parallel()
	date := func(path, sel string) string {
		tb := browsertest.OpenTab(t, browser)
		tb.SetTimeZone("America/New_York")
		tb.Navigate("file://" + filepath.ToSlash(path))
		return browsertest.Eval[string](tb, `document.querySelector(`+browsertest.JSString(sel)+`).textContent`)
	}
	listed, found := date(index, "table.sessions time"), date(search, ".hits-meta time")
	if found != listed {
		t.Errorf("the search dates the session %q, the index %q", found, listed)
	}
	if !regexp.MustCompile(`\b(EST|EDT|GMT-[45])$`).MatchString(listed) {
		t.Errorf("the index's date %q does not name the reader's time zone", listed)
	}
}

// TestIndexCellsFit: on a wide screen every cell of the index shows its
// text whole, inside its column: a date with its time zone ("GMT+5:30"),
// a session's models (whole names, one under the other where the column
// is narrow).
func TestIndexCellsFit(t *testing.T) {
	items := indexItems()
	items[0].Summary.Start = time.Date(2026, 11, 26, 15, 31, 0, 0, time.UTC)
	items[1].Summary.Models = append(items[1].Summary.Models, "anthropic/claude-haiku-4-5", "amazon-bedrock/eu.anthropic.claude-sonnet-4-5-20250929-v1:0")
	path := filepath.Join(t.TempDir(), "index.html")
	if err := os.WriteFile(path, []byte(renderIndex(t, items, IndexOptions{Home: "/home/alice"})), 0o644); err != nil {
		t.Fatal(err)
	}
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	tb.SetTimeZone("Asia/Kolkata")
	tb.Do(chromedp.EmulateViewport(1400, 1000))
	tb.Navigate("file://" + filepath.ToSlash(path))
	cut := browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('table.sessions td')).filter(td => td.scrollWidth > td.clientWidth + 1).map(td => td.textContent + ' (' + td.scrollWidth + ' px in ' + td.clientWidth + ')')`)
	for _, c := range cut {
		t.Errorf("a cell's text does not fit: %s", c)
	}
	if n := browsertest.Eval[int](tb, `document.querySelectorAll('table.sessions td time').length`); n == 0 {
		t.Fatal("no dates")
	}
	// A date in a zone of a few letters takes one line.
	tb.SetTimeZone("Europe/Berlin")
	tb.Navigate("file://" + filepath.ToSlash(path))
	if wrapped := browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('table.sessions td time')).filter(t => t.getClientRects().length > 1).map(t => t.textContent)`); len(wrapped) > 0 {
		t.Errorf("dates wrap: %q", wrapped)
	}
}
