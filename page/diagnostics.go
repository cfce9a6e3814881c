package page

import (
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// diagnostics notes, quietly, what pi recorded about the request behind
// an assistant message (pi 1.6): reasoning a provider dropped, with why,
// as pi's own notice says it; a diagnostic of another kind by its type,
// its error and its JSON, folded.
func diagnostics(o *out, list []session.Diagnostic) {
	for _, d := range list {
		if note := d.Note(); note != "" {
			o.Raw(`<details class="diagnostic" data-diagnostic="`)
			o.Text(d.Type)
			o.Raw(`"><summary>`)
			o.Text(note)
			o.Raw(`</summary><ul class="diagnostic-items">`)
			for _, t := range d.Dropped() {
				o.Raw(`<li><code>`)
				switch {
				case t.ID != "":
					o.Text(t.ID)
				case t.Path != "":
					o.Text(t.Path)
				default:
					o.Text(t.Type)
				}
				o.Raw(`</code>`)
				if t.Action != "" {
					o.Raw(` `)
					o.Text(t.Action)
				}
				if t.Reason != "" {
					o.Raw(` · `)
					o.Text(t.Reason)
				}
				o.Raw(`</li>`)
			}
			o.Raw(`</ul></details>`)
			continue
		}
		o.Raw(`<details class="diagnostic raw" data-diagnostic="`)
		o.Text(d.Type)
		o.Raw(`"><summary>Diagnostic <code>`)
		if d.Type == "" {
			o.Raw(`(no type)`)
		} else {
			o.Text(d.Type)
		}
		o.Raw(`</code>`)
		if d.Error != "" {
			o.Raw(`: `)
			o.Text(d.Error)
		}
		o.Raw(`</summary>`)
		if len(d.Raw) > 0 {
			o.Append(render.JSON(d.Raw))
		}
		o.Raw(`</details>`)
	}
}
