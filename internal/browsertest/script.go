package browsertest

import (
	"encoding/json"
	"io/fs"
	"testing"

	"github.com/chromedp/chromedp"
)

// Scripts hold copies of logic the Go side has too (figures, the tree's
// layout, the search's words, the query's syntax, dates). A test loads the
// script in a blank tab and runs the same cases through the functions of
// the module it declares (figures, treeLayout, archiveSearch, sessionList:
// each script's one global name) and through the Go code, so the two
// cannot drift apart.

// ScriptTab starts a browser and opens a blank tab with the scripts
// named, read from fsys, run in it in that order.
func ScriptTab(t testing.TB, fsys fs.FS, names ...string) *Tab {
	t.Helper()
	tb := OpenTab(t, Start(t))
	tb.Navigate("about:blank")
	for _, name := range names {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		tb.Do(chromedp.Evaluate[chromedp.Void](string(src)))
	}
	return tb
}

// JSON writes v as a JavaScript literal: JSON, whose strings JavaScript
// reads as Go wrote them (json.Marshal escapes U+2028 and U+2029).
func JSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
