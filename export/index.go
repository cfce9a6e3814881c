package export

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// IndexItem is one session file listed on an index page.
type IndexItem struct {
	// URL links to the session's page, relative to the index page. Empty:
	// the session is listed without a link.
	URL string
	// Path is the session file; the page shows it for a file that failed
	// to load, with the home directory as ~.
	Path string
	// Cwd and SessionID come from the session's header.
	Cwd       string
	SessionID string
	Summary   session.Summary
	// Err, when set, is why the file could not be loaded: the item is
	// listed with it, apart from the sessions, and not linked.
	Err error
}

// IndexOptions say how an index page or a search page is rendered.
type IndexOptions struct {
	// Title heads the page; empty means "pi sessions".
	Title string
	// Theme is "auto", "light" or "dark", as for a session page.
	Theme string
	// Home is the home directory, shown as ~ in working directories and
	// paths. Empty: guessed per session, as on a session page.
	Home string
	// Generator names the program in the page's footer.
	Generator string
	// Search adds a search form that GETs SearchURL?q=…; for a server, whose
	// search page WriteSearchResults renders.
	Search bool
	// SearchURL is where the form goes; empty means "search", relative to
	// the page, which suits both "/" and "/search".
	SearchURL string
	// Notice is a line shown above the list, e.g. why it holds examples.
	Notice string
}

// SearchResults is what a search page shows.
type SearchResults struct {
	Query string
	// Total counts every matching entry and Sessions the sessions they are
	// in; Hits may hold fewer.
	Total, Sessions int
	// Hits are in the order to show, the entries of a session together.
	Hits []SearchHit
}

// SearchHit is one entry that matches a search.
type SearchHit struct {
	// Session is the session the entry is in; the hit links to
	// Session.URL#EntryID.
	Session IndexItem
	EntryID string
	// Role is what the text is: "user", "assistant", "bash"…
	Role string
	// Snippet is the entry's text around the match, on one line, and Marks
	// the byte ranges [start, end) of it to highlight, in order.
	Snippet string
	Marks   [][2]int
}

// indexTemplate is parsed once; html/template is safe for concurrent use.
var indexTemplate = template.Must(template.New("index.html").Funcs(template.FuncMap{
	"tokens":  humanize.Tokens,
	"cost":    humanize.Cost,
	"isoTime": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"utcTime": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
}).ParseFS(piexport.Templates(), "index.html"))

// indexAssets are the inline style and script of index and search pages
// and the Content-Security-Policy that allows exactly those.
type indexAssets struct {
	css template.CSS
	js  template.JS
	// csp lacks form-action, which depends on the page.
	csp string
}

var loadIndexAssets = sync.OnceValues(func() (*indexAssets, error) {
	assets := piexport.Assets()
	var css strings.Builder
	// page.css gives the colours, both themes and the base styles, so that
	// the index reads like the pages it links to.
	for _, name := range []string{"page.css", "index.css"} {
		b, err := fs.ReadFile(assets, name)
		if err != nil {
			return nil, fmt.Errorf("index assets: %w", err)
		}
		css.Write(b)
		css.WriteByte('\n')
	}
	js, err := fs.ReadFile(assets, "index.js")
	if err != nil {
		return nil, fmt.Errorf("index assets: %w", err)
	}
	if containsFold(css.String(), "</style") {
		return nil, errors.New("index assets: CSS contains </style")
	}
	if containsFold(string(js), "</script") {
		return nil, errors.New("index assets: script contains </script")
	}
	a := &indexAssets{
		// Both come from files embedded in the binary, never from a
		// session, so they may be written verbatim.
		css: template.CSS(css.String()),
		js:  template.JS(js),
	}
	a.csp = "default-src 'none'; script-src '" + cspHash(string(a.js)) +
		"'; style-src '" + cspHash(string(a.css)) + "'; img-src data:; base-uri 'none'"
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
	Search    bool
	SearchURL string
	Query     string
	CSS       template.CSS
	JS        template.JS
	CSP       string

	// The index.
	Sessions, Projects int
	Tokens             int64
	Cost               float64
	Groups             []indexGroup
	Failed             []indexFailed

	// The search page.
	Results *searchView
}

type indexGroup struct {
	Project string // the working directory, home as ~; "" when unknown
	Rows    []indexRow
}

type indexRow struct {
	URL       string
	Title     string
	SessionID string
	Start     time.Time
	// StartKey, DurationKey and TokensKey are what the script sorts by.
	StartKey    int64
	Duration    string
	DurationKey int64
	Messages    int
	Models      []modelName
	Tokens      int64
	TokensTitle string
	Cost        float64
	Branches    int
}

type modelName struct{ Full, Short string }

type indexFailed struct {
	Path, Err string
}

type searchView struct {
	Total, Sessions, Shown int
	Groups                 []searchGroup
}

type searchGroup struct {
	key     string
	URL     string
	Title   string
	Project string
	Start   time.Time
	Hits    []searchHitView
}

type searchHitView struct {
	Href    string // empty: the session is not linked
	Role    string
	Snippet template.HTML
}

// WriteIndex renders an index page of sessions to w: grouped by project
// (working directory), the projects and the sessions in each newest first,
// and the files that failed to load listed at the end with their errors.
// The page works from a file, without a server and without its script;
// the script adds sorting, filtering and local times.
func WriteIndex(w io.Writer, items []IndexItem, opt IndexOptions) error {
	p, err := newIndexPage(opt)
	if err != nil {
		return err
	}
	groups, failed := GroupIndex(items, opt.Home)
	for _, g := range groups {
		ig := indexGroup{Project: g.Project}
		for _, it := range g.Items {
			row := newIndexRow(it)
			ig.Rows = append(ig.Rows, row)
			p.Sessions++
			p.Tokens += row.Tokens
			p.Cost += row.Cost
		}
		p.Groups = append(p.Groups, ig)
	}
	p.Projects = len(p.Groups)
	for _, it := range failed {
		home := session.HomeOf(it.Cwd, opt.Home)
		p.Failed = append(p.Failed, indexFailed{Path: session.ShortenHome(it.Path, home), Err: shortenHomeIn(it.Err.Error(), home)})
	}
	return executeIndex(w, "index", p)
}

// IndexGroup is the sessions of one project, as an index lists them.
type IndexGroup struct {
	// Project is the sessions' working directory, with the home directory
	// shown as ~; "" when they have none.
	Project string
	// Items are newest first.
	Items []IndexItem
}

// GroupIndex orders items as an index shows them: grouped by project, the
// projects and the sessions in each newest first (by start time; those
// without one last), and apart from them the items that failed to load,
// by path. home is as in IndexOptions.
func GroupIndex(items []IndexItem, home string) (groups []IndexGroup, failed []IndexItem) {
	byProject := map[string]int{}
	newest := map[string]time.Time{}
	for _, it := range items {
		if it.Err != nil {
			failed = append(failed, it)
			continue
		}
		project := session.ShortenHome(it.Cwd, session.HomeOf(it.Cwd, home))
		i, ok := byProject[project]
		if !ok {
			i = len(groups)
			byProject[project] = i
			groups = append(groups, IndexGroup{Project: project})
		}
		groups[i].Items = append(groups[i].Items, it)
		if it.Summary.Start.After(newest[project]) {
			newest[project] = it.Summary.Start
		}
	}
	for _, g := range groups {
		slices.SortStableFunc(g.Items, func(a, b IndexItem) int {
			if c := b.Summary.Start.Compare(a.Summary.Start); c != 0 {
				return c
			}
			return strings.Compare(a.URL+"\x00"+a.Path, b.URL+"\x00"+b.Path)
		})
	}
	slices.SortFunc(groups, func(a, b IndexGroup) int {
		if c := newest[b.Project].Compare(newest[a.Project]); c != 0 {
			return c
		}
		return strings.Compare(a.Project, b.Project)
	})
	slices.SortFunc(failed, func(a, b IndexItem) int { return strings.Compare(a.Path, b.Path) })
	return groups, failed
}

// WriteSearchResults renders the page of a search's results to w: the
// search form, and per session the matching entries, each linking to its
// place in the session's page.
func WriteSearchResults(w io.Writer, res SearchResults, opt IndexOptions) error {
	opt.Search = true
	p, err := newIndexPage(opt)
	if err != nil {
		return err
	}
	p.Query = res.Query
	if res.Query != "" {
		p.Title = res.Query + " · " + p.Title
	}
	v := &searchView{Total: res.Total, Sessions: res.Sessions, Shown: len(res.Hits)}
	for _, h := range res.Hits {
		s := h.Session
		key := s.URL + "\x00" + s.Path
		if n := len(v.Groups); n == 0 || v.Groups[n-1].key != key {
			v.Groups = append(v.Groups, searchGroup{key: key, URL: s.URL, Title: s.Title(), Start: s.Summary.Start,
				Project: session.ShortenHome(s.Cwd, session.HomeOf(s.Cwd, opt.Home))})
		}
		g := &v.Groups[len(v.Groups)-1]
		hv := searchHitView{Role: h.Role, Snippet: render.Snippet(h.Snippet, h.Marks)}
		if s.URL != "" {
			hv.Href = s.URL + "#" + url.PathEscape(h.EntryID)
		}
		g.Hits = append(g.Hits, hv)
	}
	p.Results = v
	return executeIndex(w, "search", p)
}

func newIndexPage(opt IndexOptions) (*indexPage, error) {
	switch opt.Theme {
	case "":
		opt.Theme = "auto"
	case "auto", "light", "dark":
	default:
		return nil, fmt.Errorf("unknown theme %q (want auto, light or dark)", opt.Theme)
	}
	a, err := loadIndexAssets()
	if err != nil {
		return nil, err
	}
	p := &indexPage{
		Title: opt.Title, Theme: opt.Theme, Generator: opt.Generator, Notice: opt.Notice,
		Search: opt.Search, SearchURL: opt.SearchURL,
		CSS: a.css, JS: a.js, CSP: a.csp + "; form-action 'none'",
	}
	if p.Title == "" {
		p.Title = "pi sessions"
	}
	p.Heading = p.Title
	if p.Search {
		if p.SearchURL == "" {
			p.SearchURL = "search"
		}
		p.CSP = a.csp + "; form-action 'self'"
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
	_, err := buf.WriteTo(w)
	return err
}

// Title is what an index calls the session: its name or first user
// message, else its id, else its file.
func (it IndexItem) Title() string {
	switch {
	case it.Summary.Title != "":
		return it.Summary.Title
	case it.SessionID != "":
		return "Session " + it.SessionID
	}
	return it.Path
}

func newIndexRow(it IndexItem) indexRow {
	s := it.Summary
	u := s.Usage
	r := indexRow{
		URL: it.URL, Title: it.Title(), SessionID: it.SessionID,
		Start: s.Start, Messages: s.Messages, Branches: s.Leaves,
		Tokens: u.Input + u.Output + u.CacheRead + u.CacheWrite, Cost: u.Cost,
		TokensTitle: fmt.Sprintf("%s in · %s out · %s cache read · %s cache write",
			humanize.Tokens(u.Input), humanize.Tokens(u.Output), humanize.Tokens(u.CacheRead), humanize.Tokens(u.CacheWrite)),
	}
	if !s.Start.IsZero() {
		r.StartKey = s.Start.Unix()
	}
	if !s.Start.IsZero() && s.End.After(s.Start) {
		d := s.End.Sub(s.Start)
		r.Duration, r.DurationKey = humanize.Duration(d), int64(d.Seconds())
	}
	for _, m := range s.Models {
		_, short, ok := strings.Cut(m, "/")
		if !ok {
			short = m
		}
		r.Models = append(r.Models, modelName{Full: m, Short: short})
	}
	return r
}

// shortenHomeIn shows home as ~ wherever a path under it appears in s.
func shortenHomeIn(s, home string) string {
	if home == "" || home == "/" {
		return s
	}
	return strings.ReplaceAll(s, home+"/", "~/")
}
