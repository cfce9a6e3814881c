package session

import (
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

const previewMax = 200

// Preview summarises e on one line. Paths under home are shown with ~.
func (s *Session) Preview(e *Entry, home string) Preview {
	switch e.Type {
	case "message":
		if e.Message == nil {
			return Preview{Text: "[message]"}
		}
		return s.messagePreview(e, home)
	case "custom_message":
		return Preview{Text: fmt.Sprintf("[%s]: %s", e.CustomType, oneLine(blocksText(e.Content, ""), previewMax))}
	case "compaction":
		return Preview{Text: fmt.Sprintf("[compaction: %dk tokens]", int64(math.Round(float64(e.TokensBefore)/1000)))}
	case "branch_summary":
		return Preview{Text: "[branch summary]: " + oneLine(e.Summary, previewMax)}
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
		return Preview{Role: "user:", Text: oneLine(blocksText(m.Content, ""), previewMax)}
	case "assistant":
		text := oneLine(blocksText(m.Content, ""), previewMax)
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
		if call := s.calls[m.ToolCallID]; call != nil {
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
	case "custom":
		return Preview{Text: fmt.Sprintf("[%s]: %s", m.CustomType, oneLine(blocksText(m.Content, ""), previewMax))}
	case "branchSummary", "compactionSummary":
		return Preview{Text: fmt.Sprintf("[%s]: %s", m.Role, oneLine(m.Summary, previewMax))}
	}
	if text := oneLine(blocksText(m.Content, ""), previewMax); text != "" {
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

// ToolCallSummary names a tool call in one bracketed line, as pi does:
// "[read: ~/p/f.go:10-59]", "[bash: go test ./...]", "[edit: main.go]".
func ToolCallSummary(name string, rawArgs json.RawMessage, home string) string {
	var args ToolArgs
	_ = json.Unmarshal(rawArgs, &args)
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
			display += fmt.Sprintf(":%d", int64(start))
			if hasLimit {
				display += fmt.Sprintf("-%d", int64(start+limit-1))
			}
		}
		return "[read: " + display + "]"
	case "write", "edit":
		return "[" + name + ": " + ShortenHome(str("path", "file_path"), home) + "]"
	case "bash":
		cmd := str("command")
		short := oneLine(cmd, 50)
		if len([]rune(strings.TrimSpace(cmd))) > 50 {
			short += "..."
		}
		return "[bash: " + short + "]"
	case "grep":
		return fmt.Sprintf("[grep: /%s/ in %s]", str("pattern"), path("path"))
	case "find":
		return fmt.Sprintf("[find: %s in %s]", str("pattern"), path("path"))
	case "ls":
		return "[ls: " + path("path") + "]"
	case "task": // omp: sub-agents
		if tasks := TaskAgents(rawArgs); len(tasks) > 0 {
			names := make([]string, len(tasks))
			for i, t := range tasks {
				names[i] = t.ID
				if names[i] == "" {
					names[i] = oneLine(t.Description, 40)
				}
			}
			head := "[task: "
			if agent := str("agent"); agent != "" {
				head += agent + ": "
			}
			return head + oneLine(strings.Join(names, ", "), 80) + "]"
		}
	}
	compact := string(rawArgs)
	if len(rawArgs) > 0 {
		var buf strings.Builder
		if b, err := json.Marshal(args); err == nil && args != nil {
			buf.Write(b)
			compact = buf.String()
		}
	}
	if r := []rune(compact); len(r) > 40 {
		compact = string(r[:40]) + "..."
	}
	return "[" + name + ": " + compact + "]"
}

// ShortenHome shows a path under home as ~/...
func ShortenHome(p, home string) string {
	if home != "" && home != "/" && strings.HasPrefix(p, home) && (len(p) == len(home) || p[len(home)] == '/' || p[len(home)] == '\\') {
		return "~" + p[len(home):]
	}
	return p
}

// HomeOf picks the home directory to show as ~ for a session whose
// working directory is cwd: home when cwd lies under it, else one read
// off cwd itself, since a session is often shared from another machine.
func HomeOf(cwd, home string) string {
	if home != "" && ShortenHome(cwd, home) != cwd {
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
	var b strings.Builder
	for _, c := range content {
		if c.Type == "text" {
			if b.Len() > 0 {
				b.WriteString(sep)
			}
			b.WriteString(c.Text)
			if b.Len() > 4*previewMax && sep == "" {
				break
			}
		}
	}
	return b.String()
}

// Text returns the message's text blocks joined by blank lines.
func (m *Message) Text() string { return blocksText(m.Content, "\n\n") }

// oneLine folds s onto one line of at most max characters.
func oneLine(s string, max int) string {
	s = strings.TrimSpace(s)
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		if r == '\n' || r == '\t' || r == '\r' {
			r = ' '
		}
		if r == ' ' && space {
			continue
		}
		space = r == ' '
		if n == max {
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
