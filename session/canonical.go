package session

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteCanonicalJSON writes the session as the canonical tree JSON that
// pi's reference dump prints (shared/reference/SCHEMA.md): entries named by
// line number, so that the two can be compared file by file. Entries
// recovered from a line holding several objects are named [line, part].
func (s *Session) WriteCanonicalJSON(w io.Writer) error {
	type header struct {
		Line          int     `json:"line"`
		ID            string  `json:"id"`
		Version       int     `json:"version"`
		Cwd           *string `json:"cwd"`
		ParentSession *string `json:"parentSession"`
	}
	type entry struct {
		Line   int     `json:"line"`
		Part   int     `json:"part,omitempty"`
		Type   string  `json:"type"`
		Role   *string `json:"role"`
		Parent any     `json:"parent"`
	}
	doc := struct {
		Valid    bool              `json:"valid"`
		Header   *header           `json:"header"`
		Entries  []entry           `json:"entries"`
		Roots    []any             `json:"roots"`
		Children map[string][]any  `json:"children"`
		Labels   map[string]string `json:"labels"`
		Leaf     any               `json:"leaf"`
		Path     []any             `json:"path"`
		Name     *string           `json:"name"`
		Context  []string          `json:"context"`
		Warnings []string          `json:"warnings"`
	}{
		Valid:    s.Header != nil,
		Entries:  []entry{},
		Roots:    []any{},
		Children: map[string][]any{},
		Labels:   map[string]string{},
		Path:     []any{},
		Context:  []string{},
		Warnings: []string{},
	}
	if h := s.Header; h != nil {
		doc.Header = &header{Line: h.Line, ID: h.ID, Version: h.Version, Cwd: nonEmpty(h.Cwd), ParentSession: nonEmpty(h.ParentSession)}
	}
	for _, e := range s.Entries {
		out := entry{Line: e.Line, Type: e.Type}
		if e.Part > 1 {
			out.Part = e.Part
		}
		if e.Message != nil {
			role := e.Message.Role
			out.Role = &role
		}
		switch {
		case e.linkedParent != nil:
			out.Parent = ref(e.linkedParent)
		case e.ParentID != "":
			out.Parent = "missing:" + e.ParentID
		}
		doc.Entries = append(doc.Entries, out)
		if len(e.Children) > 0 {
			kids := make([]any, len(e.Children))
			for i, c := range e.Children {
				kids[i] = ref(c)
			}
			doc.Children[key(e)] = kids
		}
		if e.Label != "" {
			doc.Labels[key(e)] = e.Label
		}
	}
	for _, r := range s.Roots {
		doc.Roots = append(doc.Roots, ref(r))
	}
	if s.Leaf != nil {
		doc.Leaf = ref(s.Leaf)
		for _, e := range s.Path(s.Leaf) {
			doc.Path = append(doc.Path, ref(e))
		}
		doc.Context = s.ContextRoles(s.Leaf)
	}
	if s.Name != "" {
		doc.Name = &s.Name
	}
	for _, w := range s.Warnings {
		doc.Warnings = append(doc.Warnings, w.String())
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(doc)
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ref names an entry as the canonical JSON does: its line, or [line, part].
func ref(e *Entry) any {
	if e.Part > 1 {
		return [2]int{e.Line, e.Part}
	}
	return e.Line
}

func key(e *Entry) string {
	if e.Part > 1 {
		return fmt.Sprintf("%d:%d", e.Line, e.Part)
	}
	return fmt.Sprint(e.Line)
}
