package page

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/hostile"
)

func TestPageIDsAreUnique(t *testing.T) {
	_, page := renderSample(t)
	seen := map[string]bool{}
	pageWalk(parsePage(t, articlesPage(t, page)), func(n *html.Node) {
		id, ok := pageAttr(n, "id")
		if !ok {
			return
		}
		if seen[id] {
			t.Errorf("duplicate id %q", id)
		}
		seen[id] = true
	})
	if !seen[elementID(hostile.ID)] {
		t.Errorf("entry with the hostile id is missing; ids: %v", seen)
	}
}

// TestPageArticlesMatchIndex: every entry of the index has an article,
// but a tool result shown in its call's card, which has the result's id.
func TestPageArticlesMatchIndex(t *testing.T) {
	p, page := renderSample(t)
	b := readBlocks(t, page)
	ix := p.v.Index
	doc := parsePage(t, articlesPage(t, page))
	for i, id := range ix.IDs {
		if !slices.Contains(ix.Absorbed, i) {
			if _, ok := b.articles[i]; !ok {
				t.Errorf("entry %q has no article", id)
			}
			continue
		}
		card := pageFindAll(doc, func(n *html.Node) bool { v, _ := pageAttr(n, "id"); return v == elementID(id) })
		if len(card) != 1 || card[0].Data != "section" {
			t.Errorf("the tool result %q has no card with its id", id)
		}
	}
	for i, a := range b.articles {
		if want := `id="` + html.EscapeString(elementID(ix.IDs[i])) + `"`; !strings.Contains(a, want) && !strings.Contains(a, strings.ReplaceAll(want, "&#34;", "&quot;")) {
			t.Errorf("article %d lacks %s", i, want)
		}
	}
}

func TestPageCSPMatchesInlineAssets(t *testing.T) {
	_, page := renderSample(t)
	doc := parsePage(t, page)
	var csp string
	var scripts, styles []string
	pageWalk(doc, func(n *html.Node) {
		switch n.Data {
		case "meta":
			if v, _ := pageAttr(n, "http-equiv"); strings.EqualFold(v, "Content-Security-Policy") {
				csp, _ = pageAttr(n, "content")
			}
		case "script":
			if _, typed := pageAttr(n, "type"); !typed && !slices.Contains(scripts, pageText(n)) {
				scripts = append(scripts, pageText(n))
			}
		case "style":
			styles = append(styles, pageText(n))
		}
	})
	if len(scripts) != 2 || len(styles) != 1 || scripts[1] != arrivedScript {
		t.Fatalf("got %d kinds of executable scripts and %d styles, want 2 (the page's and %q) and 1", len(scripts), len(styles), arrivedScript)
	}
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	directives := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
	}
	want := map[string]string{
		"default-src": "'none'",
		"script-src":  hash(scripts[1]) + " " + hash(scripts[0]),
		"style-src":   hash(styles[0]),
		"img-src":     "data:",
		"base-uri":    "'none'",
		"form-action": "'none'",
	}
	if diff := cmp.Diff(want, directives); diff != "" {
		t.Errorf("CSP %q (-want +got):\n%s", csp, diff)
	}
	if len(strings.TrimSpace(scripts[0])) < 1000 || len(strings.TrimSpace(styles[0])) < 1000 {
		t.Errorf("inline assets look empty: %d bytes of script, %d of style", len(scripts[0]), len(styles[0]))
	}
}

// TestPageCSPComesFirst guards the order in <head>: a policy that appears
// after the script would not apply to it.
func TestPageCSPComesFirst(t *testing.T) {
	_, page := renderSample(t)
	s := string(page)
	csp := strings.Index(s, "Content-Security-Policy")
	for _, tag := range []string{"<style>", "<script>", "<title>"} {
		if i := strings.Index(s, tag); csp < 0 || i < csp {
			t.Errorf("%s at %d comes before the CSP at %d", tag, i, csp)
		}
	}
}

func TestPageEscapesHostileStrings(t *testing.T) {
	p, page := renderSample(t)
	v := p.v
	// As a browser without JavaScript reads it, every article unpacked.
	doc := parseNoScript(t, articlesPage(t, page))
	var scripts int
	pageWalk(doc, func(n *html.Node) {
		switch n.Data {
		case "script":
			if _, typed := pageAttr(n, "type"); !typed && pageText(n) != arrivedScript {
				scripts++
			}
		case "img", "svg", "b":
			t.Errorf("session text became a <%s> element", n.Data)
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(strings.ToLower(a.Key), "on") {
				t.Errorf("<%s> has an event handler attribute %s=%q", n.Data, a.Key, a.Val)
			}
			if (a.Key == "href" || a.Key == "src") && !strings.HasPrefix(a.Val, "#") {
				t.Errorf("<%s %s=%q>: only in-page links are expected", n.Data, a.Key, a.Val)
			}
		}
	})
	if scripts != 1 {
		t.Errorf("got %d executable <script> elements but the fixed ones that say a block arrived, want 1 (the page's script)", scripts)
	}
	titles := pageFindAll(doc, func(n *html.Node) bool { return n.Data == "title" || n.Data == "h1" })
	if len(titles) != 2 {
		t.Fatalf("got %d title and h1 elements, want 2", len(titles))
	}
	for _, n := range titles {
		if got := pageText(n); got != v.Title {
			t.Errorf("<%s> = %q, want the title as text %q", n.Data, got, v.Title)
		}
	}
	// Each hostile string must come back as text. (The tree's rows,
	// previews included, are the index's data, which the script puts in
	// as text: TestPageIndexJSON and the browser tests.)
	text := pageText(doc)
	for _, s := range []string{hostile.Cwd, hostile.Label, hostile.Role, hostile.Foot, hostile.Model} {
		if !strings.Contains(text, s) {
			t.Errorf("page text lacks %q", s)
		}
	}
}

func TestPageIndexJSON(t *testing.T) {
	p, page := renderSample(t)
	v := p.v
	doc := parsePage(t, page)
	nodes := pageFindAll(doc, func(n *html.Node) bool {
		id, _ := pageAttr(n, "id")
		return n.Data == "script" && id == "session-index"
	})
	if len(nodes) != 1 {
		t.Fatalf("got %d session-index scripts, want 1", len(nodes))
	}
	if typ, _ := pageAttr(nodes[0], "type"); typ != "application/json" {
		t.Errorf("session-index type = %q", typ)
	}
	raw := pageText(nodes[0])
	if strings.ContainsAny(raw, "<>") {
		t.Errorf("index holds a raw < or >, which could close the script: %.200s", raw)
	}
	var got pageIndex
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("index is not JSON: %v\n%.300s", err, raw)
	}
	// The rows' previews come apart, in blocks of rowBlock.
	for _, n := range pageFindAll(doc, func(n *html.Node) bool { c, _ := pageAttr(n, "class"); return n.Data == "script" && c == "rows" }) {
		var block []string
		if err := json.Unmarshal([]byte(pageText(n)), &block); err != nil {
			t.Fatalf("a block of rows is not JSON: %v", err)
		}
		if len(got.Previews)%rowBlock != 0 {
			t.Errorf("a block of rows after one of %d", len(got.Previews)%rowBlock)
		}
		got.Previews = append(got.Previews, block...)
	}
	// So does the usage, after the first screen.
	usage := pageFindAll(doc, func(n *html.Node) bool {
		id, _ := pageAttr(n, "id")
		return n.Data == "script" && id == "session-usage"
	})
	if len(usage) != 1 {
		t.Fatalf("got %d session-usage scripts, want 1", len(usage))
	}
	if err := json.Unmarshal([]byte(pageText(usage[0])), &got.Usage); err != nil {
		t.Fatalf("the usage is not JSON: %v", err)
	}
	if diff := cmp.Diff(v.Index, got); diff != "" {
		t.Errorf("index (-want +got):\n%s", diff)
	}
}

// TestRowBlocks writes the index of a session of more rows than a block
// holds: the previews come in blocks of rowBlock, whole, in order.
func TestRowBlocks(t *testing.T) {
	s := chainSession(t, 6, rowBlock*2+100)
	page := exportPage(t, s, Options{})
	doc := parsePage(t, page)
	var sizes []int
	var all []string
	for _, n := range pageFindAll(doc, func(n *html.Node) bool { c, _ := pageAttr(n, "class"); return n.Data == "script" && c == "rows" }) {
		var block []string
		if err := json.Unmarshal([]byte(pageText(n)), &block); err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(block))
		all = append(all, block...)
	}
	if want := []int{rowBlock, rowBlock, 100}; !slices.Equal(sizes, want) {
		t.Errorf("blocks of %v rows, want %v", sizes, want)
	}
	for i, n := range s.Flatten() {
		if want := s.Preview(n.Entry, "").Text; i < len(all) && all[i] != want {
			t.Fatalf("row %d reads %q, want %q", i, all[i], want)
		}
	}
	if got := pageIndexOf(t, doc).Config; got == nil || got.RowBlock != rowBlock {
		t.Errorf("the index tells the script %+v, want %d rows to a block", got, rowBlock)
	}
}

func TestPageHeaderTokens(t *testing.T) {
	sample, page := renderSample(t)
	v := sample.v
	doc := parsePage(t, page)
	got := map[string]string{}
	for _, n := range pageFindAll(doc, pageHasAttr("data-path-tokens")) {
		k, _ := pageAttr(n, "data-path-tokens")
		got[k] = pageText(n)
	}
	p := v.Header.Path
	want := map[string]string{
		"input": humanize.Tokens(p.Input), "output": humanize.Tokens(p.Output),
		"cacheRead": humanize.Tokens(p.CacheRead), "cacheWrite": humanize.Tokens(p.CacheWrite),
		"cost": humanize.Cost(p.Cost),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("path token cells (-want +got):\n%s", diff)
	}
}

// TestWritePageErrorWritesNothing checks that a failing template leaves the
// writer untouched instead of holding half a page.
func TestWritePageErrorWritesNothing(t *testing.T) {
	p := samplePage()
	p.v.Index.Usage[0] = [5]float64{math.NaN()} // JSON cannot hold NaN
	var buf bytes.Buffer
	if err := writePage(&buf, p); err == nil {
		t.Fatal("writePage succeeded with a NaN in the index")
	}
	if buf.Len() != 0 {
		t.Errorf("writePage wrote %d bytes before failing", buf.Len())
	}
}

// TestSampleCoversEveryKind keeps the sample honest: the page and browser
// tests claim to cover every kind.
func TestSampleCoversEveryKind(t *testing.T) {
	all := []string{kindUser, kindAssistant, kindAssistantTools, kindTool, kindBash, kindCompaction,
		kindBranchSummary, kindCustomMessage, kindSettings, kindError, kindOther}
	var got []string
	for _, e := range sampleEntries() {
		if !slices.Contains(got, e.kind) {
			got = append(got, e.kind)
		}
	}
	slices.Sort(all)
	slices.Sort(got)
	if diff := cmp.Diff(all, got); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
}
