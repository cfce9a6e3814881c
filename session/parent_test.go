package session

import (
	"strings"
	"testing"
)

// TestParentOf: the session a sub-agent works for, or a fork came from,
// is named by its path only under the reader's home; a path from another
// machine is named by its file alone.
func TestParentOf(t *testing.T) {
	for _, tc := range []struct {
		parent, home, init, want, role string
	}{
		{"/tmp/pi15/omp/omp18-task-subagents.jsonl", "/home/dev", `{"type":"session_init","id":"i1","parentId":null}`, "omp18-task-subagents.jsonl", "Sub-agent of"},
		{"/home/dev/.pi/agent/sessions/--x--/a.jsonl", "/home/dev", "", "~/.pi/agent/sessions/--x--/a.jsonl", "Forked from"},
		{"/home/selim/.pi/agent/sessions/--x--/a.jsonl", "/home/dev", "", "a.jsonl", "Forked from"},
		{`C:\Users\bob\.pi\agent\sessions\--x--\b.jsonl`, "/home/dev", "", "b.jsonl", "Forked from"},
	} {
		text := `{"type":"session","version":3,"id":"s","cwd":"/home/dev/p","parentSession":` + quote(tc.parent) + "}\n" + tc.init + "\n"
		s, err := Read(strings.NewReader(text), "x.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if name, role := s.ParentOf(tc.home); name != tc.want || role != tc.role {
			t.Errorf("%s: %q %q, want %q %q", tc.parent, role, name, tc.role, tc.want)
		}
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }
