package page

import (
	"fmt"
	"strings"
	"sync"

	"github.com/piexport/piexport/internal/recovered"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// A page is rendered on several goroutines (stream.go), where a panic
// would end the program: net/http recovers only the goroutine of the
// request, so one entry that the renderer cannot handle would stop a
// server that shows every session. Every entry is rendered under a
// recover instead: an entry whose rendering panics is shown unformatted
// (its JSON, or else its text), with a note that says so, and the caller
// learns of it from Page.Warnings.

// problems collects what went wrong while a page was made. It is shared
// by the renderers of the page's session and of its sub-agents.
type problems struct {
	mu   sync.Mutex
	list []session.Warning
}

func (p *problems) add(w session.Warning) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, w)
}

func (p *problems) warnings() []session.Warning {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]session.Warning(nil), p.list...)
}

// Warnings says what went wrong while the page was made and written:
// each entry that could not be rendered, which the page shows
// unformatted. It is complete once Write or WriteEncrypted returned.
func (p *Page) Warnings() []session.Warning {
	if p.r == nil {
		return nil
	}
	return p.r.problems.warnings()
}

// article renders the article of the i-th entry in tree order, or, when
// rendering it panics, shows the entry unformatted.
func (p *Page) article(i int) (v *entryView) {
	defer func() {
		if x := recover(); x != nil {
			v = p.r.unformatted(p.nodes[i].Entry, p.r.kinds[i], recovered.Describe(x))
		}
	}()
	return p.render(i)
}

// renderEntrySafely is renderEntry that shows e unformatted when
// rendering it panics: the sub-agents' transcripts are rendered entry by
// entry, and one entry must not cost the page.
func (r *sessionRenderer) renderEntrySafely(e *session.Entry, v *entryView) {
	defer func() {
		if x := recover(); x != nil {
			*v = *r.unformatted(e, kindOf(e), recovered.Describe(x))
		}
	}()
	r.renderEntry(e, v)
}

// unformatted is the article of an entry whose rendering failed for the
// reason why: a note, then the entry's JSON when the session kept it, or
// else its text; and a warning naming it.
func (r *sessionRenderer) unformatted(e *session.Entry, kind, why string) *entryView {
	r.problems.add(session.Warning{File: r.s.File, Line: e.Line,
		Text: fmt.Sprintf("entry %s could not be rendered (%s); the page shows it unformatted", e.ID, why)})
	role := e.Type
	if e.Message != nil && e.Message.Role != "" {
		role = e.Message.Role
	}
	v := &entryView{ID: e.ID, Kind: kind, Time: e.Time, Label: e.Label, Role: strings.ToUpper(role[:min(1, len(role))]) + role[min(1, len(role)):]}
	var o out
	o.Raw(`<p class="note render-failed">This entry could not be shown as usual: rendering it failed (`)
	o.Text(why)
	o.Raw(`). It is shown unformatted.</p>`)
	if len(e.Raw) > 0 {
		o.Append(render.JSON(e.Raw))
	} else if text, ok := entryText(r.s, e); ok {
		o.Raw(`<pre class="unformatted">`)
		o.Text(text)
		o.Raw(`</pre>`)
	}
	v.Body = o.HTML()
	return v
}

// entryText is all the text of e, as search reads it; ok is false when
// even that fails.
func entryText(s *session.Session, e *session.Entry) (text string, ok bool) {
	defer func() {
		if recover() != nil {
			text, ok = "", false
		}
	}()
	var b strings.Builder
	s.WriteSearchText(&b, s.Full(e))
	return b.String(), true
}
