package site

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/insights"
	"github.com/piexport/piexport/render"
)

// templates/index.html, its inline assets, and the view it is executed
// with, for both the index and the search page.

// indexTemplate is parsed once; html/template is safe for concurrent use.
var indexTemplate = template.Must(template.New("index.html").Funcs(humanize.TemplateFuncs()).ParseFS(piexport.Templates(), "index.html", "insights.html"))

// indexScripts are the scripts of index and search pages, in the order
// they are joined into one inline script: index.js takes the reader's
// choices and the times from the two before it, which the session pages
// share.
var indexScripts = []string{"prefs.js", "times.js", "index.js"}

// loadIndexAssets reads the inline style and script of index and search
// pages once. page.css gives the colours, both themes and the base styles,
// so that the index reads like the pages it links to; insights.css the
// usage report's charts.
var loadIndexAssets = sync.OnceValues(func() (*piexport.Inline, error) {
	a, err := piexport.LoadInline([]string{"page.css", "index.css", "insights.css"}, "", indexScripts...)
	if err != nil {
		return nil, fmt.Errorf("index assets: %w", err)
	}
	return a, nil
})

// loadSearchAssets is loadIndexAssets with the script that searches an
// archive's index from file://. It adds the index's scripts to the page
// itself, as a query needs them; 'strict-dynamic' lets those run, and
// only those: a script element in the page's markup would not.
var loadSearchAssets = sync.OnceValues(func() (*piexport.Inline, error) {
	a, err := piexport.LoadInline([]string{"page.css", "index.css", "insights.css"}, "", slices.Concat(indexScripts, []string{"fold.js", "search.js"})...)
	if err != nil {
		return nil, fmt.Errorf("index assets: %w", err)
	}
	a.CSP = strings.Replace(a.CSP, "script-src ", "script-src 'strict-dynamic' ", 1)
	return a, nil
})

// indexPage is what templates/index.html sees, for both of its pages.
type indexPage struct {
	// Title is the document's title, Heading the page's: the same but on
	// a search page, whose title starts with the query.
	Title     string
	Heading   string
	Theme     string
	Generator string
	Notice    string
	Reading   *Reading
	Search    bool
	SearchURL string
	Query     string
	// StaticSearch is IndexOptions.StaticSearch.
	StaticSearch string
	CSS          template.CSS
	JS           template.JS
	CSP          string

	// The index. Counted says how many sessions (and sub-agents) it
	// lists in how many projects.
	Counted            string
	Sessions, Projects int
	Tokens             int64
	Cost               float64
	Groups             []indexGroup
	Failed             []indexFailed
	// Unreadable says how many files could not be read; "" for none.
	Unreadable string
	// Usage is the usage report; nil for none.
	Usage *insights.Report

	// The search page.
	Results *searchView

	// HomeURL, when set, links the heading to the index (on every page
	// but the index itself).
	HomeURL string
	// NotFound says what was not found, on a "not found" page; Problem,
	// on a page that could not be made, what went wrong.
	NotFound, Problem string
}

func newIndexPage(opt IndexOptions) (*indexPage, error) {
	switch opt.Theme {
	case "":
		opt.Theme = "auto"
	case "auto", "light", "dark":
	default:
		return nil, fmt.Errorf("unknown theme %q (want auto, light or dark)", opt.Theme)
	}
	load := loadIndexAssets
	if opt.StaticSearch != "" {
		load = loadSearchAssets
	}
	a, err := load()
	if err != nil {
		return nil, err
	}
	p := &indexPage{
		Title: opt.Title, Theme: opt.Theme, Generator: opt.Generator, Notice: opt.Notice, Reading: opt.Reading,
		Search: opt.Search, SearchURL: opt.SearchURL, StaticSearch: opt.StaticSearch,
		CSS: a.CSS, JS: a.JS, CSP: a.CSP + "; form-action 'none'",
	}
	if p.Title == "" {
		p.Title = "pi sessions"
	}
	p.Heading = p.Title
	if p.Search {
		if p.SearchURL == "" {
			p.SearchURL = "search"
		}
		p.CSP = a.CSP + "; form-action 'self'"
	}
	return p, nil
}

// executeIndex renders in memory first, so a template error never leaves
// half a page behind.
func executeIndex(w io.Writer, name string, p *indexPage) error {
	var buf bytes.Buffer
	if err := indexTemplate.ExecuteTemplate(&buf, name, p); err != nil {
		return fmt.Errorf("render %s page: %w", name, err)
	}
	// No control character of the sessions' text reaches the page.
	_, err := buf.WriteTo(render.WithoutControls(w))
	return err
}
