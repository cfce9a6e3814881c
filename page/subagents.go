package page

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// Sub-agents (omp): a task call starts agents whose transcripts omp keeps
// beside the session (session.LoadSubAgents). The page carries each one,
// rendered like the page's own entries and packed like the bodies off the
// path (pack.go); the task call lists its agents, and each opens its
// transcript in place. Transcripts nest: a sub-agent's task calls open
// theirs.

// subAgentPanel is one sub-agent transcript carried in the page.
type subAgentPanel struct {
	// ID is the panel's element id, "sub-" and the agent's key.
	ID string
	// HTML is the panel: a section headed by the agent's name ("Sub-agent
	// Lexer · explore · 6 entries") holding the rendered transcript.
	HTML template.HTML
}

// panelID is the element id of a sub-agent's panel. Keys are file names
// joined by "/", which ids may hold, but not spaces.
func panelID(key string) string {
	return "sub-" + strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' {
			return '_'
		}
		return r
	}, key)
}

// subAgentPanels renders the transcripts of r's sub-agents and theirs,
// depth first, without recursion.
func (r *sessionRenderer) subAgentPanels() []subAgentPanel {
	var panels []subAgentPanel
	stack := make([]*session.SubAgent, 0, len(r.agents))
	for i := len(r.agents) - 1; i >= 0; i-- {
		stack = append(stack, r.agents[i])
	}
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		panels = append(panels, r.subAgentPanel(a))
		for i := len(a.Agents) - 1; i >= 0; i-- {
			stack = append(stack, a.Agents[i])
		}
	}
	return panels
}

// subAgentPanel renders one transcript: the path to its leaf, each entry
// as on the page, tool results with their calls.
func (r *sessionRenderer) subAgentPanel(a *session.SubAgent) subAgentPanel {
	s := a.Session
	cwd := ""
	if s.Header != nil {
		cwd = s.Header.Cwd
	}
	id := panelID(a.Key)
	sr := &sessionRenderer{s: s, home: session.HomeOf(cwd, r.home), agents: a.Agents, prefix: id + "-", problems: r.problems}
	title := "Sub-agent " + a.ID
	for _, e := range s.Entries {
		if e.Type == "session_init" && e.Omp != nil && e.Omp.Init != nil && e.Omp.Init.Agent != "" {
			title += " · " + e.Omp.Init.Agent
			break
		}
	}
	path := s.Path(s.Leaf)
	title += " · " + humanize.Count(len(path), "entry", "entries")
	if u := s.Stats().Usage; u.Cost > 0 {
		title += " · " + humanize.Cost(u.Cost)
	}
	var b render.Builder
	for _, e := range path {
		if kindOf(e) == kindTool && sr.absorbed(e) {
			continue // shown in its call's card
		}
		var v entryView
		sr.renderEntrySafely(sr.s.Full(e), &v)
		b.Raw(`<div class="sub-entry"`)
		b.Attr("id", sr.elementID(e))
		b.Attr("data-kind", kindOf(e))
		b.Raw(`><div class="entry-head"><span class="role">`)
		b.Text(v.Role)
		b.Raw(`</span>`)
		if !e.Time.IsZero() {
			b.Raw(`<time`)
			b.Attr("datetime", e.Time.UTC().Format("2006-01-02T15:04:05Z07:00"))
			b.Raw(`>`)
			b.Text(e.Time.UTC().Format("2006-01-02 15:04 UTC"))
			b.Raw(`</time>`)
		}
		b.Raw(`</div><div class="entry-body">`)
		b.Append(v.Body)
		b.Raw(`</div>`)
		if v.Foot != "" {
			b.Raw(`<div class="entry-foot">`)
			b.Text(v.Foot)
			b.Raw(`</div>`)
		}
		b.Raw(`</div>`)
	}
	if len(path) == 0 {
		b.Raw(`<p class="note">The transcript has no entries.</p>`)
	}
	var p render.Builder
	p.Raw(`<section class="subagent"`)
	p.Attr("id", id)
	p.Attr("aria-label", title)
	p.Raw(`><h2 class="subagent-head">`)
	p.Text(title)
	p.Raw(`</h2><div class="subagent-body">`)
	p.Append(b.HTML())
	p.Raw(`</div></section>`)
	return subAgentPanel{ID: id, HTML: p.HTML()}
}

// task renders an omp task call: the agents it started, how each ended,
// and a link that opens each one's transcript.
func (r *sessionRenderer) task(o *out, call *session.Block, result, owner *session.Entry) {
	if call == nil {
		return
	}
	agents := session.TaskRun(call.Arguments, result)
	if len(agents) == 0 {
		return
	}
	o.Raw(`<div class="tool-input"><ul class="task-agents">`)
	for i, a := range agents {
		prefix := fmt.Sprintf("e-%s-agent%d-", r.key(owner), i)
		o.Raw(`<li`)
		if a.Status != "" {
			o.Attr("data-status", a.Status)
		}
		o.Raw(`><span class="agent-id">`)
		o.Text(a.ID)
		o.Raw(`</span>`)
		if a.Status != "" {
			o.Raw(` <span class="agent-status">`)
			o.Text(a.Status)
			o.Raw(`</span>`)
		}
		if a.Description != "" {
			o.Raw(` `)
			o.Text(a.Description)
		}
		var facts []string
		if a.DurationMs > 0 {
			facts = append(facts, milliseconds(a.DurationMs))
		}
		if a.Tokens > 0 {
			facts = append(facts, humanize.Tokens(a.Tokens)+" tokens")
		}
		if a.Model != "" {
			facts = append(facts, a.Model)
		}
		if len(facts) > 0 {
			o.Raw(` <span class="muted">`)
			o.Text(strings.Join(facts, " · "))
			o.Raw(`</span>`)
		}
		if sub := session.FindSubAgent(r.agents, a.ID); sub != nil {
			id := panelID(sub.Key)
			o.Raw(` <a class="open-subagent js-only" role="button" aria-expanded="false"`)
			o.Attr("href", "#"+id)
			o.Attr("aria-controls", id)
			o.Attr("data-subagent", id)
			o.Raw(`>`)
			o.Text(fmt.Sprintf("Transcript (%s)", humanize.Count(len(sub.Session.Path(sub.Session.Leaf)), "entry", "entries")))
			o.Raw(`</a><span class="nojs-only muted"> (its transcript opens with JavaScript)</span>`)
		}
		if a.Error != "" {
			o.Raw(`<div class="agent-error">`)
			o.Text(a.Error)
			o.Raw(`</div>`)
		}
		if strings.TrimSpace(a.Assignment) != "" {
			o.Raw(`<details class="agent-assignment"><summary>Assignment</summary>`)
			o.Append(render.Markdown(a.Assignment, prefix+"a-"))
			o.Raw(`</details>`)
		}
		if strings.TrimSpace(a.Output) != "" {
			o.Raw(`<details class="agent-output"><summary>Answer</summary>`)
			o.Append(render.Markdown(a.Output, prefix+"o-"))
			o.Raw(`</details>`)
		}
		o.Raw(`</li>`)
	}
	o.Raw(`</ul></div>`)
}
