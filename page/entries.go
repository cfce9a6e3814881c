package page

import (
	"fmt"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// sessionRenderer renders the entries of one session. It only reads the session,
// so one renderer serves every worker of renderAll.
type sessionRenderer struct {
	s    *session.Session
	home string
	// pos is each entry's place in tree order; previews are the tree's
	// rows (see factsOf) and badges the context edits aimed at each
	// entry, all made before rendering starts. They are nil in a
	// sub-agent's transcript.
	pos      map[*session.Entry]int
	previews []session.Preview
	kinds    []string
	badges   map[*session.Entry][]editBadge
	// ownedBadges are the badges of the tool results shown in an entry's
	// tool cards: such a result has no head of its own.
	ownedBadges map[*session.Entry][]editBadge
	// repeats are the tool outputs the session holds more than once
	// (repeats.go); nil when none is.
	repeats *repeats
	// agents are the transcripts of the session's sub-agents.
	agents []*session.SubAgent
	// prefix goes before every id the renderer writes: "" on the page's
	// own session, "sub-KEY-" in a sub-agent's transcript, so that the ids
	// of several sessions in one page never collide.
	prefix string
	// problems collects the entries that could not be rendered.
	problems *problems
}

// key is e's id in the page: prefixed in a sub-agent's transcript. The
// ids the renderers derive for e (headings, footnotes) start from it.
func (r *sessionRenderer) key(e *session.Entry) string { return r.prefix + e.ID }

// elementID is the element id of e's entry (or card) in the page.
func (r *sessionRenderer) elementID(e *session.Entry) string { return elementID(r.key(e)) }

// out collects the HTML of one entry body: markup as constants through
// Raw, text through Text and Attr, which escape it, and fragments from
// package render through Append (see render.Builder). A body never holds
// a <noscript>: the page carries bodies inside one (see the package doc).
type out struct {
	render.Builder
}

// renderEntry fills the role, body and footer of one entry.
func (r *sessionRenderer) renderEntry(e *session.Entry, v *entryView) {
	if v.Absorbed {
		return
	}
	var o out
	o.Grow(bodySizeGuess(e))
	switch e.Type {
	case "message":
		if e.Message == nil {
			v.Role = "Message"
			r.rawJSON(&o, e, "message")
			break
		}
		r.message(&o, e, v)
	case "compaction":
		v.Role = "Compaction"
		r.compaction(&o, e)
	case "branch_summary":
		v.Role = "Branch summary"
		r.branchSummary(&o, r.key(e), e.Summary, e.FromID, e.Usage)
	case "custom_message":
		v.Role = "Extension message · " + e.CustomType
		r.customMessage(&o, r.key(e), e.CustomType, e.Content, e.Display)
	case "usage", "model_usage":
		if e.Work == nil {
			v.Role = e.Type
			r.rawJSON(&o, e, e.Type+" entry")
			break
		}
		r.usageEntry(&o, e, v)
	case "context_edit":
		r.contextEdit(&o, e, v)
	case "session_init":
		if e.Omp == nil || e.Omp.Init == nil {
			v.Role = e.Type
			r.rawJSON(&o, e, e.Type+" entry")
			break
		}
		r.sessionInit(&o, e, v)
	case "service_tier_change", "mode_change", "title_change", "ttsr_injection", "credential_pin", "mcp_tool_selection":
		if e.Omp == nil {
			v.Role = e.Type
			r.rawJSON(&o, e, e.Type+" entry")
			break
		}
		r.omp(&o, e, v)
	case "reset_boundary":
		resetBoundary(&o, v)
	case "model_change":
		v.Role = "Model"
		name := e.ModelID
		if e.Provider != "" {
			name = e.Provider + "/" + e.ModelID
		}
		o.Raw(`<p class="separator">Model set to <strong>`)
		o.Text(name)
		o.Raw(`</strong>`)
		if e.ModelRole != "" && e.ModelRole != "default" {
			o.Raw(" for the ")
			o.Text(e.ModelRole)
			o.Raw(" role")
		}
		if e.Omp != nil && e.Omp.Fallback {
			o.Raw(`, a fallback after the configured model failed`)
		}
		o.Raw(`</p>`)
	case "thinking_level_change":
		v.Role = "Thinking level"
		o.Raw(`<p class="separator">Thinking level set to <strong>`)
		o.Text(e.ThinkingLevel)
		o.Raw(`</strong>`)
		if e.Omp != nil && e.Omp.ConfiguredThinking != "" {
			o.Raw(` (the user chose `)
			o.Text(e.Omp.ConfiguredThinking)
			o.Raw(`)`)
		}
		o.Raw(`</p>`)
	case "label":
		v.Role = "Label"
		o.Raw(`<p class="separator">`)
		if e.LabelText == "" {
			o.Raw("Label cleared on ")
		} else {
			o.Raw("Label <strong>")
			o.Text(e.LabelText)
			o.Raw("</strong> set on ")
		}
		r.entryLink(&o, e.TargetID)
		o.Raw(`</p>`)
	case "session_info":
		v.Role = "Session name"
		o.Raw(`<p class="separator">Session named <strong>`)
		o.Text(strings.TrimSpace(e.SessionName))
		o.Raw(`</strong></p>`)
	case "custom":
		v.Role = "Extension state"
		r.customEntry(&o, e)
	default:
		v.Role = e.Type
		r.rawJSON(&o, e, e.Type+" entry")
	}
	if len(e.BadFields) > 0 {
		badFields(&o, e.BadFields)
	}
	v.Body = o.HTML()
}

// badFields shows the values of an entry that could not be read as their
// fields (a count written "NaN"), as the file has them: the rest of the
// entry is shown as it reads.
func badFields(o *out, bad []session.BadField) {
	o.Raw(`<details class="raw bad-fields"><summary>`)
	o.Text(humanize.Count(len(bad), "field", "fields"))
	o.Raw(` that could not be read (JSON)</summary><dl>`)
	for _, b := range bad {
		o.Raw(`<dt><code>`)
		o.Text(b.Path)
		o.Raw(`</code>: `)
		o.Text(b.Why)
		o.Raw(`</dt><dd>`)
		o.Append(render.JSON(b.Raw))
		o.Raw(`</dd>`)
	}
	o.Raw(`</dl></details>`)
}

func (r *sessionRenderer) message(o *out, e *session.Entry, v *entryView) {
	m := e.Message
	switch m.Role {
	case "system":
		r.systemMessage(o, e, v)
	case "user":
		v.Role = "User"
		r.blocks(o, e, m.Content)
	case "assistant":
		v.Role = "Assistant"
		if m.Model != "" {
			v.Role += " · " + m.Model
		}
		r.blocks(o, e, m.Content)
		stopNote(o, m)
		diagnostics(o, m.Diagnostics)
		v.Foot = assistantFoot(m)
	case "toolResult":
		v.Role = "Tool result"
		if m.ToolName != "" {
			v.Role += " · " + m.ToolName
		}
		owner, call := r.s.CallOf(e)
		if owner != nil {
			// The call with its arguments, in a lean session too.
			call = session.FullBlock(r.s.Full(owner), call.ToolCallID)
		}
		r.tool(o, e, call, e)
	case "bashExecution", "jsExecution", "pythonExecution":
		switch m.Role {
		case "jsExecution":
			v.Role = "JavaScript (run by the user)"
		case "pythonExecution":
			v.Role = "Python (run by the user)"
		default:
			v.Role = "Bash (run by the user)"
		}
		r.userCommand(o, m)
	case "custom", "hookMessage":
		v.Role = "Extension message · " + m.CustomType
		r.customMessage(o, r.key(e), m.CustomType, m.Content, m.Display)
	case "fileMention":
		v.Role = "Files mentioned"
		r.fileMention(o, e)
	case "branchSummary":
		v.Role = "Branch summary"
		r.branchSummary(o, r.key(e), m.Summary, m.FromID, nil)
	case "compactionSummary":
		v.Role = "Compaction summary"
		o.Raw(`<div class="card compaction">`)
		o.Append(render.Markdown(m.Summary, "e-"+r.key(e)+"-"))
		o.Raw(`</div>`)
	case "developer":
		v.Role = "Developer"
		r.blocks(o, e, m.Content)
	default:
		v.Role = m.Role
		r.rawJSON(o, e, m.Role+" message")
	}
}

// blocks renders message content in order: text as markdown, thinking
// collapsed, tool calls with their results, images inline.
func (r *sessionRenderer) blocks(o *out, e *session.Entry, content []session.Block) {
	for i, b := range content {
		prefix := fmt.Sprintf("e-%s-%d-", r.key(e), i)
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) != "" {
				o.Append(render.Markdown(b.Text, prefix))
			}
		case "thinking":
			if b.Redacted {
				o.Raw(`<details class="thinking redacted"><summary>Thinking (redacted)</summary>`)
				o.Raw(`<p class="note">The provider sent this thinking encrypted; there is no text to show.</p>`)
			} else {
				o.Raw(`<details class="thinking"><summary>Thinking</summary>`)
				o.Append(render.Markdown(b.Text, prefix))
			}
			o.Raw(`</details>`)
		case "toolCall":
			var result *session.Entry
			if b.ToolCallID != "" {
				result = r.s.Full(r.s.ToolResult(e, b.ToolCallID))
			}
			r.tool(o, result, &content[i], e)
		case "image":
			image(o, b)
		default:
			o.Raw(`<details class="raw"><summary>`)
			o.Text(b.Type)
			o.Raw(` block</summary>`)
			o.Append(render.JSON(b.Raw))
			o.Raw(`</details>`)
		}
	}
}

// imageTypes are the image types shown inline. SVG is left out: it is a
// document, not a picture.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// image shows a base64 image inline, or says where the image was when the
// file holds only a reference to it.
func image(o *out, b session.Block) {
	mime := strings.ToLower(strings.TrimSpace(b.MimeType))
	switch {
	case strings.HasPrefix(b.Data, "blob:"):
		o.Raw(`<p class="image-missing">Image (`)
		o.Text(b.MimeType)
		o.Raw(`) not stored in the session file: <code>`)
		o.Text(b.Data)
		o.Raw(`</code></p>`)
	case imageTypes[mime] && isBase64(b.Data):
		o.Raw(`<img class="inline-image" alt="image from the session" src="data:`)
		o.Text(mime) // from the allow-list above: escaping leaves it as it is
		o.Raw(`;base64,`)
		o.Text(b.Data) // checked by isBase64: only [A-Za-z0-9+/=], which escaping leaves as it is
		o.Raw(`">`)
	default:
		o.Raw(`<p class="image-missing">Image of type `)
		o.Text(b.MimeType)
		o.Raw(` not shown (`)
		o.Text(fmt.Sprint(len(b.Data)))
		o.Raw(` bytes of data that are not a picture this page shows).</p>`)
	}
}

func isBase64(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

// stopNote says when an answer did not end normally: cut short, aborted,
// failed, or deferred to be fetched later.
func stopNote(o *out, m *session.Message) {
	var what string
	switch m.StopReason {
	case "error":
		what = "Error"
	case "aborted":
		what = "Aborted"
	case "length":
		what = "Cut short at the output limit"
	case "deferred":
		what = "Deferred: the provider answers later"
	default:
		return
	}
	o.Raw(`<div class="stop-error" data-stop="`)
	o.Text(m.StopReason)
	o.Raw(`"><strong>`)
	o.Text(what)
	o.Raw(`</strong>`)
	if m.ErrorMessage != "" {
		o.Raw(`: `)
		o.Text(m.ErrorMessage)
	}
	if d := m.Deferred; d != nil {
		o.Raw(` <span class="muted">(`)
		var parts []string
		if model := modelName(d.Provider, d.ModelID); model != "" {
			parts = append(parts, model)
		}
		if d.ID != "" {
			parts = append(parts, "request "+d.ID)
		}
		if !d.ExpiresAt.IsZero() {
			parts = append(parts, "until "+d.ExpiresAt.UTC().Format("2006-01-02 15:04 UTC"))
		}
		o.Text(strings.Join(parts, ", "))
		o.Raw(`)</span>`)
	}
	o.Raw(`</div>`)
}

// absorbed reports whether the tool result e is shown in its call's card
// (see tool), so that it needs no entry of its own: its call is among its
// ancestors, and that call's card shows this result.
func (r *sessionRenderer) absorbed(e *session.Entry) bool {
	assistant, call := r.s.CallOf(e)
	if call == nil {
		return false
	}
	// By id: e may be a copy Full made of the entry the session holds.
	shown := r.s.ToolResult(assistant, call.ToolCallID)
	return shown != nil && shown.ID == e.ID
}

// entryLink links to the entry with the file id id.
func (r *sessionRenderer) entryLink(o *out, id string) {
	target := r.s.Entry(id)
	if target == nil {
		o.Raw(`<code>`)
		o.Text(id)
		o.Raw(`</code> (not in this file)`)
		return
	}
	o.Raw(`<a href="#`)
	o.Text(r.elementID(target))
	o.Raw(`">`)
	var p session.Preview
	if k, ok := r.pos[target]; ok && r.previews != nil {
		p = r.previews[k]
	} else {
		p = r.s.Preview(r.s.Full(target), r.home)
	}
	o.Text(humanize.OneLine(strings.TrimSpace(p.Role+" "+p.Text), 60))
	o.Raw(`</a>`)
}

func (r *sessionRenderer) customMessage(o *out, id, customType string, content []session.Block, display bool) {
	text := ""
	for _, b := range content {
		if b.Type == "text" {
			text += b.Text + "\n\n"
		}
	}
	if !display {
		o.Raw(`<details class="hidden-context"><summary>Hidden context · `)
		o.Text(customType)
		o.Raw(`</summary>`)
		o.Append(render.Markdown(text, "e-"+id+"-"))
		o.Raw(`</details>`)
		return
	}
	o.Raw(`<div class="custom-message">`)
	o.Append(render.Markdown(text, "e-"+id+"-"))
	o.Raw(`</div>`)
}

// rawJSON shows an entry this page has no special view for as its JSON,
// pretty-printed and collapsed: nothing in a session is silently dropped.
func (r *sessionRenderer) rawJSON(o *out, e *session.Entry, what string) {
	o.Raw(`<details class="raw"><summary>`)
	o.Text(what)
	o.Raw(` (JSON)</summary>`)
	o.Append(render.JSON(e.Raw))
	o.Raw(`</details>`)
}

// assistantFoot is an assistant message's footer: the model that answered
// where it is not the one asked for, the thinking level asked for, tokens
// and cost.
func assistantFoot(m *session.Message) string {
	var parts []string
	if m.ResponseModel != "" && m.ResponseModel != m.Model {
		parts = append(parts, "answered by "+m.ResponseModel)
	}
	if m.ThinkingLevel != "" {
		parts = append(parts, "thinking "+m.ThinkingLevel)
	}
	if m.Usage != (session.Usage{}) {
		parts = append(parts, humanize.Usage(m.Usage, "in", "out")...)
	}
	return strings.Join(parts, " · ")
}

// bodySizeGuess is about how long an entry's HTML is: its text, marked up
// (highlighted code takes about three times its size).
func bodySizeGuess(e *session.Entry) int {
	n := 512
	if m := e.Message; m != nil {
		for _, b := range m.Content {
			n += len(b.Text) + len(b.Arguments)
		}
		n += len(m.Output) + len(m.Command) + len(m.Summary) + len(m.Details)
	}
	return min(3*n, 4<<20)
}
