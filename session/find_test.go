package session

import (
	"strings"
	"testing"
)

// TestFindEntry: --leaf takes an entry's id or the start of one; a start
// that several ids share is refused with the ids it could mean, one
// that none has with where to find them.
func TestFindEntry(t *testing.T) {
	s, err := Load("../testdata/corpus/pi-v3-sdk-branches-labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ id, want, err string }{
		{id: "cf95108a", want: "cf95108a"},
		{id: "cf95", want: "cf95108a"},
		{id: "cf", want: "cf95108a"},
		{id: "9", err: `2 entries' ids start with "9": 95e10a05, 92b3e7cb; give more of the id`},
		{id: "nope", err: `no entry has the id "nope" (--format tree lists them)`},
		{id: "", err: `no entry has the id ""`},
	} {
		e, err := s.FindEntry(tc.id)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), s.File+": ")):
			t.Errorf("FindEntry(%q): %v, want an error saying %q", tc.id, err, tc.err)
		case tc.err == "" && (err != nil || e.ID != tc.want):
			t.Errorf("FindEntry(%q) = %v, %v; want %s", tc.id, e, err, tc.want)
		}
	}
	// The tree's ids are what FindEntry takes back.
	for e, id := range s.shortIDs(2) {
		if got, err := s.FindEntry(id); err != nil || got != e {
			t.Errorf("short id %q of %s finds %v, %v", id, e.ID, got, err)
		}
	}
}
