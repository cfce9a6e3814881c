package page

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// Quiet entries: model work outside the conversation, context edits, and
// omp's settings. Each reads as one line between the messages.

// usageEntry renders a usage entry (pi 1.5) or omp's model_usage: "cache
// warm · anthropic/claude-sonnet-4-5 · 50k cache read · $0.015". pi hides
// them; the page shows them only under the tree's "All" filter, and
// always counts them.
func (r *sessionRenderer) usageEntry(o *out, e *session.Entry, v *entryView) {
	v.Role = "Usage"
	w := e.Work
	var parts []string
	if w.Kind != "" {
		parts = append(parts, strings.ReplaceAll(w.Kind, "_", " "))
	}
	if w.Role != "" {
		parts = append(parts, w.Role+" role")
	}
	if model := modelName(w.Provider, w.Model); model != "" {
		parts = append(parts, model)
	}
	if e.Usage != nil {
		parts = append(parts, usageParts(*e.Usage)...)
	}
	o.Raw(`<p class="separator">`)
	o.Text(strings.Join(parts, " · "))
	if w.Note != "" {
		o.Raw(` <span class="muted">(`)
		o.Text(w.Note)
		o.Raw(`)</span>`)
	}
	if w.StopReason == "error" || w.StopReason == "aborted" || w.ErrorMessage != "" {
		o.Raw(` <span class="stop-note">`)
		o.Text(strings.TrimSpace(w.StopReason + " " + w.ErrorMessage))
		o.Raw(`</span>`)
	}
	o.Raw(`</p>`)
}

// usageParts names the nonzero token counts and the cost of u.
func usageParts(u session.Usage) []string {
	var parts []string
	for _, p := range []struct {
		n    int64
		what string
	}{{u.Input, "in"}, {u.Output, "out"}, {u.CacheRead, "cache read"}, {u.CacheWrite, "cache write"}} {
		if p.n > 0 {
			parts = append(parts, humanize.Tokens(p.n)+" "+p.what)
		}
	}
	if u.Cost > 0 {
		parts = append(parts, humanize.Cost(u.Cost))
	}
	return parts
}

func modelName(provider, model string) string {
	if provider != "" && model != "" {
		return provider + "/" + model
	}
	return model
}

// contextEdit renders a context_edit: what the model stops seeing, or sees
// instead, of an earlier entry. The target keeps its own text; while the
// edit lies on the path in view the target carries a badge linking here
// (see editBadges).
func (r *sessionRenderer) contextEdit(o *out, e *session.Entry, v *entryView) {
	v.Role = "Context edit"
	o.Raw(`<p class="separator">`)
	if e.Edit == nil || e.Edit.Omit {
		o.Raw(`The model no longer sees `)
		r.entryLink(o, e.TargetID)
		o.Raw(`</p>`)
		return
	}
	o.Raw(`The model sees a replacement for `)
	r.entryLink(o, e.TargetID)
	o.Raw(`</p><details class="replacement"><summary>Replacement</summary>`)
	r.blocks(o, e, e.Edit.Content)
	o.Raw(`</details>`)
}

// editBadge is a badge on an entry that a context edit changes for the
// model: shown while the edit lies on the path in view.
type editBadge struct {
	// Edit is the id of the context_edit entry, Text what it does.
	Edit, Text string
	// Active is set when the edit is the latest one aimed at the entry on
	// the path in view at load: the page shows it without its script.
	Active bool
}

// editBadges returns the badges of every entry some context edit aims at,
// in file order, marking those active on path.
func editBadges(s *session.Session, path []*session.Entry) map[*session.Entry][]editBadge {
	onPath := map[*session.Entry]bool{}
	for _, e := range path {
		onPath[e] = true
	}
	latest := map[*session.Entry]*session.Entry{} // target → latest edit on path
	for _, e := range path {
		if e.Type == "context_edit" {
			if t := s.Entry(e.TargetID); t != nil {
				latest[t] = e
			}
		}
	}
	badges := map[*session.Entry][]editBadge{}
	for _, e := range s.Entries {
		if e.Type != "context_edit" {
			continue
		}
		t := s.Entry(e.TargetID)
		if t == nil {
			continue
		}
		text := "replaced for the model later"
		if e.Edit == nil || e.Edit.Omit {
			text = "hidden from the model later"
		}
		badges[t] = append(badges[t], editBadge{Edit: e.ID, Text: text, Active: latest[t] == e})
	}
	return badges
}

// omp renders omp's own settings entries.
func (r *sessionRenderer) omp(o *out, e *session.Entry, v *entryView) {
	x := e.Omp
	o.Raw(`<p class="separator">`)
	switch e.Type {
	case "service_tier_change":
		v.Role = "Service tier"
		if len(x.ServiceTier) == 0 {
			o.Raw(`Back to the default service tiers`)
			break
		}
		for i, t := range x.ServiceTier {
			if i > 0 {
				o.Raw(`, `)
			}
			o.Text(t.Name + " ")
			o.Raw(`<strong>`)
			o.Text(t.Value)
			o.Raw(`</strong>`)
		}
	case "mode_change":
		v.Role = "Mode"
		if x.Mode == "none" || x.Mode == "" {
			o.Raw(`Left `)
			if prev := r.previousMode(e); prev != "" {
				o.Text(prev + " mode")
			} else {
				o.Raw(`the mode`)
			}
			break
		}
		o.Raw(`Entered <strong>`)
		o.Text(x.Mode)
		o.Raw(`</strong> mode`)
		r.modeData(o, x.ModeData)
	case "title_change":
		v.Role = "Title"
		o.Raw(`Title set to <strong>`)
		o.Text(x.Title)
		o.Raw(`</strong>`)
		if x.PreviousTitle != "" {
			o.Raw(` (was `)
			o.Text(x.PreviousTitle)
			o.Raw(`)`)
		}
		switch x.TitleSource {
		case "user":
			o.Raw(` by the user`)
		case "auto":
			o.Raw(` automatically`)
		}
	case "ttsr_injection":
		v.Role = "Rules"
		o.Raw(`Rules injected: `)
		codeList(o, x.Rules)
	case "mcp_tool_selection":
		v.Role = "MCP tools"
		if len(x.MCPTools) == 0 {
			o.Raw(`No MCP tools selected`)
			break
		}
		o.Raw(`MCP tools selected: `)
		codeList(o, x.MCPTools)
	case "credential_pin":
		// The pin's hash identifies an account: it is never shown (nor read).
		v.Role = "Account"
		o.Raw(`The session's `)
		o.Text(x.CredentialProvider)
		o.Raw(` account is pinned, to reuse its prompt cache`)
	}
	o.Raw(`</p>`)
}

// resetBoundary renders omp's reset_boundary, written by /clear.
func resetBoundary(o *out, v *entryView) {
	v.Role = "Context reset"
	o.Raw(`<p class="separator">The model starts afresh here; the entries above stay in the file</p>`)
}

// previousMode finds the mode in force before e on its path.
func (r *sessionRenderer) previousMode(e *session.Entry) string {
	for p := e.Parent; p != nil; p = p.Parent {
		if p.Type == "mode_change" && p.Omp != nil {
			if p.Omp.Mode == "none" {
				return ""
			}
			return p.Omp.Mode
		}
	}
	return ""
}

// modeData shows a mode's data, e.g. a plan file's path, as "name: value"
// pairs; values that are not text keep their JSON.
func (r *sessionRenderer) modeData(o *out, raw json.RawMessage) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	if raw[0] != '{' {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	_, _ = dec.Token()
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		name, _ := tok.(string)
		var value json.RawMessage
		if dec.Decode(&value) != nil {
			return
		}
		text := string(value)
		var str string
		if json.Unmarshal(value, &str) == nil {
			text = session.ShortenHome(str, r.home)
		}
		o.Raw(` · `)
		o.Text(name + ": ")
		o.Raw(`<code>`)
		o.Text(text)
		o.Raw(`</code>`)
	}
}
