package render

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

func TestParseDiff(t *testing.T) {
	type line = diffLine
	cases := []struct {
		name string
		diff string
		want []diffLine
	}{
		{
			name: "pi numbered",
			diff: "      ...\n   83   get state(): AgentState;\n-  87   get messages(): Message[];\n+  87   get messages(): AppMessage[];\n   88 \n   89",
			want: []line{
				{kind: diffCtx, code: "..."},
				{kind: diffCtx, sign: " ", number: "83", code: "  get state(): AgentState;"},
				{kind: diffDel, sign: "-", number: "87", code: "  get messages(): Message[];"},
				{kind: diffAdd, sign: "+", number: "87", code: "  get messages(): AppMessage[];"},
				{kind: diffCtx, sign: " ", number: "88", code: ""},
				{kind: diffCtx, sign: " ", number: "89", code: ""},
			},
		},
		{
			name: "pi numbered wide",
			diff: "- 232   old\n+ 232   new\n  1000 x",
			want: []line{
				{kind: diffDel, sign: "-", number: "232", code: "  old"},
				{kind: diffAdd, sign: "+", number: "232", code: "  new"},
				{kind: diffCtx, sign: " ", number: "1000", code: "x"},
			},
		},
		{
			name: "gjc numbered",
			diff: " 1|...\n 3|import a;\n+4|import b;\n-85|  x|y",
			want: []line{
				{kind: diffCtx, sign: " ", number: "1", code: "..."},
				{kind: diffCtx, sign: " ", number: "3", code: "import a;"},
				{kind: diffAdd, sign: "+", number: "4", code: "import b;"},
				{kind: diffDel, sign: "-", number: "85", code: "  x|y"},
			},
		},
		{
			name: "plain without hunks",
			diff: "-func main() {\n+func health() {}\n context",
			want: []line{
				{kind: diffDel, sign: "-", code: "func main() {"},
				{kind: diffAdd, sign: "+", code: "func health() {}"},
				{kind: diffCtx, sign: " ", code: "context"},
			},
		},
		{
			name: "plain numbers are content",
			diff: "+12 apples\n-3 pears\n plain",
			want: []line{
				{kind: diffAdd, sign: "+", code: "12 apples"},
				{kind: diffDel, sign: "-", code: "3 pears"},
				{kind: diffCtx, sign: " ", code: "plain"},
			},
		},
		{
			name: "git unified",
			diff: "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@ func f\n a\n--- b\n+++ c\n\\ No newline at end of file",
			want: []line{
				{kind: diffFile, code: "diff --git a/x b/x"},
				{kind: diffFile, code: "index 1..2 100644"},
				{kind: diffFile, code: "--- a/x"},
				{kind: diffFile, code: "+++ b/x"},
				{kind: diffHunk, code: "@@ -1,2 +1,2 @@ func f"},
				{kind: diffCtx, sign: " ", code: "a"},
				{kind: diffDel, sign: "-", code: "-- b"},
				{kind: diffAdd, sign: "+", code: "++ c"},
				{kind: diffMeta, code: `\ No newline at end of file`},
			},
		},
		{
			name: "second file",
			diff: "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\ndiff --git c d\n--- c\n+++ d\n@@ -1 +1 @@\n-z",
			want: []line{
				{kind: diffFile, code: "--- a"},
				{kind: diffFile, code: "+++ b"},
				{kind: diffHunk, code: "@@ -1 +1 @@"},
				{kind: diffDel, sign: "-", code: "x"},
				{kind: diffAdd, sign: "+", code: "y"},
				{kind: diffFile, code: "diff --git c d"},
				{kind: diffFile, code: "--- c"},
				{kind: diffFile, code: "+++ d"},
				{kind: diffHunk, code: "@@ -1 +1 @@"},
				{kind: diffDel, sign: "-", code: "z"},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := parseDiff(strings.Split(tc.diff, "\n"))
			if len(got) != len(tc.want) {
				t.Fatalf("got %d lines, want %d: %+v", len(got), len(tc.want), got)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("line %d: got %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestRenderDiff(t *testing.T) {
	got := string(Diff("   9 a<b>\n- 10 old & \"q\"\n+ 10 new\n"))
	want := `<pre class="diff"><code>` +
		`<span class=dc><span class=dn> 9</span><span class=ds> </span>a&lt;b&gt;` + "\n</span>" +
		`<span class=dr><span class=dn>10</span><span class=ds>-</span>old &amp; "q"` + "\n</span>" +
		`<span class=da><span class=dn>10</span><span class=ds>+</span>new` + "\n</span>" +
		`</code></pre>`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// Without numbers there is no gutter; hunks and headers have no sign.
	got = string(Diff("@@ -1 +1 @@\r\n-<script>\r\n+x"))
	for _, w := range []string{
		`<span class=dh>@@ -1 +1 @@` + "\n</span>",
		`<span class=dr><span class=ds>-</span>&lt;script&gt;` + "\n</span>",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in %s", w, got)
		}
	}
	if strings.Contains(got, "class=dn") || strings.Contains(got, "\r") {
		t.Errorf("unexpected gutter or CR: %s", got)
	}
	for _, p := range contentSafetyProblems(got) {
		t.Errorf("%s: %s", p, got)
	}
}

// Every details.diff in the shared corpus renders one line per input line.
func TestRenderDiffCorpus(t *testing.T) {
	files, err := filepath.Glob("../testdata/corpus/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in ../testdata/corpus: %v", err)
	}
	n := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(string(data), "\n") {
			if !strings.Contains(line, `"diff"`) {
				continue
			}
			var v any
			if json.Unmarshal([]byte(line), &v) != nil {
				continue
			}
			for _, d := range collectDiffs(v, nil) {
				n++
				out := string(Diff(d))
				lines := strings.Count(strings.TrimSuffix(strings.ReplaceAll(d, "\r\n", "\n"), "\n"), "\n") + 1
				if got := strings.Count(out, "<span class=d") - strings.Count(out, "<span class=dn>") - strings.Count(out, "<span class=ds>"); got != lines {
					t.Errorf("%s: %d rendered lines for %d", filepath.Base(file), got, lines)
				}
				if numberedDiff(strings.Split(d, "\n")) != strings.Contains(out, "<span class=dn>") {
					t.Errorf("%s: gutter mismatch", filepath.Base(file))
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no diffs in the corpus: the test checks nothing")
	}
	t.Logf("%d diffs", n)
}

func collectDiffs(v any, out []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "diff" {
				out = append(out, s)
			} else {
				out = collectDiffs(x, out)
			}
		}
	case []any:
		for _, x := range v {
			out = collectDiffs(x, out)
		}
	}
	return out
}

// The diff's short class names must not be taken by chroma's token
// classes, whose rules the page's stylesheet also holds.
func TestDiffClassesAreNotChromas(t *testing.T) {
	chromaClasses := map[string]bool{}
	for _, cls := range chroma.StandardTypes {
		chromaClasses[cls] = true
	}
	for _, cls := range []string{string(diffAdd), string(diffDel), string(diffCtx), string(diffHunk), string(diffFile), string(diffMeta), "dn", "ds"} {
		if chromaClasses[cls] {
			t.Errorf("diff class %q is one of chroma's", cls)
		}
	}
}
