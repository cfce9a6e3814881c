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
// It writes the page around its entries: "page-start" up to the element
// that holds them, "page-end" after it (see blocks.go for the entries).
var pageTemplate = template.Must(template.New("page.html").Funcs(humanize.TemplateFuncs()).Funcs(template.FuncMap{"entryHref": entryHref}).ParseFS(piexport.Templates(), "page.html", "insights.html"))

// pageScripts are the page's scripts, in the order they are joined into
// its one inline script: each declares its module, and page.js, last,
// joins them once the index has arrived (see page.js for what each
// module does). Those its first lines use come before it.
var pageScripts = []string{
	"prefs.js", "times.js", "figures.js", "fold.js", "clipboard.js",
	"store.js", "pathview.js", "treelayout.js", "treeview.js", "treesearch.js", "searchui.js", "marks.js",
	"code.js", "articles.js", "pathfacts.js", "deeplinks.js", "sidebar.js", "keys.js", "printing.js", "embed.js",
	"page.js",
}

// arrivedScript is the one other inline script of a page, allowed by its
// hash: written after the index and after each block of entries, it
// tells the page's script that what precedes it is whole (see the
// package doc).
const arrivedScript = "piexportPage.arrived()"

// loadPageAssets reads the inline style and script of every page once: the
// embedded stylesheets with the classes of highlighted code after them.
var loadPageAssets = sync.OnceValues(func() (*piexport.Inline, error) {
	a, err := piexport.LoadInline([]string{"page.css", "cards.css", "content.css", "insights.css"}, render.CSS(), pageScripts...)
	if err != nil {
		return nil, fmt.Errorf("page assets: %w", err)
	}
	a.CSP = strings.Replace(a.CSP, "script-src ", "script-src '"+piexport.CSPHash(arrivedScript)+"' ", 1)
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
	// Rows are the previews of the index's entries as JSON arrays of
	// rowBlock each (see pageIndex.Previews), and Usage the index's
	// usage (pageIndex.Usage): both come after the first screen's
	// entries (see "index-rest" and writeEntries).
	Rows    []json.RawMessage
	Usage   json.RawMessage
	CSS     template.CSS
	JS      template.JS
	Arrived template.JS
	CSP     string
	// JSONL is the session file packed for download, or "".
	JSONL string
}

// writePage renders p as a complete HTML document to w, streaming: a page
// can be hundreds of megabytes. Callers that must not leave half a page
// behind write to a temporary file and rename it, or to a buffer.
func writePage(w io.Writer, p *Page) error {
	a, err := loadPageAssets()
	if err != nil {
		return err
	}
	// The filters follow from the kinds the page names, known now.
	p.v.Index.Filters = filterKinds(p.v.Index.KindNames)
	index, err := json.Marshal(p.v.Index)
	if err != nil {
		return fmt.Errorf("render page: index: %w", err)
	}
	var rows []json.RawMessage
	for start := 0; start < len(p.v.Index.Previews); start += rowBlock {
		block, err := json.Marshal(p.v.Index.Previews[start:min(start+rowBlock, len(p.v.Index.Previews))])
		if err != nil {
			return fmt.Errorf("render page: rows: %w", err)
		}
		rows = append(rows, block)
	}
	usage, err := json.Marshal(p.v.Index.Usage)
	if err != nil {
		return fmt.Errorf("render page: usage: %w", err)
	}
	var jsonl *background
	if p.jsonl != nil {
		jsonl = packJSONL(p.jsonl)
	}
	// No control character of the session's text reaches the page.
	bw := bufio.NewWriterSize(render.WithoutControls(w), 256<<10)
	data := pageData{pageView: p.v, Index: index, Rows: rows, Usage: usage, CSS: a.CSS, JS: a.JS, Arrived: arrivedScript, CSP: a.CSP}
	if p.v.FollowURL != "" {
		// A served page also loads the server's follow script, which
		// listens to an event stream from the same origin.
		data.CSP = strings.Replace(data.CSP, "script-src ", "script-src 'self' ", 1) + "; connect-src 'self'"
	}
	if err := pageTemplate.ExecuteTemplate(bw, "page-start", data); err != nil {
		return fmt.Errorf("render page: %w", err)
	}
	// The index is written: its JSON, megabytes on a long session, need
	// not stay while the entries are; nor need the rest of it, once
	// written after the first screen.
	data.Index, index = nil, nil
	rest := func() error {
		if err := pageTemplate.ExecuteTemplate(bw, "index-rest", data); err != nil {
			return fmt.Errorf("render page: %w", err)
		}
		data.Rows, rows, data.Usage, usage = nil, nil, nil, nil
		return nil
	}
	if err := writeEntries(bw, p, rest); err != nil {
		return err
	}
	if jsonl != nil {
		data.JSONL = jsonl.wait()
	}
	if err := pageTemplate.ExecuteTemplate(bw, "page-end", data); err != nil {
		return fmt.Errorf("render page: %w", err)
	}
	return bw.Flush()
}
