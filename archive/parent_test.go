package archive

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParentNamed: a sub-agent's page names the session it works for by
// that session's title (or, for a sub-agent's sub-agent, its id), linked
// to its page, not by the path its header holds, which is of the
// machine it was written on.
func TestParentNamed(t *testing.T) {
	src := t.TempDir()
	out := filepath.Join(t.TempDir(), "archive")
	files := sources(t, src, "omp18-task-subagents.jsonl", "omp18-task-subagents/Lexer.jsonl",
		"omp18-task-subagents/Lexer/Tokens.jsonl", "omp18-task-subagents/Parser.jsonl")
	if _, err := Build(context.Background(), out, files, Options{}); err != nil {
		t.Fatal(err)
	}
	for page, want := range map[string]string{
		// A sub-agent's page is named after its session's.
		"home-dev-proj--omp18-task-subagents--Lexer.html":         `<dt>Sub-agent of</dt><dd><a href="home-dev-proj--omp18-task-subagents.html">Refactor the parser</a></dd>`,
		"home-dev-proj--omp18-task-subagents--Lexer--Tokens.html": `<dt>Sub-agent of</dt><dd><a href="home-dev-proj--omp18-task-subagents--Lexer.html">Lexer</a></dd>`,
	} {
		b, err := os.ReadFile(filepath.Join(out, page))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) || strings.Contains(string(b), "/tmp/pi15") {
			i := strings.Index(string(b), "<dt>Sub-agent of")
			t.Errorf("%s says %q, want %s", page, string(b)[max(i, 0):max(i, 0)+200], want)
		}
	}
}
