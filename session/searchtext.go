package session

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"

	"github.com/piexport/piexport/internal/termtext"
)

// WriteSearchText writes all the text a reader may look for an entry by,
// in parts separated by line ends: a message's text and thinking, a
// command and its output, a summary, a label, a model's name. A tool
// call belongs to its result, which a tree shows in its place: the
// call's name and arguments are written with the result (its output),
// and with the assistant's message only when no result answers it.
// Entries of a type this package does not model give the strings of
// their JSON.
func (s *Session) WriteSearchText(w io.StringWriter, e *Entry) {
	part := func(t string) {
		if t != "" {
			w.WriteString(t)
			w.WriteString("\n")
		}
	}
	part(e.Label)
	switch e.Type {
	case "message":
	case "compaction", "branch_summary":
		part(e.ShortSummary)
		part(e.Summary)
		return
	case "custom_message":
		blocksTo(part, e.Content)
		return
	case "model_change":
		part(e.Provider + "/" + e.ModelID)
		return
	case "thinking_level_change":
		part(e.ThinkingLevel)
		return
	case "label":
		part(e.LabelText)
		return
	case "session_info":
		part(e.SessionName)
		return
	default:
		stringsTo(part, e.Raw)
		return
	}
	m := e.Message
	if m == nil {
		stringsTo(part, e.Raw)
		return
	}
	switch m.Role {
	case "assistant":
		blocksTo(part, m.Content)
		for _, b := range m.Content {
			if b.Type == "toolCall" && (b.ToolCallID == "" || s.ToolResult(e, b.ToolCallID) == nil) {
				part(b.Name)
				stringsTo(part, b.Arguments)
			}
		}
	case "toolResult":
		if _, call := s.CallOf(e); call != nil {
			part(call.Name)
			stringsTo(part, call.Arguments)
		} else {
			part(m.ToolName)
		}
		// Tool output is often written for a terminal: what is looked
		// for is what the terminal showed, a hyperlink's text included.
		for _, b := range m.Content {
			if b.Type == "text" {
				part(termtext.Plain(b.Text))
			}
		}
	case "bashExecution", "jsExecution", "pythonExecution":
		part(m.Command)
		part(termtext.Plain(m.Output))
	case "fileMention":
		for _, f := range m.Files {
			part(f.Path)
			part(f.Content)
		}
	case "branchSummary", "compactionSummary":
		part(m.Summary)
	default:
		blocksTo(part, m.Content)
		if len(m.Content) == 0 {
			stringsTo(part, e.Raw)
		}
	}
}

// blocksTo writes the text and thinking of content.
func blocksTo(part func(string), content []Block) {
	for _, b := range content {
		if b.Type == "text" || b.Type == "thinking" {
			part(b.Text)
		}
	}
}

// stringsTo writes the string values in raw JSON, and its numbers and
// booleans: a tool call's arguments, an entry this package does not model.
// Keys are left out: they are the tool's words, not the session's.
func stringsTo(part func(string), raw json.RawMessage) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if len(raw) == 0 || dec.Decode(&v) != nil {
		return
	}
	stack := []any{v}
	for len(stack) > 0 {
		v, stack = stack[len(stack)-1], stack[:len(stack)-1]
		switch v := v.(type) {
		case string:
			part(v)
		case json.Number:
			part(v.String())
		case bool:
			part(strconv.FormatBool(v))
		case []any:
			for i := len(v) - 1; i >= 0; i-- {
				stack = append(stack, v[i])
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for i := len(keys) - 1; i >= 0; i-- {
				stack = append(stack, v[keys[i]])
			}
		}
	}
}
