package page

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/internal/browsertest"
)

// rails returns what the row of id draws left of its text: one letter
// per level (' ', 'v', 't', 'l'), a run of levels ("k3") spelt out.
func rails(tb *browsertest.Tab, id string) string {
	tb.T.Helper()
	return browsertest.Eval[string](tb, `Array.from(document.querySelectorAll('[data-tree-node=`+browsertest.JSString(id)+`] > .rails > i')).map(i => {
		const run = /k(\d+)/.exec(i.className), kind = /\b[vtl]\b/.exec(i.className);
		return (kind ? kind[0] : ' ').repeat(run ? Number(run[1]) : 1);
	}).join('')`)
}

// TestBrowserTreeConnectors draws the branches of a session pi wrote:
// the branch summary is a sibling of the read it follows in the file, and
// reads as one.
func TestBrowserTreeConnectors(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	s := loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl")
	tb := browsertest.OpenTab(t, browser)
	tb.Navigate(writeExport(t, s, Options{}))

	for id, want := range map[string]string{
		"8940eb96": "",   // the user's first message
		"d25a5af1": "t",  // assistant: Let me look at the router. (├, a branch of the user's message)
		"f9149aff": "vt", // [read: cmd/api/main.go], ├ under it
		"cf95108a": "vv", // assistant: I'll add the handler. (the read's branch goes on)
		"ed970bf6": "vl", // [branch summary], └: the read's sibling
		"1996f3d8": "v ", // user: Use a http.ServeMux… (the summary's branch goes on)
		"a1eb6cb5": "l",  // assistant: (alternative)…, the user's last branch, below a model change the filter hides
	} {
		if got := rails(tb, id); got != want {
			t.Errorf("%s (%s) draws %q, want %q", id, s.Preview(s.Entry(id), "").Text, got, want)
		}
	}
	// Branch points are marked with their number of branches, and are
	// what folds.
	forks := browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('#tree [aria-expanded]')).map(a => a.dataset.treeNode + ':' + a.querySelector('.fork').textContent)`)
	if want := []string{"8940eb96:2", "d25a5af1:2"}; !slices.Equal(forks, want) {
		t.Errorf("branch points %v, want %v", forks, want)
	}
	if level := browsertest.Eval[string](tb, `document.querySelector('[data-tree-node="ed970bf6"]').getAttribute('aria-level')`); level != "3" {
		t.Errorf("the branch summary's aria-level is %q, want 3", level)
	}

	// The script lays the tree out as the page did: from All back to
	// Default, every row draws what it drew.
	all := `Array.from(document.querySelectorAll('#tree a')).filter(a => !a.hidden).map(a => a.dataset.treeNode + ' ' + a.getAttribute('aria-level') + ' ' + a.getAttribute('aria-expanded') + ' ' + (a.querySelector('.rails') ? a.querySelector('.rails').innerHTML : '') + ' ' + (a.querySelector('.fork') ? a.querySelector('.fork').textContent : ''))`
	before := browsertest.Eval[[]string](tb, all)
	tb.Do(chromedp.Click(chromedp.CSS(`[data-filter="all"]`)))
	// Under All the settings changes show, and the branch of the model
	// change is drawn from the label entries that now come before it.
	tb.Do(chromedp.Click(chromedp.CSS(`[data-filter="default"]`)))
	if diff := cmp.Diff(before, browsertest.Eval[[]string](tb, all)); diff != "" {
		t.Errorf("the script's layout of the default filter differs from the page's (-page +script):\n%s", diff)
	}

	// A search shows only its hits, drawn as a tree of their own: the
	// test's output and the branch summary are on different branches.
	search(tb, "404")
	if got := rails(tb, "ad316c7b") + "|" + rails(tb, "ed970bf6"); got != "t|l" {
		t.Errorf("the two hits draw %q, want t|l: two branches", got)
	}
}

// TestBrowserTreeKeyboard walks the tree as a keyboard user does: one
// Tab stop, visible focus, arrows, folding, Enter; and a skip link to the
// conversation.
func TestBrowserTreeKeyboard(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	v := samplePage()
	tb := browsertest.OpenTab(t, browser)
	openPage(tb, writePageFile(t, v), v)
	// The tree keeps the focus and points at the row the keyboard is on.
	focused := func() string {
		return browsertest.Eval[string](tb, `(() => {
			const a = document.activeElement;
			if (a.id === 'tree') { const r = document.getElementById(a.getAttribute('aria-activedescendant')); return r ? r.dataset.treeNode : 'tree'; }
			return a.dataset.treeNode || a.id || a.className;
		})()`)
	}

	// The first Tab reaches the skip link, which leads to the conversation.
	tb.Press("Tab")
	if got := focused(); got != "skip" {
		t.Fatalf("the first Tab focuses %q, want the skip link", got)
	}
	if !browsertest.Eval[bool](tb, `document.activeElement.getBoundingClientRect().top >= 0`) {
		t.Error("the focused skip link is not on screen")
	}
	tb.Shot("tree-keyboard-skip")
	tb.Press("Enter")
	tb.WaitJS(`document.activeElement.id === 'main'`)

	// From the Back to leaf button, Tab goes to the row selected (the
	// leaf), not the first; its focus ring is drawn inside it.
	tb.Do(chromedp.Focus(chromedp.ID("to-leaf")))
	tb.Press("Tab")
	if got := focused(); got != "d6" {
		t.Fatalf("Tab into the tree focuses %q, want the selected row d6", got)
	}
	if style := browsertest.Eval[string](tb, `(() => { const s = getComputedStyle(document.querySelector('#tree a.active')); return s.outlineStyle + ' ' + s.outlineOffset; })()`); style != "solid -2px" {
		t.Errorf("the active row's outline is %q, want a solid one inside the row", style)
	}
	if role := browsertest.Eval[string](tb, `document.querySelector('#tree a.active').getAttribute('role') + ' ' + document.querySelector('#tree a.active').getAttribute('aria-selected')`); role != "treeitem true" {
		t.Errorf("the active row is %q, want a selected treeitem", role)
	}
	tb.Shot("tree-keyboard-focus")
	tb.Press("ArrowUp") // d5
	tb.Press("ArrowUp") // d4: d3 calls tools only and is filtered out
	if got := focused(); got != "d4" {
		t.Errorf("two ArrowUp from d6 focus %q, want d4", got)
	}
	tb.Press("Home")
	if got := focused(); got != "r0" {
		t.Errorf("Home focuses %q, want r0", got)
	}
	tb.Press("End")
	if got := focused(); got != "d6" {
		t.Errorf("End focuses %q, want d6", got)
	}

	// r3 is the branch point: ArrowLeft from a row inside a branch goes up
	// to it, and folds it; ArrowRight unfolds it.
	tb.Do(chromedp.Focus(nodeSelector("c1")))
	tb.Press("ArrowLeft")
	if got := focused(); got != "r3" {
		t.Fatalf("ArrowLeft from c1 focuses %q, want its branch point r3", got)
	}
	tb.Press("ArrowLeft")
	if exp := browsertest.Eval[string](tb, `document.querySelector('#tree a.active').getAttribute('aria-expanded')`); exp != "false" {
		t.Errorf("after ArrowLeft on r3 aria-expanded is %q", exp)
	}
	rows := visibleNodes(tb)
	if slices.Contains(rows, "b1") || slices.Contains(rows, "c3") || !slices.Contains(rows, "r3") {
		t.Errorf("with r3 folded the rows are %v", rows)
	}
	tb.Shot("tree-keyboard-folded")
	tb.Press("ArrowDown")
	if got := focused(); got != "r3" {
		t.Errorf("ArrowDown past the folded r3 focuses %q; nothing follows", got)
	}
	tb.Press("ArrowRight")
	if !slices.Contains(visibleNodes(tb), "c3") {
		t.Error("ArrowRight did not unfold r3")
	}
	tb.Press("ArrowRight") // into the first branch
	if got := focused(); got != "b1" {
		t.Errorf("ArrowRight on an open branch point focuses %q, want b1", got)
	}

	// Enter opens the entry; Tab leaves the tree.
	tb.Press("ArrowDown")
	tb.Press("Enter")
	if got := visibleEntries(tb); !slices.Contains(got, "b2") {
		t.Errorf("Enter on b2 shows %v", got)
	}
	tb.Do(chromedp.Focus(nodeSelector("b2")))
	tb.Press("Tab")
	if inTree := browsertest.Eval[bool](tb, `!!document.activeElement.closest('#tree')`); inTree {
		t.Errorf("Tab stays in the tree, on %q", focused())
	}
	if strings.Contains(focused(), "b3") {
		t.Error("Tab walked to the next row")
	}
}
