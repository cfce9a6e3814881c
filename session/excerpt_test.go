package session

import (
	"strings"
	"testing"
)

// TestCut: a part of a path is a session of its own, one branch from
// its first entry to its last, with the results of the last one's tool
// calls; ids stay as they were.
func TestCut(t *testing.T) {
	s, err := Load("../testdata/corpus/pi-v3-sdk-branches-labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	from, to := s.Entry("8940eb96"), s.Entry("b9c7df23") // to: an answer with a bash call
	part, err := s.Cut(from, to)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range part.Entries {
		ids = append(ids, e.ID)
	}
	if got := strings.Join(ids, " "); !strings.HasPrefix(got, "8940eb96 d25a5af1") || !strings.HasSuffix(got, "b9c7df23 ad316c7b") {
		t.Errorf("the part holds %s", got)
	}
	if len(part.Roots) != 1 || part.Roots[0].ID != "8940eb96" || part.Leaf.ID != "ad316c7b" || part.Summarize().Leaves != 1 {
		t.Errorf("roots %v, leaf %s", part.Roots, part.Leaf.ID)
	}
	if x := part.Excerpt; x == nil || x.From != "8940eb96" || x.To != "ad316c7b" || x.First != 3 || x.Of < x.Last {
		t.Errorf("excerpt %+v", part.Excerpt)
	}
	// The part lies on a branch that goes on to the newest leaf below
	// its end, whose path the reader is told the length of.
	leaf := s.Entry("ad316c7b")
	for len(leaf.Children) > 0 {
		leaf = leaf.Children[len(leaf.Children)-1]
	}
	if x := part.Excerpt; x != nil && x.Of != len(s.Path(leaf)) {
		t.Errorf("the part is of a path of %d entries, want %d", x.Of, len(s.Path(leaf)))
	}
	if whole, err := s.Cut(nil, nil); err != nil || whole.Excerpt.Of != len(s.Path(s.Leaf)) || whole.Excerpt.Last != whole.Excerpt.Of {
		t.Errorf("the whole path: excerpt %+v, want of %d", whole.Excerpt, len(s.Path(s.Leaf)))
	}
	// The copies are the part's: the whole keeps its tree.
	if len(s.Entry("8940eb96").Children) < 2 || s.Entry("8940eb96").Parent == nil {
		t.Errorf("cutting changed the session")
	}
	if _, err := s.Cut(s.Entry("6eea0e7d"), s.Entry("8940eb96")); err == nil {
		t.Errorf("a part from an entry after its end")
	}
}
