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

	t.Run("branches of a session written by pi", func(t *testing.T) {
		s := loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl")
		tab := browsertest.OpenTab(t, browser)
		tab.Navigate(writeExport(t, s, Options{}))
		if got, want := visibleEntries(tab), pathIDs(s, s.Leaf); !slices.Equal(got, want) {
			t.Fatalf("at load %v are visible, want the leaf path %v", got, want)
		}
		other := s.Entry("6eea0e7d") // the end of the first branch
		tab.Click(nodeSelector("6eea0e7d"))
		tab.WaitJS(`document.querySelector('[data-entry="6eea0e7d"]').checkVisibility()`)
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
		tab.WaitJS(`document.querySelector('[data-entry="a1eb6cb5"]').checkVisibility()`)
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
		for _, e := range s.Entries {
			tab.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-tree-node="'+CSS.escape(` + browsertest.JSString(e.ID) + `)+'"]').click()`))
			tab.Settle()
		}
		// Every entry has been shown, so every packed body is now DOM.
		if n := browsertest.Eval[int](tab, `document.querySelectorAll('[data-packed]').length`); n != 0 {
			t.Errorf("%d bodies are still packed after every entry was shown", n)
		}
		if browsertest.Eval[bool](tab, `typeof window.__xss !== 'undefined'`) {
			t.Errorf("session text ran as script: window.__xss = %v", browsertest.Eval[any](tab, `window.__xss`))
		}
		if title := browsertest.Eval[string](tab, `document.title`); !strings.Contains(title, "</title>") {
			t.Errorf("document.title = %q: the session name should show as text", title)
		}
	})

	t.Run("a long path comes lazily and becomes ready", func(t *testing.T) {
		s := chainSession(t, 4, 3*eagerTail)
		page := exportPage(t, s, Options{})
		first, middle := s.Entries[0], s.Entries[eagerTail]
		lazy := func(e *session.Entry) string {
			return `document.querySelector('[data-entry=` + browsertest.JSString(e.ID) + `] > .entry-body > noscript.lazy')`
		}
		path := filepath.Join(t.TempDir(), "page.html")
		if err := os.WriteFile(path, page, 0o644); err != nil {
			t.Fatal(err)
		}
		// The file holds the end of the path first; the page shows the
		// path in order all the same.
		tab := browsertest.OpenTab(t, browser)
		tab.Navigate("file://" + path)
		if got, want := visibleEntries(tab), pathIDs(s, s.Leaf); !slices.Equal(got, want) {
			t.Errorf("the path shows out of order: %d entries, first %v, want %d from %v", len(got), got[:min(3, len(got))], len(want), want[:3])
		}
		// A deep link makes its entry ready at once...
		tab.Navigate("file://" + path + "#" + middle.ID)
		if browsertest.Eval[bool](tab, lazy(middle)+` !== null`) {
			t.Errorf("the deep-linked entry is still lazy")
		}
		// ...and the rest follows while the page is idle.
		tab.WaitJS(lazy(first) + ` === null`)
		if got := browsertest.Eval[string](tab, `document.querySelector('[data-entry=`+browsertest.JSString(first.ID)+`] .entry-body').textContent`); !strings.Contains(humanize.OneLine(got, 1<<20), strings.TrimSuffix(humanize.OneLine(first.Message.Text(), 30), "…")) {
			t.Errorf("the first entry reads %q", got)
		}
	})

	t.Run("a long path is shown a chunk at a time, in order", func(t *testing.T) {
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
		if got, want := visibleEntries(tab), pathIDs(s, s.Leaf); !slices.Equal(got, want) {
			t.Fatalf("at load %d entries are visible, want the branch's %d", len(got), len(want))
		}
		tab.Click(nodeSelector(end.ID))
		if got, want := visibleEntries(tab), pathIDs(s, end); !slices.Equal(got, want) {
			first := 0
			for first < min(len(got), len(want)) && got[first] == want[first] {
				first++
			}
			t.Errorf("after the click %d entries are visible, want the chain's %d in order; they differ from the %dth", len(got), len(want), first)
		}
		sel := `document.querySelector('[data-entry=` + browsertest.JSString(end.ID) + `]')`
		tab.WaitJS(`(() => { const r = ` + sel + `.getBoundingClientRect(); return r.height > 0 && r.top < innerHeight && r.bottom > 0 })()`)
		// A group of entries not drawn yet is as tall as its estimate: one
		// with entries shown must not be estimated at nothing, nor an empty
		// one at something.
		wrong := browsertest.Eval[[]string](tab, `Array.from(document.getElementById('entries').shadowRoot.children).flatMap((g, i) => {
			const shown = Array.from(g.children).filter(s => s.assignedElements().some(a => !a.hidden)).length;
			const estimate = parseFloat(getComputedStyle(g).containIntrinsicHeight.replace('auto', ''));
			return (shown > 0) === (estimate > 0) ? [] : ['group ' + i + ': ' + shown + ' shown, estimated ' + estimate + ' px'];
		})`)
		if len(wrong) > 0 {
			t.Errorf("group height estimates out of step: %v", wrong)
		}
	})

	t.Run("a node with 5,000 children", func(t *testing.T) {
		s := wideSession(t, 5000)
		tab := browsertest.OpenTab(t, browser)
		tab.Navigate(writeExport(t, s, Options{}))
		if got, want := visibleEntries(tab), []string{"root", "c4999"}; !slices.Equal(got, want) {
			t.Fatalf("at load %v are visible, want %v", got, want)
		}
		if n := browsertest.Eval[int](tab, `document.querySelectorAll('#tree a[data-tree-node]').length`); n != 5001 {
			t.Errorf("the tree has %d nodes, want 5,001", n)
		}
		tab.Click(nodeSelector("c2500"))
		if got, want := visibleEntries(tab), []string{"root", "c2500"}; !slices.Equal(got, want) {
			t.Errorf("after the click %v are visible, want %v", got, want)
		}
		if text := browsertest.Eval[string](tab, `document.getElementById('e:c2500').innerText`); !strings.Contains(text, "reply 2500") {
			t.Errorf("c2500 reads %q", text)
		}
		tab.Press("Escape")
		if got, want := visibleEntries(tab), []string{"root", "c4999"}; !slices.Equal(got, want) {
			t.Errorf("Esc shows %v, want %v", got, want)
		}
	})

	t.Run("a 30,000-entry chain shows its last message", func(t *testing.T) {
		s := chainSession(t, 3, 30_000)
		tab := browsertest.OpenTab(t, browser)
		tab.Navigate(writeExport(t, s, Options{}))
		sel := `document.querySelector('[data-entry=` + browsertest.JSString(s.Leaf.ID) + `]')`
		tab.Do(chromedp.Evaluate[chromedp.Void](sel + `.scrollIntoView()`))
		tab.WaitJS(`(() => { const r = ` + sel + `.getBoundingClientRect(); return r.height > 0 && r.top < innerHeight && r.bottom > 0 })()`)
		want := humanize.OneLine(s.Leaf.Message.Text(), 40)
		if got := browsertest.Eval[string](tab, sel+`.innerText`); !strings.Contains(humanize.OneLine(got, 1<<20), strings.TrimSuffix(want, "…")) {
			t.Errorf("the last message reads %q, want it to contain %q", got, want)
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
