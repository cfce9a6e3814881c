package page

import (
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// Long outputs show previewLines lines and fold the rest behind "N more
// lines", unless only a few would be folded.
const (
	previewLines = 20
	foldMinLines = 10
)

// foldStart and foldEnd mark the folded lines of an output: comments,
// which a reader without JavaScript never sees, and which session text
// cannot make (its "<" is escaped).
const (
	foldStart = `<!--piexport:fold-->`
	foldEnd   = `<!--/piexport:fold-->`
)

// toolCard starts the card of a tool call or a command, and toolOutput
// its output: the tree's search reads a card's output as the text of the
// result it stands for (scriptConfig).
const (
	toolCard   = `<section class="tool"`
	toolOutput = `<div class="tool-output">`
)

// tool renders a tool call with its result. call is nil for a result whose
// call is not in the file; result is nil for a call that got no answer.
func (r *sessionRenderer) tool(o *out, result *session.Entry, call *session.Block, owner *session.Entry) {
	name, args, rawArgs, res := session.ReadToolCall(call, result)
	status := "pending"
	switch {
	case res.Aborted():
		// pi 1.6: the user pressed Esc before the call ran (or while
		// it ran); not a failure of the tool.
		status = "aborted"
	case res != nil && res.IsError:
		status = "error"
	case res != nil:
		status = "ok"
	}
	o.Raw(toolCard)
	if result != nil && result != owner {
		if r.absorbed(result) {
			// The card stands for the result's entry too: links to
			// that entry land here.
			o.Attr("id", r.elementID(result))
		}
		o.Attr("data-result", r.key(result))
	}
	o.Attr("data-tool", name)
	o.Attr("data-status", status)
	o.Raw(`><div class="tool-head"><span class="tool-name">`)
	o.Text(name)
	o.Raw(`</span>`)
	// A command is shown once, whole, below the head: the head names
	// only the tool.
	if !(name == "bash" && call != nil) {
		o.Raw(` <span class="tool-args">`)
		if call != nil {
			o.Text(session.ToolArgsSummary(name, rawArgs, r.home))
		}
		o.Raw(`</span>`)
	}
	o.Raw(`</div>`)

	output := ""
	if res != nil {
		output = res.ResultText()
	}
	if status == "aborted" {
		o.Raw(`<p class="tool-aborted">Aborted: the user stopped the turn before this call finished.</p>`)
		o.Raw(`</section>`)
		return
	}
	switch name {
	case "bash":
		if call != nil {
			o.Raw(`<div class="tool-input">`)
			o.Append(render.Highlight("$ "+args.Str("command"), "bash"))
			o.Raw(`</div>`)
		}
		r.output(o, res, output, "", terminalText, "output ansi")
	case "read":
		path := args.Str("path", "file_path")
		first, _ := args.Int("offset")
		r.output(o, res, output, fmt.Sprintf("read %d %s", max(first, 1), path), func(s string, line int) template.HTML {
			return render.HighlightFile(s, path, max(first, 1)+line)
		}, "")
	case "write":
		path := args.Str("path", "file_path")
		if content := args.Str("content"); call != nil && content != "" {
			o.Raw(`<div class="tool-input">`)
			r.fold(o, content, func(s string, line int) template.HTML { return render.HighlightFile(s, path, 1+line) }, "")
			o.Raw(`</div>`)
		}
		r.output(o, res, output, "", terminalText, "output")
	case "edit":
		if d := session.EditDiff(res, args); d != "" {
			o.Raw(`<div class="tool-input">`)
			o.Append(render.Diff(d))
			o.Raw(`</div>`)
		}
		if status != "ok" {
			r.output(o, res, output, "", terminalText, "output")
		}
	case "task": // omp: sub-agents
		r.task(o, call, result, owner)
		r.output(o, res, output, "", terminalText, "output")
	default:
		if call != nil && name != "grep" && name != "find" && name != "ls" && len(args) > 0 {
			o.Raw(`<details class="tool-input"><summary>Arguments</summary>`)
			o.Append(render.JSON(rawArgs))
			o.Raw(`</details>`)
		}
		r.output(o, res, output, "", terminalText, "output")
	}
	if res != nil {
		for _, b := range res.Content {
			if b.Type == "image" {
				image(o, b)
			}
		}
		nestedCalls(o, res)
	}
	o.Raw(`</section>`)
}

// milliseconds says a short duration: "12 ms", "2.3 s", "1m 5s".
func milliseconds(ms float64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%d ms", int(ms+0.5))
	case ms < 60_000:
		return fmt.Sprintf("%.1f s", ms/1000)
	}
	return humanize.Duration(time.Duration(ms * float64(time.Millisecond)))
}

// nestedCalls lists the calls a tool made to other tools (pi 1.5), one
// line each, and the model work the tool did itself.
func nestedCalls(o *out, res *session.Message) {
	if len(res.NestedCalls) > 0 {
		o.Raw(`<div class="tool-nested"><p class="tool-status">`)
		o.Text(humanize.Count(len(res.NestedCalls), "nested call", "nested calls"))
		if !res.NestedComplete {
			o.Raw(` (the list is incomplete)`)
		}
		o.Raw(`</p><ul class="nested-calls">`)
		for _, c := range res.NestedCalls {
			o.Raw(`<li`)
			o.Attr("data-status", c.Status)
			o.Raw(`><code>`)
			o.Text(c.Name)
			o.Raw(`</code> `)
			o.Text(c.Status)
			if c.DurationMs > 0 {
				o.Text(" · " + milliseconds(c.DurationMs))
			}
			if c.Error != "" {
				o.Raw(` · <span class="nested-error">`)
				o.Text(humanize.OneLine(c.Error, 200))
				o.Raw(`</span>`)
			}
			o.Raw(`</li>`)
		}
		o.Raw(`</ul></div>`)
	}
	if res.Role == "toolResult" && res.Usage != (session.Usage{}) {
		o.Raw(`<p class="tool-status">The tool's own model work: `)
		o.Text(strings.Join(usageParts(res.Usage), " · "))
		o.Raw(`</p>`)
	}
}

// terminalText shows a tool's output as a terminal would: pi's tools and
// extensions write for one, with colours and hyperlinks (render.Terminal).
func terminalText(s string, _ int) template.HTML { return render.Terminal(s) }

// output renders a tool's output, or says that none came. how names
// what show does beyond the class ("" for terminal text): an output the
// session holds several times (a file read again and again) is rendered
// once, and how is part of what must be the same.
func (r *sessionRenderer) output(o *out, res *session.Message, text, how string, show func(string, int) template.HTML, class string) {
	if res == nil {
		o.Raw(`<p class="tool-pending">No result: the turn ended before the tool answered.</p>`)
		return
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	o.Append(r.repeats.output(res, how+"\x00"+class, func() template.HTML {
		var b out
		b.Raw(toolOutput)
		r.fold(&b, text, show, class)
		b.Raw(`</div>`)
		return b.HTML()
	}))
}

// fold renders text with show, showing the first lines and folding the
// rest behind "N more lines". show is given the index of the first line
// of its part, for line numbers. class, if set, wraps each part in
// <pre class=...>; otherwise show writes its own <pre>.
func (r *sessionRenderer) fold(o *out, text string, show func(string, int) template.HTML, class string) {
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
			o.Raw(`<pre class="`)
			o.Text(class)
			o.Raw(`">`)
		}
		o.Append(show(s, first))
		if class != "" {
			o.Raw(`</pre>`)
		}
	}
	if lines < previewLines+foldMinLines {
		part(text, 0)
		return
	}
	part(text[:cut], 0)
	o.Raw(`<details class="more"><summary>`)
	o.Text(humanize.Count(lines-previewLines, "more line", "more lines"))
	o.Raw(`</summary>`)
	// The folded lines are most of a large page: the page's script keeps
	// what lies between these marks as text until the fold is opened.
	o.Raw(foldStart)
	part(text[cut+1:], previewLines)
	o.Raw(foldEnd)
	o.Raw(`</details>`)
}

// userCommand renders a command the user ran with ! (bashExecution) or
// omp's Python and JavaScript equivalents.
func (r *sessionRenderer) userCommand(o *out, m *session.Message) {
	status := "ok"
	if m.Cancelled || (m.ExitCode != nil && *m.ExitCode != 0) {
		status = "error"
	}
	o.Raw(toolCard + ` data-tool="user-bash"`)
	o.Attr("data-status", status)
	o.Raw(`><div class="tool-input">`)
	lang, prompt := "bash", "$ "
	switch m.Role {
	case "jsExecution":
		lang = "javascript"
	case "pythonExecution":
		lang, prompt = "python", ""
	}
	o.Append(render.Highlight(prompt+m.Command, lang))
	o.Raw(`</div>`)
	if strings.TrimSpace(m.Output) != "" {
		o.Raw(toolOutput)
		r.fold(o, m.Output, terminalText, "output ansi")
		o.Raw(`</div>`)
	}
	marks := session.CommandMarks(m, func(p string) string { return session.ShortenHome(p, r.home) })
	if len(marks) > 0 {
		o.Raw(`<p class="tool-status">`)
		o.Text(strings.Join(marks, " · "))
		o.Raw(`</p>`)
	}
	o.Raw(`</section>`)
}
