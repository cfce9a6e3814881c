package archive

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
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
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
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
	// The link carries the words found, for the page to mark (issue
	// 23.3).
	if got := browsertest.Eval[string](tb, `document.querySelector('#static-results .hit-list a').getAttribute('href')`); got != pageA+"?hl=registered%20mux#6eea0e7d" {
		t.Errorf("first hit links %q, want %s?hl=registered%%20mux#6eea0e7d", got, pageA)
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

	// Words in no session; the commonest words, indexed too (issue
	// 23.4), found in pages of 50 (issue 23.13).
	search("zzyzx quokka")
	if got := browsertest.Eval[string](tb, `document.querySelector('#static-results .index-summary').textContent`); got != "Nothing matches." {
		t.Errorf("words in no session: %q", got)
	}
	search("the")
	if got := browsertest.Eval[string](tb, `document.querySelector('#static-results .index-summary').textContent`); !strings.Contains(got, "matching entries in 3 sessions") {
		t.Errorf("the: %q", got)
	}

	// A hit opens its page at the entry.
	search("registered mux")
	tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#static-results .hit-list a').click()`))
	tb.WaitJSFor(`location.hash === '#6eea0e7d' && document.title === 'Health endpoint'`, 10*time.Second)
}

// Results come in pages of 50 (issue 23.13); a preview is the plain text
// around the match, marked, where the match is far into its entry, and
// terminal output reads as the terminal showed it (issue 23.3).
func TestBrowserStaticSearchPages(t *testing.T) {
	index := wombatArchive(t)
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	tb.Do(chromedp.Navigate(index))
	tb.WaitJS(`document.querySelectorAll('table.sessions tbody tr').length === 1`)
	search := func(q string) {
		t.Helper()
		tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#static-search input').value = ''`))
		tb.Do(chromedp.SendKeys(`#static-search input`, q))
		tb.WaitJSFor(`document.getElementById('static-results').dataset.query === `+browsertest.JSString(q), 10*time.Second)
	}
	summary := func() string {
		return browsertest.Eval[string](tb, `document.querySelector('#static-results .index-summary').textContent`)
	}
	hits := func() string {
		return browsertest.Eval[string](tb, `Array.from(document.querySelectorAll('#static-results .hit-list a')).map(a => a.getAttribute('href')).join(' ')`)
	}
	next := func(label string) {
		t.Helper()
		tb.Do(chromedp.Evaluate[chromedp.Void](`Array.from(document.querySelectorAll('#static-results .search-pages button')).find(b => b.textContent.includes(` + browsertest.JSString(label) + `)).click()`))
	}

	search("wombat")
	if got := summary(); got != "120 matching entries in 1 session, newest first; 1 to 50 are shown." {
		t.Errorf("page 1: %q", got)
	}
	first := hits()
	if !strings.Contains(first, "#e119") || strings.Contains(first, "#e069") {
		t.Errorf("page 1 is not the newest 50: %s", first)
	}
	next("Next")
	tb.WaitJSFor(`document.querySelector('#static-results .index-summary').textContent.includes('51 to 100')`, 10*time.Second)
	if got := hits(); !strings.Contains(got, "#e069") || strings.Contains(got, "#e119") {
		t.Errorf("page 2: %s", got)
	}
	next("Next")
	tb.WaitJSFor(`document.querySelector('#static-results .index-summary').textContent.includes('101 to 120')`, 10*time.Second)
	if n := browsertest.Eval[int](tb, `document.querySelectorAll('#static-results .hit-list li').length`); n != 20 {
		t.Errorf("page 3 lists %d hits, want 20", n)
	}
	next("Previous")
	tb.WaitJSFor(`document.querySelector('#static-results .index-summary').textContent.includes('51 to 100')`, 10*time.Second)

	search("quokkas")
	link := browsertest.Eval[string](tb, `document.querySelector('#static-results .hit-list a').textContent`)
	marked := browsertest.Eval[string](tb, `document.querySelector('#static-results .hit-list a mark').textContent`)
	if !strings.HasPrefix(link, "…") || !strings.Contains(link, "vite v5.4.2 building quokkas for production") ||
		strings.ContainsAny(link, "\x1b[") || marked != "quokkas" {
		t.Errorf("preview %q, marked %q", link, marked)
	}
}

// wombatArchive builds an archive of one session of 120 user messages
// that say "wombat number N" and a tool's output, and returns its
// index's file:// URL.
func wombatArchive(t *testing.T) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "--home-dev-proj--")
	out := filepath.Join(t.TempDir(), "archive")
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T09:00:00Z","cwd":"/w"}` + "\n")
	parent := "null"
	for i := range 120 {
		fmt.Fprintf(&b, `{"type":"message","id":"e%03d","parentId":%s,"timestamp":"2026-03-01T09:%02d:%02dZ","message":{"role":"user","content":"wombat number %d"}}`+"\n",
			i, parent, 1+i/60, i%60, i)
		parent = fmt.Sprintf(`"e%03d"`, i)
	}
	out1, err := json.Marshal(strings.Repeat("lorem ipsum dolor ", 12) + "\x1b[36mvite v5.4.2 \x1b[32mbuilding quokkas for production\x1b[0m and more")
	must(t, err)
	fmt.Fprintf(&b, `{"type":"message","id":"t1","parentId":%s,"timestamp":"2026-03-01T11:00:00Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":%s}]}}`+"\n", parent, out1)
	must(t, os.MkdirAll(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "many.jsonl"), []byte(b.String()), 0o644))
	_, err = Build(context.Background(), out, []string{filepath.Join(src, "many.jsonl")}, Options{})
	must(t, err)
	return (&url.URL{Scheme: "file", Path: filepath.Join(out, "index.html")}).String()
}
