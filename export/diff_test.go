package export

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	got := string(renderDiff("   9 a<b>\n- 10 old & \"q\"\n+ 10 new\n"))
	want := `<pre class="diff"><code>` +
		`<span class="diff-line diff-ctx"><span class="diff-ln"> 9</span><span class="diff-sign"> </span>a&lt;b&gt;` + "\n</span>" +
		`<span class="diff-line diff-del"><span class="diff-ln">10</span><span class="diff-sign">-</span>old &amp; &#34;q&#34;` + "\n</span>" +
		`<span class="diff-line diff-add"><span class="diff-ln">10</span><span class="diff-sign">+</span>new` + "\n</span>" +
		`</code></pre>`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// Without numbers there is no gutter; hunks and headers have no sign.
	got = string(renderDiff("@@ -1 +1 @@\r\n-<script>\r\n+x"))
	for _, w := range []string{
		`<span class="diff-line diff-hunk">@@ -1 +1 @@` + "\n</span>",
		`<span class="diff-line diff-del"><span class="diff-sign">-</span>&lt;script&gt;` + "\n</span>",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in %s", w, got)
		}
	}
	if strings.Contains(got, "diff-ln") || strings.Contains(got, "\r") {
		t.Errorf("unexpected gutter or CR: %s", got)
	}
	for _, p := range contentSafetyProblems(got) {
		t.Errorf("%s: %s", p, got)
	}
}

// Every details.diff in the shared corpus renders one line per input line.
func TestRenderDiffCorpus(t *testing.T) {
	files, _ := filepath.Glob("/work/shared/corpus/*.jsonl")
	if len(files) == 0 {
		t.Skip("no corpus")
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
				out := string(renderDiff(d))
				lines := strings.Count(strings.TrimSuffix(strings.ReplaceAll(d, "\r\n", "\n"), "\n"), "\n") + 1
				if got := strings.Count(out, `<span class="diff-line `); got != lines {
					t.Errorf("%s: %d rendered lines for %d", filepath.Base(file), got, lines)
				}
				if numberedDiff(strings.Split(d, "\n")) != strings.Contains(out, "diff-ln") {
					t.Errorf("%s: gutter mismatch", filepath.Base(file))
				}
			}
		}
	}
	if n == 0 {
		t.Skip("no diffs in corpus")
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

func TestUnifiedDiff(t *testing.T) {
	cases := []struct{ name, old, new, want string }{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"both empty", "", "", ""},
		{"from empty", "", "a\nb\n", "@@ -0,0 +1,2 @@\n+a\n+b"},
		{"to empty", "a\n", "", "@@ -1 +0,0 @@\n-a"},
		{"one line", "a\nb\nc\n", "a\nB\nc\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c"},
		{"no trailing newline", "a\nb", "a\nc", "@@ -1,2 +1,2 @@\n a\n-b\n+c"},
		{"context trimmed", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8"},
		{"insert at end", "a\nb\n", "a\nb\nc\n", "@@ -1,2 +1,3 @@\n a\n b\n+c"},
		{"two hunks", "a\n1\n2\n3\n4\n5\n6\n7\nb\n", "A\n1\n2\n3\n4\n5\n6\n7\nB\n",
			"@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -6,4 +6,4 @@\n 5\n 6\n 7\n-b\n+B"},
		{"close changes share a hunk", "a\n1\n2\n3\n4\n5\n6\nb\n", "A\n1\n2\n3\n4\n5\n6\nB\n",
			"@@ -1,8 +1,8 @@\n-a\n+A\n 1\n 2\n 3\n 4\n 5\n 6\n-b\n+B"},
		{"CRLF", "a\r\nb\r\n", "a\nc\n", "@@ -1,2 +1,2 @@\n a\n-b\n+c"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := unifiedDiff(tc.old, tc.new); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// diffLines must be a correct script (it rebuilds both texts) and a
// shortest one (its changes equal n+m-2·LCS).
func TestDiffLinesMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 2000 {
		a := randomLines(r)
		b := randomLines(r)
		es := diffLines(a, b)
		var gotA, gotB []string
		changes := 0
		for _, e := range es {
			switch e.op {
			case opEq:
				if a[e.a] != b[e.b] {
					t.Fatalf("case %d: equal edit joins %q and %q", iter, a[e.a], b[e.b])
				}
				gotA, gotB = append(gotA, a[e.a]), append(gotB, b[e.b])
			case opDel:
				gotA = append(gotA, a[e.a])
				changes++
			case opAdd:
				gotB = append(gotB, b[e.b])
				changes++
			}
		}
		if strings.Join(gotA, "\n") != strings.Join(a, "\n") || strings.Join(gotB, "\n") != strings.Join(b, "\n") {
			t.Fatalf("case %d: script does not rebuild %q -> %q: %+v", iter, a, b, es)
		}
		if want := len(a) + len(b) - 2*lcsLen(a, b); changes != want {
			t.Fatalf("case %d: %d changes, want %d for %q -> %q", iter, changes, want, a, b)
		}
	}
}

func randomLines(r *rand.Rand) []string {
	n := r.IntN(12)
	ls := make([]string, n)
	for i := range ls {
		ls[i] = string(rune('a' + r.IntN(4)))
	}
	return ls
}

func lcsLen(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func numberedText(n int, tag string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(tag)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('0' + i%10)))
		b.WriteString("\n")
	}
	return b.String()
}

func TestUnifiedDiffGuards(t *testing.T) {
	cases := []struct {
		name     string
		old, new string
	}{
		// Too many lines: not compared at all.
		{"too many lines", numberedText(diffMaxLines+1, "a"), numberedText(diffMaxLines+1, "a")},
		// Too many edits for Myers: every line differs.
		{"too many edits", numberedText(1500, "a"), numberedText(1500, "b")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			d := unifiedDiff(tc.old, tc.new)
			if el := time.Since(start); el > 2*time.Second {
				t.Errorf("took %v", el)
			}
			lines := strings.Split(d, "\n")
			oldN, newN := strings.Count(tc.old, "\n"), strings.Count(tc.new, "\n")
			if len(lines) != 1+oldN+newN {
				t.Fatalf("%d lines, want hunk header + %d + %d", len(lines), oldN, newN)
			}
			for i, l := range lines[1:] {
				want := byte('-')
				if i >= oldN {
					want = '+'
				}
				if l[0] != want {
					t.Fatalf("line %d = %q, want all removals then all additions", i+1, l)
				}
			}
		})
	}

	// Below the guards a large, mostly equal pair is still a real diff.
	a := numberedText(4000, "a")
	b := strings.Replace(a, "axxx3\n", "changed\n", 1)
	if d := unifiedDiff(a, b); strings.Count(d, "\n") != 8 {
		t.Errorf("want one small hunk, got %d lines", strings.Count(d, "\n")+1)
	}
}
