package page

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// axNode is what Chromium's accessibility tree says of an element: its
// role and its accessible name.
type axNode struct{ Role, Name string }

// accessible asks Chromium's accessibility tree for the node of the
// element sel finds.
func accessible(tb *browsertest.Tab, sel string) axNode {
	tb.T.Helper()
	var got axNode
	tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		el, err := cdp.Call(ctx, target, runtime.Evaluate, runtime.EvaluateParams{Expression: `document.querySelector(` + browsertest.JSString(sel) + `)`})
		if err != nil {
			return err
		}
		if el.Result == nil || el.Result.ObjectID == "" {
			return fmt.Errorf("no element %s", sel)
		}
		no := false
		tree, err := cdp.Call(ctx, target, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{ObjectID: el.Result.ObjectID, FetchRelatives: &no})
		if err != nil {
			return err
		}
		if len(tree.Nodes) == 0 {
			return fmt.Errorf("%s has no node in the accessibility tree", sel)
		}
		n := tree.Nodes[0]
		value := func(v *accessibility.Value) string {
			var s string
			if v != nil {
				_ = json.Unmarshal([]byte(v.Value), &s)
			}
			return s
		}
		got = axNode{Role: value(n.Role), Name: value(n.Name)}
		return nil
	}))
	return got
}

// TestBrowserTreeVoice: what a screen reader hears of the tree's rows,
// as Chromium's accessibility tree has it: the role and the text first,
// then in words what the marks drawn around them mean, and none of the
// glyphs drawn (▾, ▸, ●).
func TestBrowserTreeVoice(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	tb.Navigate(writeExport(t, loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl"), Options{}))
	tb.WaitJS(`!!document.querySelector('#tree a.sel')`)

	for id, want := range map[string]string{
		// A branch point.
		"8940eb96": "user: Add a /health endpoint to the Go server in cmd/api., 2 branches",
		// A label on a message.
		"89f878db": "assistant: Sure: mux := http.NewServeMux() mux.HandleFunc(\"GET /health\", health), label mux-version",
	} {
		got := accessible(tb, `#tree a[data-tree-node="`+id+`"]`)
		if got.Role != "treeitem" || got.Name != want {
			t.Errorf("row %s reads %s %q, want treeitem %q", id, got.Role, got.Name, want)
		}
	}
	// The leaf, and a folded branch point, whose glyph changes.
	leaf := accessible(tb, `#tree a.leaf`)
	if !strings.HasSuffix(leaf.Name, ", the session’s leaf") {
		t.Errorf("the leaf's row reads %q, want it to say it is the leaf", leaf.Name)
	}
	tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#tree a[data-tree-node="8940eb96"] .fork').click()`))
	tb.WaitJS(`document.querySelector('#tree a[data-tree-node="8940eb96"]').getAttribute('aria-expanded') === 'false'`)
	rows := browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('#tree a[data-tree-node]'), a => a.dataset.treeNode)`)
	for _, id := range rows {
		got := accessible(tb, `#tree a[data-tree-node="`+id+`"]`)
		if strings.ContainsAny(got.Name, "▾▸●") {
			t.Errorf("row %s reads %q: a glyph drawn is read", id, got.Name)
		}
		if label := browsertest.Eval[string](tb, `(document.querySelector('#tree a[data-tree-node="`+id+`"] .tag') || {}).textContent || ''`); label != "" && strings.HasPrefix(got.Name, label) {
			t.Errorf("row %s reads its label before its role: %q", id, got.Name)
		}
	}
	if len(rows) == 0 {
		t.Fatal("no row is drawn")
	}
}
