package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Preview is an entry's one-line summary, as pi's /tree shows it.
type Preview struct {
	// Role is "user:", "assistant:", or "" for entries shown in brackets.
	Role string
	// Text is the summary: message text, or "[read: ~/p/f.go:10-59]",
	// "[compaction: 45k tokens]", "[model: gpt-5]" and the like.
	Text string
}

// previewMax is the length of a preview's text, in characters: more than
// a tree's row shows in a wide sidebar.
const previewMax = 120

// TitleMax is the length of a title made from a message, in characters.
const TitleMax = 100

// Preview summarises e on one line. Paths under home are shown with ~.
func (s *Session) Preview(e *Entry, home string) Preview {
	// A tool result's preview is its call's; every other reads e's text.
	if e.Role() != "toolResult" {
		e = s.Full(e)
	}
	switch e.Type {
	case "message":
		if e.Message == nil {
			return Preview{Text: "[message]"}
		}
		return s.messagePreview(e, home)
	case "custom_message":
		return Preview{Text: fmt.Sprintf("[%s]: %s", e.CustomType, ReaderText(previewSource(e.Content), previewMax))}
	case "compaction":
		return Preview{Text: fmt.Sprintf("[compaction: %dk tokens]", int64(math.Round(float64(e.TokensBefore)/1000)))}
	case "branch_summary":
		return Preview{Text: "[branch summary]: " + ReaderText(e.Summary, previewMax)}
	case "model_change":
		return Preview{Text: fmt.Sprintf("[model: %s]", e.ModelID)}
	case "thinking_level_change":
		return Preview{Text: fmt.Sprintf("[thinking: %s]", e.ThinkingLevel)}
	case "custom":
		return Preview{Text: fmt.Sprintf("[custom: %s]", e.CustomType)}
	case "label":
		if e.LabelText == "" {
			return Preview{Text: "[label: (cleared)]"}
		}
		return Preview{Text: fmt.Sprintf("[label: %s]", e.LabelText)}
	case "session_info":
		if strings.TrimSpace(e.SessionName) == "" {
			return Preview{Text: "[title: empty]"}
		}
		return Preview{Text: fmt.Sprintf("[title: %s]", oneLine(e.SessionName, previewMax))}
	case "usage", "model_usage":
		if e.Work != nil {
			return Preview{Text: "[usage: " + workLine(e.Work) + "]"}
		}
	case "context_edit":
		how := "context omit"
		if e.Edit != nil && !e.Edit.Omit {
			how = "context replace"
		}
		target := e.TargetID
		if t := s.Entry(e.TargetID); t != nil && t.Type != "context_edit" {
			p := s.Preview(t, home)
			target = oneLine(strings.TrimSpace(p.Role+" "+p.Text), 60)
		}
		return Preview{Text: fmt.Sprintf("[%s: %s]", how, target)}
	}
	if e.Type == "reset_boundary" {
		return Preview{Text: "[context reset]"}
	}
	if e.Omp != nil {
		if text := ompPreview(e); text != "" {
			return Preview{Text: text}
		}
	}
	return Preview{Text: fmt.Sprintf("[%s]", e.Type)}
}

// ompPreview summarises omp's own entry types.
func ompPreview(e *Entry) string {
	o := e.Omp
	switch e.Type {
	case "service_tier_change":
		if len(o.ServiceTier) == 0 {
			return "[service tier: default]"
		}
		parts := make([]string, len(o.ServiceTier))
		for i, t := range o.ServiceTier {
			parts[i] = t.Name + " " + t.Value
		}
		return "[service tier: " + strings.Join(parts, ", ") + "]"
	case "mode_change":
		return "[mode: " + o.Mode + "]"
	case "title_change":
		return "[title: " + oneLine(o.Title, previewMax) + "]"
	case "ttsr_injection":
		return "[rules: " + strings.Join(o.Rules, ", ") + "]"
	case "credential_pin":
		return "[account pinned: " + o.CredentialProvider + "]"
	case "mcp_tool_selection":
		return "[MCP tools: " + oneLine(strings.Join(o.MCPTools, ", "), previewMax) + "]"
	case "session_init":
		if o.Init != nil && o.Init.Agent != "" {
			return "[sub-agent started: " + o.Init.Agent + "]"
		}
		return "[sub-agent started]"
	}
	return ""
}

// workLine names the model work of a usage or model_usage entry: "cache
// warm · anthropic/claude-sonnet-4-5".
func workLine(w *ModelWork) string {
	var parts []string
	if w.Kind != "" {
		parts = append(parts, strings.ReplaceAll(w.Kind, "_", " "))
	}
	model := w.Model
	if w.Provider != "" {
		model = w.Provider + "/" + w.Model
	}
	if model != "" {
		parts = append(parts, model)
	}
	return strings.Join(parts, " · ")
}

func (s *Session) messagePreview(e *Entry, home string) Preview {
	m := e.Message
	switch m.Role {
	case "system":
		return Preview{Text: "[" + s.PromptSummary(e) + "]"}
	case "user":
		if skill, ok := parseSkill(m.Content); ok {
			return Preview{Role: "skill:", Text: skill.text(previewMax)}
		}
		return Preview{Role: "user:", Text: ReaderText(previewSource(m.Content), previewMax)}
	case "assistant":
		text := ReaderText(previewSource(m.Content), previewMax)
		switch {
		case text != "":
		case m.StopReason == "aborted":
			text = "(aborted)"
		case m.ErrorMessage != "":
			text = oneLine(m.ErrorMessage, 80)
		default:
			if calls := toolCalls(m); len(calls) > 0 {
				names := make([]string, len(calls))
				for i, c := range calls {
					names[i] = ToolCallSummary(c.Name, c.Arguments, home)
				}
				text = strings.Join(names, " ")
			} else {
				text = "(no content)"
			}
		}
		return Preview{Role: "assistant:", Text: text}
	case "toolResult":
		if call := s.Call(m.ToolCallID); call != nil {
			return Preview{Text: ToolCallSummary(call.Name, call.Arguments, home)}
		}
		name := m.ToolName
		if name == "" {
			name = "tool"
		}
		return Preview{Text: "[" + name + "]"}
	case "bashExecution":
		return Preview{Text: "[bash]: " + oneLine(m.Command, previewMax)}
	case "jsExecution":
		return Preview{Text: "[js]: " + oneLine(m.Command, previewMax)}
	case "pythonExecution":
		return Preview{Text: "[python]: " + oneLine(m.Command, previewMax)}
	case "fileMention":
		paths := make([]string, len(m.Files))
		for i, f := range m.Files {
			paths[i] = ShortenHome(f.Path, home)
		}
		return Preview{Text: "[files]: " + oneLine(strings.Join(paths, ", "), previewMax)}
	case "custom", "hookMessage":
		return Preview{Text: fmt.Sprintf("[%s]: %s", m.CustomType, ReaderText(previewSource(m.Content), previewMax))}
	case "branchSummary", "compactionSummary":
		return Preview{Text: fmt.Sprintf("[%s]: %s", m.Role, ReaderText(m.Summary, previewMax))}
	}
	if text := ReaderText(previewSource(m.Content), previewMax); text != "" {
		return Preview{Role: m.Role + ":", Text: text}
	}
	return Preview{Text: "[" + m.Role + "]"}
}

func toolCalls(m *Message) []*Block {
	var calls []*Block
	for i := range m.Content {
		if m.Content[i].Type == "toolCall" {
			calls = append(calls, &m.Content[i])
		}
	}
	return calls
}

// ToolCallSummary names a tool call in one line, as pi's tree does for
// its own tools: "[read: ~/p/f.go:10-59]", "[bash: go test ./...]",
// "[edit: main.go]"; and for any other tool its name and arguments as a
// reader would say them: "resolve_citation · authors: Kistner, Ralf…".
func ToolCallSummary(name string, rawArgs json.RawMessage, home string) string {
	args := ToolArgsSummary(name, rawArgs, home)
	if _, known := knownTools[name]; known {
		return "[" + name + ": " + args + "]"
	}
	if args == "" {
		return name
	}
	return name + " · " + args
}

// knownTools are the tools whose calls ToolCallSummary writes as pi does.
var knownTools = map[string]struct{}{"read": {}, "write": {}, "edit": {}, "bash": {}, "grep": {}, "find": {}, "ls": {}, "task": {}}

// toolArgsMax is the length of the arguments in a tool call's summary.
const toolArgsMax = 60

// ToolArgsSummary is the part of ToolCallSummary after the tool's name:
// "~/p/f.go:10-59", "go test ./...", "authors: Kistner, Ralf…".
func ToolArgsSummary(name string, rawArgs json.RawMessage, home string) string {
	var args ToolArgs
	_ = unmarshal(rawArgs, &args)
	str := args.Str
	path := func(keys ...string) string {
		p := str(keys...)
		if p == "" {
			p = "."
		}
		return ShortenHome(p, home)
	}
	switch name {
	case "read":
		display := ShortenHome(str("path", "file_path"), home)
		offset, hasOffset := args["offset"].(float64)
		limit, hasLimit := args["limit"].(float64)
		if hasOffset || hasLimit {
			start := 1.0
			if hasOffset {
				start = offset
			}
			display += fmt.Sprintf(":%d", toInt64(start))
			if hasLimit {
				display += fmt.Sprintf("-%d", toInt64(start+limit-1))
			}
		}
		return display
	case "write", "edit":
		return ShortenHome(str("path", "file_path"), home)
	case "bash":
		return oneLine(str("command"), 50)
	case "grep":
		return fmt.Sprintf("/%s/ in %s", str("pattern"), path("path"))
	case "find":
		return fmt.Sprintf("%s in %s", str("pattern"), path("path"))
	case "ls":
		return path("path")
	case "task": // omp: sub-agents
		if tasks := TaskAgents(rawArgs); len(tasks) > 0 {
			names := make([]string, len(tasks))
			for i, t := range tasks {
				names[i] = t.ID
				if names[i] == "" {
					names[i] = oneLine(t.Description, 40)
				}
			}
			head := ""
			if agent := str("agent"); agent != "" {
				head = agent + ": "
			}
			return head + Shorten(strings.Join(names, ", "), 80)
		}
	}
	return Shorten(argsText(rawArgs, home), toolArgsMax)
}

// argsText writes a tool call's arguments as "key: value · key: value",
// in the order of the call, lists as "a; b", nested objects as compact
// JSON. Arguments that are not a JSON object are shown as they are.
func argsText(raw json.RawMessage, home string) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return oneLineSpaces(string(raw))
	}
	var b strings.Builder
	for dec.More() && b.Len() < 4*toolArgsMax {
		key, err := dec.Token()
		if err != nil {
			break
		}
		var v any
		if dec.Decode(&v) != nil {
			break
		}
		if b.Len() > 0 {
			b.WriteString(" · ")
		}
		fmt.Fprintf(&b, "%s: %s", key, argValue(v, home))
	}
	return oneLineSpaces(b.String())
}

// argValue shows one argument's value as text.
func argValue(v any, home string) string {
	switch v := v.(type) {
	case string:
		return ShortenHome(v, home)
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			if _, nested := x.(map[string]any); nested {
				b, _ := json.Marshal(x)
				parts[i] = string(b)
			} else {
				parts[i] = argValue(x, home)
			}
		}
		return strings.Join(parts, "; ")
	case map[string]any:
		b, _ := json.Marshal(v)
		return string(b)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// ShortenHome shows a path under home as ~/...
func ShortenHome(p, home string) string {
	if home != "" && home != "/" && strings.HasPrefix(p, home) && (len(p) == len(home) || p[len(home)] == '/' || p[len(home)] == '\\') {
		return "~" + p[len(home):]
	}
	return p
}

// HomeOf picks the home directory to show as ~ for a session whose
// working directory is cwd: the reader's, home, when it is known. "~"
// means the reader's home: another user's (/home/selim/… in a session
// from another machine) is shown as it is, not as ~. Only without a
// home (a library caller that knows none) is one read off cwd itself.
func HomeOf(cwd, home string) string {
	if home != "" {
		return home
	}
	if strings.HasPrefix(cwd, "/data/data/com.termux/files/home") {
		return "/data/data/com.termux/files/home"
	}
	for _, base := range []string{"/home/", "/Users/", `C:\Users\`, `c:\Users\`} {
		if rest, ok := strings.CutPrefix(cwd, base); ok && rest != "" {
			user, _, _ := strings.Cut(strings.ReplaceAll(rest, `\`, "/"), "/")
			return base + user
		}
	}
	if cwd == "/root" || strings.HasPrefix(cwd, "/root/") {
		return "/root"
	}
	return home
}

// blocksText joins the text blocks of content with sep.
func blocksText(content []Block, sep string) string {
	texts, last := 0, -1
	for i, c := range content {
		if c.Type == "text" {
			texts, last = texts+1, i
		}
	}
	switch texts {
	case 0:
		return ""
	case 1:
		// Most outputs are one block: its text, not a copy.
		return content[last].Text
	}
	var b strings.Builder
	for _, c := range content {
		if c.Type == "text" {
			if b.Len() > 0 {
				b.WriteString(sep)
			}
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// previewSource is the text of content a preview or a title is made
// from: its text blocks, as much of them as ReaderText reads for a
// preview, and a little more so that it knows there is more.
func previewSource(content []Block) string {
	limit := readerSourceMax(previewMax) + 1
	if len(content) == 1 && content[0].Type == "text" && len(content[0].Text) <= limit {
		return content[0].Text
	}
	var b strings.Builder
	for _, c := range content {
		if c.Type != "text" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if b.Len()+len(c.Text) > limit {
			b.WriteString(c.Text[:limit-b.Len()])
			break
		}
		b.WriteString(c.Text)
	}
	return b.String()
}

// Text returns the message's text blocks joined by blank lines.
func (m *Message) Text() string { return blocksText(m.Content, "\n\n") }
