package page

import (
	"fmt"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// System prompts (pi 1.5): the first system message of a path declares the
// prompt, in named sections, and the tools; later ones change them. The
// page shows the first as a collapsed card, each later one as the change
// it makes, and neither is ever quoted in the page's title.

// systemMessage renders a system message entry.
func (r *sessionRenderer) systemMessage(o *out, e *session.Entry, v *entryView) {
	prompt, change, _ := r.s.PromptAt(e)
	m := e.Message
	if change.Initial {
		v.Role = "System prompt"
		o.Raw(`<details class="card system-prompt"><summary>`)
		o.Text(promptSummary(prompt))
		o.Raw(`</summary>`)
		r.promptBody(o, r.key(e), prompt)
		o.Raw(`</details>`)
		return
	}
	v.Role = "System prompt change"
	o.Raw(`<details class="card system-prompt change"><summary>`)
	o.Text(changeSummary(change))
	o.Raw(`</summary>`)
	if text := strings.TrimSpace(m.Text()); text != "" {
		o.Raw(`<p class="prompt-note">Text added to the prompt:</p>`)
		r.promptText(o, "e-"+r.key(e)+"-text-", text)
	}
	for i, sec := range m.Sections {
		if sec.Removed {
			continue
		}
		r.promptSection(o, fmt.Sprintf("e-%s-s%d-", r.key(e), i), sec, "")
	}
	if len(change.Removed) > 0 {
		o.Raw(`<p class="prompt-note">Removed: `)
		codeList(o, change.Removed)
		o.Raw(`</p>`)
	}
	if len(m.ToolsAdded) > 0 {
		r.toolList(o, "Tools added or changed", m.ToolsAdded)
	}
	if len(change.ToolsRemoved) > 0 {
		o.Raw(`<p class="prompt-note">Tools removed: `)
		codeList(o, change.ToolsRemoved)
		o.Raw(`</p>`)
	}
	o.Raw(`<details class="prompt-whole"><summary>`)
	o.Text("The whole prompt after this change · " + promptSummary(prompt))
	o.Raw(`</summary>`)
	r.promptBody(o, r.key(e)+"-after", prompt)
	o.Raw(`</details></details>`)
}

// promptSummary is the closed card's line, after its heading "System
// prompt": "5 sections · 12 tools".
func promptSummary(p session.Prompt) string {
	parts := []string{humanize.Count(len(p.Sections), "section", "sections"), humanize.Count(len(p.Tools), "tool", "tools")}
	if p.Text != "" && len(p.Sections) == 0 {
		parts[0] = "text only"
	}
	return strings.Join(parts, " · ")
}

// changeSummary says what a later system message changed: "Section
// skills added · section env removed · tools +edit −grep".
func changeSummary(c session.PromptChange) string {
	var parts []string
	if c.Text {
		parts = append(parts, "text added")
	}
	for _, g := range []struct {
		names []string
		what  string
	}{{c.Added, "added"}, {c.Replaced, "replaced"}, {c.Removed, "removed"}} {
		for _, n := range g.names {
			parts = append(parts, "section "+n+" "+g.what)
		}
	}
	if tools := c.ToolMarks(); tools != "" {
		parts = append(parts, "tools "+tools)
	}
	if len(parts) == 0 {
		return "System prompt unchanged"
	}
	s := strings.Join(parts, " · ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// promptBody shows a whole prompt: its unnamed text, each section a
// collapsible block of its own, and the tools.
func (r *sessionRenderer) promptBody(o *out, id string, p session.Prompt) {
	if p.Text != "" {
		r.promptSection(o, "e-"+id+"-text-", session.Section{Text: p.Text}, "Prompt")
	}
	for i, sec := range p.Sections {
		r.promptSection(o, fmt.Sprintf("e-%s-s%d-", id, i), sec, "")
	}
	if len(p.Tools) > 0 {
		r.toolList(o, humanize.Count(len(p.Tools), "tool", "tools"), p.Tools)
	}
}

// promptSection is one section, collapsed under its name.
func (r *sessionRenderer) promptSection(o *out, prefix string, sec session.Section, title string) {
	if title == "" {
		title = sec.Name
	}
	o.Raw(`<details class="prompt-section"><summary><span class="section-name">`)
	o.Text(title)
	o.Raw(`</span> <span class="muted">`)
	o.Text(humanize.Count(strings.Count(strings.TrimRight(sec.Text, "\n"), "\n")+1, "line", "lines"))
	o.Raw(`</span></summary>`)
	r.promptText(o, prefix, sec.Text)
	o.Raw(`</details>`)
}

// promptText shows prompt text as Markdown where it reads as Markdown, and
// preformatted where it is tagged text (<tools>…</tools>): Markdown would
// drop the tags as raw HTML.
func (r *sessionRenderer) promptText(o *out, prefix, text string) {
	if session.HasTagLine(text) {
		o.Raw(`<pre class="output prompt-text">`)
		o.Text(text)
		o.Raw(`</pre>`)
		return
	}
	o.Append(render.Markdown(text, prefix))
}

// toolList lists tools by name, each opening on its description and
// parameters.
func (r *sessionRenderer) toolList(o *out, title string, tools []session.ToolSpec) {
	o.Raw(`<details class="prompt-tools"><summary>`)
	o.Text(title)
	o.Raw(`</summary><ul class="tool-list">`)
	for _, t := range tools {
		o.Raw(`<li><details><summary><code>`)
		o.Text(t.Name)
		o.Raw(`</code></summary>`)
		if strings.TrimSpace(t.Description) != "" {
			o.Raw(`<div class="tool-description">`)
			o.Append(render.Markdown(t.Description, ""))
			o.Raw(`</div>`)
		}
		if params := strings.TrimSpace(string(t.Parameters)); params != "" && params != "{}" && params != "null" {
			o.Raw(`<details class="tool-params"><summary>Parameters (JSON schema)</summary>`)
			o.Append(render.JSON(t.Parameters))
			o.Raw(`</details>`)
		}
		o.Raw(`</details></li>`)
	}
	o.Raw(`</ul></details>`)
}

// checkpoint shows a compaction's prompt checkpoint: the whole prompt the
// model is sent from the compaction on.
func (r *sessionRenderer) checkpoint(o *out, e *session.Entry) {
	p := session.PromptOf(e.SystemMessage)
	o.Raw(`<details class="prompt-whole"><summary>`)
	o.Text("The prompt from here on · " + promptSummary(p))
	o.Raw(`</summary>`)
	r.promptBody(o, r.key(e)+"-checkpoint", p)
	o.Raw(`</details>`)
}

// sessionInit renders omp's session_init: how a sub-agent was started.
func (r *sessionRenderer) sessionInit(o *out, e *session.Entry, v *entryView) {
	in := e.Omp.Init
	v.Role = "Sub-agent started"
	if in.Agent != "" {
		v.Role += " · " + in.Agent
	}
	o.Raw(`<details class="card system-prompt"><summary>`)
	var parts []string
	if in.ResolvedModel != "" {
		parts = append(parts, in.ResolvedModel)
	}
	if in.ModelRole != "" {
		parts = append(parts, in.ModelRole+" role")
	}
	parts = append(parts, humanize.Count(len(in.Tools), "tool", "tools"))
	if in.ReadOnly {
		parts = append(parts, "read-only")
	}
	if in.Isolated {
		parts = append(parts, "in its own worktree")
	}
	o.Text(strings.Join(parts, " · "))
	o.Raw(`</summary>`)
	if strings.TrimSpace(in.Task) != "" {
		o.Raw(`<p class="prompt-note">Task:</p>`)
		o.Append(render.Markdown(in.Task, "e-"+r.key(e)+"-task-"))
	}
	if in.SystemPrompt != "" {
		r.promptSection(o, "e-"+r.key(e)+"-prompt-", session.Section{Text: in.SystemPrompt}, "System prompt")
	}
	if len(in.Tools) > 0 {
		o.Raw(`<p class="prompt-note">Tools: `)
		codeList(o, in.Tools)
		o.Raw(`</p>`)
	}
	if len(in.OutputSchema) > 0 && string(in.OutputSchema) != "null" {
		o.Raw(`<details class="tool-params"><summary>Answer schema (JSON schema)</summary>`)
		o.Append(render.JSON(in.OutputSchema))
		o.Raw(`</details>`)
	}
	o.Raw(`</details>`)
}

// codeList writes names as a comma-separated list of code spans.
func codeList(o *out, names []string) {
	for i, n := range names {
		if i > 0 {
			o.Raw(`, `)
		}
		o.Raw(`<code>`)
		o.Text(n)
		o.Raw(`</code>`)
	}
}
