package docsite

import (
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/session"
)

// Serve serves the built site in dir over HTTP, as a host would (a
// directory's index.html for the directory), until t ends.
func Serve(t testing.TB, dir string) string {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv.URL
}

// Page is what a built page must be: the anchors it gives (element ids),
// the labels it shows (as text), the session's own text (for the escapes
// it may show), and where the engine puts the table of contents.
type Page struct {
	Anchors []string
	Labels  []string
	Source  string
	// TOC selects the table of contents' links.
	TOC string
	// ShowsSource: the page may show Markdown as its source (parts
	// without the extension that folds them are code), escapes and all.
	ShowsSource bool
}

// OwnHeading matches the document's own headings, below its title: the
// turns, the sub-agents' sections, the index's usage report. A table of
// contents lists nothing else: no heading of session text.
var OwnHeading = regexp.MustCompile(`^(\d+\. (User|Assistant|Tool result|Developer|Extension message)\b|Sub-agent\b|Sub-agents no task call|Usage$|Per (month|project|model)$)`)

// pageFacts is what CheckPage reads of a page.
type pageFacts struct {
	XSS       any      `json:"xss"`
	Title     string   `json:"title"`
	OnAttrs   []string `json:"onAttrs"`
	H1        int      `json:"h1"`
	TOC       []string `json:"toc"`
	Missing   []string `json:"missing"`
	Text      string   `json:"text"`
	BadImages []string `json:"badImages"`
	Images    int      `json:"images"`
}

// CheckPage opens url and fails t where the page breaks what every page
// made from a session keeps: no script of the session ran, no element has
// an event handler attribute, one <h1>,
// a table of contents of the document's own headings, every anchor and
// label there, every image loaded, no escape shown that the session did
// not write. It returns how many images the page shows.
func CheckPage(t testing.TB, tab *browsertest.Tab, url string, want Page) int {
	t.Helper()
	tab.Navigate(url)
	tab.WaitJSFor(`document.readyState === 'complete' && [...document.images].every(i => i.complete)`, time.Minute)
	ids, _ := jsonString(append([]string{}, want.Anchors...))
	f := browsertest.Eval[pageFacts](tab, `(() => {
		const ids = `+ids+`;
		const on = [];
		for (const el of document.querySelectorAll('*')) {
			for (const a of el.attributes) if (a.name.toLowerCase().startsWith('on')) on.push(el.tagName + ' ' + a.name);
		}
		const imgs = [...document.querySelectorAll('main img, article img')];
		return {
			xss: window.__xss === undefined ? null : window.__xss,
			title: document.title,
			onAttrs: on,
			h1: document.querySelectorAll('h1').length,
			toc: [...document.querySelectorAll(`+quoteJS(want.TOC)+`)].map(a => a.textContent.trim().replace(/\s+/g, ' ')),
			missing: ids.filter(id => !document.getElementById(id)),
			text: (document.querySelector('main, article') || document.body).innerText,
			badImages: imgs.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src')),
			images: imgs.length,
		};
	})()`)
	if f.XSS != nil || f.Title == "pwned" {
		t.Errorf("%s: session text ran as script: window.__xss = %v, title %q", url, f.XSS, f.Title)
	}
	if len(f.OnAttrs) > 0 {
		t.Errorf("%s: event handler attributes: %v", url, f.OnAttrs)
	}
	if f.H1 != 1 {
		t.Errorf("%s: %d <h1> elements, want 1", url, f.H1)
	}
	for _, e := range f.TOC {
		if !OwnHeading.MatchString(e) {
			t.Errorf("%s: the table of contents lists %q, not a heading of the document's own", url, e)
		}
	}
	if len(f.Missing) > 0 {
		t.Errorf("%s: %d of %s have no anchor: %v", url, len(f.Missing), session.Count(len(want.Anchors), "entry", "entries"), f.Missing[:min(5, len(f.Missing))])
	}
	text := strings.Join(strings.Fields(f.Text), " ")
	for _, l := range want.Labels {
		if l = strings.Join(strings.Fields(l), " "); !strings.Contains(text, l) {
			t.Errorf("%s: the label %q is not shown", url, l)
		}
	}
	if bad := VisibleEscapes(f.Text, want.Source); len(bad) > 0 && !want.ShowsSource {
		t.Errorf("%s: the page shows escapes the session did not write: %v", url, bad[:min(8, len(bad))])
	}
	if len(f.BadImages) > 0 {
		t.Errorf("%s: images that did not load: %v", url, f.BadImages)
	}
	return f.Images
}

func quoteJS(s string) string {
	q, _ := jsonString(s)
	return q
}

// Labels are the labels of the parts of a document written for GitHub:
// the text of its <summary> elements (HTML blocks of the document, not
// code that looks like one), which every engine must show.
func Labels(githubDoc string) []string {
	src := []byte(githubDoc)
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	var out []string
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		b, ok := n.(*ast.HTMLBlock)
		if !ok || b.Lines().Len() == 0 {
			continue
		}
		line := b.Lines().At(0)
		m := summaryPattern.FindSubmatch(line.Value(src))
		if m == nil {
			continue
		}
		if l := html.UnescapeString(string(m[1])); !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

var summaryPattern = regexp.MustCompile(`^<details><summary>(.*)</summary>\n?$`)
