package page

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/hostile"
	"github.com/piexport/piexport/session"
)

// samplePath returns the ids from the root to end in the sample session
// that have an article: all but tool results shown in their call's card.
func samplePath(p *Page, end string) []string {
	ix := p.v.Index
	var ids []string
	for i := sampleIndex(p, end); i >= 0; i = ix.Parents[i] {
		if !slices.Contains(ix.Absorbed, i) {
			ids = append(ids, ix.IDs[i])
		}
	}
	slices.Reverse(ids)
	return ids
}

// sampleNodes returns the ids of the tree nodes for which keep is true.
func sampleNodes(p *Page, keep func(i int) bool) []string {
	var ids []string
	for i, id := range p.v.Index.IDs {
		if keep(i) {
			ids = append(ids, id)
		}
	}
	return ids
}

// sampleKind is the kind of the sample's i-th entry.
func sampleKind(p *Page, i int) string { return p.v.Index.KindNames[p.v.Index.Kinds[i]] }

// samplePathTokens is what the path cells should read for the path to end.
func samplePathTokens(p *Page, end string) map[string]string {
	var sum session.Usage
	for i := sampleIndex(p, end); i >= 0; i = p.v.Index.Parents[i] {
		if u, ok := p.v.Index.Usage[i]; ok {
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

// noScriptEntries lists the entries a browser without JavaScript shows,
// from the top of the page down.
func noScriptEntries(tb *browsertest.Tab) []string {
	tb.T.Helper()
	// In the order they are laid out: by their group's place (a group out
	// of view is not laid out until seen, and the articles in it have no
	// place of their own yet), then in the group's order.
	return browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('#entries article[data-entry]')).filter(a => a.checkVisibility()).map((a, i) => [(a.closest('noscript.g') || a).getBoundingClientRect().top, i, a.dataset.entry]).sort((x, y) => x[0] - y[0] || x[1] - y[1]).map(x => x[2])`)
}

// TestBrowser drives the page in a headless browser. All subtests share one
// browser; each opens its own tab.
func TestBrowser(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	v := samplePage()
	url := writePageFile(t, v)
	leafPath := samplePath(v, "d6")

	checkEntries := func(tb *browsertest.Tab, want []string) {
		t.Helper()
		if diff := cmp.Diff(want, visibleEntries(tb)); diff != "" {
			tb.T.Errorf("visible entries (-want +got):\n%s", diff)
		}
	}
	checkPathTokens := func(tb *browsertest.Tab, end string) {
		t.Helper()
		got := browsertest.Eval[map[string]string](tb, `Object.fromEntries(Array.from(document.querySelectorAll('[data-path-tokens]')).map(c => [c.dataset.pathTokens, c.textContent]))`)
		if diff := cmp.Diff(samplePathTokens(v, end), got); diff != "" {
			tb.T.Errorf("path tokens for the path to %s (-want +got):\n%s", end, diff)
		}
	}

	t.Run("load shows the leaf path", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		openPage(tb, url, v)
		checkEntries(tb, leafPath)
		checkPathTokens(tb, "d6")
		if sel := browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('#tree a.sel')).map(a => a.dataset.treeNode)`); !slices.Equal(sel, []string{"d6"}) {
			t.Errorf("selected nodes = %v, want [d6]", sel)
		}
		// Times are rewritten in the reader's zone; the UTC text moves to the title.
		if title := browsertest.Eval[string](tb, `document.querySelector('[data-entry="r0"] time').title`); title != "2025-03-14 09:26 UTC" {
			t.Errorf("time title = %q, want the UTC fallback", title)
		}
		if text := browsertest.Eval[string](tb, `document.querySelector('[data-entry="r0"] time').textContent`); strings.Contains(text, "UTC") {
			t.Errorf("time text %q was not localized", text)
		}
		if overflow := browsertest.Eval[bool](tb, `document.documentElement.scrollWidth > innerWidth`); overflow {
			t.Error("the page scrolls sideways at 1280 px")
		}
		tb.Shot("wide-light")
		tb.Press("o")
		tb.Press("t")
		tb.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('e:d1').scrollIntoView()`))
		tb.Shot("wide-light-lower")
	})

	t.Run("click walks branches", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		openPage(tb, url, v)

		// b2 lies on the oldest branch; its newest leaf is b3.
		tb.Click(nodeSelector("b2"))
		checkEntries(tb, samplePath(v, "b3"))
		text := browsertest.Eval[string](tb, `document.querySelector('#path').innerText`)
		if !strings.Contains(text, "ALPHA-MARK") || strings.Contains(text, "GAMMA-MARK") {
			t.Errorf("after clicking b2 the text should show ALPHA-MARK and not GAMMA-MARK:\n%s", text)
		}
		if hash := browsertest.Eval[string](tb, `location.hash`); hash != "#b2" {
			t.Errorf("hash = %q, want #b2", hash)
		}
		if sel := browsertest.Eval[bool](tb, `document.querySelector('[data-tree-node="b2"]').classList.contains('sel')`); !sel {
			t.Error("b2 is not marked selected")
		}
		if top := browsertest.Eval[float64](tb, `document.getElementById('e:b2').getBoundingClientRect().top`); top < 0 || top > 600 {
			t.Errorf("b2 is at %v px, not scrolled into view", top)
		}
		checkPathTokens(tb, "b3")

		// The middle branch, through the entry whose id is hostile.
		tb.Click(nodeSelector("c1"))
		checkEntries(tb, samplePath(v, "c6"))

		// A node already on the path keeps the path and only scrolls.
		tb.Click(nodeSelector("r0"))
		checkEntries(tb, samplePath(v, "c6"))
		if hash := browsertest.Eval[string](tb, `location.hash`); hash != "#r0" {
			t.Errorf("hash = %q, want #r0", hash)
		}

		tb.Click(chromedp.CSS("#to-leaf"))
		checkEntries(tb, leafPath)
		checkPathTokens(tb, "d6")
		if hash := browsertest.Eval[string](tb, `location.hash`); hash != "" {
			t.Errorf("hash after back to leaf = %q, want none", hash)
		}
	})

	t.Run("filters", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		openPage(tb, url, v)
		kind := func(i int) string { return sampleKind(v, i) }
		for _, tc := range []struct {
			filter string
			keep   func(i int) bool
		}{
			{"all", func(int) bool { return true }},
			{"user", func(i int) bool { return kind(i) == kindUser }},
			{"labeled", func(i int) bool { _, ok := v.v.Index.Labels[i]; return ok }},
			{"no-tools", func(i int) bool {
				return kind(i) != kindSettings && kind(i) != kindAssistantTools && kind(i) != kindTool
			}},
			{"default", func(i int) bool { return kind(i) != kindSettings && kind(i) != kindAssistantTools }},
		} {
			tb.Do(chromedp.Click(chromedp.CSS(`[data-filter="` + tc.filter + `"]`)))
			want := sampleNodes(v, tc.keep)
			if diff := cmp.Diff(want, visibleNodes(tb)); diff != "" {
				t.Errorf("filter %s: visible nodes (-want +got):\n%s", tc.filter, diff)
			}
			status := browsertest.Eval[string](tb, `document.getElementById('tree-status').textContent`)
			wantStatus := fmt.Sprintf("%d of %d entries shown", len(want), len(v.v.Index.IDs))
			if len(want) == len(v.v.Index.IDs) {
				wantStatus = fmt.Sprintf("all %d entries shown", len(want))
			}
			if status != wantStatus {
				t.Errorf("filter %s: status %q, want %q", tc.filter, status, wantStatus)
			}
		}
	})

	t.Run("search and escape", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		openPage(tb, url, v)
		tb.Click(nodeSelector("b2"))
		tb.Press("/")
		if focused := browsertest.Eval[string](tb, `document.activeElement.id`); focused != "tree-search" {
			t.Fatalf("'/' focused %q, want the search box", focused)
		}
		// Every word must match, in any case, anywhere in the entry's text.
		tb.Do(chromedp.KeyEvent("LOOP beta"))
		tb.WaitJS(`document.getElementById('tree-status').textContent === '1 entry matches'`)
		if got := visibleNodes(tb); !slices.Equal(got, []string{"c3"}) {
			t.Errorf("search 'LOOP beta' shows %v, want [c3]", got)
		}

		// The first Escape clears the search, the second resets the path.
		tb.Do(chromedp.KeyEvent(kb.Escape))
		defaultNodes := sampleNodes(v, func(i int) bool {
			return sampleKind(v, i) != kindSettings && sampleKind(v, i) != kindAssistantTools
		})
		if diff := cmp.Diff(defaultNodes, visibleNodes(tb)); diff != "" {
			t.Errorf("after Escape, visible nodes (-want +got):\n%s", diff)
		}
		checkEntries(tb, samplePath(v, "b3"))
		tb.Do(chromedp.KeyEvent(kb.Escape))
		checkEntries(tb, leafPath)

		// Words only the entry's body holds, not its row: here the output
		// of a tool, shown in its call's card. Enter opens the hit and
		// marks the words.
		tb.Press("/")
		tb.Do(chromedp.KeyEvent("edit-result-mark"))
		tb.WaitJS(`document.getElementById('tree-status').textContent === '1 entry matches'`)
		if got := visibleNodes(tb); !slices.Equal(got, []string{"d4"}) {
			t.Errorf("search 'edit-result-mark' shows %v, want [d4]", got)
		}
		tb.Do(chromedp.KeyEvent(kb.Enter))
		tb.WaitJS(`document.getElementById('tree-status').textContent === 'match 1 of 1'`)
		tb.WaitJS(`CSS.highlights.has('piexport-hit') && CSS.highlights.get('piexport-hit').size === 1`)
	})

	t.Run("deep link", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		openPage(tb, url+"#c3", v)
		checkEntries(tb, samplePath(v, "c6"))
		// In the upper part of the window once the groups above it are
		// laid out (on a busy machine they can arrive after the jump
		// and move it down a little before the page holds it again).
		inView := `(() => { const top = document.getElementById('e:c3').getBoundingClientRect().top; return top >= 0 && top <= innerHeight * 0.6; })()`
		deadline := time.Now().Add(10 * time.Second)
		for !browsertest.Eval[bool](tb, inView) {
			if time.Now().After(deadline) {
				t.Errorf("c3 is at %v px, not scrolled into view", browsertest.Eval[float64](tb, `document.getElementById('e:c3').getBoundingClientRect().top`))
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		tb.Do(chromedp.Evaluate[chromedp.Void](`location.hash = '#b1'`))
		tb.WaitJS(`!!document.getElementById('e:b3')`)
		tb.Settle()
		checkEntries(tb, samplePath(v, "b3"))
		// The hostile id works as a link target too.
		tb.Do(chromedp.Evaluate[chromedp.Void](`location.hash = '#' + encodeURIComponent(` + browserJSString(hostile.ID) + `)`))
		tb.WaitJS(`!!document.getElementById('e:c6')`)
		tb.Settle()
		checkEntries(tb, samplePath(v, "c6"))
		checkNoXSS(tb, v)
	})

	t.Run("a tool result is its call's card", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		openPage(tb, url, v)
		if n := browsertest.Eval[int](tb, `document.querySelectorAll('article[data-entry="d4"]').length`); n != 0 {
			t.Errorf("the tool result d4 has %d articles of its own, want none", n)
		}
		inView := `(() => { const r = document.getElementById('e:d4').getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight / 2; })()`
		tb.Do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		tb.Click(nodeSelector("d4"))
		tb.WaitJS(inView)
		if hash := browsertest.Eval[string](tb, `location.hash`); hash != "#d4" {
			t.Errorf("hash = %q, want #d4", hash)
		}
		tb.WaitJS(`document.getElementById('e:d4').classList.contains('flash')`)
		// A deep link to the result, bare or as the element's id, lands on
		// the card with its output.
		for _, hash := range []string{"#d4", "#e:d4"} {
			tb2 := browsertest.OpenTab(t, browser)
			openPage(tb2, url+hash, v)
			tb2.WaitJS(inView)
			if text := browsertest.Eval[string](tb2, `document.getElementById('e:d4').innerText`); !strings.Contains(text, "EDIT-RESULT-MARK") {
				t.Errorf("%s: the card reads %q, without the result", hash, text)
			}
		}
	})

	t.Run("keys toggle details", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		openPage(tb, url, v)
		count := `(sel) => Array.from(document.querySelectorAll(sel)).filter(d => d.open).length`
		openThinking := func() int { return browsertest.Eval[int](tb, `(`+count+`)('details.thinking')`) }
		openMore := func() int { return browsertest.Eval[int](tb, `(`+count+`)('details.more')`) }
		if openThinking() != 0 || openMore() != 0 {
			t.Fatal("details start open")
		}
		tb.Press("t")
		if got, want := openThinking(), browsertest.Eval[int](tb, `document.querySelectorAll('details.thinking').length`); got != want || want == 0 {
			t.Errorf("after t, %d of %d thinking blocks are open", got, want)
		}
		tb.Press("t")
		if got := openThinking(); got != 0 {
			t.Errorf("after t twice, %d thinking blocks are open", got)
		}
		tb.Press("o")
		if got := openMore(); got != 1 {
			t.Errorf("after o, %d long outputs are open, want 1", got)
		}
	})

	t.Run("theme toggle survives reload", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		openPage(tb, url, v)
		defer tb.Do(chromedp.Evaluate[chromedp.Void](`localStorage.clear()`))
		if theme := browsertest.Eval[string](tb, `document.documentElement.dataset.theme`); theme != "auto" {
			t.Fatalf("initial theme %q, want auto", theme)
		}
		lightBg := browsertest.Eval[string](tb, `getComputedStyle(document.documentElement).backgroundColor`)
		tb.Do(chromedp.Click(chromedp.ID("theme-toggle")))
		if theme := browsertest.Eval[string](tb, `document.documentElement.dataset.theme`); theme != "dark" {
			t.Fatalf("theme after toggle %q, want dark (headless prefers light)", theme)
		}
		tb.Navigate(url) // a reload that waits until the page has started
		if theme := browsertest.Eval[string](tb, `document.documentElement.dataset.theme`); theme != "dark" {
			t.Errorf("theme after reload %q, want dark", theme)
		}
		if bg := browsertest.Eval[string](tb, `getComputedStyle(document.documentElement).backgroundColor`); bg == lightBg {
			t.Errorf("dark background %s equals the light one", bg)
		}
		tb.Shot("wide-dark")
		tb.Click(nodeSelector("c3"))
		tb.Shot("wide-dark-branch")
	})

	t.Run("narrow screen", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		tb.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
		openPage(tb, url, v)
		offCanvas := `(() => { const r = document.getElementById('sidebar').getBoundingClientRect(); return r.right <= 0 || getComputedStyle(document.getElementById('sidebar')).visibility === 'hidden'; })()`
		if !browsertest.Eval[bool](tb, offCanvas) {
			t.Error("the sidebar is on screen at 390 px")
		}
		if sw := browsertest.Eval[int](tb, `document.documentElement.scrollWidth`); sw > 390 {
			t.Errorf("page is %d px wide at a 390 px viewport", sw)
		}
		tb.Shot("narrow")
		tb.Do(chromedp.Click(chromedp.ID("side-toggle")))
		tb.WaitJS(`document.getElementById('sidebar').getBoundingClientRect().left >= 0`)
		tb.WaitJS(`getComputedStyle(document.getElementById('sidebar')).visibility === 'visible'`)
		tb.Shot("narrow-tree")
		tb.Click(nodeSelector("b2"))
		tb.WaitJS(offCanvas)
		checkEntries(tb, samplePath(v, "b3"))
		if sw := browsertest.Eval[int](tb, `document.documentElement.scrollWidth`); sw > 390 {
			t.Errorf("page is %d px wide at a 390 px viewport on the alpha branch", sw)
		}
	})

	t.Run("print", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		openPage(tb, url, v)
		// What prints is what is open on screen: folds stay closed, and
		// short cards are kept whole.
		closedOnPath := `document.querySelectorAll('#path article.entry details:not([open])').length`
		closed := browsertest.Eval[int](tb, closedOnPath)
		if closed == 0 {
			t.Fatal("the sample has no closed details on the path")
		}
		tb.Do(chromedp.Evaluate[chromedp.Void](`dispatchEvent(new Event('beforeprint'))`))
		if n := browsertest.Eval[int](tb, closedOnPath); n != closed {
			t.Errorf("%d details are closed for printing, want %d as on screen", n, closed)
		}
		if n := browsertest.Eval[int](tb, `document.querySelectorAll('#path [data-placeholder]').length`); n != 0 {
			t.Errorf("%d entries on the path are not drawn for printing", n)
		}
		if n := browsertest.Eval[int](tb, `document.querySelectorAll('#path > article').length`); n != len(leafPath) {
			t.Errorf("%d entries are drawn for printing, want the path's %d", n, len(leafPath))
		}
		if n := browsertest.Eval[int](tb, `document.querySelectorAll('.keep').length`); n == 0 {
			t.Error("no short card is kept whole for printing")
		}
		tb.Do(chromedp.Evaluate[chromedp.Void](`dispatchEvent(new Event('afterprint'))`))
		if n := browsertest.Eval[int](tb, `document.querySelectorAll('.keep').length`); n != 0 {
			t.Errorf("after printing %d cards are still marked to keep whole", n)
		}
		tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			_, err := cdp.Call(ctx, target, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			return err
		}))
		if shown := browsertest.Eval[bool](tb, `document.getElementById('sidebar').checkVisibility()`); shown {
			t.Error("the sidebar is printed")
		}
		checkEntries(tb, leafPath)
	})

	t.Run("sidebar resize and collapse", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		openPage(tb, url, v)
		defer tb.Do(chromedp.Evaluate[chromedp.Void](`localStorage.clear()`))
		width := `document.getElementById('sidebar').getBoundingClientRect().width`
		before := browsertest.Eval[float64](tb, width)
		tb.Do(chromedp.Focus(chromedp.ID("resizer")))
		tb.Press("ArrowRight")
		tb.Press("ArrowRight")
		after := browsertest.Eval[float64](tb, width)
		if after != before+48 {
			t.Errorf("two ArrowRight on the handle: width %v → %v, want +48", before, after)
		}
		tb.Navigate(url) // a reload that waits until the page has started
		if got := browsertest.Eval[float64](tb, width); got != after {
			t.Errorf("width after reload = %v, want the remembered %v", got, after)
		}
		tb.Do(chromedp.Click(chromedp.ID("side-toggle")))
		if shown := browsertest.Eval[bool](tb, `document.getElementById('sidebar').checkVisibility()`); shown {
			t.Error("the toggle did not hide the sidebar")
		}
		if main := browsertest.Eval[float64](tb, `document.getElementById('main').getBoundingClientRect().left`); main != 0 {
			t.Errorf("with the sidebar hidden the main column starts at %v px", main)
		}
		tb.Do(chromedp.Click(chromedp.ID("side-toggle")))
		if shown := browsertest.Eval[bool](tb, `document.getElementById('sidebar').checkVisibility()`); !shown {
			t.Error("the toggle did not bring the sidebar back")
		}
	})

	t.Run("copy link", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		openPage(tb, url, v)
		tb.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('e:d2').scrollIntoView()`))
		tb.Do(chromedp.Click(chromedp.CSS(`[data-entry="d2"] .permalink`)))
		tb.WaitJS(`document.querySelector('[data-entry="d2"] .permalink').classList.contains('copied')`)
		if hash := browsertest.Eval[string](tb, `location.hash`); hash != "#d2" {
			t.Errorf("hash = %q, want #d2", hash)
		}
		checkEntries(tb, leafPath)
	})

	t.Run("without JavaScript", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			_, err := cdp.Call(ctx, target, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}))
		tb.Navigate(url)
		if got := noScriptEntries(tb); !slices.Equal(got, leafPath) {
			t.Errorf("without script the page shows %v, want the path %v", got, leafPath)
		}
		toc := browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('.toc a')).filter(a => a.checkVisibility()).map(a => decodeURIComponent(a.getAttribute('href').slice(3)))`)
		var wantTOC []string
		for _, r := range v.v.TOC {
			wantTOC = append(wantTOC, r.ID)
		}
		if !slices.Equal(toc, wantTOC) || len(toc) == 0 {
			t.Errorf("the sidebar lists %v without script, want %v", toc, wantTOC)
		}
		if shown := browsertest.Eval[int](tb, `Array.from(document.querySelectorAll('.js-only')).filter(e => e.checkVisibility()).length`); shown != 0 {
			t.Errorf("%d controls that need the script are visible", shown)
		}
		// A link in the list leads to its entry.
		tb.Do(chromedp.Click(chromedp.CSS(`.toc a[href="#e:d2"]`)))
		tb.WaitJS(`location.hash === '#e:d2'`)
		if top := browsertest.Eval[float64](tb, `document.getElementById('e:d2').getBoundingClientRect().top`); top < -1 || top > 200 {
			t.Errorf("the link to d2 leaves it at %v px", top)
		}
	})
}
