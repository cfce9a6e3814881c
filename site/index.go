// Package site writes the pages about many sessions: the index of an
// archive or of the local server, and the server's search results. It is
// handed what to list (loaded summaries, search hits) and links each
// session by the URL it is given.
//
// It knows nothing of files on disk, of how sessions are found or
// searched (package catalog), or of how one session's page is written
// (package page, the one it links to).
package site

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/insights"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
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
	// Related links the sessions this one has to do with: its sub-agents
	// (omp keeps their transcripts beside it), the session it was forked
	// from, its forks. The index shows them under its title.
	Related []Related
	// Trail names a sub-agent's transcript where it belongs: the title
	// of the session that started it, and the ids of the sub-agents
	// down to it ("Refactor the parser", "Lexer"). Title then says
	// them. Empty for a session of its own.
	Trail []string
}

// Related is a kind of link between sessions and the sessions it links.
type Related struct {
	// Label says how they are related: "Sub-agents", "Forked from",
	// "Forks".
	Label string
	Links []Link
}

// Link is one linked session.
type Link struct {
	Title string
	// URL is relative to the page; empty: shown without a link.
	URL string
}

// Title is what an index calls the session: its name or first user
// message, else its id, else its file; a sub-agent's transcript, its
// Trail: "Refactor the parser › Lexer".
func (it IndexItem) Title() string {
	switch {
	case len(it.Trail) > 0:
		return strings.Join(it.Trail, TrailSeparator)
	case it.Summary.Title != "":
		return it.Summary.Title
	case it.SessionID != "":
		return "Session " + it.SessionID
	}
	return it.Path
}

// TrailSeparator joins the names of a Trail.
const TrailSeparator = " › "

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
	// Reading, when set, says the sessions are still being read: the page
	// says how far, and how far back a search reaches.
	Reading *Reading
	// SubAgents counts the sub-agents' transcripts of the sessions listed,
	// which the list shows under their sessions: the page counts them
	// apart, as `piexport --usage` does.
	SubAgents int
	// Usage is the model work of the sessions listed (see package usage):
	// the page charts it in a usage report above the list. None: no
	// report.
	Usage []usage.Record
	// StaticSearch is the meta file of an archive's search index,
	// relative to the page (see package archive): the page's script
	// searches it from file://, with no server. Without JavaScript the
	// page lists every session all the same.
	StaticSearch string
}

// Reading is how far a server is in reading the sessions it serves.
type Reading struct {
	// Done of Files session files are stored (and searched), and Read of
	// their Bytes read.
	Done, Files int
	Read, Bytes int64
	// Back is the time back to which the sessions are read, newest
	// first: a search finds what every session changed since then holds.
	// Zero when the newest is not read yet.
	Back time.Time
}

// Sofar says how far reading is: "200.0 MB of 1.3 GB read, 40 of 302
// files stored".
func (r *Reading) Sofar() string {
	return fmt.Sprintf("%s of %s read, %d of %s stored", humanize.Bytes(r.Read), humanize.Bytes(r.Bytes), r.Done, humanize.Count(r.Files, "file", "files"))
}

// WriteIndex renders an index page of sessions to w: grouped by project
// (working directory), the projects and the sessions in each newest first,
// and the files that failed to load listed at the end with their errors.
// The page works from a file, without a server and without its script;
// the script adds sorting, filtering and local times. With opt.Usage, a
// usage report (package insights' charts) heads the list.
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
	p.Counted = humanize.Sessions(p.Sessions, opt.SubAgents) + " in " + humanize.Count(p.Projects, "project", "projects")
	p.Usage = insights.NewReport(opt.Usage, func(cwd string) string {
		return session.ShortenHome(cwd, session.HomeOf(cwd, opt.Home))
	})
	if len(opt.Usage) > 0 {
		// The report counts sub-agents' transcripts, which the list
		// shows under their sessions: the page says one total, the
		// report's.
		all := usage.NewReport(opt.Usage, usage.ByModel).Total
		p.Tokens, p.Cost = all.Tokens(), all.Cost
	}
	for _, it := range failed {
		home := session.HomeOf(it.Cwd, opt.Home)
		p.Failed = append(p.Failed, indexFailed{Path: session.ShortenHome(it.Path, home), Err: shortenHomeIn(it.Err.Error(), home)})
	}
	if len(failed) > 0 {
		p.Unreadable = humanize.CouldNotRead(len(failed))
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
	Related     []Related
}

type modelName struct{ Full, Short string }

type indexFailed struct {
	Path, Err string
}

func newIndexRow(it IndexItem) indexRow {
	s := it.Summary
	u := s.Usage
	r := indexRow{
		URL: it.URL, Title: it.Title(), SessionID: it.SessionID,
		Start: s.Start, Messages: s.Messages, Branches: s.Leaves, Related: it.Related,
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
