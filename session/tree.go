package session

import (
	"fmt"
	"slices"
	"strings"
)

// buildTree gives every entry a unique ID, links parents and children,
// breaks cycles, and resolves labels, the name, the leaf and the tool
// result index. Nothing here recurses: chains can be 100,000 entries deep.
func (l *loader) buildTree() {
	s := l.s
	index := make(map[*Entry]int, len(s.Entries))
	s.byID = make(map[string]*Entry, len(s.Entries))
	byFileID := make(map[string][]int, len(s.Entries))
	for i, e := range s.Entries {
		index[e] = i
		if e.FileID != "" {
			byFileID[e.FileID] = append(byFileID[e.FileID], i)
		}
	}
	for i, e := range s.Entries {
		switch ids := byFileID[e.FileID]; {
		case e.FileID == "":
			e.ID = v1ID(e)
			l.warn("noid", e.Line, "the %s entry has no id; it is addressed as %s", e.Type, e.ID)
		case ids[0] != i:
			e.ID = fmt.Sprintf("%s~L%d", e.FileID, e.Line)
			if e.Part > 1 {
				e.ID += fmt.Sprintf(".%d", e.Part)
			}
			first := s.Entries[ids[0]]
			l.warn("dupid", e.Line, "id %q was already used at %s; both entries are kept and this one is addressed as %s", e.FileID, first.Where(), e.ID)
		default:
			e.ID = e.FileID
		}
		for s.byID[e.ID] != nil { // a derived id that a real one already has
			e.ID += "'"
		}
		s.byID[e.ID] = e
	}

	// resolve finds the entry an id refers to from position i: the latest
	// entry with that id written before i (what the writer saw), else the
	// first one after it.
	resolve := func(id string, i int) *Entry {
		ids := byFileID[id]
		if len(ids) == 0 {
			return nil
		}
		k, _ := slices.BinarySearch(ids, i)
		if k > 0 {
			return s.Entries[ids[k-1]]
		}
		return s.Entries[ids[0]]
	}

	for i, e := range s.Entries {
		switch {
		case e.ParentID == "":
		case e.ParentID == e.FileID:
			e.linkedParent = e
			l.warn("selfparent", e.Line, "the entry names itself as its parent; shown as a root")
		default:
			p := resolve(e.ParentID, i)
			if p == nil {
				l.warn("orphan", e.Line, "parent %q is not in the file; the entry is shown as a root", e.ParentID)
				break
			}
			e.Parent, e.linkedParent = p, p
		}
	}
	l.breakCycles(index)

	for _, e := range s.Entries {
		if e.Parent == nil {
			s.Roots = append(s.Roots, e)
		} else {
			e.Parent.Children = append(e.Parent.Children, e)
		}
	}
	for _, e := range s.Entries {
		if len(e.Children) > 1 {
			slices.SortStableFunc(e.Children, func(a, b *Entry) int { return a.Time.Compare(b.Time) })
		}
	}

	labels := map[*Entry]string{}
	for i, e := range s.Entries {
		switch e.Type {
		case "label":
			target := resolve(e.TargetID, i)
			if target == nil {
				l.warn("label", e.Line, "the label is aimed at %q, which is not in the file; ignored", e.TargetID)
				continue
			}
			if e.LabelText == "" {
				delete(labels, target)
			} else {
				labels[target] = e.LabelText
			}
		case "session_info":
			s.Name = strings.TrimSpace(e.SessionName)
		}
	}
	for e, label := range labels {
		e.Label = label
	}

	// The leaf is the last entry, as pi has it, unless that entry has no
	// id: nothing can follow on from it (GJC ends some files with such a
	// bookkeeping entry), and as the leaf it would open the page on a path
	// of itself alone. The last entry with an id is then the leaf.
	for i := len(s.Entries) - 1; i >= 0; i-- {
		if s.Leaf == nil || s.Entries[i].FileID != "" {
			s.Leaf = s.Entries[i]
		}
		if s.Leaf.FileID != "" {
			break
		}
	}
	s.indexCalls()
}

// Reindex builds again the lookups by id (Entry, ToolResult, the call a
// result answers) once the ids of the entries and of the tool calls have
// been rewritten in place, each the same way wherever it is: package
// redact masks an id that holds a secret, and the tree keeps its shape.
func (s *Session) Reindex() {
	s.byID = make(map[string]*Entry, len(s.Entries))
	for _, e := range s.Entries {
		s.byID[e.ID] = e
	}
	s.indexCalls()
}

// indexCalls indexes the tool calls and their results by call id.
func (s *Session) indexCalls() {
	s.toolResults = map[string][]*Entry{}
	s.calls = map[string]*Block{}
	s.callers = map[string]*Entry{}
	for _, e := range s.Entries {
		m := e.Message
		switch {
		case m == nil:
		case m.Role == "toolResult" && m.ToolCallID != "":
			s.toolResults[m.ToolCallID] = append(s.toolResults[m.ToolCallID], e)
		case m.Role == "assistant":
			for _, c := range toolCalls(m) {
				s.calls[c.ToolCallID] = c
				s.callers[c.ToolCallID] = e
			}
		}
	}
}

// breakCycles finds entries whose parent chain never reaches a root and
// makes the earliest entry of each such cycle a root, so that every entry
// stays visible and every walk to the root ends.
func (l *loader) breakCycles(index map[*Entry]int) {
	s := l.s
	const (
		unknown = iota
		visiting
		rooted
	)
	state := make([]uint8, len(s.Entries))
	var chain []int
	for start := range s.Entries {
		chain = chain[:0]
		i := start
		for state[i] == unknown {
			state[i] = visiting
			chain = append(chain, i)
			p := s.Entries[i].Parent
			if p == nil {
				break
			}
			i = index[p]
		}
		if state[i] == visiting && s.Entries[i].Parent != nil {
			// i is on a cycle: the part of chain from i on.
			at := slices.Index(chain, i)
			cycle := chain[at:]
			first := slices.Min(cycle)
			lines := make([]string, len(cycle))
			for k, c := range cycle {
				lines[k] = s.Entries[c].Where()
			}
			slices.Sort(lines)
			e := s.Entries[first]
			l.warn("cycle", e.Line, "the parent links of %s form a cycle; broken here, this entry is shown as a root", strings.Join(lines, ", "))
			e.Parent = nil
		}
		for _, c := range chain {
			state[c] = rooted
		}
	}
}

// Entry returns the entry with the given ID, or nil.
func (s *Session) Entry(id string) *Entry {
	return s.byID[id]
}

// Path returns the entries from the root down to e.
func (s *Session) Path(e *Entry) []*Entry {
	var path []*Entry
	for ; e != nil; e = e.Parent {
		path = append(path, e)
	}
	slices.Reverse(path)
	return path
}

// ToolResult returns the result of the tool call callID made by the
// assistant entry call, or nil when there is none. A call id can repeat
// across branches, so the result must descend from the call.
func (s *Session) ToolResult(call *Entry, callID string) *Entry {
	results := s.toolResults[callID]
	if len(results) == 1 {
		return results[0]
	}
	for _, r := range results {
		// Results follow their call closely; a short walk up suffices.
		p := r.Parent
		for step := 0; p != nil && step < 256; step++ {
			if p == call {
				return r
			}
			p = p.Parent
		}
	}
	return nil
}

// Node is an entry's place in the tree as displayed.
type Node struct {
	Entry *Entry
	// Depth is the indentation: it grows only where a parent has several
	// children, so a long conversation without branches stays flat.
	Depth int
}

// Flatten returns every entry in display order: depth first, children
// oldest first.
func (s *Session) Flatten() []Node {
	out := make([]Node, 0, len(s.Entries))
	type item struct {
		e     *Entry
		depth int
	}
	stack := make([]item, 0, len(s.Roots))
	for i := len(s.Roots) - 1; i >= 0; i-- {
		stack = append(stack, item{s.Roots[i], 0})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, Node{it.e, it.depth})
		depth := it.depth
		if len(it.e.Children) > 1 {
			depth++
		}
		for i := len(it.e.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{it.e.Children[i], depth})
		}
	}
	return out
}

// CallOf returns the assistant entry and tool call that a tool result
// answers, or nils when the call is not among the result's ancestors.
func (s *Session) CallOf(result *Entry) (*Entry, *Block) {
	m := result.Message
	if m == nil || m.ToolCallID == "" {
		return nil, nil
	}
	p := result.Parent
	// Results follow their call closely; a short walk up suffices.
	for step := 0; p != nil && step < 256; step++ {
		if p.Role() == "assistant" {
			for i := range p.Message.Content {
				if b := &p.Message.Content[i]; b.Type == "toolCall" && b.ToolCallID == m.ToolCallID {
					return p, b
				}
			}
		}
		p = p.Parent
	}
	return nil, nil
}

// Call returns the tool call whose id is id, with its arguments (read
// again from the file in a lean session), or nil.
func (s *Session) Call(id string) *Block {
	c := s.calls[id]
	if c == nil || s.lean == nil {
		return c
	}
	return FullBlock(s.Full(s.callers[id]), id)
}

// FullBlock returns the tool call block whose id is id in e's message, or
// nil: with e from Full, the call with its arguments.
func FullBlock(e *Entry, id string) *Block {
	if e == nil || e.Message == nil {
		return nil
	}
	for i := range e.Message.Content {
		if b := &e.Message.Content[i]; b.Type == "toolCall" && b.ToolCallID == id {
			return b
		}
	}
	return nil
}
