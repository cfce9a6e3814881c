package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// sessionRenderer renders the entries of one session. It only reads the session,
// so one renderer serves every worker of renderAll.
type sessionRenderer struct {
	s    *session.Session
	home string
}

// out collects the HTML of one entry body. Text goes in through text (or
// attr), which escapes it; markup through raw, which takes only literals
// written in this package; rendered fragments through html.
type out struct {
	bytes.Buffer
	// lazy says the whole body goes into <noscript class="lazy"> (see
	// entryView.Lazy), so parts of it must not be wrapped again: a
	// noscript inside a noscript would end the outer one early.
	lazy bool
}

func (o *out) raw(s string)            { o.WriteString(s) }
func (o *out) text(s string)           { o.WriteString(html.EscapeString(s)) }
func (o *out) html(h template.HTML)    { o.WriteString(string(h)) }
func (o *out) attr(name, value string) { o.raw(" " + name + `="` + html.EscapeString(value) + `"`) }

// body is the one place entry bodies become template.HTML: everything in
// an out was escaped on the way in, or is markup written by this package.
func (o *out) body() template.HTML { return trusted(o.Bytes()) }

// renderEntry fills the role, body and footer of one entry.
func (r *sessionRenderer) renderEntry(e *session.Entry, v *entryView) {
	o := out{lazy: v.Lazy}
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
		r.branchSummary(&o, e.ID, e.Summary, e.FromID)
	case "custom_message":
		v.Role = "Extension message · " + e.CustomType
		r.customMessage(&o, e.ID, e.CustomType, e.Content, e.Display)
	case "model_change":
		v.Role = "Model"
		name := e.ModelID
		if e.Provider != "" {
			name = e.Provider + "/" + e.ModelID
		}
		o.raw(`<p class="separator">Model set to <strong>`)
		o.text(name)
		o.raw(`</strong>`)
		if e.ModelRole != "" && e.ModelRole != "default" {
			o.raw(" for the ")
			o.text(e.ModelRole)
			o.raw(" role")
		}
		o.raw(`</p>`)
	case "thinking_level_change":
		v.Role = "Thinking level"
		o.raw(`<p class="separator">Thinking level set to <strong>`)
		o.text(e.ThinkingLevel)
		o.raw(`</strong></p>`)
	case "label":
		v.Role = "Label"
		o.raw(`<p class="separator">`)
		if e.LabelText == "" {
			o.raw("Label cleared on ")
		} else {
			o.raw("Label <strong>")
			o.text(e.LabelText)
			o.raw("</strong> set on ")
		}
		r.entryLink(&o, e.TargetID)
		o.raw(`</p>`)
	case "session_info":
		v.Role = "Session name"
		o.raw(`<p class="separator">Session named <strong>`)
		o.text(strings.TrimSpace(e.SessionName))
		o.raw(`</strong></p>`)
	default:
		v.Role = e.Type
		r.rawJSON(&o, e, e.Type+" entry")
	}
	v.Body = o.body()
}

func (r *sessionRenderer) message(o *out, e *session.Entry, v *entryView) {
	m := e.Message
	switch m.Role {
	case "user":
		v.Role = "User"
		r.blocks(o, e, m.Content)
	case "assistant":
		v.Role = "Assistant"
		if m.Model != "" {
			v.Role += " · " + m.Model
		}
		r.blocks(o, e, m.Content)
		if m.StopReason == "error" || m.StopReason == "aborted" {
			o.raw(`<div class="stop-error" data-stop="`)
			o.text(m.StopReason)
			o.raw(`"><strong>`)
			if m.StopReason == "aborted" {
				o.raw("Aborted")
			} else {
				o.raw("Error")
			}
			o.raw("</strong>")
			if m.ErrorMessage != "" {
				o.raw(": ")
				o.text(m.ErrorMessage)
			}
			o.raw("</div>")
		}
		v.Foot = usageLine(m)
	case "toolResult":
		v.Role = "Tool result"
		if m.ToolName != "" {
			v.Role += " · " + m.ToolName
		}
		if assistant, call := r.s.CallOf(e); call != nil {
			// The result is shown with its call in the assistant's entry.
			v.Ref = true
			o.raw(`<p class="tool-ref"><a href="#`)
			o.text(assistant.ID)
			o.raw(`">`)
			o.text(session.ToolCallSummary(call.Name, call.Arguments, r.home))
			o.raw(`</a> shown with its call above</p>`)
			return
		}
		r.tool(o, e, nil, e)
	case "bashExecution", "jsExecution":
		v.Role = "Bash (run by the user)"
		if m.Role == "jsExecution" {
			v.Role = "JavaScript (run by the user)"
		}
		r.userCommand(o, m)
	case "custom":
		v.Role = "Extension message · " + m.CustomType
		r.customMessage(o, e.ID, m.CustomType, m.Content, m.Display)
	case "branchSummary":
		v.Role = "Branch summary"
		r.branchSummary(o, e.ID, m.Summary, m.FromID)
	case "compactionSummary":
		v.Role = "Compaction summary"
		o.raw(`<div class="card compaction">`)
		o.html(renderMarkdown(m.Summary, "e-"+e.ID+"-"))
		o.raw(`</div>`)
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
		prefix := fmt.Sprintf("e-%s-%d-", e.ID, i)
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) != "" {
				o.html(renderMarkdown(b.Text, prefix))
			}
		case "thinking":
			o.raw(`<details class="thinking"><summary>Thinking</summary>`)
			if b.Redacted {
				o.raw(`<p class="note">The provider redacted this thinking.</p>`)
			} else {
				o.html(renderMarkdown(b.Text, prefix))
			}
			o.raw(`</details>`)
		case "toolCall":
			var result *session.Entry
			if b.ToolCallID != "" {
				result = r.s.ToolResult(e, b.ToolCallID)
			}
			r.tool(o, result, &content[i], e)
		case "image":
			image(o, b)
		default:
			o.raw(`<details class="raw"><summary>`)
			o.text(b.Type)
			o.raw(` block</summary>`)
			prettyJSON(o, b.Raw)
			o.raw(`</details>`)
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
		o.raw(`<p class="image-missing">Image (`)
		o.text(b.MimeType)
		o.raw(`) not stored in the session file: <code>`)
		o.text(b.Data)
		o.raw(`</code></p>`)
	case imageTypes[mime] && isBase64(b.Data):
		o.raw(`<img class="inline-image" alt="image from the session" src="data:`)
		o.raw(mime) // from the allow-list above
		o.raw(`;base64,`)
		o.raw(b.Data) // checked by isBase64: only [A-Za-z0-9+/=\s]
		o.raw(`">`)
	default:
		o.raw(`<p class="image-missing">Image of type `)
		o.text(b.MimeType)
		o.raw(` not shown (`)
		o.text(fmt.Sprint(len(b.Data)))
		o.raw(` bytes of data that are not a picture this page shows).</p>`)
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

func (r *sessionRenderer) compaction(o *out, e *session.Entry) {
	o.raw(`<div class="card compaction"><p class="card-head">Context compacted: <strong>`)
	o.text(humanize.Tokens(e.TokensBefore))
	o.raw(` tokens</strong> summarised`)
	if e.FromHook {
		o.raw(` by an extension`)
	}
	o.raw(`</p>`)
	if e.ShortSummary != "" {
		o.raw(`<p class="short-summary">`)
		o.text(e.ShortSummary)
		o.raw(`</p>`)
	}
	o.raw(`<details class="summary"><summary>Summary</summary>`)
	o.html(renderMarkdown(e.Summary, "e-"+e.ID+"-"))
	o.raw(`</details>`)
	var details struct {
		ReadFiles     []string `json:"readFiles"`
		ModifiedFiles []string `json:"modifiedFiles"`
	}
	if json.Unmarshal(e.Details, &details) == nil {
		r.fileList(o, "Files read", details.ReadFiles)
		r.fileList(o, "Files modified", details.ModifiedFiles)
	}
	o.raw(`</div>`)
}

func (r *sessionRenderer) fileList(o *out, title string, files []string) {
	if len(files) == 0 {
		return
	}
	o.raw(`<details class="files"><summary>`)
	o.text(fmt.Sprintf("%s (%d)", title, len(files)))
	o.raw(`</summary><ul>`)
	for _, f := range files {
		o.raw(`<li><code>`)
		o.text(session.ShortenHome(f, r.home))
		o.raw(`</code></li>`)
	}
	o.raw(`</ul></details>`)
}

func (r *sessionRenderer) branchSummary(o *out, id, summary, fromID string) {
	o.raw(`<div class="card branch-summary"><p class="card-head">Summary of an abandoned branch`)
	if fromID != "" {
		o.raw(` that left off at `)
		r.entryLink(o, fromID)
	}
	o.raw(`</p>`)
	o.html(renderMarkdown(summary, "e-"+id+"-"))
	o.raw(`</div>`)
}

// entryLink links to the entry with the file id id.
func (r *sessionRenderer) entryLink(o *out, id string) {
	target := r.s.Entry(id)
	if target == nil {
		o.raw(`<code>`)
		o.text(id)
		o.raw(`</code> (not in this file)`)
		return
	}
	o.raw(`<a href="#`)
	o.text(target.ID)
	o.raw(`">`)
	p := r.s.Preview(target, r.home)
	o.text(humanize.OneLine(strings.TrimSpace(p.Role+" "+p.Text), 60))
	o.raw(`</a>`)
}

func (r *sessionRenderer) customMessage(o *out, id, customType string, content []session.Block, display bool) {
	text := ""
	for _, b := range content {
		if b.Type == "text" {
			text += b.Text + "\n\n"
		}
	}
	if !display {
		o.raw(`<details class="hidden-context"><summary>Hidden context · `)
		o.text(customType)
		o.raw(`</summary>`)
		o.html(renderMarkdown(text, "e-"+id+"-"))
		o.raw(`</details>`)
		return
	}
	o.raw(`<div class="custom-message">`)
	o.html(renderMarkdown(text, "e-"+id+"-"))
	o.raw(`</div>`)
}

// rawJSON shows an entry this page has no special view for as its JSON,
// pretty-printed and collapsed: nothing in a session is silently dropped.
func (r *sessionRenderer) rawJSON(o *out, e *session.Entry, what string) {
	o.raw(`<details class="raw"><summary>`)
	o.text(what)
	o.raw(` (JSON)</summary>`)
	prettyJSON(o, e.Raw)
	o.raw(`</details>`)
}

func prettyJSON(o *out, raw json.RawMessage) {
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") != nil {
		buf.Reset()
		buf.Write(raw)
	}
	o.raw(`<pre class="json">`)
	o.text(buf.String())
	o.raw(`</pre>`)
}

// usageLine is an assistant message's footer: tokens and cost.
func usageLine(m *session.Message) string {
	if m.Usage == (session.Usage{}) {
		return ""
	}
	return strings.Join(humanize.Usage(m.Usage, "in", "out"), " · ")
}
