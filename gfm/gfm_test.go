package gfm

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/piexport/piexport/session"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

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

// TestMarkdownGolden compares whole documents with testdata/golden (go
// test ./gfm -update rewrites them) and checks their structure.
func TestMarkdownGolden(t *testing.T) {
	for _, tc := range []struct {
		name, file, leaf string
		subAgents        bool
		target           string
	}{
		{"md-branches-labels.md", "pi-v3-sdk-branches-labels.jsonl", "", false, ""},
		{"md-branches-labels-first-branch.md", "pi-v3-sdk-branches-labels.jsonl", "6eea0e7d", false, ""},
		{"md-compaction-custom.md", "pi-v3-sdk-compaction-custom.jsonl", "", false, ""},
		{"md-earth0-tiny.md", "pi-v3-earth0-tiny.jsonl", "", false, ""},
		// pi 1.5: system prompt folded, usage in the totals, context edits.
		{"md-pi15-usage-contextedit.md", "pi15-sdk-usage-contextedit-main.jsonl", "", false, ""},
		{"md-pi15-roots-edits.md", "pi15-sdk-roots-edits.jsonl", "", false, ""},
		// omp 18's entries and a task call's agents, their transcripts
		// after it.
		{"md-omp18-subagents.md", "omp18-task-subagents.jsonl", "", true, ""},
		// pi 1.6: hyperlinks listed after their output, diagnostics,
		// aborted calls.
		{"md-pi16-links-diagnostics.md", "pi16-sdk-links-diagnostics.jsonl", "", false, ""},
		// The engines of documentation sites (the engine tests of
		// cmd/piexport build them).
		{"md-mkdocs-branches-labels.md", "pi-v3-sdk-branches-labels.jsonl", "", false, "mkdocs"},
		{"md-mkdocs-omp18-subagents.md", "omp18-task-subagents.jsonl", "", true, "mkdocs"},
		{"md-hugo-branches-labels.md", "pi-v3-sdk-branches-labels.jsonl", "", false, "hugo"},
		{"md-hugo-omp18-subagents.md", "omp18-task-subagents.jsonl", "", true, "hugo"},
		{"md-docusaurus-compaction-custom.md", "pi-v3-sdk-compaction-custom.jsonl", "", false, "docusaurus"},
		{"md-docusaurus-omp18-subagents.md", "omp18-task-subagents.jsonl", "", true, "docusaurus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{Leaf: tc.leaf, Home: "/home/dev", Generator: "piexport test", Target: tc.target, FrontMatter: tc.target == "hugo"}
			if tc.subAgents {
				var warnings []session.Warning
				opt.SubAgents, warnings = session.LoadSubAgents(filepath.Join("../testdata/corpus", tc.file))
				if len(opt.SubAgents) == 0 || len(warnings) > 0 {
					t.Fatalf("sub-agents %v, warnings %v", opt.SubAgents, warnings)
				}
			}
			doc := exportMarkdown(t, loadMarkdownCorpus(t, tc.file), opt)
			if tc.target == "" {
				checkMarkdown(t, doc)
			}
			path := filepath.Join("../testdata/golden", tc.name)
			if *update {
				if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./gfm -update)", err)
			}
			if diff := cmp.Diff(string(want), doc); diff != "" {
				t.Errorf("%s differs (-want +got):\n%s", tc.name, diff)
			}
		})
	}
}

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
		"## 1. User: Hi </details> <script>alert(2)</script> a ok… · 00:00",
		"## 2. Assistant: <img src=x onerror=alert(9)> and a hard break · 00:00",
		"## 3. User: See [bad] and javascript:alert(13). · 00:00",
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
			if strings.HasPrefix(filepath.Base(file), "edge-v3-jsonmode-eventstream") {
				// A pi --mode json event stream, in the corpus as what
				// the loader refuses.
				if !errors.Is(err, session.ErrNotSession) {
					t.Errorf("the event stream loads: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			doc := exportMarkdown(t, s, Options{})
			d := checkMarkdown(t, doc)
			if len(d.headings) == 0 || !strings.HasPrefix(d.headings[0], "# ") {
				t.Errorf("the document does not start with a title: %v", d.headings[:min(3, len(d.headings))])
			}
			// The other engines' documents are built by the sites' tests
			// (cmd/piexport); here, that each is written.
			for _, target := range Targets[1:] {
				exportMarkdown(t, s, Options{Target: target, FrontMatter: true})
			}
		})
	}
}

// Control characters of session text (ESC of terminal output, NUL) show
// as their pictures: a document printed with -o - reaches a terminal.
func TestMarkdownNoControlCharacters(t *testing.T) {
	s := mdSessionLines(t,
		obj{"type": "session", "version": 3, "id": "s1", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/p"},
		mdMessage("u1", "", 1, obj{"role": "user", "content": "nul:\x00 esc:\x1b]0;title\x07 \x1b[2J"}),
		mdMessage("a1", "u1", 2, obj{"role": "assistant", "content": []obj{{"type": "toolCall", "id": "t1", "name": "bash", "arguments": obj{"command": "printf '\x1b[8m'"}}}}),
		mdMessage("r1", "a1", 3, obj{"role": "toolResult", "toolCallId": "t1", "toolName": "bash", "content": []obj{mdText("lone \x1b esc")}}),
	)
	doc := exportMarkdown(t, s, Options{})
	for i := 0; i < len(doc); i++ {
		if c := doc[i]; c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			t.Fatalf("control %#x in the document: %q", c, doc[max(0, i-30):min(len(doc), i+10)])
		}
	}
	if !strings.Contains(doc, "esc:␛]0;title␇ ␛[2J") || !strings.Contains(doc, "printf '␛[8m'") {
		t.Errorf("the escapes are not shown:\n%s", doc)
	}
}
