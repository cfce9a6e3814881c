package export

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/piexport/piexport/session"
)

// Long outputs show previewLines lines and fold the rest behind "N more
// lines", unless only a few would be folded.
const (
	previewLines = 20
	foldMinLines = 10
)

// tool renders a tool call with its result. call is nil for a result whose
// call is not in the file; result is nil for a call that got no answer.
func (r *sessionRenderer) tool(o *out, result *session.Entry, call *session.Block, owner *session.Entry) {
	name, args, rawArgs, res := session.ReadToolCall(call, result)
	status := "pending"
	switch {
	case res != nil && res.IsError:
		status = "error"
	case res != nil:
		status = "ok"
	}
	o.raw(`<section class="tool"`)
	o.attr("data-tool", name)
	o.attr("data-status", status)
	if result != nil && result != owner {
		o.attr("data-result", result.ID)
	}
	o.raw(`><div class="tool-head"><span class="tool-name">`)
	o.text(name)
	o.raw(`</span> <span class="tool-args">`)
	if call != nil {
		summary := session.ToolCallSummary(name, rawArgs, r.home)
		summary = strings.TrimSuffix(strings.TrimPrefix(summary, "["+name+": "), "]")
		o.text(summary)
	}
	o.raw(`</span></div>`)

	output := ""
	if res != nil {
		output = res.ResultText()
	}
	switch name {
	case "bash":
		if call != nil {
			o.raw(`<div class="tool-input">`)
			o.html(highlight("$ "+args.Str("command"), "bash"))
			o.raw(`</div>`)
		}
		r.output(o, res, output, func(s string, _ int) template.HTML { return ansiToHTML(s) }, "output ansi")
	case "read":
		path := args.Str("path", "file_path")
		first, _ := args.Int("offset")
		r.output(o, res, output, func(s string, line int) template.HTML {
			return highlightToolFile(s, path, max(first, 1)+line)
		}, "")
	case "write":
		path := args.Str("path", "file_path")
		if content := args.Str("content"); call != nil && content != "" {
			o.raw(`<div class="tool-input">`)
			r.fold(o, content, func(s string, line int) template.HTML { return highlightToolFile(s, path, 1+line) }, "")
			o.raw(`</div>`)
		}
		r.output(o, res, output, plainText, "output")
	case "edit":
		if d := session.EditDiff(res, args); d != "" {
			o.raw(`<div class="tool-input">`)
			o.html(renderDiff(d))
			o.raw(`</div>`)
		}
		if status != "ok" {
			r.output(o, res, output, plainText, "output")
		}
	default:
		if call != nil && name != "grep" && name != "find" && name != "ls" && len(args) > 0 {
			o.raw(`<details class="tool-input"><summary>Arguments</summary>`)
			prettyJSON(o, rawArgs)
			o.raw(`</details>`)
		}
		r.output(o, res, output, plainText, "output")
	}
	if res != nil {
		for _, b := range res.Content {
			if b.Type == "image" {
				image(o, b)
			}
		}
	}
	o.raw(`</section>`)
}

func plainText(s string, _ int) template.HTML {
	var o out
	o.text(s)
	return o.body()
}

// output renders a tool's output, or says that none came.
func (r *sessionRenderer) output(o *out, res *session.Message, text string, render func(string, int) template.HTML, class string) {
	if res == nil {
		o.raw(`<p class="tool-pending">No result: the turn ended before the tool answered.</p>`)
		return
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	o.raw(`<div class="tool-output">`)
	r.fold(o, text, render, class)
	o.raw(`</div>`)
}

// fold renders text with render, showing the first lines and folding the
// rest behind "N more lines". render is given the index of the first line
// of its part, for line numbers. class, if set, wraps each part in
// <pre class=...>; otherwise render writes its own <pre>.
func (r *sessionRenderer) fold(o *out, text string, render func(string, int) template.HTML, class string) {
	text = strings.TrimRight(text, "\n")
	cut, lines := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			lines++
			if lines == previewLines {
				cut = i
			}
		}
	}
	lines++
	part := func(s string, first int) {
		if class != "" {
			o.raw(`<pre class="` + class + `">`)
		}
		o.html(render(s, first))
		if class != "" {
			o.raw(`</pre>`)
		}
	}
	if lines < previewLines+foldMinLines {
		part(text, 0)
		return
	}
	part(text[:cut], 0)
	o.raw(`<details class="more"><summary>`)
	o.text(fmt.Sprintf("%d more lines", lines-previewLines))
	o.raw(`</summary>`)
	// The folded lines are most of a large page: kept as text until opened
	// (see entryView.Lazy), unless the whole entry already is.
	if !o.lazy {
		o.raw(`<noscript class="lazy">`)
	}
	part(text[cut+1:], previewLines)
	if !o.lazy {
		o.raw(`</noscript>`)
	}
	o.raw(`</details>`)
}

// userCommand renders a command the user ran with ! (bashExecution) or
// omp's JavaScript equivalent.
func (r *sessionRenderer) userCommand(o *out, m *session.Message) {
	status := "ok"
	if m.Cancelled || (m.ExitCode != nil && *m.ExitCode != 0) {
		status = "error"
	}
	o.raw(`<section class="tool" data-tool="user-bash"`)
	o.attr("data-status", status)
	o.raw(`><div class="tool-input">`)
	lang := "bash"
	if m.Role == "jsExecution" {
		lang = "javascript"
	}
	o.html(highlight("$ "+m.Command, lang))
	o.raw(`</div>`)
	if strings.TrimSpace(m.Output) != "" {
		o.raw(`<div class="tool-output">`)
		r.fold(o, m.Output, func(s string, _ int) template.HTML { return ansiToHTML(s) }, "output ansi")
		o.raw(`</div>`)
	}
	marks := session.CommandMarks(m, func(p string) string { return session.ShortenHome(p, r.home) })
	if len(marks) > 0 {
		o.raw(`<p class="tool-status">`)
		o.text(strings.Join(marks, " · "))
		o.raw(`</p>`)
	}
	o.raw(`</section>`)
}
