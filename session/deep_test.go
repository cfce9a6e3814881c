package session

import (
	"strings"
	"testing"
)

// A valid JSON line nested deeper than 10,000 levels was dropped as "not
// valid JSON": it is kept, placed in the tree by its top-level fields,
// with its raw text and a warning that says why.
func TestNestedTooDeep(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	line := `{"type":"message","id":"d1","parentId":"a","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":"x","details":` + deep + `}}`
	s := load(t, lines(hdr, user("a", "", "before", 1), line, user("c", "d1", "after", 3)))
	wantWarning(t, s, 3, "the JSON is nested too deep (more than 10000 levels) to read; its text is kept as raw JSON")
	for _, w := range s.Warnings {
		if strings.Contains(w.Text, "not valid JSON") || strings.Contains(w.Text, "unexpected types") {
			t.Errorf("also warned: %s", w)
		}
	}
	d := s.Entry("d1")
	if d == nil || d.Type != "message" || d.Parent == nil || d.Parent.ID != "a" || d.Time.IsZero() {
		t.Fatalf("the deep entry is not in the tree where its fields put it: %+v", d)
	}
	if string(d.Raw) != line {
		t.Errorf("the raw text is not the line's (%d bytes of %d)", len(d.Raw), len(line))
	}
	if c := s.Entry("c"); c == nil || c.Parent != d {
		t.Error("the entry after it lost its parent")
	}
	if d.salvaged {
		t.Error("one object alone on its line is not salvaged")
	}
	checkTree(t, s)

	// Nothing to place it by: a root, still with its text.
	s = load(t, lines(hdr, user("a", "", "x", 1), "{"+`"a":`+deep+"}"))
	if len(s.Entries) != 2 || len(s.Entries[1].Raw) == 0 || s.Entries[1].Parent != nil {
		t.Fatalf("entries %d", len(s.Entries))
	}
	checkTree(t, s)
	// An array nested too deep is not an entry.
	s = load(t, lines(hdr, user("a", "", "x", 1), deep))
	if len(s.Entries) != 1 {
		t.Errorf("%d entries from a deep array", len(s.Entries))
	}
}

func TestShallowFields(t *testing.T) {
	w := shallowFields([]byte(` { "x" : [{"type":"no"}, "]}\"{"], "type" : "label", "id":12, "parentId":null, "timestamp": 1767225600000, "targetId":"q" } trailing`))
	if w.Type != "label" || w.ID.value() != "12" || w.ParentID == nil || w.ParentID.value() != "" || parseTime(w.Timestamp).IsZero() {
		t.Errorf("got type %q id %q parent %v time %s", w.Type, w.ID.value(), w.ParentID, w.Timestamp)
	}
	for _, bad := range []string{``, `[`, `{"type":`, `{"type":"a"`, `{"id":{"deep":1}}`, `{"type":"a" "id":"b"}`} {
		w := shallowFields([]byte(bad))
		if w.ID != nil && w.ID.value() != "" {
			t.Errorf("%q: id %q", bad, w.ID.value())
		}
	}
}
