package catalog

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/piexport/piexport/internal/termtext"
	"github.com/piexport/piexport/session"
)

// Tool output is indexed up to toolHead bytes from its start and toolTail
// from its end. It is most of a session's bytes (60% of a generated
// history's text), mostly files and listings whose source is elsewhere;
// what people look for in it, an error or a command's verdict, sits at one
// end or the other. Indexing all of it would halve indexing speed.
const (
	toolHead = 2 << 10
	toolTail = 1 << 10
)

// entryText returns what the index holds of e and what kind of text it
// is: "user", "assistant" (its text, thinking, and the commands and paths
// of its tool calls), "tool" (a tool's output, cut as above), "bash" (a
// command run by the user, with its output), "summary", "name", "custom".
// It returns "" for entries without text. b is scratch space.
func entryText(e *session.Entry, b *strings.Builder) (kind, text string) {
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
		return "user", blockText(m.Content)
	case "assistant":
		b.Reset()
		for _, c := range m.Content {
			switch c.Type {
			case "text", "thinking":
				b.WriteString(c.Text)
			case "toolCall":
				toolCallText(b, c.Name, c.Arguments)
			default:
				continue
			}
			b.WriteByte('\n')
		}
		return "assistant", b.String()
	case "toolResult":
		// Terminal output reads as the terminal showed it: escape
		// sequences out, a hyperlink's text in.
		return "tool", termtext.Plain(clip(blockText(m.Content)))
	case "bashExecution", "jsExecution", "pythonExecution":
		return "bash", m.Command + "\n" + termtext.Plain(clip(m.Output))
	case "branchSummary", "compactionSummary":
		return "summary", m.Summary
	case "custom", "hookMessage":
		return "custom", blockText(m.Content)
	}
	return "", ""
}

func blockText(content []session.Block) string {
	if len(content) == 1 && content[0].Type == "text" {
		return content[0].Text
	}
	var parts []string
	for _, c := range content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// clip keeps the head and the tail of a long tool output.
func clip(s string) string {
	if len(s) <= toolHead+toolTail {
		return s
	}
	h := toolHead
	for h > 0 && !utf8.RuneStart(s[h]) {
		h--
	}
	t := len(s) - toolTail
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	return s[:h] + "\n…\n" + s[t:]
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

// EntryText returns what the search index holds of e and the kind of text
// it is (see entryText): for indexes built elsewhere, such as an archive's,
// to hold the same.
func EntryText(e *session.Entry) (kind, text string) {
	var b strings.Builder
	return entryText(e, &b)
}
