package page

import (
	"html/template"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// customEntry renders pi's custom entry: state an extension saved in the
// session, which the model never sees. Its data is the extension's own,
// so it stays JSON, folded under one line that names the extension.
func (r *sessionRenderer) customEntry(o *out, e *session.Entry) {
	o.Raw(`<p class="separator">Extension <strong>`)
	o.Text(e.CustomType)
	o.Raw(`</strong> saved its state</p>`)
	if data := strings.TrimSpace(string(e.Data)); data != "" && data != "null" {
		o.Raw(`<details class="raw"><summary>Its data (JSON)</summary>`)
		o.Append(render.JSON(e.Data))
		o.Raw(`</details>`)
	}
}

// fileMention renders omp's fileMention message: the files the user named
// with @, which omp put before the model, each folded, with its size or
// why it was left out.
func (r *sessionRenderer) fileMention(o *out, e *session.Entry) {
	files := e.Message.Files
	if len(files) == 0 {
		o.Raw(`<p class="separator">Files mentioned: none</p>`)
		return
	}
	o.Raw(`<ul class="mentioned-files">`)
	for _, f := range files {
		path := session.ShortenHome(f.Path, r.home)
		var facts []string
		if f.LineCount > 0 {
			facts = append(facts, humanize.Count(f.LineCount, "line", "lines"))
		}
		if f.ByteSize > 0 {
			facts = append(facts, humanize.Bytes(f.ByteSize))
		}
		switch f.SkippedReason {
		case "":
		case "tooLarge":
			facts = append(facts, "left out: too large")
		case "binary":
			facts = append(facts, "left out: binary")
		default:
			facts = append(facts, "left out: "+f.SkippedReason)
		}
		o.Raw(`<li>`)
		folded := f.Content != "" || f.Image != nil
		if folded {
			o.Raw(`<details><summary>`)
		}
		o.Raw(`<code>`)
		o.Text(path)
		o.Raw(`</code>`)
		if len(facts) > 0 {
			o.Raw(` <span class="muted">`)
			o.Text(strings.Join(facts, " · "))
			o.Raw(`</span>`)
		}
		if !folded {
			o.Raw(`</li>`)
			continue
		}
		o.Raw(`</summary>`)
		if f.Image != nil {
			image(o, *f.Image)
		}
		if f.Content != "" {
			r.fold(o, f.Content, func(s string, line int) template.HTML { return render.HighlightFile(s, f.Path, 1+line) }, "")
		}
		o.Raw(`</details></li>`)
	}
	o.Raw(`</ul>`)
}
