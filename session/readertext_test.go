package session

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// readerTextCases are messages as people write them to an agent, each
// with what makes it hard to read as a title.
var readerTextCases = []struct{ name, source string }{
	{"heading and emphasis", "## Research Plan\n**Question**: when should SaaS be built with go + htmx + sqlite? is the database stored on the same disk as the app?"},
	{"heading alone", "# Release notes\n\n"},
	{"code spans", "Add a `/health` endpoint to the **Go** server in `cmd/api`, and use `http.ServeMux`."},
	{"links and images", "See [the docs](https://example.com/docs \"Docs\") and <https://pi.dev>, then ![a chart](chart.png) and https://go.dev/doc."},
	{"inline tags", "Wrap the log in <details><summary>Output</summary> and keep <b>bold</b> text, not <script>alert(1)</script> tags."},
	{"tag block", "<div align=\"center\">\n<img src=\"logo.png\">\n</div>\n\nThe logo, centred."},
	{"text that looks like a tag", "what is Vec<String>? and why does Option<T> need T: Sized"},
	{"skill", "<skill name=\"start-game\" location=\"/home/u/skills/start-game/SKILL.md\">\nReferences are relative to /home/u/skills/start-game.\n\n# Start the game\n</skill>"},
	{"skill with a message", "<skill name=\"review\" location=\"/s/review/SKILL.md\">\nReview the diff.\n</skill>\n\nPlease look at **the last commit** first."},
	{"Chinese", "继续写第三章，主角在千叶市的早晨醒来，窗外下着小雨，母亲在厨房里准备早餐，电视里播放着关于台风的新闻，她决定今天不去上学，而是去海边看看。"},
	{"Korean with spaces", "이제 그영상들 트랜스크립트 뽑아서 mimo 병렬로 영상들 분석해서 각 영상에서 승자/비고 요약하고 정보 통합까지 한 사이트 만들어줘."},
	{"emoji", "💾 — 如月家 👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦 🇯🇵🇯🇵 👍🏽 done"},
	{"only a code block", "```go\nfunc main() {\n\tfmt.Println(\"hello, world\")\n}\n```"},
	{"indented code", "    make test\n    make install"},
	{"escapes and entities", `5 \* 3 &amp; 2 &lt; 4, \_not emphasis\_, &#x1F600;`},
	{"identifiers", "rename old_name_here to new_name and keep __init__.py and 2*3*4"},
	{"lists and quotes", "Steps:\n\n1. build\n2) test\n- [x] lint\n- [ ] ship\n\n> quoted *advice*\n\n---\n\nEnd."},
	{"table", "| name | size |\n|------|------|\n| a.go | 10 |\n| b.go | 20 |"},
	{"strikethrough", "~~old plan~~ new plan"},
	{"a long path", "/home/someone/projects/a-very-long-project-name/packages/coding-agent/src/modes/interactive/components/tree-selector.ts"},
	{"white space", "  first line\r\n\tsecond\u00a0line \u200b\n\n\n  third  "},
	{"plain", "hello"},
	{"empty", ""},
}

// TestReaderTextGolden shows what titles and previews make of
// readerTextCases, in testdata/golden/reader-text.txt (go test ./session
// -update rewrites it).
func TestReaderTextGolden(t *testing.T) {
	var b strings.Builder
	s := &Session{}
	for _, tc := range readerTextCases {
		m := &Message{Role: "user", Content: []Block{{Type: "text", Text: tc.source}}}
		e := &Entry{Type: "message", Message: m}
		p := s.Preview(e, "")
		fmt.Fprintf(&b, "== %s\n%q\ntitle:   %s\npreview: %s %s\n40:      %s\n12:      %s\n\n",
			tc.name, tc.source, messageTitle(m), p.Role, p.Text, ReaderText(tc.source, 40), ReaderText(tc.source, 12))
		for _, text := range []string{messageTitle(m), p.Text, ReaderText(tc.source, 12)} {
			checkReaderText(t, tc.name, text)
		}
		for _, text := range []string{messageTitle(m), p.Text} {
			// A skill is read as one before its text is.
			if strings.Contains(text, "<skill") {
				t.Errorf("%s: %q holds a skill's tag", tc.name, text)
			}
		}
	}
	for _, tc := range []struct {
		name string
		args string
	}{
		{"resolve_citation", `{"authors":["Kistner, Ralf","Smith, Anne"],"year":2019,"title":"On trees"}`},
		{"web_search", `{"query":"litestream   replication\nsqlite","limit":5,"filters":{"site":"github.com"}}`},
		{"mcp__files__list", `{"path":"/home/u/p/src","recursive":true,"exclude":null}`},
		{"no_args", `{}`},
		{"odd_args", `["not", "an", "object"]`},
		{"read", `{"path":"/home/u/p/main.go","offset":10,"limit":50}`},
		{"bash", `{"command":"go test ./... 2>&1 | tail -5 && echo done; echo and some more words here"}`},
		{"grep", `{"pattern":"ListenAndServe","path":"/home/u/p"}`},
	} {
		fmt.Fprintf(&b, "== tool %s\n%s\n%s\n\n", tc.name, tc.args, ToolCallSummary(tc.name, json.RawMessage(tc.args), "/home/u"))
	}
	got := b.String()
	path := "../testdata/golden/reader-text.txt"
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./session -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("reader text differs (-want +got):\n%s", diff)
	}
}

// checkReaderText fails on what a reader must never see in a title or a
// preview: Markdown marks, line ends, a split character.
// (Other tags are text, and stay.)
func checkReaderText(t *testing.T, name, text string) {
	t.Helper()
	for _, bad := range []string{"**", "`", "](", "##", "\n", "\t", "\u200d…"} {
		if strings.Contains(text, bad) {
			t.Errorf("%s: %q holds %q", name, text, bad)
		}
	}
}

func TestShortenCutsAtAWord(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"hello world foo", 15, "hello world foo"},
		{"hello world foo", 14, "hello world…"},
		{"hello world foo", 12, "hello world…"},
		{"hello world foo", 8, "hello…"},
		{"helloworldfoo", 8, "hellowo…"},
		{"one, two, three", 11, "one, two…"},
		{"ab", 1, "…"},
		{"日本語のテキスト", 5, "日本語の…"},
		{"a👍🏽b👍🏽c👍🏽", 4, "a👍🏽b…"},
	} {
		if got := Shorten(tc.in, tc.max); got != tc.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

// BenchmarkPreview measures the previews of a page's tree rows, most of
// them Markdown.
func BenchmarkPreview(b *testing.B) {
	s := &Session{}
	var entries []*Entry
	for _, tc := range readerTextCases {
		entries = append(entries, &Entry{Type: "message", Message: &Message{Role: "assistant", Content: []Block{{Type: "text", Text: tc.source}}}})
	}
	b.ResetTimer()
	for b.Loop() {
		for _, e := range entries {
			s.Preview(e, "")
		}
	}
}
