package session

import (
	"fmt"
	"slices"
)

// Excerpt says which part of a path a session made by Cut holds.
type Excerpt struct {
	// From and To are the ids of its first and last entries; First and
	// Last their places on the path (1 for the root).
	From, To    string
	First, Last int
	// Of is the length of the path the part was cut from, root to leaf:
	// the session's leaf when its path runs through the part, else the
	// newest leaf below the part's end. A reader of "entries 3 to 9 of
	// 40" knows how much was left out.
	Of int
}

// Cut returns a session that holds the part of the path to to that
// starts at from, and nothing else: one branch, from as its root, to as
// its leaf (nil from: the root; nil to: the leaf). The results of the
// tool calls made in it that follow to directly are kept too: an answer
// comes with what its tools returned. Every format takes the part as it
// takes a session: a page then holds only those entries, a document only
// those turns, a tree only those rows.
//
// The entries are copies that share their text with s's, and the session
// shares s's file when s is lean: it is used while s is, and closing
// either lets go of the file. Ids keep their values, so a link to an
// entry of the part names the same entry in the whole.
func (s *Session) Cut(from, to *Entry) (*Session, error) {
	if to == nil {
		to = s.Leaf
	}
	if to == nil {
		return nil, fmt.Errorf("%s: the session has no entries to cut", s.File)
	}
	path := s.Path(to)
	start := 0
	if from != nil {
		if start = slices.Index(path, from); start < 0 {
			return nil, fmt.Errorf("%s: entry %s is not on the path to %s, so no part runs from one to the other; name an entry before it on its branch", s.File, from.ID, to.ID)
		}
	}
	part := slices.Clone(path[start:])
	calls := map[string]bool{}
	for _, e := range part {
		if e.Role() == "assistant" {
			for _, c := range toolCalls(e.Message) {
				calls[c.ToolCallID] = true
			}
		}
	}
	for last := part[len(part)-1]; ; {
		var next *Entry
		for _, c := range last.Children {
			if c.Role() == "toolResult" && calls[c.Message.ToolCallID] {
				next = c
				break
			}
		}
		if next == nil {
			break
		}
		part = append(part, next)
		last = next
	}
	ex := &Session{File: s.File, Header: s.Header, Name: s.Name, Redaction: s.Redaction, lean: s.lean,
		Excerpt: &Excerpt{From: part[0].ID, To: part[len(part)-1].ID, First: start + 1, Last: start + len(part),
			Of: len(s.Path(s.leafThrough(part[len(part)-1])))}}
	ex.Entries = make([]*Entry, len(part))
	ex.byID = make(map[string]*Entry, len(part))
	for i, e := range part {
		c := *e
		c.Parent, c.Children = nil, nil
		if i > 0 {
			c.Parent = ex.Entries[i-1]
			ex.Entries[i-1].Children = []*Entry{&c}
		}
		ex.Entries[i] = &c
		ex.byID[c.ID] = &c
	}
	ex.Roots = ex.Entries[:1]
	ex.Leaf = ex.Entries[len(ex.Entries)-1]
	ex.indexCalls()
	return ex, nil
}

// leafThrough is the leaf whose path runs through e: the session's leaf
// when it is below e, else the newest leaf below e (children are kept
// oldest first).
func (s *Session) leafThrough(e *Entry) *Entry {
	for l := s.Leaf; l != nil; l = l.Parent {
		if l == e {
			return s.Leaf
		}
	}
	for len(e.Children) > 0 {
		e = e.Children[len(e.Children)-1]
	}
	return e
}
