package site

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

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
