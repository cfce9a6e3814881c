package site

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/hostile"
	"github.com/piexport/piexport/session"
)

// indexItems are sessions in three projects, one of them hostile, and a
// file that failed to load.
func indexItems() []IndexItem {
	day := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	item := func(url, cwd, title string, start time.Time, minutes int, msgs int, models []string, usage session.Usage, leaves int) IndexItem {
		return IndexItem{URL: url, Path: "/home/alice/.pi/agent/sessions/" + url + ".jsonl", Cwd: cwd, SessionID: "id-" + url,
			Summary: session.Summary{Title: title, Start: start, End: start.Add(time.Duration(minutes) * time.Minute),
				Messages: msgs, Models: models, Usage: usage, Leaves: leaves}}
	}
	return []IndexItem{
		item("web-1.html", "/home/alice/web", "Add a health endpoint", day, 12, 14,
			[]string{"anthropic/claude-sonnet-4-5"}, session.Usage{Input: 1200, Output: 300, Cost: 0.0123}, 3),
		item("web-2.html", "/home/alice/web", "Fix the login form", day.Add(48*time.Hour), 90, 40,
			[]string{"anthropic/claude-sonnet-4-5", "openai/gpt-5"}, session.Usage{Input: 120000, Output: 30000, CacheRead: 1_000_000, Cost: 1.5}, 1),
		item("cli-1.html", "/home/alice/cli", "Release script", day.Add(24*time.Hour), 5, 4, nil, session.Usage{}, 1),
		item("evil.html", hostile.Cwd, hostile.Title, day.Add(-24*time.Hour), 1, 2, []string{hostile.Model}, session.Usage{}, 1),
		{Path: "/home/alice/.pi/agent/sessions/broken.jsonl",
			Err: errors.New("/home/alice/.pi/agent/sessions/broken.jsonl: not a pi session file: the file is empty <b>x</b>")},
	}
}

func renderIndex(t *testing.T, items []IndexItem, opt IndexOptions) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteIndex(&buf, items, opt); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestWriteIndex(t *testing.T) {
	out := renderIndex(t, indexItems(), IndexOptions{Home: "/home/alice", Generator: "piexport test"})
	doc := parseIndexHTML(t, out)

	// Projects newest first: web (Mar 3), cli (Mar 2), the hostile one
	// (Feb 28); sessions newest first within each.
	var projects []string
	var links []string
	ixWalk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "section" && ixAttr(n, "class") == "project" {
			projects = append(projects, strings.Fields(ixText(ixFind(n, "h2")))[0])
		}
		if n.Type == html.ElementNode && n.Data == "a" && n.Parent != nil && ixAttr(n.Parent, "class") == "title" {
			links = append(links, ixAttr(n, "href"))
		}
	})
	wantProjects := []string{"~/web", "~/cli", "~/src/\"><svg"}
	if !slices.Equal(projects, wantProjects) {
		t.Errorf("projects = %q, want %q", projects, wantProjects)
	}
	if want := []string{"web-2.html", "web-1.html", "cli-1.html", "evil.html"}; !slices.Equal(links, want) {
		t.Errorf("links = %q, want %q", links, want)
	}

	for _, want := range []string{
		"4 sessions in 3 projects",
		"1 file could not be read",
		`<span title="anthropic/claude-sonnet-4-5">claude-sonnet-4-5</span>, <span title="openai/gpt-5">gpt-5</span>`,
		`<td data-v="1150000" title="120k in · 30k out · 1.0M cache read · 0 cache write">1.2M</td>`,
		`<td data-v="1.5">$1.50</td>`,
		`<td data-v="3">3</td>`,         // branches
		`<td data-v="5400">1h 30m</td>`, // duration
		`<time datetime="2026-03-03T09:00:00Z">2026-03-03 09:00 UTC</time>`,
		"<code>~/.pi/agent/sessions/broken.jsonl</code>",
		"~/.pi/agent/sessions/broken.jsonl: not a pi session file: the file is empty &lt;b&gt;x&lt;/b&gt;",
		`aria-sort="descending">Date</th>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("index lacks %s", want)
		}
	}
	if strings.Contains(out, "/home/alice") {
		t.Error("the home directory is shown; want ~")
	}
	if strings.Contains(out, `href="broken`) || strings.Contains(out, "<form") {
		t.Error("a failed file is linked, or a search form is shown without Search")
	}
	checkNoInjectedHTML(t, doc)
	checkIndexCSP(t, doc, "form-action 'none'")
}

func TestWriteIndexEmpty(t *testing.T) {
	out := renderIndex(t, nil, IndexOptions{Notice: "Nothing here <yet>."})
	for _, want := range []string{"0 sessions in 0 projects", "No sessions.", "Nothing here &lt;yet&gt;."} {
		if !strings.Contains(out, want) {
			t.Errorf("empty index lacks %q", want)
		}
	}
	if _, err := os.Stat("x"); err == nil {
		t.Fatal("unexpected file")
	}
	if err := WriteIndex(&bytes.Buffer{}, nil, IndexOptions{Theme: "sepia"}); err == nil {
		t.Error("an unknown theme was accepted")
	}
}

// Sub-agents and forks are linked under the session's title, escaped like
// everything else.
func TestWriteIndexRelated(t *testing.T) {
	items := indexItems()
	items[0].Related = []Related{
		{Label: "Sub-agents", Links: []Link{{Title: "Lexer", URL: "agents/lexer.html"}, {Title: "<b>Tokens</b>", URL: "javascript:alert(1)"}}},
		{Label: "Forked from", Links: []Link{{Title: "Elsewhere"}}},
	}
	out := renderIndex(t, items, IndexOptions{})
	for _, want := range []string{
		`<div class="related">Sub-agents: <a href="agents/lexer.html">Lexer</a>, <a href="#ZgotmplZ">&lt;b&gt;Tokens&lt;/b&gt;</a></div>`,
		`<div class="related">Forked from: Elsewhere</div>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("index lacks %s", want)
		}
	}
	checkNoInjectedHTML(t, parseIndexHTML(t, out))
}

func TestWriteSearchResultsMore(t *testing.T) {
	items := indexItems()
	res := SearchResults{Query: "mux", Total: 1000, Sessions: 40, More: true, Hits: []SearchHit{
		{Session: items[0], EntryID: "a", Role: "user", Snippet: "mux", Branch: 2, Branches: 3},
		{Session: items[0], EntryID: "b", Role: "user", Snippet: "mux", Branch: 1, Branches: 1},
	}}
	var buf bytes.Buffer
	if err := WriteSearchResults(&buf, res, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"More than 1000 matching entries; the newest 1000, in 40 sessions, are ranked; 1 to 2 are shown.",
		`<span class="role">user · branch 2 of 3</span>`,
		`<span class="role">user</span>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("search page lacks %s", want)
		}
	}
}

// Results come in pages linked to each other; the last page of a search
// that matched more than was ranked links to the older matches.
func TestWriteSearchResultsPages(t *testing.T) {
	items := indexItems()
	hits := make([]SearchHit, 10)
	for i := range hits {
		hits[i] = SearchHit{Session: items[0], EntryID: fmt.Sprint(i), Role: "user", Snippet: "mux"}
	}
	oldest := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, tc := range []struct {
		name         string
		res          SearchResults
		want, absent []string
	}{
		{"first", SearchResults{Total: 25, Offset: 0}, []string{"; 1 to 10 are shown.", `<a href="?page=2&amp;q=mux&#43;%22a&#43;b%22" rel="next">`}, []string{`rel="prev"`, "Older matches"}},
		{"middle", SearchResults{Total: 25, Offset: 10}, []string{"; 11 to 20 are shown.", `<a href="?q=mux&#43;%22a&#43;b%22" rel="prev">`, `<a href="?page=3&amp;q=mux&#43;%22a&#43;b%22" rel="next">`}, nil},
		{"last", SearchResults{Total: 1000, More: true, Oldest: oldest, Offset: 990}, []string{"; 991 to 1000 are shown.", `rel="prev"`,
			`<a href="?q=mux&#43;%22a&#43;b%22&#43;before%3A2026-03-04">Older matches, from <time datetime="2026-03-04T05:06:07Z">`}, []string{`rel="next"`}},
		{"past", SearchResults{Total: 25, Offset: 50}, []string{"; this page is past the last."}, []string{`rel="next"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := tc.res
			res.Query, res.PageSize, res.Sessions = `mux "a b"`, 10, 1
			if res.Offset < res.Total {
				res.Hits = hits
			}
			var buf bytes.Buffer
			if err := WriteSearchResults(&buf, res, IndexOptions{}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %s", w)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(out, a) {
					t.Errorf("has %s", a)
				}
			}
		})
	}
}

func TestWriteSearchResults(t *testing.T) {
	items := indexItems()
	res := SearchResults{Query: `<b>"mux"</b>`, Total: 5, Sessions: 2, Words: []string{"mux"}, Hits: []SearchHit{
		{Session: items[0], EntryID: "6eea0e7d", Role: "assistant", Snippet: "…registered on the default mux after…", Marks: [][2]int{{29, 32}}},
		{Session: items[0], EntryID: "id~L40'", Role: "user", Snippet: "the Mux", Marks: [][2]int{{4, 7}, {2, 1}, {5, 99}}},
		{Session: items[3], EntryID: hostile.ID, Role: hostile.Role, Snippet: hostile.Preview, Marks: [][2]int{{0, 9}}},
	}}
	var buf bytes.Buffer
	if err := WriteSearchResults(&buf, res, IndexOptions{Home: "/home/alice", SearchURL: "/search"}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	doc := parseIndexHTML(t, out)
	for _, want := range []string{
		`<a href="web-1.html?hl=mux#6eea0e7d">…registered on the default <mark>mux</mark> after…</a>`,
		`<a href="web-1.html?hl=mux#id~L40%27">the <mark>Mux</mark></a>`,
		`5 matching entries in 2 sessions; 1 to 3 are shown.`,
		`<form class="search" method="get" action="/search" role="search">`,
		`value="&lt;b&gt;&#34;mux&#34;&lt;/b&gt;"`,
		`<h1><a href="./">pi sessions</a></h1>`,
		`<mark>&lt;/script&gt;</mark>&lt;script&gt;window.__xss=5&lt;/script&gt; javascript:alert(1)</a>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("search page lacks %s", want)
		}
	}
	// Two sessions, the hits of the first together.
	var groups int
	ixWalk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "section" && ixAttr(n, "class") == "hits" {
			groups++
		}
	})
	if groups != 2 {
		t.Errorf("%d session groups, want 2", groups)
	}
	checkNoInjectedHTML(t, doc)
	checkIndexCSP(t, doc, "form-action 'self'")

	buf.Reset()
	if err := WriteSearchResults(&buf, SearchResults{Query: "zzz"}, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Nothing matches.") {
		t.Error("an empty result does not say so")
	}
}

func parseIndexHTML(t *testing.T, s string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	ixWalk(doc, func(n *html.Node) {
		if id := ixAttr(n, "id"); id != "" {
			if ids[id] {
				t.Errorf("duplicate id %q", id)
			}
			ids[id] = true
		}
	})
	return doc
}

// checkNoInjectedHTML fails if the page holds a script or an element that
// is not ours: one script (the inline one), no event handler attributes,
// no img elements, and svg only as the usage report's charts.
func checkNoInjectedHTML(t *testing.T, doc *html.Node) {
	t.Helper()
	scripts := 0
	ixWalk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.Data {
		case "script":
			scripts++
		case "svg":
			if !isReportChart(n) {
				t.Errorf("injected <%s> element", n.Data)
			}
		case "img", "b", "iframe":
			t.Errorf("injected <%s> element", n.Data)
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("event handler attribute %s=%q on <%s>", a.Key, a.Val, n.Data)
			}
			if a.Key == "href" && strings.HasPrefix(strings.ToLower(a.Val), "javascript:") {
				t.Errorf("javascript: link %q", a.Val)
			}
		}
	})
	if scripts != 1 {
		t.Errorf("%d script elements, want 1", scripts)
	}
}

// isReportChart says whether svg is a chart of the page's own usage
// report (templates/insights.html): in its figure, in the report.
func isReportChart(svg *html.Node) bool {
	wrap := svg.Parent
	if wrap == nil || wrap.Data != "div" || ixAttr(wrap, "class") != "plot-wrap" || ixAttr(svg, "class") != "plot" {
		return false
	}
	fig := wrap.Parent
	if fig == nil || fig.Data != "figure" || !strings.HasPrefix(ixAttr(fig, "class"), "chart ") {
		return false
	}
	for p := fig.Parent; p != nil; p = p.Parent {
		if p.Data == "details" && ixAttr(p, "id") == "usage" {
			return true
		}
	}
	return false
}

// checkIndexCSP checks that the policy allows exactly the inline style and
// script the page has.
func checkIndexCSP(t *testing.T, doc *html.Node, formAction string) {
	t.Helper()
	var csp, style, script string
	ixWalk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch {
		case n.Data == "meta" && ixAttr(n, "http-equiv") == "Content-Security-Policy":
			csp = ixAttr(n, "content")
		case n.Data == "style":
			style = ixText(n)
		case n.Data == "script":
			script = ixText(n)
		}
	})
	for _, want := range []string{"default-src 'none'", "script-src '" + piexport.CSPHash(script) + "'", "style-src '" + piexport.CSPHash(style) + "'", formAction} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
}

func ixWalk(n *html.Node, f func(*html.Node)) {
	stack := []*html.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f(n)
		for c := n.LastChild; c != nil; c = c.PrevSibling {
			stack = append(stack, c)
		}
	}
}

func ixAttr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func ixFind(n *html.Node, tag string) *html.Node {
	var found *html.Node
	ixWalk(n, func(c *html.Node) {
		if found == nil && c.Type == html.ElementNode && c.Data == tag {
			found = c
		}
	})
	return found
}

func ixText(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	ixWalk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	})
	return b.String()
}

// The index works from a file: its script runs under its CSP, sorts and
// filters, and no session text runs as script.
func TestIndexBrowser(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	path := filepath.Join(t.TempDir(), "index.html")
	if err := os.WriteFile(path, []byte(renderIndex(t, indexItems(), IndexOptions{Home: "/home/alice"})), 0o644); err != nil {
		t.Fatal(err)
	}
	tb := browsertest.OpenTab(t, browser)
	tb.Do(chromedp.Navigate("file://" + filepath.ToSlash(path)))
	if browsertest.Eval[bool](tb, `typeof window.__xss !== 'undefined'`) {
		t.Fatal("session text ran as script")
	}
	if title := browsertest.Eval[string](tb, `document.title`); title != "pi sessions" {
		t.Errorf("title = %q", title)
	}
	rows := func() []string {
		return browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('table.sessions tbody tr')).filter(r => r.checkVisibility()).map(r => r.cells[0].textContent)`)
	}
	if got, want := rows(), []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}; !slices.Equal(got, want) {
		t.Errorf("rows = %q, want %q", got, want)
	}
	// Sort by cost: largest first, in every project; again: smallest first.
	tb.Do(chromedp.Click(`table.sessions th:nth-child(7) button`, chromedp.NodeVisible))
	if got, want := rows(), []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}; !slices.Equal(got, want) {
		t.Errorf("by cost = %q, want %q", got, want)
	}
	tb.Do(chromedp.Click(`table.sessions th:nth-child(7) button`, chromedp.NodeVisible))
	if got, want := rows(), []string{"Add a health endpoint", "Fix the login form", "Release script", hostile.Title}; !slices.Equal(got, want) {
		t.Errorf("by cost, ascending = %q, want %q", got, want)
	}
	if got := browsertest.Eval[string](tb, `document.querySelector('table.sessions th:nth-child(7)').getAttribute('aria-sort')`); got != "ascending" {
		t.Errorf("aria-sort = %q", got)
	}
	// Filter: words of titles, models and projects.
	tb.Press("/")
	if focused := browsertest.Eval[string](tb, `document.activeElement.id`); focused != "filter" {
		t.Fatalf("'/' focused %q, want the filter box", focused)
	}
	tb.Do(chromedp.KeyEvent("GPT-5"))
	tb.WaitJS(`document.querySelectorAll('table.sessions tbody tr:not([hidden])').length === 1`)
	if got := rows(); !slices.Equal(got, []string{"Fix the login form"}) {
		t.Errorf("filtered by model = %q", got)
	}
	if n := browsertest.Eval[int](tb, `Array.from(document.querySelectorAll('section.project')).filter(s => s.checkVisibility()).length`); n != 1 {
		t.Errorf("%d projects shown, want 1", n)
	}
	tb.Press("Escape")
	tb.WaitJS(`document.querySelectorAll('table.sessions tbody tr:not([hidden])').length === 4`)
	tb.Do(chromedp.KeyEvent("~/cli"))
	tb.WaitJS(`document.querySelectorAll('table.sessions tbody tr:not([hidden])').length === 1`)
	if got := rows(); !slices.Equal(got, []string{"Release script"}) {
		t.Errorf("filtered by project = %q", got)
	}
	if status := browsertest.Eval[string](tb, `document.getElementById('filter-status').textContent`); !regexp.MustCompile(`^1 of 4 sessions$`).MatchString(status) {
		t.Errorf("status = %q", status)
	}
	tb.Shot("index")
}

// Raw NUL and ESC bytes of a session's title, path or error never reach
// the index or the search page.
func TestIndexNoControlCharacters(t *testing.T) {
	items := []IndexItem{
		{URL: "a.html", Path: "/s/a\x1b[2J.jsonl", Cwd: "/p\x1b]0;x\x07", SessionID: "id\x00",
			Summary: session.Summary{Title: "title\x1b[31m\x00red", Start: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), Messages: 1, Leaves: 1}},
		{Path: "/s/b\x1b.jsonl", Err: errors.New("/s/b\x1b.jsonl: not a pi session file\x07")},
	}
	var index, search bytes.Buffer
	if err := WriteIndex(&index, items, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	res := SearchResults{Query: "q\x1b", Total: 1, Sessions: 1, Hits: []SearchHit{{Session: items[0], EntryID: "e1", Role: "user", Snippet: "snip\x1b[2J\x00pet"}}}
	if err := WriteSearchResults(&search, res, IndexOptions{Search: true, SearchURL: "search"}); err != nil {
		t.Fatal(err)
	}
	for name, page := range map[string]string{"index": index.String(), "search": search.String()} {
		for i := 0; i < len(page); i++ {
			if c := page[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
				t.Fatalf("%s: control %#x: %q", name, c, page[max(0, i-40):min(len(page), i+20)])
			}
		}
		if !strings.Contains(page, "␛") {
			t.Errorf("%s: the escapes are not shown", name)
		}
	}
}

// While the sessions are read, the index and a search's page say how far,
// and how far back a search reaches; a reader's script shows the time in
// their own zone (<time datetime>).
func TestReadingNote(t *testing.T) {
	back := time.Date(2026, 11, 3, 14, 5, 0, 0, time.UTC)
	reading := &Reading{Done: 40, Files: 302, Read: 200 << 20, Bytes: 1334 << 20, Back: back}
	at := `<time datetime="2026-11-03T14:05:00Z">2026-11-03 14:05 UTC</time>`
	res := SearchResults{Query: "mux"}
	for _, c := range []struct {
		name    string
		reading *Reading
		search  bool
		want    string
	}{
		{"index", reading, false, "Reading the sessions, newest first: 200.0 MB of 1334.0 MB read, 40 of 302 files stored. Search finds the sessions back to " + at + " so far."},
		{"index, the newest not read", &Reading{Files: 302, Bytes: 1334 << 20}, false, "Reading the sessions, newest first: 0 bytes of 1334.0 MB read, 0 of 302 files stored. Search finds nothing of them yet."},
		{"search", reading, true, "Searched the sessions back to " + at + "; older ones are still being read. Search again in a moment for the rest."},
		{"search, the newest not read", &Reading{Files: 1}, true, "The newest sessions are not read yet: their matches are missing."},
		{"index, all read", nil, false, ""},
		{"search, all read", nil, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			opt := IndexOptions{Search: true, Reading: c.reading}
			var out string
			if c.search {
				var buf bytes.Buffer
				if err := WriteSearchResults(&buf, res, opt); err != nil {
					t.Fatal(err)
				}
				out = buf.String()
			} else {
				out = renderIndex(t, indexItems(), opt)
			}
			if c.want == "" {
				if strings.Contains(out, `id="reading"`) {
					t.Errorf("a note on reading when every session is read")
				}
				return
			}
			if !strings.Contains(out, c.want) {
				t.Errorf("the page lacks %q", c.want)
			}
		})
	}
}
