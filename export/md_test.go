package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/piexport/piexport/session"
)

// mdCheckParser parses exported documents in the tests, as GitHub would.
var mdCheckParser = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote)).Parser()

func loadMarkdownCorpus(t testing.TB, name string) *session.Session {
	t.Helper()
	s, err := session.Load(filepath.Join("../testdata/corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func exportMarkdown(t testing.TB, s *session.Session, opt Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, s, opt); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// mdDoc is what the structure checks found in a document.
type mdDoc struct {
	root   ast.Node
	source []byte
	// fences holds the content of every fenced code block, in order.
	fences []string
	// details counts the <details> blocks.
	details int
	// headings holds the text of every heading, as "## text".
	headings []string
}

var ownHTML = regexp.MustCompile(`^(<details><summary>[^<>\n]*</summary>|</details>)\n?$`)

// checkMarkdown parses doc and fails t where the document breaks the
// rules every export keeps: no trailing whitespace, no raw HTML but our
// own <details> and <summary> lines (balanced, not nested), and no link,
// image or link definition outside http, https, mailto and relative URLs.
func checkMarkdown(t *testing.T, doc string) *mdDoc {
	t.Helper()
	if !strings.HasSuffix(doc, "\n") || strings.HasSuffix(doc, "\n\n") {
		t.Errorf("the document does not end with exactly one newline")
	}
	for i, line := range strings.Split(doc, "\n") {
		if strings.TrimRight(line, " \t") != line {
			t.Errorf("line %d ends with whitespace: %q", i+1, line)
		}
		if strings.Contains(line, "\r") {
			t.Errorf("line %d holds a carriage return", i+1)
		}
	}
	d := &mdDoc{source: []byte(doc)}
	d.root = mdCheckParser.Parse(text.NewReader(d.source))
	open := false
	_ = ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			if n.Parent() != d.root {
				t.Errorf("an HTML block inside a %s", n.Parent().Kind())
			}
			var b strings.Builder
			for i := range n.Lines().Len() {
				line := n.Lines().At(i)
				b.Write(line.Value(d.source))
			}
			if n.HasClosure() {
				closure := n.ClosureLine
				b.Write(closure.Value(d.source))
			}
			html := b.String()
			switch {
			case !ownHTML.MatchString(html):
				t.Errorf("raw HTML that is not ours: %q", html)
			case strings.HasPrefix(html, "<details>"):
				if open {
					t.Errorf("a <details> inside another: %q", html)
				}
				open = true
				d.details++
			default:
				if !open {
					t.Errorf("a </details> without a <details>")
				}
				open = false
			}
		case *ast.RawHTML:
			var b strings.Builder
			for i := range n.Segments.Len() {
				seg := n.Segments.At(i)
				b.Write(seg.Value(d.source))
			}
			t.Errorf("inline raw HTML: %q", b.String())
		case *ast.Link:
			if !markdownURLAllowed(n.Destination) {
				t.Errorf("a link to %q", n.Destination)
			}
		case *ast.Image:
			if !markdownURLAllowed(n.Destination) {
				t.Errorf("an image from %q", n.Destination)
			}
		case *ast.AutoLink:
			if u := n.URL(d.source); n.AutoLinkType == ast.AutoLinkURL && !markdownURLAllowed(u) && !bytes.HasPrefix(u, []byte("www.")) {
				t.Errorf("an autolink to %q", u)
			}
		case *ast.LinkReferenceDefinition:
			if !markdownURLAllowed(n.Destination) {
				t.Errorf("a link definition of %q", n.Destination)
			}
		case *ast.FencedCodeBlock:
			var b strings.Builder
			for i := range n.Lines().Len() {
				line := n.Lines().At(i)
				b.Write(line.Value(d.source))
			}
			d.fences = append(d.fences, b.String())
		case *ast.Heading:
			d.headings = append(d.headings, strings.Repeat("#", n.Level)+" "+mdNodeText(n, d.source))
		case *extast.FootnoteList:
		}
		return ast.WalkContinue, nil
	})
	if open {
		t.Errorf("a <details> is never closed")
	}
	return d
}

// mdNodeText is the text of n's inline content.
func mdNodeText(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(util.UnescapePunctuations(c.Segment.Value(source)))
			case *ast.String:
				b.Write(c.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// TestMarkdownGolden compares whole documents with testdata/golden (go
// test ./export -update rewrites them) and checks their structure.
func TestMarkdownGolden(t *testing.T) {
	for _, tc := range []struct{ name, file, leaf string }{
		{"md-branches-labels.md", "pi-v3-sdk-branches-labels.jsonl", ""},
		{"md-branches-labels-first-branch.md", "pi-v3-sdk-branches-labels.jsonl", "6eea0e7d"},
		{"md-compaction-custom.md", "pi-v3-sdk-compaction-custom.jsonl", ""},
		{"md-earth0-tiny.md", "pi-v3-earth0-tiny.jsonl", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := exportMarkdown(t, loadMarkdownCorpus(t, tc.file), Options{Leaf: tc.leaf, Home: "/home/dev", Generator: "piexport test"})
			checkMarkdown(t, doc)
			path := filepath.Join("../testdata/golden", tc.name)
			if *update {
				if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./export -update)", err)
			}
			if diff := cmp.Diff(string(want), doc); diff != "" {
				t.Errorf("%s differs (-want +got):\n%s", tc.name, diff)
			}
		})
	}
}

// mdSessionLines builds a session file from entries, each marshalled as
// one JSON line, so that hostile text needs no hand escaping.
func mdSessionLines(t *testing.T, entries ...map[string]any) *session.Session {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // "<" as it is, as pi writes it
	for _, e := range entries {
		if err := enc.Encode(e); err != nil {
			t.Fatal(err)
		}
	}
	s, err := session.Read(strings.NewReader(b.String()), "hostile.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type obj = map[string]any

func mdMessage(id, parent string, sec int, msg obj) obj {
	return obj{"type": "message", "id": id, "parentId": parent, "timestamp": fmt.Sprintf("2026-01-01T00:00:%02dZ", sec), "message": msg}
}

func mdText(s string) obj { return obj{"type": "text", "text": s} }

// hostileOutput is tool output that tries to end the fence around it and
// the <details> block around that.
const hostileOutput = "```\n</details>\n<script>alert(6)</script>\n``````\n~~~\nend"

// TestMarkdownHostileSession exports a session whose text tries to break
// out of the document's structure, and checks the parsed document: the
// same sections, fences and <details> blocks as for harmless text, no raw
// HTML but ours, no links outside http, https and mailto, and the hostile
// text still there to read.
func TestMarkdownHostileSession(t *testing.T) {
	s := mdSessionLines(t,
		obj{"type": "session", "version": 3, "id": "s1", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/home/dev/<script>alert(0)</script>`x`"},
		obj{"type": "session_info", "id": "n1", "parentId": nil, "timestamp": "2026-01-01T00:00:01Z", "name": "</details><script>alert(1)</script> | `x` $1 and $2"},
		mdMessage("u1", "n1", 2, obj{"role": "user", "content": []obj{mdText(
			"Hi </details>\n\n<script>alert(2)</script>\n\n" +
				"[a](javascript:alert(3)) [ok](https://example.com) <javascript:alert(4)> ![i](data:text/html;base64,PHNjcmlwdD4=) " +
				"[jav](jav&#97;script:alert(5)) [esc](java\\script:x) [ref][bad]\n\n" +
				"[bad]: javascript:alert(7)\n\n" +
				"<!-- an unclosed comment\n\n```go\nan unclosed fence </details>")}}),
		mdMessage("a1", "u1", 3, obj{"role": "assistant", "content": []obj{
			{"type": "thinking", "thinking": "</details><script>alert(8)</script>\n\n````"},
			mdText("<img src=x onerror=alert(9)> and a hard  \nbreak"),
			{"type": "toolCall", "id": "t1", "name": "bash", "arguments": obj{"command": "echo '```'"}},
			{"type": "toolCall", "id": "t2", "name": "read", "arguments": obj{"path": "</summary><script>alert(10)</script>.go"}},
			{"type": "toolCall", "id": "t3", "name": "write", "arguments": obj{"path": "a.md", "content": "````md\n</details>\n````"}},
		}, "stopReason": "toolUse"}),
		mdMessage("r1", "a1", 4, obj{"role": "toolResult", "toolCallId": "t1", "toolName": "bash", "content": []obj{mdText("\x1b[31m" + hostileOutput + "\x1b[0m")}}),
		mdMessage("r2", "r1", 5, obj{"role": "toolResult", "toolCallId": "t2", "toolName": "read", "content": []obj{mdText(hostileOutput)}}),
		mdMessage("r3", "r2", 6, obj{"role": "toolResult", "toolCallId": "t3", "toolName": "write", "content": []obj{mdText("ok")}}),
		obj{"type": "custom_message", "id": "c1", "parentId": "r3", "timestamp": "2026-01-01T00:00:07Z", "customType": "</summary></details><b>x</b>",
			"content": "</details><script>alert(11)</script>", "display": false},
		obj{"type": "compaction", "id": "k1", "parentId": "c1", "timestamp": "2026-01-01T00:00:08Z", "summary": "<script>alert(12)</script>\n```\nopen", "firstKeptEntryId": "u1", "tokensBefore": 1000},
		mdMessage("u2", "k1", 9, obj{"role": "user", "content": "See [bad] and <javascript:alert(13)>."}),
		obj{"type": "</details>", "id": "x1", "parentId": "u2", "timestamp": "2026-01-01T00:00:10Z", "v": "</details><script>alert(14)</script>"},
	)
	doc := exportMarkdown(t, s, Options{})
	d := checkMarkdown(t, doc)

	wantHeadings := []string{
		"# </details><script>alert(1)</script> | `x` $1 and $2",
		"## User", "## Assistant", "## User",
	}
	if diff := cmp.Diff(wantHeadings, d.headings); diff != "" {
		t.Errorf("headings (-want +got):\n%s\n%s", diff, doc)
	}
	// thinking, three tools, hidden context, the unknown entry
	if d.details != 6 {
		t.Errorf("%d <details> blocks, want 6:\n%s", d.details, doc)
	}
	wantFences := []string{
		"an unclosed fence </details>\n", // closed where the message ends
		"",                               // the thinking's open fence, closed
		"echo '```'\n",
		hostileOutput + "\n", // colours dropped, every line kept
		hostileOutput + "\n",
		"````md\n</details>\n````\n",
		"ok\n",
		"open\n", // the compaction summary's fence, closed inside the quote
		"{\n  \"id\": \"x1\",\n  \"parentId\": \"u2\",\n  \"timestamp\": \"2026-01-01T00:00:10Z\",\n  \"type\": \"</details>\",\n  \"v\": \"</details><script>alert(14)</script>\"\n}\n",
	}
	if diff := cmp.Diff(wantFences, d.fences); diff != "" {
		t.Errorf("fenced blocks (-want +got):\n%s\n%s", diff, doc)
	}

	// Rendered by goldmark's safe defaults, the hostile text reads as text.
	var rendered bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Renderer().Render(&rendered, d.source, d.root); err != nil {
		t.Fatal(err)
	}
	page := rendered.String()
	for _, want := range []string{
		"&lt;script&gt;alert(2)&lt;/script&gt;", "Hi &lt;/details&gt;", "&lt;img src=x onerror=alert(9)&gt;",
		"[a](javascript:alert(3))", "&lt;javascript:alert(4)&gt;", "[bad]: javascript:alert(7)",
		"&lt;!-- an unclosed comment", `<a href="https://example.com">ok</a>`, "hard<br>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the rendered document lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "javascript:alert(13)\"") {
		t.Errorf("live HTML or a script link in the rendered document:\n%s", page)
	}
}

// TestSafeMarkdown checks the edits safeMarkdown makes, and that it makes
// none to Markdown that needs none.
func TestSafeMarkdown(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain markdown stays", "# Title\n\n- a *b* `c`\n\n| x | y |\n|---|---|\n| 1 | 2 |", ""},
		{"HTML in code stays", "Use `<b>` or:\n\n```html\n<script>x</script>\n```\n\n    <div>", ""},
		{"safe links stay", "[a](https://x.org) [b](./rel.md) [c](#frag) <mailto:a@b.c> www.x.org", ""},
		{"leading blank lines go, indentation stays", "\n  \n    code\n\n", "    code"},
		{"CRLF", "a\r\nb\rc", "a\nb\nc"},
		{"inline HTML", "a <b>x</b> c", `a \<b>x\</b> c`},
		{"HTML block", "<div>\n*x*\n</div>", "\\<div>\n*x*\n\\</div>"},
		{"HTML comment before a fence keeps the fence's code as it is", "<!--\n```\n<b>\n```", "\\<!--\n```\n<b>\n```"},
		{"javascript link", "[a](javascript:x)", `\[a](javascript:x)`},
		{"link hidden by a character reference", "[a](jav&#x61;script:x)", `\[a](jav&#x61;script:x)`},
		{"data image", "![a](data:image/svg+xml,x)", `!\[a](data:image/svg+xml,x)`},
		{"autolink", "<vbscript:x>", `\<vbscript:x>`},
		{"definition, and the link using it", "[x]: javascript:y\n\n[x]", `\[x]: javascript:y` + "\n\n" + `\[x]`},
		{"definition that nothing here uses", "[z]: javascript:y", `\[z]: javascript:y`},
		{"open fence", "```go\nx", "```go\nx\n```"},
		{"open tilde fence", "~~~~\nx\n~~~", "~~~~\nx\n~~~\n~~~~"},
		{"hard break with spaces", "a  \nb", "a\\\nb"},
		{"hard break after a backslash", "a\\  \nb", "a\\ \\\nb"},
		{"footnote", "x[^1]\n\n[^1]: note <b>", "x[^1]\n\n[^1]: note \\<b>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == "" {
				want = tc.in
			}
			if got := safeMarkdown(tc.in); got != want {
				t.Errorf("safeMarkdown(%q)\n got %q\nwant %q", tc.in, got, want)
			}
		})
	}
}

// TestSafeMarkdownContains checks on the parsed result that text cannot
// reach past the place it is written to, whatever it holds.
func TestSafeMarkdownContains(t *testing.T) {
	for _, in := range mdHostileSeeds {
		checkContained(t, in)
	}
}

var mdHostileSeeds = []string{
	"<details>\n<summary>x</summary>\n\n</details>\n\n<script>alert(1)</script>",
	"```\n",
	"````\n```\n",
	"<!--",
	"<pre>\n```\n</pre>\n```\n<script>x</script>",
	"- ```\n  <b>\n\n<b>",
	"> ```\n> open",
	"<div>\n\t<p>a</p>\n</div>",
	"[x]: <javascript:y>\n[y]: javascript:z 'title'\n\n[x] [y]",
	"[a](<javascript:x>) [b]( javascript:x ) [c](java\tscript:x)",
	"  \n\t\n",
	"a\\\n<b>",
	"*a <b>* `<c>` ``<d>``",
	"| a | <b> |\n|---|---|\n| <script> | `x|y` |",
	"<![CDATA[\n]]>\n<?php x ?>\n<!X>",
}

// checkContained embeds safeMarkdown(in) in a <details> block followed by
// a heading, as the export does, and checks the parsed whole.
func checkContained(t *testing.T, in string) {
	t.Helper()
	doc := string(trimLineEnds([]byte("<details><summary>x</summary>\n\n" + safeMarkdown(in) + "\n\n</details>\n\n## After\n")))
	d := checkMarkdown(t, doc)
	if d.details != 1 {
		t.Errorf("%q: %d <details> blocks, want 1:\n%s", in, d.details, doc)
	}
	last := d.root.LastChild()
	if h, ok := last.(*ast.Heading); !ok || mdNodeText(h, d.source) != "After" {
		t.Errorf("%q: the text swallowed what follows it:\n%s", in, doc)
	}
}

// FuzzSafeMarkdown checks that no text escapes its place or brings raw
// HTML or a bad link into the document.
func FuzzSafeMarkdown(f *testing.F) {
	for _, s := range mdHostileSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkContained(t, in)
	})
}

func TestTruncateLines(t *testing.T) {
	lines := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "line %d\n", i+1)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name        string
		in          string
		keptLines   int
		wantDropped int
	}{
		{"short", lines(10), 10, 0},
		{"a few over the limit are kept", lines(mdOutputLines + mdOutputSlack), mdOutputLines + mdOutputSlack, 0},
		{"long", lines(500), mdOutputLines, 300},
		{"one huge line", strings.Repeat("x", 2*mdOutputBytes), 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept, dropped := truncateLines(tc.in)
			if got := strings.Count(kept, "\n") + 1; got != tc.keptLines || dropped != tc.wantDropped {
				t.Errorf("kept %d lines, dropped %d; want %d and %d", got, dropped, tc.keptLines, tc.wantDropped)
			}
			if len(kept) > mdOutputBytes {
				t.Errorf("kept %d bytes, more than %d", len(kept), mdOutputBytes)
			}
		})
	}
}

// TestMarkdownLongOutput checks the note under a cut tool output.
func TestMarkdownLongOutput(t *testing.T) {
	out := strings.Repeat("row\n", 450)
	s := mdSessionLines(t,
		obj{"type": "session", "version": 3, "id": "s1", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/tmp"},
		mdMessage("a1", "", 1, obj{"role": "assistant", "content": []obj{{"type": "toolCall", "id": "t1", "name": "bash", "arguments": obj{"command": "yes row"}}}}),
		mdMessage("r1", "a1", 2, obj{"role": "toolResult", "toolCallId": "t1", "toolName": "bash", "content": []obj{mdText(out)}}),
	)
	doc := exportMarkdown(t, s, Options{})
	d := checkMarkdown(t, doc)
	if len(d.fences) != 2 || strings.Count(d.fences[1], "\n") != mdOutputLines {
		t.Errorf("want the command and %d lines of output:\n%s", mdOutputLines, doc)
	}
	if !strings.Contains(doc, "\n_… 250 more lines not shown._\n") {
		t.Errorf("no note on the 250 lines left out:\n%s", doc)
	}
}

func TestFencedAndCodeSpan(t *testing.T) {
	for _, tc := range []struct{ lang, in, want string }{
		{"go", "x := 1\n", "```go\nx := 1\n```"},
		{"text", "a ``` b\n``````", "```````text\na ``` b\n``````\n```````"},
		{"go`x", "y", "```\ny\n```"}, // a language that could end the fence line is dropped
		{"", "", "```\n```"},
	} {
		if got := fenced(tc.lang, tc.in); got != tc.want {
			t.Errorf("fenced(%q, %q) = %q, want %q", tc.lang, tc.in, got, tc.want)
		}
	}
	for in, want := range map[string]string{
		"~/a b":    "`~/a b`",
		"a`b":      "``a`b``",
		"`a":       "`` `a ``",
		"a\nb":     "`a b`",
		"":         "",
		" padded ": "`padded`",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := mdInline("a *b* | <c> $1\n#2"), `a \*b\* \| \<c\> \$1 \#2`; got != want {
		t.Errorf("mdInline = %q, want %q", got, want)
	}
}

func TestFenceLang(t *testing.T) {
	for file, want := range map[string]string{
		"main.go": "go", `C:\x\App.TSX`: "tsx", "/p/Makefile": "make", "notes": "text", "a.unknownext": "text",
		"build.gradle.kts": "kotlin", ".env": "text",
	} {
		if got := fenceLang(file); got != want {
			t.Errorf("fenceLang(%q) = %q, want %q", file, got, want)
		}
	}
}

func TestPlainTerminalText(t *testing.T) {
	in := "\x1b[1;31mred\x1b[0m plain\x1b]0;title\x07\n10%\r50%\r100%\r\nbell\x07"
	if got, want := plainTerminalText(in), "red plain\n100%\nbell"; got != want {
		t.Errorf("plainTerminalText = %q, want %q", got, want)
	}
}

func TestMarkdownUnknownLeaf(t *testing.T) {
	s := loadMarkdownCorpus(t, "pi-v3-sdk-branches-labels.jsonl")
	err := WriteMarkdown(io.Discard, s, Options{Leaf: "nope"})
	if err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("WriteMarkdown with an unknown leaf: %v", err)
	}
}

// TestMarkdownCorpus exports every session of the corpus and checks the
// structure of each document.
func TestMarkdownCorpus(t *testing.T) {
	files, err := filepath.Glob("../testdata/corpus/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			s, err := session.Load(file)
			if err != nil {
				t.Skip(err) // not a session file; the loader's tests cover it
			}
			doc := exportMarkdown(t, s, Options{})
			d := checkMarkdown(t, doc)
			if len(d.headings) == 0 || !strings.HasPrefix(d.headings[0], "# ") {
				t.Errorf("the document does not start with a title: %v", d.headings[:min(3, len(d.headings))])
			}
		})
	}
}

func TestWriteMarkdownIndex(t *testing.T) {
	items := []MarkdownIndexItem{
		{Title: "Health endpoint", Link: "2026/health endpoint (1).md", Date: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), Project: "~/projects/webapp", Messages: 12, Cost: 0.0405},
		{Title: "a | b <script>x</script> [c](javascript:y)", Link: "javascript:alert(1)", Project: "~/p|q", Messages: 1},
		{Title: "", Link: "", Messages: 0, Cost: 1.5},
	}
	var buf bytes.Buffer
	if err := WriteMarkdownIndex(&buf, items); err != nil {
		t.Fatal(err)
	}
	doc := buf.String()
	want := "# Sessions\n\n" +
		"| Session | Date | Project | Messages | Cost |\n" +
		"| --- | --- | --- | ---: | ---: |\n" +
		"| [Health endpoint](2026/health%20endpoint%20%281%29.md) | 2026-03-01 09:00 | \\~/projects/webapp | 12 | $0.0405 |\n" +
		"| a \\| b \\<script\\>x\\</script\\> \\[c\\](javascript:y) |  | \\~/p\\|q | 1 | $0 |\n" +
		"| (untitled) |  |  | 0 | $1.50 |\n"
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("index (-want +got):\n%s", diff)
	}
	d := checkMarkdown(t, doc)
	var rows, links int
	_ = ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch n.(type) {
			case *extast.TableRow:
				rows++
				if got := n.ChildCount(); got != 5 {
					t.Errorf("a row with %d cells", got)
				}
			case *ast.Link:
				links++
			}
		}
		return ast.WalkContinue, nil
	})
	if rows != 3 || links != 1 {
		t.Errorf("%d rows and %d links, want 3 and 1:\n%s", rows, links, doc)
	}
}
