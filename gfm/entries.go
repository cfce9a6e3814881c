package gfm

import (
	"encoding/json"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/jsonindent"
	"github.com/piexport/piexport/session"
)

// The entries of a path, one block or more each.

func (m *mdWriter) entry(e *session.Entry) {
	switch e.Type {
	case "message":
		if e.Message == nil {
			m.rawJSON("message entry", e.Raw)
			return
		}
		m.message(e)
	case "compaction":
		head := "**Context compacted:** " + humanize.Tokens(e.TokensBefore) + " tokens summarised"
		if e.FromHook {
			head += " by an extension"
		}
		parts := []string{head + "."}
		if e.ShortSummary != "" {
			parts = append(parts, e.ShortSummary)
		}
		parts = append(parts, e.Summary)
		var details struct {
			ReadFiles     []string `json:"readFiles"`
			ModifiedFiles []string `json:"modifiedFiles"`
		}
		if json.Unmarshal(e.Details, &details) == nil {
			parts = append(parts, m.fileList("Files read", details.ReadFiles), m.fileList("Files modified", details.ModifiedFiles))
		}
		parts = append(parts, summaryCost(e.Usage))
		m.quote(parts...)
		if e.SystemMessage != nil {
			p := session.PromptOf(e.SystemMessage)
			m.openDetails("The prompt from here on · " + promptCounts(p))
			m.promptBody(p)
			m.closeDetails()
		}
	case "branch_summary":
		m.quote("**Summary of an abandoned branch.**", e.Summary, summaryCost(e.Usage))
	case "usage", "model_usage":
		// Hidden, as pi hides them; counted in the head's totals.
		if e.Work == nil {
			m.rawJSON(e.Type+" entry", e.Raw)
		}
	case "context_edit":
		m.contextEdit(e)
	case "reset_boundary":
		m.note("Context reset: the model starts afresh here")
	case "service_tier_change", "mode_change", "title_change", "ttsr_injection", "credential_pin", "session_init", "mcp_tool_selection":
		if e.Omp == nil || e.Type == "session_init" && e.Omp.Init == nil {
			m.rawJSON(e.Type+" entry", e.Raw)
			return
		}
		m.omp(e)
	case "custom_message":
		m.customMessage(e.CustomType, e.Content, e.Display)
	case "model_change":
		name := e.ModelID
		if e.Provider != "" {
			name = e.Provider + "/" + e.ModelID
		}
		line := "Model set to " + mdInline(name)
		if e.ModelRole != "" && e.ModelRole != "default" {
			line += " for the " + mdInline(e.ModelRole) + " role"
		}
		if e.Omp != nil && e.Omp.Fallback {
			line += ", a fallback after the configured model failed"
		}
		m.note(line)
	case "thinking_level_change":
		line := "Thinking level set to " + mdInline(e.ThinkingLevel)
		if e.Omp != nil && e.Omp.ConfiguredThinking != "" {
			line += " (the user chose " + mdInline(e.Omp.ConfiguredThinking) + ")"
		}
		m.note(line)
	case "label":
		target := "an entry not in this file (" + codeSpan(e.TargetID) + ")"
		if t := m.s.Entry(e.TargetID); t != nil {
			p := m.s.Preview(t, m.home)
			target = "“" + mdInline(humanize.OneLine(strings.TrimSpace(p.Role+" "+p.Text), 60)) + "”"
		}
		if e.LabelText == "" {
			m.note("Label cleared on " + target)
		} else {
			m.note("Label " + codeSpan(e.LabelText) + " set on " + target)
		}
	case "session_info":
		if name := mdInline(e.SessionName); name != "" {
			m.note("Session named " + name)
		} else {
			m.note("Session name cleared")
		}
	case "custom":
		// State an extension saved; the model never sees it.
		m.openDetails("Extension " + e.CustomType + " saved its state")
		if data := strings.TrimSpace(string(e.Data)); data != "" && data != "null" {
			m.jsonBlock(e.Data)
		}
		m.closeDetails()
	default:
		m.rawJSON(e.Type+" entry", e.Raw)
	}
}

func (m *mdWriter) message(e *session.Entry) {
	msg := e.Message
	switch msg.Role {
	case "system":
		m.systemMessage(e)
	case "user":
		m.heading("User")
		m.blocks(e, msg.Content)
	case "assistant":
		m.heading("Assistant")
		m.blocks(e, msg.Content)
		m.block(stopNote(msg))
		if msg.ResponseModel != "" && msg.ResponseModel != msg.Model {
			m.block("_Answered by " + codeSpan(msg.ResponseModel) + "._")
		}
		m.diagnostics(msg.Diagnostics)
	case "toolResult":
		if _, call := m.s.CallOf(e); call != nil {
			return // written with its call
		}
		m.heading("Tool result")
		m.tool(nil, e)
	case "bashExecution", "jsExecution", "pythonExecution":
		m.heading("User")
		m.userCommand(msg)
	case "custom", "hookMessage":
		m.customMessage(msg.CustomType, msg.Content, msg.Display)
	case "fileMention":
		m.heading("User")
		m.fileMention(msg.Files)
	case "branchSummary":
		m.quote("**Summary of an abandoned branch.**", msg.Summary)
	case "compactionSummary":
		m.quote("**Summary of the compacted context.**", msg.Summary)
	case "developer":
		m.heading("Developer")
		m.blocks(e, msg.Content)
	default:
		m.rawJSON(msg.Role+" message", e.Raw)
	}
}

// blocks writes message content in order: text as the Markdown it is,
// thinking collapsed, each tool call with its result, images as a note.
func (m *mdWriter) blocks(e *session.Entry, content []session.Block) {
	for i := range content {
		b := &content[i]
		switch b.Type {
		case "text":
			m.block(safeMarkdown(b.Text))
		case "thinking":
			switch {
			case b.Redacted:
				m.openDetails("Thinking (redacted)")
				m.block("_The provider sent this thinking encrypted; there is no text to show._")
				m.closeDetails()
			case strings.TrimSpace(b.Text) != "":
				m.openDetails("Thinking")
				m.block(safeMarkdown(b.Text))
				m.closeDetails()
			}
		case "toolCall":
			var result *session.Entry
			if b.ToolCallID != "" {
				result = m.s.ToolResult(e, b.ToolCallID)
			}
			m.tool(b, result)
		case "image":
			m.block(imageNote(*b))
		default:
			m.rawJSON(b.Type+" block", b.Raw)
		}
	}
}

// customMessage writes a message an extension added: as it is when pi
// shows it, collapsed as hidden context when only the model saw it.
func (m *mdWriter) customMessage(customType string, content []session.Block, display bool) {
	if !display {
		m.openDetails("Hidden context: " + customType)
	} else {
		m.heading("Extension message: " + mdInline(customType))
	}
	for _, b := range content {
		switch b.Type {
		case "text":
			m.block(safeMarkdown(b.Text))
		case "image":
			m.block(imageNote(b))
		default:
			m.rawJSON(b.Type+" block", b.Raw)
		}
	}
	if !display {
		m.closeDetails()
	}
}

// quote writes parts (Markdown) as one blockquote, for summaries that
// stand in for conversation. The quoted whole goes through safeMarkdown:
// a line means something else once prefixed with "> ".
func (m *mdWriter) quote(parts ...string) {
	var b strings.Builder
	for _, p := range parts {
		p = safeMarkdown(p) // closes a fence the part left open, among others
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(">\n")
		}
		for line := range strings.SplitSeq(p, "\n") {
			line = expandLeadingTabs(line)
			if line == "" {
				b.WriteString(">\n")
			} else {
				b.WriteString("> " + line + "\n")
			}
		}
	}
	m.block(safeMarkdown(b.String()))
	m.turn = "" // what follows starts a new section
}

// summaryCost says what writing a summary cost, or "".
func summaryCost(u *session.Usage) string {
	if u == nil || *u == (session.Usage{}) {
		return ""
	}
	return "Writing the summary took " + mdUsage(*u) + "."
}

func (m *mdWriter) fileList(title string, files []string) string {
	if len(files) == 0 {
		return ""
	}
	spans := make([]string, len(files))
	for i, f := range files {
		spans[i] = codeSpan(session.ShortenHome(f, m.home))
	}
	return title + ": " + strings.Join(spans, ", ")
}

// rawJSON writes what this export has no view for as its JSON, collapsed:
// nothing on the path is silently dropped.
func (m *mdWriter) rawJSON(what string, raw json.RawMessage) {
	m.openDetails(what + " (JSON)")
	if len(raw) > 0 {
		m.jsonBlock(raw)
	}
	m.closeDetails()
}

// jsonBlock writes raw indented in a fenced block, or as it is when it
// does not parse, and says below it what is not indented: values nested
// too deep, and what follows once indentation reached its bound (see
// jsonindent).
func (m *mdWriter) jsonBlock(raw json.RawMessage) {
	shown := jsonindent.Indent(raw)
	m.block(fenced("json", string(shown.Text)))
	if note := shown.Note(); note != "" {
		m.block("_" + note + "_")
	}
}

// imageNote names an image the document does not include: GitHub does not
// show data: URIs, and a document with images beside it is another format.
func imageNote(b session.Block) string {
	mime := mdInline(b.MimeType)
	if mime == "" {
		mime = "unknown type"
	}
	if strings.HasPrefix(b.Data, "blob:") {
		return "_[image: " + mime + ", not stored in the session file]_"
	}
	size := len(strings.TrimRight(strings.TrimSpace(b.Data), "=")) * 3 / 4
	return "_[image: " + mime + ", " + humanize.Bytes(int64(size)) + ", not included]_"
}
