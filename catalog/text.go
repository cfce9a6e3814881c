package catalog

import (
	"encoding/json"
	"strings"

	"github.com/piexport/piexport/session"
)

// searchTexts returns what the index holds of s: per entry, the text a
// person wrote or read in the conversation (user and assistant text,
// summaries, the session's name) and the commands and paths of tool calls.
// Tool output and thinking are left out: they are most of a session's
// bytes and little of what anyone searches for.
func searchTexts(s *session.Session) []EntryText {
	var out []EntryText
	var b strings.Builder
	for _, e := range s.Entries {
		role, text := entryText(e, &b)
		if strings.TrimSpace(text) != "" {
			out = append(out, EntryText{ID: e.ID, Role: role, Text: text})
		}
	}
	return out
}

func entryText(e *session.Entry, b *strings.Builder) (role, text string) {
	switch e.Type {
	case "compaction", "branch_summary":
		return "summary", e.Summary
	case "session_info":
		return "name", e.SessionName
	case "custom_message":
		return "custom", blockText(e.Content)
	case "message":
	default:
		return "", ""
	}
	m := e.Message
	if m == nil {
		return "", ""
	}
	switch m.Role {
	case "user":
		return "user", m.Text()
	case "assistant":
		b.Reset()
		b.WriteString(m.Text())
		for _, c := range m.Content {
			if c.Type == "toolCall" {
				b.WriteString("\n")
				toolCallText(b, c.Name, c.Arguments)
			}
		}
		return "assistant", b.String()
	case "bashExecution", "jsExecution":
		return "bash", m.Command
	case "branchSummary", "compactionSummary":
		return "summary", m.Summary
	case "custom":
		return "custom", m.Text()
	}
	return "", ""
}

func blockText(content []session.Block) string {
	var parts []string
	for _, c := range content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// toolArgs are the arguments of tool calls worth finding: commands, paths
// and patterns, under the names pi's and omp's tools give them.
var toolArgs = []string{"command", "path", "file_path", "paths", "pattern", "query", "url", "cwd"}

// toolCallText writes a tool call as "name arg arg…".
func toolCallText(b *strings.Builder, name string, raw json.RawMessage) {
	b.WriteString(name)
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return
	}
	for _, k := range toolArgs {
		v, ok := args[k]
		if !ok {
			continue
		}
		var s string
		var list []string
		switch {
		case json.Unmarshal(v, &s) == nil:
			list = []string{s}
		case json.Unmarshal(v, &list) == nil:
		}
		for _, s := range list {
			b.WriteString(" ")
			b.WriteString(s)
		}
	}
}
