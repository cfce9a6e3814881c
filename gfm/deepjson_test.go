package gfm

import (
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/hostile"
	"github.com/piexport/piexport/session"
)

// TestDeepJSONBounded: raw JSON nested thousands of levels deep makes a
// Markdown file that grows with the session file, not with the square of
// its depth (four values 2,000 levels deep in 33 KB made 24 MB), and says
// what it shows compact.
func TestDeepJSONBounded(t *testing.T) {
	src := hostile.DeepJSONSession(2000)
	s, err := session.Read(strings.NewReader(src), "deep.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	md := exportMarkdown(t, s, Options{})
	if len(md) > 64*len(src)+1<<20 {
		t.Errorf("a %d-byte session made %d bytes of Markdown", len(src), len(md))
	}
	if n := strings.Count(md, "_Values nested deeper than 32 levels are shown compact, each on one line._"); n < 3 {
		t.Errorf("the Markdown notes %d values shown compact, want one for each deep value", n)
	}
	if !strings.Contains(md, "the bottom") {
		t.Error("the deepest values are not in the Markdown")
	}
}
