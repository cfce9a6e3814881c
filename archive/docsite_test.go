package archive

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMarkdownForHugo: an archive for Hugo has _index.md (an index.md
// would make its directory one page), links by Hugo's URLs, front
// matter; built again for GitHub, it has index.md and no _index.md; the
// images no page shows any more go.
func TestMarkdownForHugo(t *testing.T) {
	src := t.TempDir()
	out := t.TempDir()
	files := sources(t, src, "omp18-task-subagents.jsonl", "omp18-task-subagents/Lexer.jsonl", "pi-v1-pimono-compact-images.jsonl")
	if _, err := Build(context.Background(), out, files, Options{Format: "md", MarkdownTarget: "hugo", FrontMatter: true}); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	index := read("_index.md")
	if !strings.HasPrefix(index, "---\ntitle: \"Sessions\"\ndate: ") || !strings.Contains(index, "](home-dev-proj--omp18-task-subagents/)") {
		t.Errorf("_index.md:\n%s", index)
	}
	if _, err := os.Stat(filepath.Join(out, "index.md")); err == nil {
		t.Errorf("an index.md beside _index.md")
	}
	lexer := read("home-dev-proj--omp18-task-subagents--Lexer.md")
	for _, want := range []string{"[All sessions](../)", "**Sub-agent of:** [Refactor the parser](../home-dev-proj--omp18-task-subagents/)"} {
		if !strings.Contains(lexer, want) {
			t.Errorf("the sub-agent's page lacks %q:\n%s", want, lexer[:min(len(lexer), 1500)])
		}
	}
	parent := read("home-dev-proj--omp18-task-subagents.md")
	if !strings.Contains(parent, "- [`Lexer`](../home-dev-proj--omp18-task-subagents--lexer/) done") {
		t.Errorf("the task call does not link its sub-agent's page:\n%s", parent)
	}
	images, _ := filepath.Glob(filepath.Join(out, "assets", "*.png"))
	if len(images) != 3 || !strings.Contains(read("home-dev-proj--pi-v1-pimono-compact-images.md"), "](../assets/") {
		t.Errorf("%d images in assets/", len(images))
	}

	// Again for GitHub, without the session of images.
	if _, err := Build(context.Background(), out, files[:2], Options{Format: "md"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "_index.md")); err == nil {
		t.Errorf("_index.md stays beside index.md")
	}
	if !strings.Contains(read("index.md"), "](home-dev-proj--omp18-task-subagents.md)") {
		t.Errorf("index.md:\n%s", read("index.md"))
	}
	if images, _ := filepath.Glob(filepath.Join(out, "assets", "*.png")); len(images) != 0 {
		t.Errorf("images no page shows stay: %v", images)
	}
}
