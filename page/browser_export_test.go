package page

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/session"
)

// writeExport exports s into a temporary file and returns its file:// URL.
func writeExport(t *testing.T, s *session.Session, opt Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(path, exportPage(t, s, opt), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + path
}

// pathIDs lists the entries of the path to e that have an article: all
// but the tool results shown in their calls' cards.
func pathIDs(s *session.Session, e *session.Entry) []string {
	r := &sessionRenderer{s: s}
	var ids []string
	for _, p := range s.Path(e) {
		if !r.absorbed(p) {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// TestBrowserRealExports opens pages exported from real and generated
// sessions in Chromium.
func TestBrowserRealExports(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()

	t.Run("branches of a session written by pi", func(t *testing.T) {
		s := loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl")
		tab := browsertest.OpenTab(t, browser)
		tab.Navigate(writeExport(t, s, Options{}))
		if got, want := visibleEntries(tab), pathIDs(s, s.Leaf); !slices.Equal(got, want) {
			t.Fatalf("at load %v are visible, want the leaf path %v", got, want)
		}
		other := s.Entry("6eea0e7d") // the end of the first branch
		tab.Click(nodeSelector("6eea0e7d"))
		tab.WaitJS(`!!document.querySelector('[data-entry="6eea0e7d"]')`)
		if got, want := visibleEntries(tab), pathIDs(s, other); !slices.Equal(got, want) {
			t.Errorf("after the click %v are visible, want %v", got, want)
		}
		// The text of the entries in view (innerText would leave out what
		// content-visibility has not rendered yet).
		body := browsertest.Eval[string](tab, `Array.from(document.querySelectorAll('article[data-entry]')).filter(a => a.checkVisibility()).map(a => a.textContent).join('\n')`)
		if !strings.Contains(body, "The test fails") || strings.Contains(body, "(alternative)") {
			t.Errorf("the other branch's text is not what shows")
		}
		tab.Press("Escape")
		tab.WaitJS(`!!document.querySelector('[data-entry="a1eb6cb5"]')`)
		if got, want := visibleEntries(tab), pathIDs(s, s.Leaf); !slices.Equal(got, want) {
			t.Errorf("Esc shows %v, want the leaf path %v", got, want)
		}
	})

	t.Run("a hostile session runs nothing", func(t *testing.T) {
		s, err := session.Read(strings.NewReader(hostileSession), "hostile.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		tab := browsertest.OpenTab(t, browser)
		tab.Navigate(writeExport(t, s, Options{}))
		tab.Press("t")
		tab.Press("o")
		tab.Click(`[data-filter="all"]`)
		for _, e := range s.Entries {
			tab.Do(chromedp.Evaluate[chromedp.Void](`location.hash = '#' + encodeURIComponent(` + browsertest.JSString(e.ID) + `)`))
			tab.Settle()
		}
		if browsertest.Eval[bool](tab, `typeof window.__xss !== 'undefined'`) {
			t.Errorf("session text ran as script: window.__xss = %v", browsertest.Eval[any](tab, `window.__xss`))
		}
		if title := browsertest.Eval[string](tab, `document.title`); !strings.Contains(title, "</title>") {
			t.Errorf("document.title = %q: the session name should show as text", title)
		}
	})

	t.Run("a long path is drawn around the viewport", func(t *testing.T) {
		s := chainSession(t, 3, 30_000)
		want := pathIDs(s, s.Leaf)
		tab := browsertest.OpenTab(t, browser)
		url := writeExport(t, s, Options{})
		tab.Navigate(url)
		// The page opens at the end of the path, the leaf drawn; the
		// document holds a few entries, not thirty thousand.
		sel := `document.querySelector('#path [data-entry=` + browsertest.JSString(s.Leaf.ID) + `]')`
		tab.WaitJS(`(() => { const e = ` + sel + `; if (!e) return false; const r = e.getBoundingClientRect(); return r.height > 0 && r.top < innerHeight && r.bottom > 0 })()`)
		text := humanize.OneLine(s.Leaf.Message.Text(), 40)
		if got := browsertest.Eval[string](tab, sel+`.innerText`); !strings.Contains(humanize.OneLine(got, 1<<20), strings.TrimSuffix(text, "…")) {
			t.Errorf("the last message reads %q, want it to contain %q", got, text)
		}
		checkPathShown(tab, want)
		elements := `document.getElementsByTagName('*').length`
		if n := browsertest.Eval[int](tab, elements); n > 20_000 {
			t.Errorf("the document holds %d elements", n)
		}
		// Scrolling up to the start draws the first entries, in order, and
		// the scroll height settles without a jump under the reader.
		tab.Do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		tab.WaitJS(`!!document.querySelector('#path [data-entry=` + browsertest.JSString(want[0]) + `]:not([data-placeholder])')`)
		checkPathShown(tab, want)
		if n := browsertest.Eval[int](tab, elements); n > 20_000 {
			t.Errorf("after scrolling, the document holds %d elements", n)
		}
		// A deep link into the middle draws its entry at the top.
		middle := want[len(want)/2]
		tab.Navigate(url + "#" + middle)
		tab.WaitJS(`(() => { const e = document.getElementById('e:' + ` + browsertest.JSString(middle) + `); if (!e) return false; const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < 200; })()`)
		checkPathShown(tab, want)
		// Scrolling down from there keeps the entries in order, and the
		// entry at the top stays where it is while those around it are drawn.
		for range 5 {
			tab.Do(chromedp.Evaluate[chromedp.Void](`window.scrollBy(0, innerHeight * 3)`))
			tab.Settle()
			checkPathShown(tab, want)
		}
	})

	t.Run("a long path switched to another", func(t *testing.T) {
		// A 1,500-entry chain, and a short branch off its tenth entry
		// written last, so that the branch is the leaf the page opens on.
		var buf bytes.Buffer
		if err := sessiongen.Write(&buf, sessiongen.Options{Seed: 5, Chain: 1500}); err != nil {
			t.Fatal(err)
		}
		chain, err := session.Read(bytes.NewReader(buf.Bytes()), "chain.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		fork := chain.Entries[9].ID
		fmt.Fprintf(&buf, `{"type":"message","id":"branch-1","parentId":%q,"timestamp":"2030-01-01T00:00:00Z","message":{"role":"user","content":"BRANCH-MARK"}}`+"\n", fork)
		s, err := session.Read(&buf, "branched.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		end := s.Entry(chain.Leaf.ID)
		tab := browsertest.OpenTab(t, browser)
		tab.Navigate(writeExport(t, s, Options{}))
		checkPathShown(tab, pathIDs(s, s.Leaf))
		// The chain's end is the tree's row before last (the branch off
		// its tenth entry comes after the chain, being newer).
		tab.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('tree').scrollTop = 1e9`))
		tab.WaitJS(`!!document.querySelector('#tree a[data-tree-node=` + browsertest.JSString(end.ID) + `]')`)
		tab.Click(nodeSelector(end.ID))
		checkPathShown(tab, pathIDs(s, end))
		sel := `document.querySelector('#path [data-entry=` + browsertest.JSString(end.ID) + `]')`
		tab.WaitJS(`(() => { const e = ` + sel + `; if (!e) return false; const r = e.getBoundingClientRect(); return r.height > 0 && r.top < innerHeight && r.bottom > 0 })()`)
	})

	t.Run("a node with 5,000 children", func(t *testing.T) {
		s := wideSession(t, 5000)
		tab := browsertest.OpenTab(t, browser)
		tab.Navigate(writeExport(t, s, Options{}))
		if got, want := visibleEntries(tab), []string{"root", "c4999"}; !slices.Equal(got, want) {
			t.Fatalf("at load %v are visible, want %v", got, want)
		}
		if status := browsertest.Eval[string](tab, `document.getElementById('tree-status').textContent`); status != "all 5,001 entries shown" {
			t.Errorf("the tree says %q", status)
		}
		if n := browsertest.Eval[int](tab, `document.querySelectorAll('#tree a[data-tree-node]').length`); n > 200 {
			t.Errorf("the tree draws %d rows of 5,001", n)
		}
		// A reader finds c2500 by searching for it.
		search(tab, "reply 2500")
		tab.Click(nodeSelector("c2500"))
		if got, want := visibleEntries(tab), []string{"root", "c2500"}; !slices.Equal(got, want) {
			t.Errorf("after the click %v are visible, want %v", got, want)
		}
		if text := browsertest.Eval[string](tab, `document.getElementById('e:c2500').innerText`); !strings.Contains(text, "reply 2500") {
			t.Errorf("c2500 reads %q", text)
		}
		tab.Press("Escape") // clears the search
		tab.Press("Escape") // back to the leaf
		tab.Settle()
		if got, want := visibleEntries(tab), []string{"root", "c4999"}; !slices.Equal(got, want) {
			t.Errorf("Esc shows %v, want %v", got, want)
		}
	})
}

// wideSession is a user message with n assistant replies, each its own
// branch: c0 ... c<n-1>, the last the leaf.
func wideSession(t *testing.T, n int) *session.Session {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"wide","timestamp":"2026-01-01T00:00:00Z","cwd":"/tmp"}` + "\n")
	b.WriteString(`{"type":"message","id":"root","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"Which way?"}}` + "\n")
	for i := range n {
		fmt.Fprintf(&b, `{"type":"message","id":"c%d","parentId":"root","timestamp":"2026-01-01T01:00:00Z","message":{"role":"assistant","content":[{"type":"text","text":"reply %d"}]}}`+"\n", i, i)
	}
	s, err := session.Read(strings.NewReader(b.String()), "wide.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
