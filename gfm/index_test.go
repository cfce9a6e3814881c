package gfm

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

func TestWriteMarkdownIndex(t *testing.T) {
	items := []MarkdownIndexItem{
		{Title: "Health endpoint", Link: "2026/health endpoint (1).md", Date: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), Project: "~/projects/webapp", Messages: 12, Cost: 0.0405,
			Related: []MarkdownRelated{
				{Label: "Sub-agents", Links: []MarkdownLink{{Title: "Lexer", Link: "main--Lexer.md"}, {Title: "Lexer/Tokens | x", Link: "javascript:alert(2)"}}},
				{Label: "Forks", Links: []MarkdownLink{{Title: "", Link: "fork.md?a=1&b=2"}}},
				{Label: "Empty"},
			}},
		{Title: "a | b <script>x</script> [c](javascript:y)", Link: "javascript:alert(1)", Project: "~/p|q", Messages: 1},
		{Title: "", Link: "", Messages: 0, Cost: 1.5},
	}
	var buf bytes.Buffer
	if err := WriteMarkdownIndex(&buf, items, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	doc := buf.String()
	want := "# Sessions\n\n" +
		"| Session | Date | Project | Messages | Cost |\n" +
		"| --- | --- | --- | ---: | ---: |\n" +
		"| [Health endpoint](2026/health%20endpoint%20%281%29.md) | 2026-03-01 09:00 | ~/projects/webapp | 12 | $0.0405 |\n" +
		"| ↳ Sub-agents: [Lexer](main--Lexer.md), Lexer/Tokens &#124; x |  |  |  |  |\n" +
		"| ↳ Forks: [(untitled)](fork.md?a=1&amp;b=2) |  |  |  |  |\n" +
		"| a &#124; b &lt;script&gt;x&lt;/script&gt; &#91;c&#93;(javascript:y) |  | ~/p&#124;q | 1 | $0 |\n" +
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
	if rows != 5 || links != 3 {
		t.Errorf("%d rows and %d links, want 5 and 3:\n%s", rows, links, doc)
	}
}
