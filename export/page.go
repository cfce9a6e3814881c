package export

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"strings"
	"sync"
	"time"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
)

// pageTemplate is parsed once; html/template is safe for concurrent use.
var pageTemplate = template.Must(template.New("page.html").Funcs(template.FuncMap{
	"tokens":  humanize.Tokens,
	"cost":    humanize.Cost,
	"isoTime": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"utcTime": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
}).ParseFS(piexport.Templates(), "page.html"))

// pageAssets is the inline style and script of every page, and the
// Content-Security-Policy that allows exactly those two and nothing else.
type pageAssets struct {
	css template.CSS
	js  template.JS
	csp string
}

var loadPageAssets = sync.OnceValues(func() (*pageAssets, error) {
	assets := piexport.Assets()
	var css strings.Builder
	for _, name := range []string{"page.css", "content.css"} {
		b, err := fs.ReadFile(assets, name)
		if errors.Is(err, fs.ErrNotExist) && name != "page.css" {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("page assets: %w", err)
		}
		css.Write(b)
		css.WriteByte('\n')
	}
	// The classes of highlighted code come after the embedded stylesheets.
	css.WriteString(render.CSS())
	css.WriteByte('\n')
	js, err := fs.ReadFile(assets, "page.js")
	if err != nil {
		return nil, fmt.Errorf("page assets: %w", err)
	}
	// A closing tag inside the text would end the element early and leave
	// the rest to the HTML parser; our own files never need one.
	if containsFold(css.String(), "</style") {
		return nil, errors.New("page assets: CSS contains </style")
	}
	if containsFold(string(js), "</script") {
		return nil, errors.New("page assets: script contains </script")
	}
	a := &pageAssets{
		// Both come from files embedded in the binary, never from a
		// session, so they may be written verbatim.
		css: template.CSS(css.String()),
		js:  template.JS(js),
	}
	a.csp = "default-src 'none'; script-src '" + cspHash(string(a.js)) +
		"'; style-src '" + cspHash(string(a.css)) +
		"'; img-src data:; base-uri 'none'; form-action 'none'"
	return a, nil
})

// cspHash returns the CSP source expression that allows one inline element
// whose text is s.
func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), sub)
}

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
	bw := bufio.NewWriterSize(w, 256<<10)
	stop := make(chan struct{})
	defer close(stop)
	view := *v
	view.stop = stop
	data := pageData{pageView: &view, Index: index, CSS: a.css, JS: a.js, CSP: a.csp}
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
