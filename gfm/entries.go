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
	if e.Role() == "toolResult" {
		if _, call := m.s.CallOf(e); call != nil {
			return // written with its call, which carries its anchor
		}
	}
	if e.Type == "usage" || e.Type == "model_usage" {
		if e.Work != nil {
			return // hidden, as pi hides them; counted in the head's totals
		}
	}
	m.startEntry(e)
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
			m.openPart("The prompt from here on · "+promptCounts(p), partContext)
			m.promptBody(p)
			m.closePart()
		}
	case "branch_summary":
		m.quote("**Summary of an abandoned branch.**", e.Summary, summaryCost(e.Usage))
	case "usage", "model_usage":
		m.rawJSON(e.Type+" entry", e.Raw)
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
		m.customMessage(e, e.CustomType, e.Content, e.Display)
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
		m.openPart("Extension "+e.CustomType+" saved its state", partData)
		if data := strings.TrimSpace(string(e.Data)); data != "" && data != "null" {
			m.jsonBlock(e.Data)
		}
		m.closePart()
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
		m.heading("User", e, m.preview(e))
		m.blocks(e, msg.Content)
	case "assistant":
		m.heading("Assistant", e, m.preview(e))
		m.blocks(e, msg.Content)
		m.block(stopNote(msg))
		if msg.ResponseModel != "" && msg.ResponseModel != msg.Model {
			m.block("_Answered by " + codeSpan(msg.ResponseModel) + "._")
		}
		m.diagnostics(msg.Diagnostics)
	case "toolResult":
		m.heading("Tool result", e, "")
		m.tool(nil, e)
	case "bashExecution", "jsExecution", "pythonExecution":
		m.heading("User", e, m.preview(e))
		m.userCommand(msg)
	case "custom", "hookMessage":
		m.customMessage(e, msg.CustomType, msg.Content, msg.Display)
	case "fileMention":
		m.heading("User", e, m.preview(e))
		m.fileMention(msg.Files)
	case "branchSummary":
		m.quote("**Summary of an abandoned branch.**", msg.Summary)
	case "compactionSummary":
		m.quote("**Summary of the compacted context.**", msg.Summary)
	case "developer":
		m.heading("Developer", e, m.preview(e))
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
			m.prose(b.Text)
		case "thinking":
			switch {
			case b.Redacted:
				m.openPart("Thinking (redacted)", partThinking)
				m.block("_The provider sent this thinking encrypted; there is no text to show._")
				m.closePart()
			case strings.TrimSpace(b.Text) != "":
				m.openPart("Thinking", partThinking)
				m.prose(b.Text)
				m.closePart()
			}
		case "toolCall":
			var result *session.Entry
			if b.ToolCallID != "" {
				result = m.s.ToolResult(e, b.ToolCallID)
			}
			m.tool(b, result)
		case "image":
			m.block(m.image(*b))
		default:
			m.rawJSON(b.Type+" block", b.Raw)
		}
	}
}

// customMessage writes a message an extension added: as it is when pi
// shows it, collapsed as hidden context when only the model saw it.
func (m *mdWriter) customMessage(e *session.Entry, customType string, content []session.Block, display bool) {
	if !display {
		m.openPart("Hidden context: "+customType, partContext)
	} else {
		m.heading("Extension message", e, mdInline(customType))
	}
	for _, b := range content {
		switch b.Type {
		case "text":
			m.prose(b.Text)
		case "image":
			m.block(m.image(b))
		default:
			m.rawJSON(b.Type+" block", b.Raw)
		}
	}
	if !display {
		m.closePart()
	}
}

// quote writes parts (Markdown) as one blockquote, for summaries that
// stand in for conversation. The quoted whole goes through safeMarkdown:
// a line means something else once prefixed with "> ".
func (m *mdWriter) quote(parts ...string) {
	var b strings.Builder
	for _, p := range parts {
		p = m.t.prose(p, true) // closes a fence the part left open, among others
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
	m.block(m.t.requote(b.String()))
	m.endTurn() // what follows starts a turn of its own
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
	m.openPart(what+" (JSON)", partData)
	if len(raw) > 0 {
		m.jsonBlock(raw)
	}
	m.closePart()
}

// jsonBlock writes raw indented in a code block, or as it is when it
// does not parse, and says below it what is not indented: values nested
// too deep, and what follows once indentation reached its bound (see
// jsonindent).
func (m *mdWriter) jsonBlock(raw json.RawMessage) {
	shown := jsonindent.Indent(raw)
	m.code("json", string(shown.Text))
	if note := shown.Note(); note != "" {
		m.block("_" + note + "_")
	}
}
