package site

import (
	"fmt"
	"html/template"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// SearchResults is what a search page shows.
type SearchResults struct {
	Query string
	// Total counts every matching entry and Sessions the sessions they are
	// in; Hits may hold fewer. More says that more entries match than
	// were counted: Total is then a lower bound, the hits the best of the
	// newest Total, and Oldest the time of the oldest of those.
	Total, Sessions int
	More            bool
	Oldest          time.Time
	// Offset is the rank of the first hit, from 0, and PageSize how many
	// a page shows: the page links to the one before and after it.
	Offset, PageSize int
	// Notes say how the query was read where it was not as written.
	Notes []string
	// Words are the words the hits hold (catalog.Results.Words): a hit's
	// link carries them (?hl=), for its page to mark them and open what
	// is folded around them.
	Words []string
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
	// Branch is the number of the branch the entry is on, of Branches; a
	// session with more than one says which.
	Branch, Branches int
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
	v := &searchView{Total: res.Total, Sessions: res.Sessions, Shown: len(res.Hits), More: res.More,
		First: res.Offset + 1, Last: res.Offset + len(res.Hits), Notes: res.Notes}
	if res.PageSize > 0 && res.Query != "" {
		page := func(offset int) string {
			q := url.Values{"q": {res.Query}}
			if offset > 0 {
				q.Set("page", strconv.Itoa(offset/res.PageSize+1))
			}
			return "?" + q.Encode()
		}
		if res.Offset > 0 {
			v.PrevURL = page(max(res.Offset-res.PageSize, 0))
		}
		if res.Offset+len(res.Hits) < res.Total {
			v.NextURL = page(res.Offset + res.PageSize)
		}
		if res.More && !res.Oldest.IsZero() && v.NextURL == "" {
			// The matches older than those ranked: the same search before
			// the day of the oldest ranked (which before: includes).
			v.OlderURL = "?" + url.Values{"q": {res.Query + " before:" + res.Oldest.Format(time.DateOnly)}}.Encode()
			v.OlderThan = res.Oldest
		}
	}
	hl := ""
	if len(res.Words) > 0 {
		hl = "?" + url.Values{"hl": {strings.Join(res.Words, " ")}}.Encode()
	}
	for _, h := range res.Hits {
		s := h.Session
		key := s.URL + "\x00" + s.Path
		if n := len(v.Groups); n == 0 || v.Groups[n-1].key != key {
			v.Groups = append(v.Groups, searchGroup{key: key, URL: s.URL, Title: s.Title(), Start: s.Summary.Start,
				Project: session.ShortenHome(s.Cwd, session.HomeOf(s.Cwd, opt.Home))})
		}
		g := &v.Groups[len(v.Groups)-1]
		hv := searchHitView{Role: h.Role, Snippet: render.Snippet(h.Snippet, h.Marks)}
		if h.Branches > 1 {
			hv.Branch = fmt.Sprintf("branch %d of %d", h.Branch, h.Branches)
		}
		if s.URL != "" {
			hv.Href = s.URL + hl + "#" + url.PathEscape(h.EntryID)
		}
		g.Hits = append(g.Hits, hv)
	}
	p.Results = v
	p.HomeURL = "./"
	return executeIndex(w, "search", p)
}

// WriteNotFound renders the page a server answers for an address that
// names nothing: in the index's style, saying what was not found (what,
// one sentence), with a link to the index at homeURL.
func WriteNotFound(w io.Writer, what, homeURL string, opt IndexOptions) error {
	p, err := newIndexPage(opt)
	if err != nil {
		return err
	}
	p.Title = "Not found · " + p.Title
	p.HomeURL, p.NotFound = homeURL, what
	return executeIndex(w, "notfound", p)
}

// WriteProblem renders the page a server answers when it could not make
// the page asked for: in the index's style, saying what went wrong
// (problem, one sentence, which the page escapes), with a link to the
// index at homeURL.
func WriteProblem(w io.Writer, problem, homeURL string, opt IndexOptions) error {
	p, err := newIndexPage(opt)
	if err != nil {
		return err
	}
	p.Title = "Could not be made · " + p.Title
	p.HomeURL, p.Problem = homeURL, problem
	return executeIndex(w, "notfound", p)
}

type searchView struct {
	Total, Sessions, Shown int
	More                   bool
	// First and Last are the ranks of the hits shown, from 1.
	First, Last int
	Notes       []string
	// PrevURL and NextURL are the pages before and after this one;
	// OlderURL searches the matches older than those ranked.
	PrevURL, NextURL, OlderURL string
	OlderThan                  time.Time
	Groups                     []searchGroup
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
	Branch  string // "branch 2 of 3"; "" for a session that never branched
	Snippet template.HTML
}
