package session

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFamily: the files of a session's family are found from any of
// them, by the sub-agents' directories and by what headers name: a fork
// by the path of the session it came from, or by that file's name when
// the path is not here (a family moved together); a file beside them
// that names none of them is not of the family, nor a backup.
func TestFamily(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, from string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		head := `{"type":"session","version":3,"id":"x","timestamp":"2026-11-20T10:00:00Z","cwd":"/w","parentSession":"` + from + `"}` + "\n"
		if err := os.WriteFile(p, []byte(head), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := write("p.jsonl", "")
	w := write("p/W.jsonl", p)
	x := write("p/W/X.jsonl", "")
	f := write("f.jsonl", p)
	g := write("g.jsonl", f)
	moved := write("m.jsonl", "/elsewhere/sessions/p.jsonl")
	u := write("u.jsonl", "/elsewhere/sessions/other.jsonl")
	write("p/W.bak.jsonl", "")
	want := []string{f, g, moved, p, w, x}
	slices.Sort(want)
	for _, from := range []string{p, x, g, moved} {
		if got := Family(from); !slices.Equal(got, want) {
			t.Errorf("Family(%s) = %q, want %q", filepath.Base(from), got, want)
		}
	}
	if got := Family(u); !slices.Equal(got, []string{u}) {
		t.Errorf("Family(u) = %q", got)
	}
	if ForkedFrom(g) != f || ForkedFrom(p) != "" {
		t.Errorf("ForkedFrom: %q, %q", ForkedFrom(g), ForkedFrom(p))
	}
}
