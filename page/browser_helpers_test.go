package page

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/browsertest"
)

// openPage loads url and checks that no text from the session ran as
// script.
func openPage(tb *browsertest.Tab, url string, want *Page) {
	tb.T.Helper()
	tb.Navigate(url)
	checkNoXSS(tb, want)
}

func checkNoXSS(tb *browsertest.Tab, want *Page) {
	tb.T.Helper()
	if ran := browsertest.Eval[bool](tb, `typeof window.__xss !== 'undefined'`); ran {
		tb.T.Errorf("session text ran as script: window.__xss = %v", browsertest.Eval[any](tb, `window.__xss`))
	}
	if title := browsertest.Eval[string](tb, `document.title`); title != want.v.Title {
		tb.T.Errorf("document.title = %q, want %q", title, want.v.Title)
	}
}

// drawnPath describes the path the page shows: the entries drawn, from
// the top of the page down, each at its position in the path
// (aria-posinset), and the path's length (aria-setsize). The path is a
// virtual list: only the entries near the viewport are drawn.
type drawnPath struct {
	IDs       []string `json:"ids"`
	Positions []int    `json:"positions"`
	Size      int      `json:"size"`
}

func pathDrawn(tb *browsertest.Tab) drawnPath {
	tb.T.Helper()
	return browsertest.Eval[drawnPath](tb, `(() => {
		const arts = Array.from(document.querySelectorAll('#path > article[data-entry]:not([data-placeholder])')).filter(a => a.checkVisibility());
		return {
			ids: arts.map(a => a.dataset.entry),
			positions: arts.map(a => Number(a.getAttribute('aria-posinset'))),
			size: arts.length ? Number(arts[0].getAttribute('aria-setsize')) : 0,
		};
	})()`)
}

// visibleEntries lists the entries of the path the page shows, when all
// of them are drawn (a short path); else the test fails.
func visibleEntries(tb *browsertest.Tab) []string {
	tb.T.Helper()
	d := pathDrawn(tb)
	if len(d.IDs) != d.Size {
		tb.T.Fatalf("%d of the path's %d entries are drawn: %v", len(d.IDs), d.Size, d.IDs)
	}
	return d.IDs
}

// checkPathShown checks that the page shows the path want: as long, and
// each entry drawn at its place in it, in order.
func checkPathShown(tb *browsertest.Tab, want []string) {
	tb.T.Helper()
	d := pathDrawn(tb)
	if d.Size != len(want) {
		tb.T.Errorf("the path shown has %d entries, want %d", d.Size, len(want))
	}
	if len(d.IDs) == 0 {
		tb.T.Errorf("no entry of the path is drawn")
	}
	for k, id := range d.IDs {
		p := d.Positions[k]
		if p < 1 || p > len(want) || want[p-1] != id || k > 0 && d.Positions[k-1] != p-1 {
			tb.T.Errorf("entry %s is drawn at %d (after %v), want the path %v", id, p, d.Positions[:k], want)
			return
		}
	}
}

// visibleNodes lists the tree rows that are drawn, in order.
func visibleNodes(tb *browsertest.Tab) []string {
	tb.T.Helper()
	return browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('#tree a[data-tree-node]')).filter(a => a.checkVisibility()).map(a => a.dataset.treeNode)`)
}

// writePageFile writes p into a temporary file and returns its file:// URL.
func writePageFile(t *testing.T, p *Page) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	err = errors.Join(writePage(f, p), f.Close())
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(path)
}

// browserJSString quotes s as a JavaScript string literal.
func browserJSString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "<", `\x3c`)
	return "'" + r.Replace(s) + "'"
}

// sampleIndex is entry id's index in p.
func sampleIndex(p *Page, id string) int { return slices.Index(p.v.Index.IDs, id) }
