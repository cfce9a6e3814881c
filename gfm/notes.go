package gfm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// What pi 1.5, pi 1.6 and omp 18 add to a path: system prompts, context
// edits, omp's settings and sub-agent starts, nested tool calls, task
// agents, the diagnostics of an answer, the files a user mentioned.
// Usage entries are not written (pi hides them); they count in the head's
// totals.

// systemMessage writes a system message as a folded block: the whole
// prompt for the first of the path, the change for a later one.
func (m *mdWriter) systemMessage(e *session.Entry) {
	prompt, change, _ := m.s.PromptAt(e)
	if change.Initial {
		m.openPart("System prompt · "+promptCounts(prompt), partContext)
		m.promptBody(prompt)
		m.closePart()
		m.endTurn()
		return
	}
	m.openPart("System prompt change: "+strings.TrimPrefix(m.s.PromptSummary(e), "system prompt: "), partContext)
	msg := e.Message
	if text := strings.TrimSpace(msg.Text()); text != "" {
		m.block("Text added to the prompt:")
		m.promptText(text)
	}
	for _, sec := range msg.Sections {
		if !sec.Removed {
			m.block("**" + mdInline(sec.Name) + "**")
			m.promptText(sec.Text)
		}
	}
	if len(change.Removed) > 0 {
		m.block("Sections removed: " + codeList(change.Removed))
	}
	if len(msg.ToolsAdded) > 0 {
		m.toolList("Tools added or changed", msg.ToolsAdded)
	}
	if len(change.ToolsRemoved) > 0 {
		m.block("Tools removed: " + codeList(change.ToolsRemoved))
	}
	m.closePart()
	m.endTurn()
}

// promptCounts says "5 sections · 12 tools".
func promptCounts(p session.Prompt) string {
	return humanize.Count(len(p.Sections), "section", "sections") + " · " + humanize.Count(len(p.Tools), "tool", "tools")
}

// promptBody writes a whole prompt: its text, each section under its name
// in bold (the document folds one level only), and the tools.
func (m *mdWriter) promptBody(p session.Prompt) {
	if p.Text != "" {
		m.promptText(p.Text)
	}
	for _, sec := range p.Sections {
		m.block("**" + mdInline(sec.Name) + "**")
		m.promptText(sec.Text)
	}
	if len(p.Tools) > 0 {
		m.toolList("Tools", p.Tools)
	}
}

// promptText writes prompt text as Markdown, or fenced where it is tagged
// text (<tools>…</tools>), which Markdown would drop as raw HTML.
func (m *mdWriter) promptText(text string) {
	if session.HasTagLine(text) {
		m.code("text", text)
		return
	}
	m.prose(text)
}

// toolList lists tools, one line each: name and description.
func (m *mdWriter) toolList(title string, tools []session.ToolSpec) {
	lines := []string{"**" + title + ":**", ""}
	for _, t := range tools {
		line := "- " + codeSpan(t.Name)
		if d := humanize.OneLine(t.Description, 200); d != "" {
			line += ": " + mdInline(d)
		}
		lines = append(lines, line)
	}
	m.block(strings.Join(lines, "\n"))
}

// contextEdit writes what a context edit changes for the model.
func (m *mdWriter) contextEdit(e *session.Entry) {
	target := m.entryName(e.TargetID)
	if e.Edit == nil || e.Edit.Omit {
		m.note("Context edit: the model no longer sees " + target)
		return
	}
	m.note("Context edit: the model sees a replacement for " + target)
	m.openPart("Replacement", partContext)
	m.blocks(e, e.Edit.Content)
	m.closePart()
}

// entryName names an entry in a note: “user: fix the bug”.
func (m *mdWriter) entryName(id string) string {
	t := m.s.Entry(id)
	if t == nil {
		return "an entry not in this file (" + codeSpan(id) + ")"
	}
	p := m.s.Preview(t, m.home)
	return "“" + mdInline(humanize.OneLine(strings.TrimSpace(p.Role+" "+p.Text), 60)) + "”"
}

// omp writes omp's own entries, each as a note.
func (m *mdWriter) omp(e *session.Entry) {
	x := e.Omp
	switch e.Type {
	case "service_tier_change":
		if len(x.ServiceTier) == 0 {
			m.note("Back to the default service tiers")
			return
		}
		var tiers []string
		for _, t := range x.ServiceTier {
			tiers = append(tiers, mdInline(t.Name)+" "+codeSpan(t.Value))
		}
		m.note("Service tier: " + strings.Join(tiers, ", "))
	case "mode_change":
		if x.Mode == "none" || x.Mode == "" {
			m.note("Left the mode")
			return
		}
		line := "Entered " + codeSpan(x.Mode) + " mode"
		for _, kv := range jsonFields(x.ModeData) {
			line += ", " + mdInline(kv[0]) + ": " + codeSpan(session.ShortenHome(kv[1], m.home))
		}
		m.note(line)
	case "title_change":
		line := "Title set to “" + mdInline(x.Title) + "”"
		if x.PreviousTitle != "" {
			line += " (was “" + mdInline(x.PreviousTitle) + "”)"
		}
		m.note(line)
	case "ttsr_injection":
		m.note("Rules injected: " + codeList(x.Rules))
	case "mcp_tool_selection":
		if len(x.MCPTools) == 0 {
			m.note("No MCP tools selected")
			return
		}
		m.note("MCP tools selected: " + codeList(x.MCPTools))
	case "credential_pin":
		// The pin's hash identifies an account: never written (nor read).
		m.note("The session's " + mdInline(x.CredentialProvider) + " account is pinned")
	case "session_init":
		in := x.Init
		summary := "Sub-agent started"
		if in.Agent != "" {
			summary += ": " + in.Agent
		}
		m.openPart(summary, partContext)
		if strings.TrimSpace(in.Task) != "" {
			m.block("**Task:**")
			m.prose(in.Task)
		}
		if in.SystemPrompt != "" {
			m.block("**System prompt:**")
			m.promptText(in.SystemPrompt)
		}
		if len(in.Tools) > 0 {
			m.block("**Tools:** " + codeList(in.Tools))
		}
		m.closePart()
		m.endTurn()
	}
}

// jsonFields reads a JSON object's fields in order, values that are not
// text as their JSON.
func jsonFields(raw json.RawMessage) [][2]string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	_, _ = dec.Token()
	var out [][2]string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		name, _ := tok.(string)
		text := string(v)
		var s string
		if json.Unmarshal(v, &s) == nil {
			text = s
		}
		out = append(out, [2]string{name, text})
	}
	return out
}

// nested writes the calls a tool made to other tools, and its own model
// work.
func (m *mdWriter) nested(res *session.Message) {
	if len(res.NestedCalls) > 0 {
		lines := []string{"Nested calls:", ""}
		for _, c := range res.NestedCalls {
			line := "- " + codeSpan(c.Name) + " " + mdInline(c.Status)
			if c.DurationMs > 0 {
				line += fmt.Sprintf(", %d ms", int(c.DurationMs+0.5))
			}
			if c.Error != "" {
				line += ": " + mdInline(humanize.OneLine(c.Error, 200))
			}
			lines = append(lines, line)
		}
		if !res.NestedComplete {
			lines = append(lines, "- _… the list is incomplete_")
		}
		m.block(strings.Join(lines, "\n"))
	}
	if res.Role == "toolResult" && res.Usage != (session.Usage{}) {
		m.block("_The tool's own model work: " + mdUsage(res.Usage) + "._")
	}
}

// taskAgents lists the agents an omp task call started and how each
// ended, each linked to its transcript's document when it has one.
func (m *mdWriter) taskAgents(call *session.Block, result *session.Entry) {
	agents := session.TaskRun(call.Arguments, result)
	if len(agents) == 0 {
		return
	}
	var lines []string
	for _, a := range agents {
		line := "- " + codeSpan(a.ID)
		if dest := markdownLink(m.opt.AgentLinks[a.ID]); dest != "" && m.idPrefix == "" {
			// An archive's document of its own.
			line = "- [" + codeSpan(a.ID) + "](" + dest + ")"
			m.linked[a.ID] = true
		}
		if a.Status != "" {
			line += " " + mdInline(a.Status)
		}
		if a.Description != "" {
			line += ": " + mdInline(humanize.OneLine(a.Description, 200))
		}
		if a.Error != "" {
			line += " (" + mdInline(humanize.OneLine(a.Error, 200)) + ")"
		}
		lines = append(lines, line)
	}
	m.block(strings.Join(lines, "\n"))
}

// stopNote says how an answer ended when it did not end normally.
func stopNote(msg *session.Message) string {
	var line string
	switch msg.StopReason {
	case "aborted":
		line = "**Aborted**"
	case "error":
		line = "**Error**"
	case "length":
		line = "**Cut short at the output limit**"
	case "deferred":
		line = "**Deferred:** the provider answers later"
		if d := msg.Deferred; d != nil && d.ID != "" {
			line += " (request " + codeSpan(d.ID) + ")"
		}
	default:
		return ""
	}
	if msg.ErrorMessage != "" {
		line += ": " + mdInline(msg.ErrorMessage)
	}
	return line
}

func codeList(names []string) string {
	spans := make([]string, len(names))
	for i, n := range names {
		spans[i] = codeSpan(n)
	}
	return strings.Join(spans, ", ")
}

// diagnostics notes what pi recorded about the request behind an answer
// (pi 1.6): reasoning a provider dropped, and why, in one line; a
// diagnostic of another kind by its type and error, its JSON folded.
func (m *mdWriter) diagnostics(list []session.Diagnostic) {
	for _, d := range list {
		if note := d.Note(); note != "" {
			m.note(mdInline(note))
			continue
		}
		summary := "Diagnostic " + d.Type
		if d.Error != "" {
			summary += ": " + d.Error
		}
		m.openPart(summary, partData)
		if len(d.Raw) > 0 {
			m.jsonBlock(d.Raw)
		}
		m.closePart()
	}
}

// fileMention lists the files a user mentioned with @ (omp), each folded
// with its text.
func (m *mdWriter) fileMention(files []session.MentionedFile) {
	if len(files) == 0 {
		m.note("Files mentioned: none")
		return
	}
	for _, f := range files {
		summary := "Mentioned: " + session.ShortenHome(f.Path, m.home)
		switch {
		case f.SkippedReason != "":
			summary += " (left out: " + f.SkippedReason + ")"
		case f.LineCount > 0:
			summary += " (" + humanize.Count(f.LineCount, "line", "lines") + ")"
		}
		m.openPart(summary, partContext)
		if f.Image != nil {
			m.block(m.image(*f.Image))
		}
		if f.Content != "" {
			m.longFence(fenceLang(f.Path), f.Content)
		}
		m.closePart()
	}
}
