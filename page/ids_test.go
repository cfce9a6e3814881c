package page

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/session"
)

// pageIDSession is a session whose entry ids are the ids of the page's
// own elements, on two branches, so that the one off the path is packed.
func pageIDSession(t testing.TB) *session.Session {
	t.Helper()
	msg := func(id, parent, role, text string, sec int) string {
		p := "null"
		if parent != "" {
			p = fmt.Sprintf("%q", parent)
		}
		return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-01-01T00:00:%02dZ","message":{"role":%q,"content":[{"type":"text","text":%q}]}}`, id, p, sec, role, text)
	}
	lines := []string{
		`{"type":"session","version":3,"id":"ids","timestamp":"2026-01-01T00:00:00Z","cwd":"/home/u/p"}`,
		msg("session-index", "", "user", "the first question", 1),
		msg("pack-0", "session-index", "assistant", "an answer on the old branch PACKED-MARK", 2),
		msg("tree", "session-index", "assistant", "an answer on the new branch", 3),
		msg("main", "tree", "user", "and a follow-up", 4),
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "ids.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestEntryIDsCannotNamePageElements: entries whose ids are those of the
// page's own elements get element ids of their own, and the page's
// elements keep theirs.
func TestEntryIDsCannotNamePageElements(t *testing.T) {
	page := exportPage(t, pageIDSession(t), Options{})
	checkPageIDs(t, page)
	doc := parsePage(t, articlesPage(t, page))
	byID := map[string]*html.Node{}
	pageWalk(doc, func(n *html.Node) {
		if id, ok := pageAttr(n, "id"); ok {
			byID[id] = n
		}
	})
	for id, tag := range map[string]string{"session-index": "script", "pack-0": "script", "tree": "div", "main": "main"} {
		if n := byID[id]; n == nil || n.Data != tag {
			t.Errorf("id %q is not the page's <%s>", id, tag)
		}
		if n := byID[elementID(id)]; n == nil || n.Data != "article" {
			t.Errorf("the entry %q has no article with the id %q", id, elementID(id))
		}
	}

	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	tb.Navigate(writeExport(t, pageIDSession(t), Options{}) + "#pack-0")
	if got, want := visibleEntries(tb), []string{"session-index", "pack-0"}; !slices.Equal(got, want) {
		t.Errorf("the link #pack-0 shows %v, want %v", got, want)
	}
	if text := browsertest.Eval[string](tb, `document.getElementById('e:pack-0').textContent`); !strings.Contains(text, "PACKED-MARK") {
		t.Errorf("the packed entry reads %q", text)
	}
	if n := browsertest.Eval[int](tb, `document.querySelectorAll('#tree a[data-tree-node]').length`); n != 4 {
		t.Errorf("the tree has %d rows, want 4", n)
	}
	tb.Do(chromedp.Evaluate[chromedp.Void](`location.hash = '#main'`))
	tb.WaitJS(`document.getElementById('e:main').checkVisibility()`)
}
