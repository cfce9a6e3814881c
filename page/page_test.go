package page

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/session"
)

func loadCorpus(t testing.TB, name string) *session.Session {
	t.Helper()
	s, err := session.Load(filepath.Join("../testdata/corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func exportPage(t testing.TB, s *session.Session, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteHTML(&buf, s, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// parseNoScript parses a page as a browser without JavaScript does, so
// that what the page keeps lazily in <noscript> is parsed as HTML too.
func parseNoScript(t testing.TB, page []byte) *html.Node {
	t.Helper()
	root, err := html.ParseWithOptions(bytes.NewReader(page), html.ParseOptionEnableScripting(false))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// articles maps each entry id to the text of its rendered article.
func articles(t testing.TB, page []byte) map[string]string {
	t.Helper()
	root := parseNoScript(t, page)
	out := map[string]string{}
	var stack []*html.Node
	stack = append(stack, root)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Type == html.ElementNode {
			if id, ok := pageAttr(n, "data-entry"); ok {
				out[id] = pageText(n)
				continue
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			stack = append(stack, c)
		}
	}
	return out
}

var (
	wordRE = regexp.MustCompile(`[\p{L}\p{N}]{3,}`)
	// What markdown does not show as text: link reference definitions,
	// link destinations and fence info strings.
	hiddenRE = regexp.MustCompile("(?m)^ {0,3}\\[[^\\]]+\\]:\\s.*$|\\]\\([^)]*\\)|^[ >]*(```|~~~).*$")
	spaceRE  = regexp.MustCompile(`\s+`)
)

// missingWords returns the words of a message's markdown source that its
// rendered text lacks. Markup between words may come and go, so the
// rendered text is searched with all white space removed.
func missingWords(source, rendered string) []string {
	source = hiddenRE.ReplaceAllString(source, " ")
	flat := strings.ToLower(spaceRE.ReplaceAllString(rendered, ""))
	var missing []string
	for _, w := range wordRE.FindAllString(source, -1) {
		if !strings.Contains(flat, strings.ToLower(w)) {
			missing = append(missing, w)
		}
	}
	return missing
}

// TestCorpusExports exports every corpus session and checks that every
// user and assistant text on the leaf path appears in its entry.
func TestCorpusExports(t *testing.T) {
	files, _ := filepath.Glob("../testdata/corpus/*.jsonl")
	for _, file := range files {
		name := filepath.Base(file)
		if strings.HasPrefix(name, "edge-") {
			continue // not a session; the loader refuses it
		}
		t.Run(strings.TrimSuffix(name, ".jsonl"), func(t *testing.T) {
			t.Parallel()
			s := loadCorpus(t, name)
			page := exportPage(t, s, Options{})
			text := articles(t, page)
			checked := 0
			for _, e := range s.Path(s.Leaf) {
				role := e.Role()
				if role != "user" && role != "assistant" {
					continue
				}
				got, ok := text[e.ID]
				if !ok {
					t.Fatalf("%s: no article for %s", e.Where(), e.ID)
				}
				for _, b := range e.Message.Content {
					if b.Type != "text" {
						continue
					}
					if m := missingWords(b.Text, got); len(m) > 0 {
						t.Errorf("%s: %d words of the %s text are missing from the page, e.g. %q", e.Where(), len(m), role, m[:min(5, len(m))])
					}
					checked++
				}
			}
			switch {
			case len(s.Entries) == 0:
				// A header and nothing else: the page says so.
				if !bytes.Contains(page, []byte("This session has no entries")) {
					t.Errorf("the page of a session without entries does not say so")
				}
			case checked == 0:
				t.Errorf("no text checked")
			}
			checkPageIDs(t, page)
		})
	}
}

// checkPageIDs parses a page and fails on a duplicate id, or on a script
// or event handler the page did not put there itself. It parses the page
// as browsers with and without JavaScript do: the groups are text to the
// one and HTML to the other. The articles the script makes out of the
// page's blocks are checked as the script shows them (articlesPage).
func checkPageIDs(t testing.TB, page []byte) {
	t.Helper()
	root, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, root)
	checkTree(t, parseNoScript(t, page))
	all, err := html.Parse(bytes.NewReader(articlesPage(t, page)))
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, all)
}

// isChart says whether svg is a chart of the page's own Insights section
// (templates/insights.html): in its figure, in the section.
func isChart(svg *html.Node) bool {
	wrap := svg.Parent
	if wrap == nil || wrap.Data != "div" || !hasClass(wrap, "plot-wrap") || !hasClass(svg, "plot") {
		return false
	}
	fig := wrap.Parent
	if fig == nil || fig.Data != "figure" || !hasClass(fig, "chart") {
		return false
	}
	for p := fig.Parent; p != nil; p = p.Parent {
		if id, _ := pageAttr(p, "id"); p.Data == "details" && id == "insights" {
			return true
		}
	}
	return false
}

func hasClass(n *html.Node, class string) bool {
	v, _ := pageAttr(n, "class")
	return slices.Contains(strings.Fields(v), class)
}

func checkTree(t testing.TB, root *html.Node) {
	t.Helper()
	ids := map[string]bool{}
	scripts := 0
	pageWalk(root, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		for _, a := range n.Attr {
			switch {
			case a.Key == "id":
				if ids[a.Val] {
					t.Errorf("duplicate id %q", a.Val)
				}
				ids[a.Val] = true
			case strings.HasPrefix(a.Key, "on"):
				t.Errorf("<%s> has an event handler %s=%q", n.Data, a.Key, a.Val)
			case a.Key == "href" || a.Key == "src" || a.Key == "action" || a.Key == "formaction" || a.Key == "xlink:href":
				if !safeURL(a.Val) {
					t.Errorf("<%s %s=%q> has a scheme outside the allow-list", n.Data, a.Key, a.Val)
				}
			}
		}
		switch n.Data {
		case "script":
			typ, _ := pageAttr(n, "type")
			if typ != "application/json" && typ != packScriptType && typ != groupScriptType && typ != jsonlScriptType && pageText(n) != arrivedScript {
				scripts++
			}
		case "svg":
			// The one place the page draws: a chart of its Insights.
			if !isChart(n) {
				t.Errorf("unexpected <svg> element outside the insights' charts")
			}
		case "iframe", "object", "embed", "math", "form", "base", "link":
			t.Errorf("unexpected <%s> element", n.Data)
		case "noscript":
			if c := n.FirstChild; c != nil && c.Type == html.TextNode && strings.Contains(strings.ToLower(c.Data), "<noscript") {
				t.Errorf("a noscript holds another: the inner one would end the outer early")
			}
		}
	})
	if scripts != 1 {
		t.Errorf("%d executable scripts, want exactly the page's own one", scripts)
	}
}

func safeURL(u string) bool {
	u = strings.TrimSpace(strings.ToLower(u))
	if i := strings.IndexFunc(u, func(r rune) bool { return r == ':' || r == '/' || r == '?' || r == '#' }); i < 0 || u[i] != ':' {
		return true // relative
	}
	for _, scheme := range []string{"http:", "https:", "mailto:", "data:image/png;", "data:image/jpeg;", "data:image/gif;", "data:image/webp;"} {
		if strings.HasPrefix(u, scheme) {
			return true
		}
	}
	return false
}

// hostileSession is a session whose every field a page shows carries an
// attack.
const hostileSession = `{"type":"session","version":3,"id":"s\"><script>window.__xss=1</script>","timestamp":"2026-01-01T00:00:00Z","cwd":"/home/x/<img src=x onerror=window.__xss=2>"}
{"type":"model_change","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","provider":"<b onmouseover=x>","modelId":"\"><script>window.__xss=3</script>"}
{"type":"message","id":"u1\" onclick=\"window.__xss=4","parentId":"m1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":[{"type":"text","text":"<script>window.__xss=5</script> [a](javascript:window.__xss=6) [b](JaVaScRiPt:window.__xss=7) [c](java\tscript:x) ![i](x\" onerror=\"window.__xss=8) <img src=x onerror=window.__xss=9> </script><script>window.__xss=10</script> <a href=\"javascript:window.__xss=11\">x</a> [t](http://ok.example \"t\\\" onmouseover=\\\"window.__xss=12\")"},{"type":"image","data":"AAAA\" onerror=\"window.__xss=13","mimeType":"image/png"},{"type":"image","data":"AAAA","mimeType":"image/svg+xml\" onload=\"window.__xss=14"}]}}
{"type":"message","id":"a1","parentId":"u1\" onclick=\"window.__xss=4","timestamp":"2026-01-01T00:00:03Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"<iframe src=javascript:window.__xss=15>"},{"type":"text","text":"` + "```" + `\"><script>window.__xss=16</script>\ncode </script><script>window.__xss=17</script>\n` + "```" + `"},{"type":"toolCall","id":"t1","name":"<img src=x onerror=window.__xss=18>","arguments":{"command":"</script><script>window.__xss=19</script>","path":"\"><svg onload=window.__xss=20>"}},{"type":"toolCall","id":"t2","name":"bash","arguments":{"command":"echo '<script>window.__xss=21</script>'"}}],"model":"<script>window.__xss=22</script>","stopReason":"error","errorMessage":"<img src=x onerror=window.__xss=23>","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.1}}}}
{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:04Z","message":{"role":"toolResult","toolCallId":"t2","toolName":"bash","content":[{"type":"text","text":"\u001b[31m<script>window.__xss=24</script>\u001b[0m"}],"isError":false}}
{"type":"label","id":"l1","parentId":"r1","timestamp":"2026-01-01T00:00:05Z","targetId":"a1","label":"\"><script>window.__xss=25</script>"}
{"type":"custom_message","id":"c1","parentId":"l1","timestamp":"2026-01-01T00:00:06Z","customType":"\"><img src=x onerror=window.__xss=26>","content":"<script>window.__xss=27</script>","display":false}
{"type":"branch_summary","id":"b1","parentId":"c1","timestamp":"2026-01-01T00:00:07Z","fromId":"\"><script>window.__xss=28</script>","summary":"<script>window.__xss=29</script>"}
{"type":"<script>window.__xss=30</script>","id":"x1","parentId":"b1","timestamp":"2026-01-01T00:00:08Z","v":"</script><script>window.__xss=31</script>"}
{"type":"session_info","id":"n1","parentId":"x1","timestamp":"2026-01-01T00:00:09Z","name":"</title><script>window.__xss=32</script>"}
`

// TestHostileSessionIsInert renders a session full of attacks and checks,
// on the parsed page, that none became a tag, an attribute or a link.
func TestHostileSessionIsInert(t *testing.T) {
	s, err := session.Read(strings.NewReader(hostileSession), "hostile.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 9 {
		t.Fatalf("%d entries loaded, want 9", len(s.Entries))
	}
	for _, theme := range Themes {
		page := exportPage(t, s, Options{Theme: theme})
		checkPageIDs(t, page)
		if bytes.Contains(bytes.ToLower(page), []byte("<script>window.__xss")) {
			t.Errorf("theme %s: a script tag from the session survives unescaped", theme)
		}
	}
}

func TestLeafOption(t *testing.T) {
	s := loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl")
	page := exportPage(t, s, Options{Leaf: "6eea0e7d"})
	b := readBlocks(t, page)
	ix := pageIndexOf(t, parsePage(t, page))
	onPath := map[string]bool{}
	for _, e := range s.Path(s.Entry("6eea0e7d")) {
		onPath[e.ID] = true
	}
	r := &sessionRenderer{s: s}
	for i, id := range ix.IDs {
		if r.absorbed(s.Entry(id)) {
			continue // shown in its call's card
		}
		if b.inGroup[i] != onPath[id] {
			t.Errorf("%s: in a group %v, on the path %v", id, b.inGroup[i], onPath[id])
		}
	}
	if ix.IDs[ix.View] != "6eea0e7d" {
		t.Errorf("the page opens at %s", ix.IDs[ix.View])
	}
	if _, err := NewPage(s, Options{Leaf: "nope"}); err == nil {
		t.Error("an unknown --leaf was accepted")
	}
}

// Links to related sessions are in the header, escaped; an unsafe URL
// never becomes a link target.
func TestRelatedLinks(t *testing.T) {
	s := loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl")
	out := string(exportPage(t, s, Options{Related: []Related{
		{Label: "Sub-agent of", Links: []Link{{Title: "The <main> session", URL: "../main.html"}}},
		{Label: "Forks", Links: []Link{{Title: "one", URL: "javascript:alert(1)"}, {Title: "two"}}},
	}}))
	for _, want := range []string{
		`<div><dt>Sub-agent of</dt><dd><a href="../main.html">The &lt;main&gt; session</a></dd></div>`,
		`<div><dt>Forks</dt><dd><a href="#ZgotmplZ">one</a>, two</dd></div>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// TestPageWritesPathEndFirst exports a long chain: copies of the groups
// that end the path come first in the file, the last entries in them, and
// the groups follow in path order, so a browser without JavaScript shows
// the path in order.
func TestPageWritesPathEndFirst(t *testing.T) {
	s := chainSession(t, 4, 200)
	page := exportPage(t, s, Options{})
	b := readBlocks(t, page)
	ix := pageIndexOf(t, parsePage(t, page))
	if len(b.groups) < 3 || len(b.copies) == 0 {
		t.Fatalf("%d groups and %d copies for a chain of 200", len(b.groups), len(b.copies))
	}
	path := pathIDs(s, s.Leaf)
	var first []string
	for _, i := range b.copies[0] {
		first = append(first, ix.IDs[i])
	}
	if len(first) == 0 || !slices.Equal(first, path[len(path)-len(first):]) {
		t.Errorf("the first copy holds %v, want the end of the path", first)
	}
	if got := noScriptArticles(t, page); !slices.Equal(got, path) {
		t.Errorf("without JavaScript the page shows %d entries, want the path's %d in order", len(got), len(path))
	}
}

// noScriptArticles lists the entries a browser without JavaScript shows,
// in document order: the articles of the groups.
func noScriptArticles(t testing.TB, page []byte) []string {
	t.Helper()
	var ids []string
	for _, g := range pageFindAll(parseNoScript(t, page), func(n *html.Node) bool { c, _ := pageAttr(n, "class"); return n.Data == "noscript" && c == "g" }) {
		for _, a := range pageFindAll(g, pageHasAttr("data-entry")) {
			id, _ := pageAttr(a, "data-entry")
			ids = append(ids, id)
		}
	}
	return ids
}

// chainSession generates a session of one chain of n entries.
func chainSession(t testing.TB, seed int64, n int) *session.Session {
	t.Helper()
	var buf bytes.Buffer
	if err := sessiongen.Write(&buf, sessiongen.Options{Seed: seed, Chain: n}); err != nil {
		t.Fatal(err)
	}
	s, err := session.Read(&buf, "chain.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestEditBadges: an entry edited several times carries a badge per edit,
// and the one active is the latest edit on the path in view; on a path
// without the edits none is.
func TestEditBadges(t *testing.T) {
	s := loadCorpus(t, "pi15-sdk-roots-edits.jsonl")
	var target, end *session.Entry
	for _, e := range s.Entries {
		switch {
		case e.Role() == "user" && strings.Contains(e.Message.Text(), "ROOT-TWO"):
			target = e
		case e.Role() == "assistant" && strings.Contains(e.Message.Text(), "OPENAI"):
			end = e
		}
	}
	badges := editBadges(s, s.Path(end))[target]
	var got []string
	for _, b := range badges {
		got = append(got, fmt.Sprintf("%s:%v", b.Text, b.Active))
	}
	want := "replaced for the model later:false hidden from the model later:false replaced for the model later:true"
	if strings.Join(got, " ") != want {
		t.Errorf("badges %v, want %s", got, want)
	}
	for e, list := range editBadges(s, s.Path(s.Leaf)) {
		for _, b := range list {
			if b.Active {
				t.Errorf("on the third root's path %s has an active badge %+v", e.ID, b)
			}
		}
	}
}

// TestLeanPagesAreTheSame exports every corpus session and generated
// sessions of every shape twice, loaded whole and loaded lean (the text
// read again from the file as each entry is rendered): the pages must be
// the same, byte for byte.
func TestLeanPagesAreTheSame(t *testing.T) {
	files, _ := filepath.Glob("../testdata/corpus/*.jsonl")
	dir := t.TempDir()
	for _, profile := range []string{"mixed", "chat", "code", "tools"} {
		path := filepath.Join(dir, profile+".jsonl")
		var buf bytes.Buffer
		if err := sessiongen.Write(&buf, sessiongen.Options{Seed: 7, TargetBytes: 600 << 10, Profile: sessiongen.Profile(profile), Branches: true, Images: true, Compactions: true, Labels: true}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	for _, file := range files {
		name := filepath.Base(file)
		if strings.HasPrefix(name, "edge-") {
			continue
		}
		t.Run(strings.TrimSuffix(name, ".jsonl"), func(t *testing.T) {
			t.Parallel()
			whole, err := session.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			lean, err := session.LoadWith(context.Background(), file, session.LoadOptions{Lean: true})
			if err != nil {
				t.Fatal(err)
			}
			defer lean.Close()
			if !lean.Lean() {
				t.Fatal("the session is not lean")
			}
			opt := Options{Home: "/home/dev"}
			if agents, _ := session.LoadSubAgents(file); len(agents) > 0 {
				opt.SubAgents = agents
			}
			want := exportPage(t, whole, opt)
			got := exportPage(t, lean, opt)
			if err := lean.Err(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want, got) {
				i := 0
				for i < min(len(want), len(got)) && want[i] == got[i] {
					i++
				}
				t.Errorf("the lean page differs at byte %d:\nwhole %q\nlean  %q", i, want[max(0, i-80):min(len(want), i+120)], got[max(0, i-80):min(len(got), i+120)])
			}
		})
	}
}

// TestLeanNoticesAChangedFile: a lean session whose file is rewritten
// after loading says so (Err) instead of showing other text.
func TestLeanNoticesAChangedFile(t *testing.T) {
	src, err := os.ReadFile("../testdata/corpus/pi-v3-sdk-branches-labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := session.LoadWith(context.Background(), path, session.LoadOptions{Lean: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	changed := bytes.ReplaceAll(src, []byte("ListenAndServe"), []byte("ListenAndServX"))
	if bytes.Equal(changed, src) {
		t.Fatal("the test changes nothing")
	}
	if err := os.WriteFile(path, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_ = WriteHTML(&buf, s, Options{})
	if err := s.Err(); !errors.Is(err, session.ErrChanged) {
		t.Errorf("Err() = %v, want ErrChanged", err)
	}
	if bytes.Contains(buf.Bytes(), []byte("ListenAndServX")) {
		t.Error("the page shows text of the changed file")
	}
}

// An entry's own id names it in the page, as an anchor of its head, also
// without the script: page.html#d0c5a006 and session.md#d0c5a006 name the
// same entry. An id that could name one of the page's own elements gets
// no anchor (only its e: element id).
func TestBareEntryAnchors(t *testing.T) {
	s := loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl")
	root := parseNoScript(t, exportPage(t, s, Options{}))
	ids := map[string]int{}
	for _, n := range pageFindAll(root, func(n *html.Node) bool { _, ok := pageAttr(n, "id"); return ok }) {
		id, _ := pageAttr(n, "id")
		ids[id]++
	}
	articles := pageFindAll(root, func(n *html.Node) bool { return n.Data == "article" })
	if len(articles) < 5 {
		t.Fatalf("%d articles in the page without the script", len(articles))
	}
	for _, n := range articles {
		id, _ := pageAttr(n, "data-entry")
		if ids[id] != 1 {
			t.Errorf("entry %s: %d elements with its id, want 1", id, ids[id])
		}
	}
	for id, want := range map[string]bool{"6eea0e7d": true, "0195c0de-0000-7000-8000-0000000000b2": true,
		"main": false, "tree": false, "e-1": false, "pack-0": false, "-abc": false, "DEADBEEF": false, "ab": false} {
		if got := bareAnchor(id); got != want {
			t.Errorf("bareAnchor(%q) = %v, want %v", id, got, want)
		}
	}
}
