package page

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/docsite"
	"github.com/piexport/piexport/session"
)

// turnsSession is a session of turns user uNN, assistant aNN, each a few
// paragraphs long (about a screen of 600 px for three turns), with a
// branch from a03 (branch-user, branch-answer) older than u04, so that
// the leaf is a<turns>.
func turnsSession(t *testing.T, turns int) *session.Session {
	t.Helper()
	lines := []string{`{"type":"session","version":3,"id":"turns","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`}
	msg := func(id, parent, role, text string, n int) {
		p := `"` + parent + `"`
		if parent == "" {
			p = "null"
		}
		content := fmt.Sprintf(`%q`, text)
		if role == "assistant" {
			content = fmt.Sprintf(`[{"type":"text","text":%q}]`, text)
		}
		lines = append(lines, fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-01-01T00:%02d:00Z","message":{"role":%q,"content":%s}}`, id, p, n, role, content))
	}
	para := "The handler is registered on the default mux after ListenAndServe, so the test server never sees it; a mux of its own fixes that and keeps main small."
	n := 0
	for i := 1; i <= turns; i++ {
		u, a := fmt.Sprintf("u%02d", i), fmt.Sprintf("a%02d", i)
		parent := ""
		if i > 1 {
			parent = fmt.Sprintf("a%02d", i-1)
		}
		n++
		msg(u, parent, "user", fmt.Sprintf("Question %d: why does the test of step %d fail?", i, i), n)
		n++
		msg(a, u, "assistant", fmt.Sprintf("Answer %d.\n\n%s\n\n%s", i, para, para), n)
		if i == 3 {
			n++
			msg("branch-user", "a03", "user", "Another way: what if we used a framework?", n)
			n++
			msg("branch-answer", "branch-user", "assistant", "On this branch: chi would do, but the standard library is enough.", n)
		}
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "turns.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBrowserEmbed: a page made for an iframe shows the conversation on
// its first screen, with a header of one line and the tree closed, and
// tells the page around it its height, on load and when it changes.
func TestBrowserEmbed(t *testing.T) {
	s := turnsSession(t, 8)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "session.html"), exportPage(t, s, Options{Embed: true, EmbedLink: "https://example.com/full.html"}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "page.html"), exportPage(t, s, Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	// The page around it: the README's snippet, which embeds
	// session.html, beside a page not made to embed, and a record of
	// what each frame said.
	parent := `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0;font:16px sans-serif}</style></head><body>
<p style="margin:8px">A page of documentation with a session in it.</p>
` + docsite.Config(t, "../README.md", "embed.html") + `
<iframe id="plain" src="page.html" style="height:200px" title="A page not made to embed"></iframe>
<script>
window.heights = {embed: [], plain: []};
window.addEventListener('message', (e) => {
  if (!e.data || e.data.piexport !== 'height') return;
  const embedded = document.querySelector('iframe[src="session.html"]');
  window.heights[e.source === embedded.contentWindow ? 'embed' : 'plain'].push(e.data.height);
});
</script></body></html>`
	if err := os.WriteFile(filepath.Join(dir, "parent.html"), []byte(parent), 0o644); err != nil {
		t.Fatal(err)
	}
	browser := browsertest.Start(t)
	t.Parallel()

	t.Run("first screen", func(t *testing.T) {
		for _, width := range []int64{800, 1400} {
			tb := browsertest.OpenTab(t, browser)
			tb.Do(chromedp.EmulateViewport(width, 600))
			tb.Navigate("file://" + filepath.Join(dir, "session.html"))
			tb.WaitJS(`document.querySelector('#path > article[data-entry="u01"]') !== null`)
			tb.Shot(fmt.Sprintf("embed-%d", width))
			if top := browsertest.Eval[float64](tb, `document.querySelector('#path > article[data-entry="u01"]').getBoundingClientRect().top`); top < 0 || top > 120 {
				t.Errorf("%d px wide: the first entry's top is at %v px, want it within the first 120", width, top)
			}
			if n := browsertest.Eval[int](tb, `document.querySelectorAll('.page-head, .insights, .meta, .tokens').length`); n != 0 {
				t.Errorf("%d px wide: the embedded page has %d parts of the full header", width, n)
			}
			if shown := browsertest.Eval[bool](tb, `document.getElementById('sidebar').checkVisibility({visibilityProperty: true})`); shown {
				t.Errorf("%d px wide: the tree is open", width)
			}
			if head := browsertest.Eval[float64](tb, `document.querySelector('.embed-head').getBoundingClientRect().height`); head > 50 {
				t.Errorf("%d px wide: the header is %v px tall, want one line", width, head)
			}
			link := browsertest.Eval[[]string](tb, `(() => { const a = document.querySelector('.embed-head a.full-link'); return a ? [a.href, a.target, a.textContent] : []; })()`)
			if !slices.Equal(link, []string{"https://example.com/full.html", "_blank", "Open the full session"}) {
				t.Errorf("%d px wide: the link to the full session is %q", width, link)
			}
			// The tree opens when asked.
			tb.Click(chromedp.CSS("#side-toggle"))
			tb.WaitJS(`document.getElementById('sidebar').checkVisibility({visibilityProperty: true})`)
		}
	})

	t.Run("height", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		tb.Do(chromedp.EmulateViewport(800, 600))
		tb.Navigate("file://" + filepath.Join(dir, "parent.html"))
		tb.WaitJS(`window.heights.embed.length > 0 && document.querySelector('iframe[src="session.html"]').getBoundingClientRect().height > 1200`)
		tb.Shot("embed-parent-800")
		first := browsertest.Eval[[]float64](tb, `window.heights.embed`)
		// A narrower frame wraps the text on more lines: the page says
		// it is taller, and the frame follows.
		tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('iframe[src="session.html"]').style.width = '420px'`))
		last := first[len(first)-1]
		tb.WaitJS(fmt.Sprintf(`window.heights.embed.at(-1) > %v`, last))
		got := browsertest.Eval[[]float64](tb, `window.heights.embed`)
		tb.WaitJS(fmt.Sprintf(`Math.abs(document.querySelector('iframe[src="session.html"]').getBoundingClientRect().height - %v) < 1`, got[len(got)-1]))
		// The figure is the page's own height: the frame, sized to it,
		// shows the page whole, and the page does not grow with it.
		tb.WaitJS(`(() => { const h = window.heights.embed; const f = document.querySelector('iframe[src="session.html"]').getBoundingClientRect().height; return Math.abs(h.at(-1) - f) < 1; })()`)
		if n := browsertest.Eval[int](tb, `window.heights.embed.length`); n > 40 {
			t.Errorf("the page posted its height %d times: %v", n, browsertest.Eval[[]float64](tb, `window.heights.embed`))
		}
		if plain := browsertest.Eval[[]float64](tb, `window.heights.plain`); len(plain) != 0 {
			t.Errorf("a page not made to embed posted its height: %v", plain)
		}
	})
}

// rangeJS lists the entries the page marks as a linked range, drawn,
// in order, and says whether each describes itself by the range's note.
const rangeJS = `Array.from(document.querySelectorAll('#path > article.in-range')).map(a => a.dataset.entry + (a.getAttribute('aria-describedby') === 'range-note' ? '' : '!'))`

// TestBrowserRangeLink: #ID1..ID2 marks the entries on the path from one
// to the other (ids or unique starts of ids, in either order) and
// scrolls to the first; a range on another branch shows that branch; a
// Shift+click on a second entry's copy link links the range.
func TestBrowserRangeLink(t *testing.T) {
	s := turnsSession(t, 8)
	url := writeExport(t, s, Options{})
	browser := browsertest.Start(t)
	t.Parallel()

	for _, tc := range []struct {
		name, fragment string
		want           []string
	}{
		{"ids", "#u03..a04", []string{"u03", "a03", "u04", "a04"}},
		{"element ids, reversed", "#e:a05..e:u04", []string{"u04", "a04", "u05", "a05"}},
		{"another branch, by the start of an id", "#a02..branch-a", []string{"a02", "u03", "a03", "branch-user", "branch-answer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := browsertest.OpenTab(t, browser)
			tb.Do(chromedp.EmulateViewport(1400, 900))
			tb.Navigate(url + tc.fragment)
			tb.WaitJS(`document.querySelectorAll('#path > article.in-range').length > 0`)
			tb.Shot("range-" + strings.ReplaceAll(tc.name, " ", "-"))
			if got := browsertest.Eval[[]string](tb, rangeJS); !slices.Equal(got, tc.want) {
				t.Errorf("%s marks %v, want %v", tc.fragment, got, tc.want)
			}
			first := tc.want[0]
			// At the top, or as near as the end of the page lets it.
			top := browsertest.Eval[float64](tb, `document.getElementById('e:`+first+`').getBoundingClientRect().top`)
			atEnd := browsertest.Eval[bool](tb, `scrollY + innerHeight >= document.documentElement.scrollHeight - 1`)
			if top < 0 || top > 120 && !(atEnd && top < 450) {
				t.Errorf("%s: the range's first entry is at %v px, want it at the top", tc.fragment, top)
			}
			if note := browsertest.Eval[string](tb, `document.getElementById('range-note').textContent`); !strings.Contains(note, "linked entries") {
				t.Errorf("the range's note says %q", note)
			}
			// The band is drawn: a marked entry looks unlike another.
			if same := browsertest.Eval[bool](tb, `getComputedStyle(document.getElementById('e:`+first+`')).boxShadow === 'none'`); same {
				t.Error("a marked entry has no band")
			}
			// A link to one entry unmarks the range.
			tb.Do(chromedp.Evaluate[chromedp.Void](`location.hash = '#u01'`))
			tb.WaitJS(`document.querySelectorAll('.in-range').length === 0 && document.getElementById('range-note').textContent === ''`)
		})
	}

	t.Run("not a range", func(t *testing.T) {
		// Neither end above the other, or an end that names no entry
		// (u0 starts several ids): nothing is marked.
		for _, fragment := range []string{"#a05..branch-answer", "#u0..a04", "#zz..a04"} {
			tb := browsertest.OpenTab(t, browser)
			tb.Navigate(url + fragment)
			if got := browsertest.Eval[[]string](tb, rangeJS); len(got) != 0 {
				t.Errorf("%s marks %v", fragment, got)
			}
		}
	})

	t.Run("shift+click", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		tb.Do(chromedp.EmulateViewport(1400, 900))
		tb.Navigate(url)
		tb.Click(`[data-entry="u02"] .permalink`)
		tb.WaitJS(`location.hash === '#u02'`)
		tb.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('e:a03').scrollIntoView()`))
		tb.WaitJS(`document.querySelector('[data-entry="a03"] .permalink') !== null`)
		tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-entry="a03"] .permalink').dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, shiftKey: true, button: 0}))`))
		tb.WaitJS(`location.hash === '#u02..a03'`)
		if got := browsertest.Eval[[]string](tb, rangeJS); !slices.Equal(got, []string{"u02", "a02", "u03", "a03"}) {
			t.Errorf("shift+click marks %v", got)
		}
	})
}

// TestBrowserExcerptPage: a page of part of a path (session.Cut) says in
// its header which entries of how long a path it holds, links nowhere
// outside itself there, and its deep links, single and ranges, work.
func TestBrowserExcerptPage(t *testing.T) {
	s := turnsSession(t, 8)
	part, err := s.Cut(s.Entry("u03"), s.Entry("a05"))
	if err != nil {
		t.Fatal(err)
	}
	url := writeExport(t, part, Options{})
	embedded := writeExport(t, part, Options{Embed: true})
	browser := browsertest.Start(t)
	t.Parallel()

	tb := browsertest.OpenTab(t, browser)
	tb.Do(chromedp.EmulateViewport(1400, 900))
	tb.Navigate(url)
	tb.Shot("excerpt-1400")
	if got := browsertest.Eval[string](tb, `document.querySelector('.page-head .excerpt dd').textContent`); !strings.HasPrefix(got, "An excerpt: entries 5 to 10 of 16 on its path") {
		t.Errorf("the header says %q", got)
	}
	if out := browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('.page-head a[href]')).map(a => a.getAttribute('href')).filter(h => !h.startsWith('#'))`); len(out) != 0 {
		t.Errorf("the header links outside the page: %v", out)
	}
	checkPathShown(tb, []string{"u03", "a03", "u04", "a04", "u05", "a05"})
	// The header's link to the excerpt's last entry.
	tb.Click(`.page-head .excerpt a[href$="a05"]`)
	tb.WaitJS(`location.hash === '#a05' && Math.abs(document.getElementById('e:a05').getBoundingClientRect().top - document.querySelector('.topbar').getBoundingClientRect().bottom) < 2 || scrollY + innerHeight >= document.documentElement.scrollHeight - 1`)

	for _, fragment := range []string{"#u04", "#e:u04", "#u04..a04"} {
		tb := browsertest.OpenTab(t, browser)
		tb.Do(chromedp.EmulateViewport(1400, 900))
		tb.Navigate(url + fragment)
		// In view, in the upper half of the window: the excerpt is
		// too short for its fourth entry to reach the top.
		if top := browsertest.Eval[float64](tb, `document.getElementById('e:u04').getBoundingClientRect().top`); top < 0 || top > 450 {
			t.Errorf("%s: u04 is at %v px", fragment, top)
		}
	}

	tb = browsertest.OpenTab(t, browser)
	tb.Do(chromedp.EmulateViewport(800, 600))
	tb.Navigate(embedded + "#u04..a04")
	tb.WaitJS(`document.querySelectorAll('#path > article.in-range').length === 2`)
	tb.Shot("excerpt-embed-800")
	if got := browsertest.Eval[string](tb, `document.querySelector('.embed-head .excerpt-note').textContent`); got != "An excerpt: entries 5 to 10 of 16" {
		t.Errorf("the embedded page's header says %q", got)
	}
}
