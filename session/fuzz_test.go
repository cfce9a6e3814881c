package session

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds the loader arbitrary bytes: it must never panic, and what
// it loads must form a tree in which every entry appears exactly once.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("../testdata/corpus/*.jsonl")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 8<<10 {
			// Big files make slow seeds; their first lines carry the shapes.
			b = b[:8<<10]
		}
		f.Add(b)
	}
	f.Add([]byte(hdr + "\n" + user("a", "a", "x", 1) + user("b", "a", "y", 2) + "\n"))
	// Values of odd types, which cost their entry only those values.
	f.Add([]byte(hdr + "\n" + user("a", "", "x", 1) + "\n" +
		`{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":[{"type":"text","text":5},{"type":"text","text":"t"}],"usage":{"input":"NaN","output":1e400,"cost":{"total":"x"}}}}` + "\n" +
		`{"type":"compaction","id":"c","parentId":"b","summary":["s"],"tokensBefore":"many","usage":{"input":true},"systemMessage":{"role":"system","content":[{"type":"text","text":{}}]}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Read(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			return
		}
		checkTree(t, s)
	})
}

// checkTree asserts the invariants every loaded session keeps.
func checkTree(t *testing.T, s *Session) {
	t.Helper()
	seen := map[*Entry]bool{}
	for _, n := range s.Flatten() {
		if seen[n.Entry] {
			t.Fatalf("%s appears twice in the tree", n.Entry.Where())
		}
		seen[n.Entry] = true
	}
	if len(seen) != len(s.Entries) {
		t.Fatalf("the tree shows %d of %d entries", len(seen), len(s.Entries))
	}
	ids := map[string]bool{}
	for _, e := range s.Entries {
		if ids[e.ID] || e.ID == "" || s.Entry(e.ID) != e {
			t.Fatalf("%s: id %q is not unique and addressable", e.Where(), e.ID)
		}
		ids[e.ID] = true
	}
	if s.Leaf != nil && len(s.Path(s.Leaf)) > len(s.Entries) {
		t.Fatal("the leaf's path is longer than the session")
	}
	if err := s.WriteCanonicalJSON(&bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
}
