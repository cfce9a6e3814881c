package page

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// Summaries that stand in for conversation: compactions and the summaries
// of abandoned branches.

func (r *sessionRenderer) compaction(o *out, e *session.Entry) {
	o.Raw(`<div class="card compaction"><p class="card-head">Context compacted: <strong>`)
	o.Text(humanize.Tokens(e.TokensBefore))
	o.Raw(` tokens</strong> summarised`)
	if e.FromHook {
		o.Raw(` by an extension`)
	}
	o.Raw(`</p>`)
	if x := e.Omp; x != nil && x.TokensAfter > 0 {
		o.Raw(`<p class="short-summary">`)
		o.Text("About " + humanize.Tokens(x.TokensAfter) + " tokens after it")
		if x.Method != "" {
			o.Text(" (" + x.Method + ")")
		}
		o.Raw(`</p>`)
	}
	if x := e.Omp; x != nil && x.Warning != "" {
		o.Raw(`<p class="stop-error">`)
		o.Text(x.Warning)
		o.Raw(`</p>`)
	}
	if e.ShortSummary != "" {
		o.Raw(`<p class="short-summary">`)
		o.Text(e.ShortSummary)
		o.Raw(`</p>`)
	}
	o.Raw(`<details class="summary"><summary>Summary</summary>`)
	o.Append(render.Markdown(e.Summary, "e-"+r.key(e)+"-"))
	o.Raw(`</details>`)
	var details struct {
		ReadFiles     []string `json:"readFiles"`
		ModifiedFiles []string `json:"modifiedFiles"`
	}
	if json.Unmarshal(e.Details, &details) == nil {
		r.fileList(o, "Files read", details.ReadFiles)
		r.fileList(o, "Files modified", details.ModifiedFiles)
	}
	if e.SystemMessage != nil {
		r.checkpoint(o, e)
	}
	summaryCost(o, e.Usage)
	o.Raw(`</div>`)
}

// summaryCost says what writing a compaction's or branch summary cost.
func summaryCost(o *out, u *session.Usage) {
	if u == nil || *u == (session.Usage{}) {
		return
	}
	o.Raw(`<p class="card-foot">Writing the summary took `)
	o.Text(strings.Join(usageParts(*u), " · "))
	o.Raw(`</p>`)
}

func (r *sessionRenderer) fileList(o *out, title string, files []string) {
	if len(files) == 0 {
		return
	}
	o.Raw(`<details class="files"><summary>`)
	o.Text(fmt.Sprintf("%s (%d)", title, len(files)))
	o.Raw(`</summary><ul>`)
	for _, f := range files {
		o.Raw(`<li><code>`)
		o.Text(session.ShortenHome(f, r.home))
		o.Raw(`</code></li>`)
	}
	o.Raw(`</ul></details>`)
}

func (r *sessionRenderer) branchSummary(o *out, id, summary, fromID string, cost *session.Usage) {
	o.Raw(`<div class="card branch-summary"><p class="card-head">Summary of an abandoned branch`)
	if fromID != "" {
		o.Raw(` that left off at `)
		r.entryLink(o, fromID)
	}
	o.Raw(`</p>`)
	o.Append(render.Markdown(summary, "e-"+id+"-"))
	summaryCost(o, cost)
	o.Raw(`</div>`)
}
