package page

import (
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/hostile"
	"github.com/piexport/piexport/session"
)

// TestDeepJSONBounded: raw JSON nested thousands of levels deep (an
// extension's state, tool arguments, an unknown entry, a bad field) makes
// a page that grows with the file, not with the square of its depth: four
// values 2,000 levels deep in 33 KB made a page of 64 MB.
func TestDeepJSONBounded(t *testing.T) {
	src := hostile.DeepJSONSession(2000)
	s, err := session.Read(strings.NewReader(src), "deep.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	plain := exportPage(t, loadSmall(t), Options{})
	page := exportPage(t, s, Options{})
	if grown := len(page) - len(plain); grown > 64*len(src)+1<<20 {
		t.Errorf("a %d-byte session made a page %d bytes larger than a small one's", len(src), grown)
	}
	if n := strings.Count(string(page), "nested deeper than 32 levels"); n < 3 {
		t.Errorf("the page notes %d values shown compact, want one for each deep value", n)
	}
	if !strings.Contains(string(page), "the bottom") {
		t.Error("the deepest values are not on the page")
	}
}

func loadSmall(t *testing.T) *session.Session {
	t.Helper()
	s, err := session.Read(strings.NewReader(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}`+"\n"), "small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
