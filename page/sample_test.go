package page

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/hostile"
	"github.com/piexport/piexport/session"
)

// sampleEntry describes one entry of the sample session.
type sampleEntry struct {
	id, parent, kind, role, preview, label string
	body                                   string
	usage                                  []float64 // input, output, cacheRead, cacheWrite, cost
	// absorbed: a tool result shown in its call's card (the parent's).
	absorbed bool
}

// sampleEntries is a session with three branches below "r3", oldest first,
// holding every kind and several hostile strings. The leaf is "d6".
func sampleEntries() []sampleEntry {
	thinking := `<details class="thinking"><summary>Thinking</summary><p>Let me look at the tokenizer first.</p></details>`
	var long strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&long, "%3d  func parse%d(s string) error { return nil }\n", i, i)
	}
	lines := strings.SplitAfter(long.String(), "\n")
	readCard := `<section class="tool" data-tool="read" data-status="ok"><div class="tool-head"><span class="tool-name">read</span> <span class="tool-args">~/p/parser.go:1-60</span></div>` +
		`<div class="tool-output"><pre class="output">` + template.HTMLEscapeString(strings.Join(lines[:10], "")) + `</pre>` +
		`<details class="more"><summary>50 more lines</summary><pre class="output">` + template.HTMLEscapeString(strings.Join(lines[10:], "")) + `</pre></details></div></section>`
	bashCard := `<section class="tool" data-tool="bash" data-status="error"><div class="tool-head"><span class="tool-name">$</span> <span class="tool-args">go test ./...</span></div>` +
		`<div class="tool-output"><pre class="output">--- FAIL: TestParse (0.00s)
    parser_test.go:12: got 3, want 4
FAIL</pre></div></section>`
	return []sampleEntry{
		{id: "r0", kind: kindUser, role: "user:", preview: "Fix the parser, it drops the last token", label: "start",
			body: `<p>Fix the parser, it drops the last token. ROOT-MARK</p>`},
		{id: "r1", parent: "r0", kind: kindAssistantTools, role: "assistant:", preview: "[read: ~/p/parser.go]",
			body:  thinking + `<section class="tool" data-tool="read" data-status="ok"><div class="tool-head"><span class="tool-name">read</span> <span class="tool-args">~/p/parser.go</span></div></section>`,
			usage: []float64{1200, 80, 3000, 0, 0.0042}},
		{id: "r2", parent: "r1", kind: kindTool, preview: "[read: ~/p/parser.go:1-60]", body: readCard},
		{id: "r3", parent: "r2", kind: kindAssistant, role: "assistant:", preview: "The loop stops one token early.",
			body:  thinking + `<p>The loop stops one token early: <code>i &lt; len(toks)-1</code> should be <code>i &lt; len(toks)</code>.</p>`,
			usage: []float64{2400, 300, 4200, 1200, 0.0131}},

		{id: "b1", parent: "r3", kind: kindUser, role: "user:", preview: "Try approach alpha", label: hostile.Label,
			body: `<p>Try approach alpha.</p>`},
		{id: "b2", parent: "b1", kind: kindAssistant, role: "assistant:", preview: "Alpha rewrites the loop",
			body: `<p>Alpha rewrites the loop. ALPHA-MARK</p>`, usage: []float64{900, 120, 0, 0, 0.002}},
		{id: "b3", parent: "b2", kind: kindError, role: "assistant:", preview: "[error: overloaded]",
			body: `<p class="error">Request failed: overloaded (529)</p>`},

		{id: "c1", parent: "r3", kind: kindUser, role: "user:", preview: "Try approach beta", label: "beta",
			body: `<p>Try approach beta.</p>`},
		{id: "c2", parent: "c1", kind: kindCompaction, preview: "[compaction: 45k tokens]",
			body: `<div class="hidden-context"><p>Summary: the parser drops the last token; beta is next.</p></div>`},
		{id: "c3", parent: "c2", kind: kindAssistant, role: "assistant:", preview: "Beta keeps the loop",
			body: `<p>Beta keeps the loop and fixes the bound. BETA-MARK</p>`, usage: []float64{5000, 700, 0, 0, 0.03}},
		{id: "c4", parent: "c3", kind: kindSettings, preview: "[model: gpt-5]", body: `<p>gpt-5</p>`},
		{id: hostile.ID, parent: "c4", kind: kindCustomMessage, role: "custom:", preview: hostile.Preview,
			body: `<div class="hidden-context"><p>Injected reminder.</p></div>`},
		{id: "c6", parent: hostile.ID, kind: kindBranchSummary, preview: "[branch summary]",
			body: `<div class="hidden-context"><p>Abandoned: approach alpha.</p></div>`},

		{id: "d1", parent: "r3", kind: kindBash, role: "", preview: "[!go test ./...]", body: bashCard},
		{id: "d2", parent: "d1", kind: kindUser, role: "user:", preview: "Try approach gamma",
			body: `<p>Try approach gamma, and keep the tests green.</p>`},
		{id: "d3", parent: "d2", kind: kindAssistantTools, role: "assistant:", preview: "[edit: ~/p/parser.go]",
			body: `<section class="tool" id="e:d4" data-result="d4" data-tool="edit" data-status="ok"><div class="tool-head"><span class="tool-name">edit</span> <span class="tool-args">~/p/parser.go</span></div><div class="tool-input"><pre class="output">-	for i := 0; i &lt; len(toks)-1; i++ {
+	for i := 0; i &lt; len(toks); i++ {</pre></div><div class="tool-output"><pre class="output">Applied 1 edit. EDIT-RESULT-MARK</pre></div></section>`,
			usage: []float64{6100, 200, 9000, 0, 0.011}},
		{id: "d4", parent: "d3", kind: kindTool, preview: "[edit: ~/p/parser.go]", absorbed: true},
		{id: "d5", parent: "d4", kind: kindAssistant, role: hostile.Role, preview: "Gamma fixes the bound",
			body:  thinking + `<p>Gamma fixes the bound, and the tests pass. GAMMA-MARK</p><ul><li>parser.go: loop bound</li><li>parser_test.go: new case</li></ul>`,
			usage: []float64{7000, 900, 12000, 800, 1.2345}},
		{id: "d6", parent: "d5", kind: kindOther, preview: "[unknown: future_entry]",
			body: `<p>An entry of type <code>future_entry</code>.</p>`},
	}
}

// sampleHeadings are the entry headings entries.go would write.
var sampleHeadings = map[string]string{
	kindUser: "User", kindAssistant: "Assistant · claude-sonnet-4-5", kindAssistantTools: "Assistant · claude-sonnet-4-5",
	kindTool: "Tool result", kindBash: "Bash", kindCompaction: "Compaction", kindBranchSummary: "Branch summary",
	kindCustomMessage: "Extension message", kindSettings: "Model", kindError: "Assistant · error", kindOther: "future_entry",
}

// samplePage builds the page of sampleEntries the way page.go would: the
// path in view ends at the leaf, and the entries are rendered into
// articles by a stand-in for the renderers.
func samplePage() *Page {
	entries := sampleEntries()
	n := len(entries)
	at := make(map[string]int, n)
	for i, e := range entries {
		at[e.id] = i
	}
	parents := make([]int, n)
	for i, e := range entries {
		parents[i] = -1
		if e.parent != "" {
			parents[i] = at[e.parent]
		}
	}
	leaf := at["d6"]
	onPath := make([]bool, n)
	var path []int
	for i := leaf; i >= 0; i = parents[i] {
		onPath[i] = true
		path = append([]int{i}, path...)
	}

	base := time.Date(2025, 3, 14, 9, 26, 0, 0, time.UTC)
	v := &pageView{
		Title:     hostile.Title,
		Theme:     "auto",
		Generator: "piexport v0.0.0-test",
		Index:     newPageIndex(n),
		Header: headerView{
			Cwd:          hostile.Cwd,
			SessionID:    "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
			Start:        base,
			End:          base.Add(time.Duration(n) * time.Minute),
			Duration:     fmt.Sprintf("%dm", n),
			Models:       []string{"anthropic/claude-sonnet-4-5", hostile.Model},
			EntryCount:   n,
			MessageCount: 15,
			ToolCalls:    3,
		},
	}
	v.Index.Leaf, v.Index.View = leaf, leaf
	views := make([]*entryView, n)
	absorbed := make([]bool, n)
	for i, e := range entries {
		v.Index.set(i, e.id, parents[i], e.kind, e.role, e.preview, e.label, e.absorbed, 2+strings.Count(e.body, "\n"))
		absorbed[i] = e.absorbed
		role := sampleHeadings[e.kind]
		if e.role == hostile.Role {
			role = hostile.Role
		}
		foot := ""
		if e.usage != nil {
			var u [5]float64
			copy(u[:], e.usage)
			v.Index.Usage[i] = u
			sampleAddUsage(&v.Header.File, u)
			if onPath[i] {
				sampleAddUsage(&v.Header.Path, u)
			}
			foot = fmt.Sprintf("%s in · %s out · %s", humanize.Tokens(int64(u[0])), humanize.Tokens(int64(u[1])), humanize.Cost(u[4]))
			if e.id == "d5" {
				foot = hostile.Foot
			}
		}
		views[i] = &entryView{
			ID: e.id, Kind: e.kind, Time: base.Add(time.Duration(i) * time.Minute),
			Label: e.label, Role: role, Body: template.HTML(e.body), Foot: foot, Absorbed: e.absorbed,
		}
		if onPath[i] && !e.absorbed && shownByDefault(e.kind) {
			v.TOC = append(v.TOC, tocRow{ID: e.id, Role: e.role, Preview: e.preview, Label: e.label})
		}
	}
	blocks := planBlocks(path, absorbed, func(i int) int { return len(entries[i].body) })
	return &Page{
		v:      v,
		blocks: blocks,
		render: func(i int) *entryView { return views[i] },
		panels: func() []subAgentPanel { return nil },
	}
}

func sampleAddUsage(t *session.Usage, u [5]float64) {
	t.Input += int64(u[0])
	t.Output += int64(u[1])
	t.CacheRead += int64(u[2])
	t.CacheWrite += int64(u[3])
	t.Cost += u[4]
}

func renderSample(t *testing.T) (*Page, []byte) {
	t.Helper()
	p := samplePage()
	var buf bytes.Buffer
	if err := writePage(&buf, p); err != nil {
		t.Fatalf("writePage: %v", err)
	}
	return p, buf.Bytes()
}

func parsePage(t *testing.T, page []byte) *html.Node {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatalf("parse page: %v", err)
	}
	return doc
}

// walk calls fn for every element, without recursion.
func pageWalk(root *html.Node, fn func(*html.Node)) {
	stack := []*html.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Type == html.ElementNode {
			fn(n)
		}
		for c := n.LastChild; c != nil; c = c.PrevSibling {
			stack = append(stack, c)
		}
	}
}

func pageAttr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func pageText(n *html.Node) string {
	var b strings.Builder
	stack := []*html.Node{n}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
		for k := c.LastChild; k != nil; k = k.PrevSibling {
			stack = append(stack, k)
		}
	}
	return b.String()
}

func pageFindAll(root *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	pageWalk(root, func(n *html.Node) {
		if match(n) {
			out = append(out, n)
		}
	})
	return out
}

func pageHasAttr(key string) func(*html.Node) bool {
	return func(n *html.Node) bool { _, ok := pageAttr(n, key); return ok }
}
