package page

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/browsertest"
)

// openPage loads url and checks that no text from the session ran as
// script.
func openPage(tb *browsertest.Tab, url string, want *pageView) {
	tb.T.Helper()
	tb.Navigate(url)
	checkNoXSS(tb, want)
}

func checkNoXSS(tb *browsertest.Tab, want *pageView) {
	tb.T.Helper()
	if ran := browsertest.Eval[bool](tb, `typeof window.__xss !== 'undefined'`); ran {
		tb.T.Errorf("session text ran as script: window.__xss = %v", browsertest.Eval[any](tb, `window.__xss`))
	}
	if title := browsertest.Eval[string](tb, `document.title`); title != want.Title {
		tb.T.Errorf("document.title = %q, want %q", title, want.Title)
	}
}

// visibleEntries lists the entries the reader can see (rendered, not
// display:none), from the top of the page down: the order they are shown
// in, which is not their order in the file.
func visibleEntries(tb *browsertest.Tab) []string {
	tb.T.Helper()
	// Groups of entries out of view are not laid out (content-visibility),
	// so their entries have no position until they are drawn; lay them
	// all out first (important: the page's ::part() rules outrank a normal
	// declaration inside the shadow tree).
	return browsertest.Eval[[]string](tb, `(() => {
		const root = document.getElementById('entries').shadowRoot;
		for (const g of root ? root.children : []) g.style.setProperty('content-visibility', 'visible', 'important');
		const shown = Array.from(document.querySelectorAll('article[data-entry]')).filter(a => a.checkVisibility());
		const order = shown.map(a => [a.getBoundingClientRect().top, a.dataset.entry]).sort((x, y) => x[0] - y[0]).map(x => x[1]);
		for (const g of root ? root.children : []) g.style.removeProperty('content-visibility');
		return order;
	})()`)
}

// visibleNodes lists the tree nodes that are rendered.
func visibleNodes(tb *browsertest.Tab) []string {
	tb.T.Helper()
	return browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('#tree a[data-tree-node]')).filter(a => a.checkVisibility()).map(a => a.dataset.treeNode)`)
}

// writePageFile renders v into a temporary file and returns its file:// URL.
func writePageFile(t *testing.T, v *pageView) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	err = errors.Join(writePage(f, v), f.Close())
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
