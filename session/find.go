package session

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxCandidates bounds the ids an ambiguous prefix's error lists.
const maxCandidates = 8

// FindEntry returns the entry whose id is id, else the one entry whose
// id starts with it, as a reader types an id from the tree (pi's ids are
// 8 hex digits; a few are enough). It fails, in a sentence that says
// what to do, when no entry's id starts with id, and when several do:
// then it lists them.
func (s *Session) FindEntry(id string) (*Entry, error) {
	if e := s.byID[id]; e != nil {
		return e, nil
	}
	var found []*Entry
	if id != "" {
		for _, e := range s.Entries {
			if strings.HasPrefix(e.ID, id) {
				found = append(found, e)
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, fmt.Errorf("%s: no entry has the id %q (--format tree lists them)", s.File, id)
	}
	ids := make([]string, 0, maxCandidates)
	for _, e := range found[:min(len(found), maxCandidates)] {
		ids = append(ids, e.ID)
	}
	list := strings.Join(ids, ", ")
	if len(found) > maxCandidates {
		list += fmt.Sprintf(" and %d more", len(found)-maxCandidates)
	}
	return nil, fmt.Errorf("%s: %s start with %q: %s; give more of the id", s.File, Count(len(found), "entry's id", "entries' ids"), id, list)
}

// shortIDs returns each entry's id cut to its shortest start of at least
// least characters that no other entry's id starts with: what FindEntry
// takes. pi's ids are 8 characters, so they stay whole.
func (s *Session) shortIDs(least int) map[*Entry]string {
	sorted := slices.Clone(s.Entries)
	slices.SortFunc(sorted, func(a, b *Entry) int { return strings.Compare(a.ID, b.ID) })
	common := func(a, b string) int {
		n := 0
		for n < len(a) && n < len(b) && a[n] == b[n] {
			n++
		}
		return n
	}
	out := make(map[*Entry]string, len(sorted))
	for i, e := range sorted {
		// Sorted, an id shares its longest start with a neighbour.
		n := least
		if i > 0 {
			n = max(n, common(e.ID, sorted[i-1].ID)+1)
		}
		if i+1 < len(sorted) {
			n = max(n, common(e.ID, sorted[i+1].ID)+1)
		}
		n = min(n, len(e.ID))
		for n < len(e.ID) && !utf8.RuneStart(e.ID[n]) {
			n++
		}
		out[e] = e.ID[:n]
	}
	return out
}
