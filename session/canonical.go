package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/piexport/piexport/internal/termsafe"
)

// WriteCanonicalJSON writes the session as the canonical tree JSON that
// pi's reference dump prints (testdata/reference/SCHEMA.md, and the stats,
// breakdown and projection of pi 1.5's, SCHEMA-1.5.md): entries named by
// line number, so that the two can be compared file by file. Entries
// recovered from a line holding several objects are named [line, part].
// The JSON is often read on a terminal: control and bidirectional
// formatting characters in its strings are written as \u escapes.
func (s *Session) WriteCanonicalJSON(w io.Writer) error {
	return s.WriteCanonicalJSONAt(w, s.Leaf)
}

// WriteCanonicalJSONAt is WriteCanonicalJSON with leaf as the leaf: its
// path, its context and the projection of that context, as pi shows a
// session resumed at that entry.
func (s *Session) WriteCanonicalJSONAt(w io.Writer, leaf *Entry) error {
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
	type tokens struct {
		Input      int64 `json:"input"`
		Output     int64 `json:"output"`
		CacheRead  int64 `json:"cacheRead"`
		CacheWrite int64 `json:"cacheWrite"`
		Total      int64 `json:"total"`
	}
	type stats struct {
		UserMessages      int     `json:"userMessages"`
		AssistantMessages int     `json:"assistantMessages"`
		ToolCalls         int     `json:"toolCalls"`
		ToolResults       int     `json:"toolResults"`
		TotalMessages     int     `json:"totalMessages"`
		Tokens            tokens  `json:"tokens"`
		Cost              float64 `json:"cost"`
	}
	type modelCost struct {
		Key    string  `json:"key"`
		Tokens int64   `json:"tokens"`
		Cost   float64 `json:"cost"`
	}
	doc := struct {
		Valid      bool              `json:"valid"`
		Header     *header           `json:"header"`
		Entries    []entry           `json:"entries"`
		Roots      []any             `json:"roots"`
		Children   map[string][]any  `json:"children"`
		Labels     map[string]string `json:"labels"`
		Leaf       any               `json:"leaf"`
		Path       []any             `json:"path"`
		Name       *string           `json:"name"`
		Context    []string          `json:"context"`
		Stats      stats             `json:"stats"`
		Breakdown  []modelCost       `json:"breakdown"`
		Projection [][2]any          `json:"projection"`
		Warnings   []string          `json:"warnings"`
	}{
		Valid:      s.Header != nil,
		Entries:    []entry{},
		Roots:      []any{},
		Children:   map[string][]any{},
		Labels:     map[string]string{},
		Path:       []any{},
		Context:    []string{},
		Breakdown:  []modelCost{},
		Projection: [][2]any{},
		Warnings:   []string{},
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
	if leaf != nil {
		doc.Leaf = ref(leaf)
		for _, e := range s.Path(leaf) {
			doc.Path = append(doc.Path, ref(e))
		}
		doc.Context = s.ContextRoles(leaf)
		// The projection, like the totals below, is of the entries pi
		// reads too: pi drops a line that is not one JSON object, where
		// piexport keeps what it holds (and the pages count it), but this
		// document is for comparing with pi. A leaf pi dropped stands for
		// its nearest ancestor pi has, as in compare.py.
		for leaf != nil && leaf.salvaged {
			leaf = leaf.Parent
		}
		if leaf != nil {
			for _, c := range s.Context(leaf) {
				if !c.Entry.salvaged {
					doc.Projection = append(doc.Projection, [2]any{ref(c.Entry), c.Projection().String()})
				}
			}
		}
	}
	var read []*Entry
	for _, e := range s.Entries {
		if !e.salvaged {
			read = append(read, e)
		}
	}
	st := statsOf(read)
	u := st.Usage
	doc.Stats = stats{UserMessages: st.UserMessages, AssistantMessages: st.AssistantMessages, ToolCalls: st.ToolCalls,
		ToolResults: st.ToolResults, TotalMessages: st.TotalMessages,
		Tokens: tokens{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, Total: u.Tokens()},
		Cost:   roundMicro(u.Cost)}
	for _, row := range st.Breakdown {
		doc.Breakdown = append(doc.Breakdown, modelCost{Key: row.Key, Tokens: row.Tokens, Cost: roundMicro(row.Cost)})
	}
	if s.Name != "" {
		doc.Name = &s.Name
	}
	for _, w := range s.Warnings {
		doc.Warnings = append(doc.Warnings, w.String())
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := w.Write(termsafe.JSON(buf.Bytes()))
	return err
}

// roundMicro rounds a cost to millionths of a dollar, as pi's dump does.
// A cost too large for that (1e303 and more) has no millionths to round,
// and multiplying it would overflow to an infinity JSON cannot hold.
func roundMicro(c float64) float64 {
	if math.Abs(c) > 1e300 {
		return c
	}
	return math.Round(c*1e6) / 1e6
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
