package export

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// samplePath returns the ids from the root to end in the sample session.
func samplePath(v *pageView, end string) []string {
	i := slices.Index(v.Index.IDs, end)
	var ids []string
	for ; i >= 0; i = v.Index.Parents[i] {
		ids = append(ids, v.Index.IDs[i])
	}
	slices.Reverse(ids)
	return ids
}

// sampleNodes returns the ids of the tree nodes for which keep is true.
func sampleNodes(v *pageView, keep func(i int) bool) []string {
	var ids []string
	for i, id := range v.Index.IDs {
		if keep(i) {
			ids = append(ids, id)
		}
	}
	return ids
}

// samplePathTokens is what the path cells should read for the path to end.
func samplePathTokens(v *pageView, end string) map[string]string {
	var sum session.Usage
	for _, id := range samplePath(v, end) {
		if u, ok := v.Index.Usage[slices.Index(v.Index.IDs, id)]; ok {
			sampleAddUsage(&sum, u)
		}
	}
	return map[string]string{
		"input": humanize.Tokens(sum.Input), "output": humanize.Tokens(sum.Output),
		"cacheRead": humanize.Tokens(sum.CacheRead), "cacheWrite": humanize.Tokens(sum.CacheWrite),
		"cost": humanize.Cost(sum.Cost),
	}
}

func nodeSelector(id string) chromedp.CSS {
	return chromedp.CSS(`#tree a[data-tree-node="` + id + `"]`)
}

// TestBrowser drives the page in a headless browser. All subtests share one
// browser; each opens its own tab.
func TestBrowser(t *testing.T) {
	browser := startBrowser(t)
	v := samplePageView()
	url := writePageFile(t, v)
	leafPath := samplePath(v, "d6")

	checkEntries := func(tb *browserTab, want []string) {
		t.Helper()
		if diff := cmp.Diff(want, tb.visibleEntries()); diff != "" {
			tb.t.Errorf("visible entries (-want +got):\n%s", diff)
		}
	}
	checkPathTokens := func(tb *browserTab, end string) {
		t.Helper()
		got := browserEval[map[string]string](tb, `Object.fromEntries(Array.from(document.querySelectorAll('[data-path-tokens]')).map(c => [c.dataset.pathTokens, c.textContent]))`)
		if diff := cmp.Diff(samplePathTokens(v, end), got); diff != "" {
			tb.t.Errorf("path tokens for the path to %s (-want +got):\n%s", end, diff)
		}
	}

	t.Run("load shows the leaf path", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.open(url, v)
		checkEntries(tb, leafPath)
		checkPathTokens(tb, "d6")
		if sel := browserEval[[]string](tb, `Array.from(document.querySelectorAll('#tree a.sel')).map(a => a.dataset.treeNode)`); !slices.Equal(sel, []string{"d6"}) {
			t.Errorf("selected nodes = %v, want [d6]", sel)
		}
		// Times are rewritten in the reader's zone; the UTC text moves to the title.
		if title := browserEval[string](tb, `document.querySelector('#r0 time').title`); title != "2025-03-14 09:26 UTC" {
			t.Errorf("time title = %q, want the UTC fallback", title)
		}
		if text := browserEval[string](tb, `document.querySelector('#r0 time').textContent`); strings.Contains(text, "UTC") {
			t.Errorf("time text %q was not localized", text)
		}
		if overflow := browserEval[bool](tb, `document.documentElement.scrollWidth > innerWidth`); overflow {
			t.Error("the page scrolls sideways at 1280 px")
		}
		tb.shot("wide-light")
		tb.press("o")
		tb.press("t")
		tb.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('d1').scrollIntoView()`))
		tb.shot("wide-light-lower")
	})

	t.Run("click walks branches", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.open(url, v)

		// b2 lies on the oldest branch; its newest leaf is b3.
		tb.click(nodeSelector("b2"))
		checkEntries(tb, samplePath(v, "b3"))
		text := browserEval[string](tb, `document.querySelector('#entries').innerText`)
		if !strings.Contains(text, "ALPHA-MARK") || strings.Contains(text, "GAMMA-MARK") {
			t.Errorf("after clicking b2 the text should show ALPHA-MARK and not GAMMA-MARK:\n%s", text)
		}
		if hash := browserEval[string](tb, `location.hash`); hash != "#b2" {
			t.Errorf("hash = %q, want #b2", hash)
		}
		if sel := browserEval[bool](tb, `document.querySelector('[data-tree-node="b2"]').classList.contains('sel')`); !sel {
			t.Error("b2 is not marked selected")
		}
		if top := browserEval[float64](tb, `document.getElementById('b2').getBoundingClientRect().top`); top < 0 || top > 600 {
			t.Errorf("b2 is at %v px, not scrolled into view", top)
		}
		checkPathTokens(tb, "b3")

		// The middle branch, through the entry whose id is hostile.
		tb.click(nodeSelector("c1"))
		checkEntries(tb, samplePath(v, "c6"))

		// A node already on the path keeps the path and only scrolls.
		tb.click(nodeSelector("r0"))
		checkEntries(tb, samplePath(v, "c6"))
		if hash := browserEval[string](tb, `location.hash`); hash != "#r0" {
			t.Errorf("hash = %q, want #r0", hash)
		}

		tb.click(chromedp.CSS("#to-leaf"))
		checkEntries(tb, leafPath)
		checkPathTokens(tb, "d6")
		if hash := browserEval[string](tb, `location.hash`); hash != "" {
			t.Errorf("hash after back to leaf = %q, want none", hash)
		}
	})

	t.Run("filters", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.open(url, v)
		kinds := v.Index.Kinds
		for _, tc := range []struct {
			filter string
			keep   func(i int) bool
		}{
			{"all", func(int) bool { return true }},
			{"user", func(i int) bool { return kinds[i] == kindUser }},
			{"labeled", func(i int) bool { return slices.Contains(v.Index.Labeled, i) }},
			{"no-tools", func(i int) bool {
				return kinds[i] != kindSettings && kinds[i] != kindAssistantTools && kinds[i] != kindTool
			}},
			{"default", func(i int) bool { return kinds[i] != kindSettings && kinds[i] != kindAssistantTools }},
		} {
			tb.do(chromedp.Click(chromedp.CSS(`[data-filter="` + tc.filter + `"]`)))
			want := sampleNodes(v, tc.keep)
			if diff := cmp.Diff(want, tb.visibleNodes()); diff != "" {
				t.Errorf("filter %s: visible nodes (-want +got):\n%s", tc.filter, diff)
			}
			status := browserEval[string](tb, `document.getElementById('tree-status').textContent`)
			if wantStatus := fmt.Sprintf("%d / %d entries", len(want), len(kinds)); status != wantStatus {
				t.Errorf("filter %s: status %q, want %q", tc.filter, status, wantStatus)
			}
		}
	})

	t.Run("search and escape", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.open(url, v)
		tb.click(nodeSelector("b2"))
		tb.press("/")
		if focused := browserEval[string](tb, `document.activeElement.id`); focused != "tree-search" {
			t.Fatalf("'/' focused %q, want the search box", focused)
		}
		// Every word must match, in any case, anywhere in the node text.
		tb.do(chromedp.KeyEvent("LOOP beta"))
		tb.waitJS(`document.getElementById('tree-status').textContent.startsWith('1 /')`)
		if got := tb.visibleNodes(); !slices.Equal(got, []string{"c3"}) {
			t.Errorf("search 'LOOP beta' shows %v, want [c3]", got)
		}
		// The first Escape clears the search, the second resets the path.
		tb.do(chromedp.KeyEvent(kb.Escape))
		defaultNodes := sampleNodes(v, func(i int) bool {
			return v.Index.Kinds[i] != kindSettings && v.Index.Kinds[i] != kindAssistantTools
		})
		if diff := cmp.Diff(defaultNodes, tb.visibleNodes()); diff != "" {
			t.Errorf("after Escape, visible nodes (-want +got):\n%s", diff)
		}
		checkEntries(tb, samplePath(v, "b3"))
		tb.do(chromedp.KeyEvent(kb.Escape))
		checkEntries(tb, leafPath)
	})

	t.Run("deep link", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.open(url+"#c3", v)
		checkEntries(tb, samplePath(v, "c6"))
		if top := browserEval[float64](tb, `document.getElementById('c3').getBoundingClientRect().top`); top < 0 || top > 400 {
			t.Errorf("c3 is at %v px, not scrolled into view", top)
		}
		tb.do(chromedp.Evaluate[chromedp.Void](`location.hash = '#b1'`))
		tb.waitJS(`!document.getElementById('b3').hidden`)
		tb.settle()
		checkEntries(tb, samplePath(v, "b3"))
		// The hostile id works as a link target too.
		tb.do(chromedp.Evaluate[chromedp.Void](`location.hash = '#' + encodeURIComponent(` + browserJSString(hostileID) + `)`))
		tb.waitJS(`!document.getElementById('c6').hidden`)
		tb.settle()
		checkEntries(tb, samplePath(v, "c6"))
		tb.checkNoXSS(v)
	})

	t.Run("keys toggle details", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.open(url, v)
		count := `(sel) => Array.from(document.querySelectorAll(sel)).filter(d => d.open).length`
		openThinking := func() int { return browserEval[int](tb, `(`+count+`)('details.thinking')`) }
		openMore := func() int { return browserEval[int](tb, `(`+count+`)('details.more')`) }
		if openThinking() != 0 || openMore() != 0 {
			t.Fatal("details start open")
		}
		tb.press("t")
		if got, want := openThinking(), browserEval[int](tb, `document.querySelectorAll('details.thinking').length`); got != want || want == 0 {
			t.Errorf("after t, %d of %d thinking blocks are open", got, want)
		}
		tb.press("t")
		if got := openThinking(); got != 0 {
			t.Errorf("after t twice, %d thinking blocks are open", got)
		}
		tb.press("o")
		if got := openMore(); got != 1 {
			t.Errorf("after o, %d long outputs are open, want 1", got)
		}
	})

	t.Run("theme toggle survives reload", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.open(url, v)
		defer tb.do(chromedp.Evaluate[chromedp.Void](`localStorage.clear()`))
		if theme := browserEval[string](tb, `document.documentElement.dataset.theme`); theme != "auto" {
			t.Fatalf("initial theme %q, want auto", theme)
		}
		lightBg := browserEval[string](tb, `getComputedStyle(document.documentElement).backgroundColor`)
		tb.do(chromedp.Click(chromedp.ID("theme-toggle")))
		if theme := browserEval[string](tb, `document.documentElement.dataset.theme`); theme != "dark" {
			t.Fatalf("theme after toggle %q, want dark (headless prefers light)", theme)
		}
		tb.do(chromedp.Reload())
		if theme := browserEval[string](tb, `document.documentElement.dataset.theme`); theme != "dark" {
			t.Errorf("theme after reload %q, want dark", theme)
		}
		if bg := browserEval[string](tb, `getComputedStyle(document.documentElement).backgroundColor`); bg == lightBg {
			t.Errorf("dark background %s equals the light one", bg)
		}
		tb.shot("wide-dark")
		tb.click(nodeSelector("c3"))
		tb.shot("wide-dark-branch")
	})

	t.Run("narrow screen", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
		tb.open(url, v)
		offCanvas := `(() => { const r = document.getElementById('sidebar').getBoundingClientRect(); return r.right <= 0 || getComputedStyle(document.getElementById('sidebar')).visibility === 'hidden'; })()`
		if !browserEval[bool](tb, offCanvas) {
			t.Error("the sidebar is on screen at 390 px")
		}
		if sw := browserEval[int](tb, `document.documentElement.scrollWidth`); sw > 390 {
			t.Errorf("page is %d px wide at a 390 px viewport", sw)
		}
		tb.shot("narrow")
		tb.do(chromedp.Click(chromedp.ID("side-toggle")))
		tb.waitJS(`document.getElementById('sidebar').getBoundingClientRect().left >= 0`)
		tb.waitJS(`getComputedStyle(document.getElementById('sidebar')).visibility === 'visible'`)
		tb.shot("narrow-tree")
		tb.click(nodeSelector("b2"))
		tb.waitJS(offCanvas)
		checkEntries(tb, samplePath(v, "b3"))
		if sw := browserEval[int](tb, `document.documentElement.scrollWidth`); sw > 390 {
			t.Errorf("page is %d px wide at a 390 px viewport on the alpha branch", sw)
		}
	})

	t.Run("print", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.open(url, v)
		closedOnPath := `document.querySelectorAll('article.entry:not([hidden]) details:not([open])').length`
		closed := browserEval[int](tb, closedOnPath)
		if closed == 0 {
			t.Fatal("the sample has no closed details on the path")
		}
		tb.do(chromedp.Evaluate[chromedp.Void](`dispatchEvent(new Event('beforeprint'))`))
		if n := browserEval[int](tb, closedOnPath); n != 0 {
			t.Errorf("%d details stay closed for printing", n)
		}
		tb.do(chromedp.Evaluate[chromedp.Void](`dispatchEvent(new Event('afterprint'))`))
		if n := browserEval[int](tb, closedOnPath); n != closed {
			t.Errorf("after printing %d details are closed, want %d as before", n, closed)
		}
		tb.do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			_, err := cdp.Call(ctx, target, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			return err
		}))
		if shown := browserEval[bool](tb, `document.getElementById('sidebar').checkVisibility()`); shown {
			t.Error("the sidebar is printed")
		}
		checkEntries(tb, leafPath)
	})

	t.Run("sidebar resize and collapse", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.open(url, v)
		defer tb.do(chromedp.Evaluate[chromedp.Void](`localStorage.clear()`))
		width := `document.getElementById('sidebar').getBoundingClientRect().width`
		before := browserEval[float64](tb, width)
		tb.do(chromedp.Focus(chromedp.ID("resizer")))
		tb.press("ArrowRight")
		tb.press("ArrowRight")
		after := browserEval[float64](tb, width)
		if after != before+48 {
			t.Errorf("two ArrowRight on the handle: width %v → %v, want +48", before, after)
		}
		tb.do(chromedp.Reload())
		if got := browserEval[float64](tb, width); got != after {
			t.Errorf("width after reload = %v, want the remembered %v", got, after)
		}
		tb.do(chromedp.Click(chromedp.ID("side-toggle")))
		if shown := browserEval[bool](tb, `document.getElementById('sidebar').checkVisibility()`); shown {
			t.Error("the toggle did not hide the sidebar")
		}
		if main := browserEval[float64](tb, `document.getElementById('main').getBoundingClientRect().left`); main != 0 {
			t.Errorf("with the sidebar hidden the main column starts at %v px", main)
		}
		tb.do(chromedp.Click(chromedp.ID("side-toggle")))
		if shown := browserEval[bool](tb, `document.getElementById('sidebar').checkVisibility()`); !shown {
			t.Error("the toggle did not bring the sidebar back")
		}
	})

	t.Run("copy link", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.open(url, v)
		tb.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('d2').scrollIntoView()`))
		tb.do(chromedp.Click(chromedp.CSS(`#d2 .permalink`)))
		tb.waitJS(`document.querySelector('#d2 .permalink').classList.contains('copied')`)
		if hash := browserEval[string](tb, `location.hash`); hash != "#d2" {
			t.Errorf("hash = %q, want #d2", hash)
		}
		checkEntries(tb, leafPath)
	})

	t.Run("without JavaScript", func(t *testing.T) {
		tb := newBrowserTab(t, browser)
		tb.do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			_, err := cdp.Call(ctx, target, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}))
		tb.navigate(url)
		checkEntries(tb, leafPath)
		if got := tb.visibleNodes(); len(got) != len(v.Tree) {
			t.Errorf("%d tree links are visible without script, want all %d", len(got), len(v.Tree))
		}
		if shown := browserEval[int](tb, `Array.from(document.querySelectorAll('.js-only')).filter(e => e.checkVisibility()).length`); shown != 0 {
			t.Errorf("%d controls that need the script are visible", shown)
		}
		// A tree link still shows its entry, even one off the path.
		tb.click(nodeSelector("b2"))
		if got := tb.visibleEntries(); !slices.Contains(got, "b2") {
			t.Errorf("after following the link to b2 without script, visible entries are %v", got)
		}
	})
}
