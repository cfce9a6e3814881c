package page

import (
	"bufio"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
)

// pageTemplate is parsed once; html/template is safe for concurrent use.
var pageTemplate = template.Must(template.New("page.html").Funcs(humanize.TemplateFuncs()).ParseFS(piexport.Templates(), "page.html", "insights.html"))

// loadPageAssets reads the inline style and script of every page once: the
// embedded stylesheets with the classes of highlighted code after them.
var loadPageAssets = sync.OnceValues(func() (*piexport.Inline, error) {
	a, err := piexport.LoadInline([]string{"page.css", "cards.css", "content.css", "insights.css"}, render.CSS(), "tree.js", "fulltext.js", "code.js", "page.js")
	if err != nil {
		return nil, fmt.Errorf("page assets: %w", err)
	}
	a.CSP += "; form-action 'none'"
	return a, nil
})

// pageData is what the template sees: the view and the inline assets.
type pageData struct {
	*pageView
	// Index shadows pageView.Index with its JSON, checked beforehand:
	// html/template turns a value json.Marshal rejects into a comment
	// instead of an error, which would break the script silently.
	Index json.RawMessage
	CSS   template.CSS
	JS    template.JS
	CSP   string
}

// writePage renders v as a complete HTML document to w, streaming: a page
// can be hundreds of megabytes. Callers that must not leave half a page
// behind write to a temporary file and rename it, or to a buffer.
func writePage(w io.Writer, v *pageView) error {
	a, err := loadPageAssets()
	if err != nil {
		return err
	}
	index, err := json.Marshal(v.Index)
	if err != nil {
		return fmt.Errorf("render page: index: %w", err)
	}
	// No control character of the session's text reaches the page.
	bw := bufio.NewWriterSize(render.WithoutControls(w), 256<<10)
	stop := make(chan struct{})
	defer close(stop)
	view := *v
	view.stop = stop
	data := pageData{pageView: &view, Index: index, CSS: a.CSS, JS: a.JS, CSP: a.CSP}
	if v.FollowURL != "" {
		// A served page also loads the server's follow script, which
		// listens to an event stream from the same origin.
		data.CSP = strings.Replace(data.CSP, "script-src ", "script-src 'self' ", 1) + "; connect-src 'self'"
	}
	if err := pageTemplate.ExecuteTemplate(bw, "page", data); err != nil {
		return fmt.Errorf("render page: %w", err)
	}
	return bw.Flush()
}
