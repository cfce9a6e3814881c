// Package page renders one loaded session as one self-contained HTML
// page: every entry rendered once, on the server, with a tree of the
// whole session that lets the page show any path through it.
//
// It knows nothing of files on disk beyond what it is handed, of other
// sessions (package site lists many) or of other formats (package gfm).
// Session text becomes HTML only through package render.
package page

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/insights"
	"github.com/piexport/piexport/session"
)

// Options say how a page is rendered.
type Options struct {
	// Theme is "auto" (follow the reader's system), "light" or "dark".
	Theme string
	// Leaf is the ID of the entry whose path the page opens at; empty means
	// the session's leaf.
	Leaf string
	// Home is the home directory of the machine the session was written on,
	// shown as ~. Empty: guessed from the session's working directory.
	Home string
	// Generator names the program in the page's footer.
	Generator string
	// FollowURL is set by the server only: the URL of a script on the
	// page's own origin that reloads the page when its session grows. The
	// page's Content-Security-Policy then allows scripts and connections
	// from that origin too.
	FollowURL string
	// ParentURL, when set, links the session the header's parentSession
	// names (pi's /fork and /clone, omp's sub-agents): the archive and the
	// server know where its page is. A single page shows the path as text.
	ParentURL string
	// SubAgents are the transcripts of the session's sub-agents
	// (session.LoadSubAgents): each is carried in the page, packed, and
	// opens from the task call that started it.
	SubAgents []*session.SubAgent
	// Related links sessions this one has to do with, for an archive or
	// the server, which know the others: the session a sub-agent works
	// for and a session's sub-agents, the session it was forked from and
	// its forks. The header lists them.
	Related []Related
	// JSONL, when set, is the session file's bytes: the page carries them
	// and offers them for download (see jsonl.go). JSONLName is the file
	// name to offer them under.
	JSONL     []byte
	JSONLName string
	// IndexURL, when set, links the page's header to the index of the
	// sessions it belongs to (an archive's or a server's).
	IndexURL string
}

// Related is a kind of link between sessions ("Sub-agent of", "Forks")
// and the sessions it links.
type Related struct {
	Label string
	Links []Link
}

// Link is one linked session: its title, and its URL relative to the page
// (empty: shown without a link).
type Link struct {
	Title, URL string
}

// Themes lists the values Options.Theme accepts.
var Themes = []string{"auto", "light", "dark"}

// WriteHTML renders s as one HTML page to w; see Page.Write.
func WriteHTML(w io.Writer, s *session.Session, opt Options) error {
	p, err := NewPage(s, opt)
	if err != nil {
		return err
	}
	return p.Write(w)
}

// Page is a session ready to be written as one HTML page. NewPage does
// everything that can fail because of the session or the options, so a
// caller can check them before it creates an output file.
type Page struct {
	v     *pageView
	r     *sessionRenderer
	nodes []session.Node
	jsonl []byte
}

// NewPage prepares the page of s.
func NewPage(s *session.Session, opt Options) (*Page, error) {
	v, r, nodes, err := preparePage(s, opt)
	if err != nil {
		return nil, err
	}
	return &Page{v: v, r: r, nodes: nodes, jsonl: opt.JSONL}, nil
}

// Write writes the page to w. The page is streamed: entries are rendered
// in parallel a little ahead of the writer and dropped once written, so
// memory stays near the size of the session, not the page. On an error w
// may hold part of a page; write to a temporary file and rename it, or to
// a buffer. A Page is written once.
func (p *Page) Write(w io.Writer) error {
	stop := make(chan struct{})
	defer close(stop)
	v := *p.v
	v.search = buildSearchIndex(p.r.s, p.nodes)
	if p.jsonl != nil {
		v.jsonl = packJSONL(p.jsonl)
	}
	v.stream = p.r.renderStream(p.nodes, v.Entries, v.Order, stop)
	return writePage(w, &v)
}

// buildPage fills the whole view model of one page, every body rendered.
func buildPage(s *session.Session, opt Options) (*pageView, error) {
	v, r, nodes, err := preparePage(s, opt)
	if err != nil {
		return nil, err
	}
	r.renderAll(nodes, v.Entries)
	v.search = buildSearchIndex(s, nodes)
	if opt.JSONL != nil {
		v.jsonl = packJSONL(opt.JSONL)
	}
	return v, nil
}

// preparePage fills the view model of one page but for the entries'
// bodies, which renderAll or renderStream add.
func preparePage(s *session.Session, opt Options) (*pageView, *sessionRenderer, []session.Node, error) {
	if opt.Theme == "" {
		opt.Theme = "auto"
	}
	if !slices.Contains(Themes, opt.Theme) {
		return nil, nil, nil, fmt.Errorf("unknown theme %q (want auto, light or dark)", opt.Theme)
	}
	view := s.Leaf
	if opt.Leaf != "" {
		view = s.Entry(opt.Leaf)
		if view == nil {
			return nil, nil, nil, fmt.Errorf("%s: no entry has the id %q", s.File, opt.Leaf)
		}
	}
	cwd := ""
	if s.Header != nil {
		cwd = s.Header.Cwd
	}
	r := &sessionRenderer{s: s, home: session.HomeOf(cwd, opt.Home), agents: opt.SubAgents}

	nodes := s.Flatten()
	onPath := map[*session.Entry]bool{}
	path := s.Path(view)
	for _, e := range path {
		onPath[e] = true
	}
	// Entries off the path in view are lazy (see entryView.Lazy), and so
	// are those of a long path but for its last eagerTail: the page then
	// parses quickly, and the script makes the rest ready as it is needed.
	eager := map[*session.Entry]bool{}
	for _, e := range path[max(0, len(path)-eagerTail):] {
		eager[e] = true
	}
	pos := make(map[*session.Entry]int, len(nodes))
	for i, n := range nodes {
		pos[n.Entry] = i
	}

	sum := s.Summarize()
	title := sum.Title
	if title == "" {
		title = "pi session"
	}
	jsonlName := opt.JSONLName
	if opt.JSONL != nil && jsonlName == "" {
		jsonlName = "session.jsonl"
	}
	v := &pageView{
		Title:     title,
		Theme:     opt.Theme,
		Generator: opt.Generator,
		FollowURL: opt.FollowURL,
		IndexURL:  opt.IndexURL,
		JSONLName: jsonlName,
		Tree:      make([]treeNodeView, len(nodes)),
		Entries:   make([]entryView, len(nodes)),
		Index: pageIndex{
			IDs:     make([]string, len(nodes)),
			Parents: make([]int, len(nodes)),
			Kinds:   make([]string, len(nodes)),
			Labeled: []int{},
			Usage:   map[int][5]float64{},
			Edits:   map[int][]int{},
			Leaf:    -1,
			View:    -1,
		},
	}
	previews := previewsOf(s, nodes, r.home)
	badges := editBadges(s, path)
	rows := s.Layout(nodes, func(e *session.Entry) bool { return shownByDefault(kindOf(e)) })
	for i, n := range nodes {
		e := n.Entry
		kind := kindOf(e)
		p := previews[i]
		level := 0
		if d := rows[i].Depth(); d > 0 {
			level = d + 1
		}
		v.Tree[i] = treeNodeView{ID: e.ID, Rails: railClasses(rows[i].Rails), Forks: rows[i].Forks, Level: level, Kind: kind,
			Role: p.Role, Preview: p.Text, Label: e.Label, OnPath: onPath[e], Leaf: e == s.Leaf}
		v.Entries[i] = entryView{ID: e.ID, Kind: kind, OnPath: onPath[e], Lazy: !eager[e], Time: e.Time, Label: e.Label,
			Absorbed: kind == kindTool && r.absorbed(e)}
		v.Index.IDs[i] = e.ID
		v.Index.Kinds[i] = kind
		v.Index.Parents[i] = -1
		if e.Parent != nil {
			v.Index.Parents[i] = pos[e.Parent]
		}
		if e.Label != "" {
			v.Index.Labeled = append(v.Index.Labeled, i)
		}
		if u, _, ok := e.UsageRecord(); ok && u != (session.Usage{}) {
			v.Index.Usage[i] = [5]float64{float64(u.Input), float64(u.Output), float64(u.CacheRead), float64(u.CacheWrite), u.Cost}
		}
		v.Entries[i].Badges = append(v.Entries[i].Badges, badges[e]...)
		if v.Entries[i].Absorbed && len(badges[e]) > 0 {
			// A result shown in its call's card has no head of its own:
			// its badges go on the head of the call's entry.
			owner, call := s.CallOf(e)
			for _, b := range badges[e] {
				b.Text = call.Name + " result " + b.Text
				v.Entries[pos[owner]].Badges = append(v.Entries[pos[owner]].Badges, b)
			}
		}
	}
	for target, list := range badges {
		for _, b := range list {
			v.Index.Edits[pos[target]] = append(v.Index.Edits[pos[target]], pos[s.Entry(b.Edit)])
		}
	}
	if s.Leaf != nil {
		v.Index.Leaf = pos[s.Leaf]
	}
	if view != nil {
		v.Index.View = pos[view]
	}
	// The entries ready to show come first in the page, the rest after
	// them; the page shows them in tree order all the same (see
	// pageView.Order).
	v.Order = make([]int, 0, len(nodes))
	for i, n := range nodes {
		if eager[n.Entry] {
			v.Order = append(v.Order, i)
		}
	}
	for i, n := range nodes {
		if !eager[n.Entry] {
			v.Order = append(v.Order, i)
		}
	}
	v.Header = r.header(sum, path, opt.ParentURL)
	v.Insights = insights.Of(s, path, r.home).Section(entryHref)
	v.SubAgents = r.subAgentPanels()
	v.Header.Related = opt.Related
	return v, r, nodes, nil
}

func (r *sessionRenderer) header(sum session.Summary, path []*session.Entry, parentURL string) headerView {
	s := r.s
	h := headerView{
		EntryCount: sum.Entries, MessageCount: sum.Messages, ToolCalls: sum.ToolCalls,
		Models: sum.Models, Start: sum.Start, End: sum.End,
	}
	if s.Header != nil {
		h.Cwd = session.ShortenHome(s.Header.Cwd, r.home)
		h.SessionID = s.Header.ID
		if p := s.Header.ParentSession; p != "" {
			h.Parent = session.ShortenHome(p, r.home)
			h.ParentURL = parentURL
			h.ParentRole = "Forked from"
			for _, e := range s.Entries {
				if e.Type == "session_init" {
					h.ParentRole = "Sub-agent of"
					break
				}
			}
		}
	}
	if s.Redaction != nil {
		h.Redaction = s.Redaction.Summary()
	}
	if !h.Start.IsZero() && h.End.After(h.Start) {
		h.Duration = humanize.Duration(h.End.Sub(h.Start))
	}
	// The file's totals are pi's: every kind of model work it records.
	st := s.Stats()
	h.File = st.Usage
	h.Path = session.PathUsage(path)
	if len(st.Breakdown) > 1 || len(st.Breakdown) == 1 && st.Breakdown[0].Key == session.ToolsAndSummaries {
		for _, row := range st.Breakdown {
			h.Breakdown = append(h.Breakdown, costRow{Key: row.Key, Tokens: humanize.Tokens(row.Tokens), Cost: humanize.Cost(row.Cost)})
		}
	}
	return h
}

// previewsOf returns the tree's previews of nodes, made on every core:
// reading Markdown as text (session.ReaderText) is most of what the tree
// costs on a long session.
func previewsOf(s *session.Session, nodes []session.Node, home string) []session.Preview {
	out := make([]session.Preview, len(nodes))
	const chunk = 256
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				start := int(next.Add(chunk)) - chunk
				if start >= len(nodes) {
					return
				}
				for i := start; i < min(start+chunk, len(nodes)); i++ {
					out[i] = s.Preview(nodes[i].Entry, home)
				}
			}
		})
	}
	wg.Wait()
	return out
}

// maxRails bounds the levels of rails a row draws: a tree branching deeper
// draws only its innermost levels, so that the text keeps room.
const maxRails = 16

// railClasses turns session.Layout's rails into the classes of the
// elements that draw them (see treeNodeView.Rails): a run of levels
// without a line, or with a line going on, is one element ("k3" for
// three levels, "v k3" for three lines), so a deep tree costs a few
// elements a row, not one a level; "t" and "l" draw ├ and └. page.js
// draws them the same way.
func railClasses(rails string) []string {
	if len(rails) == 0 {
		return nil
	}
	rails = rails[max(0, len(rails)-maxRails):]
	var out []string
	for i := 0; i < len(rails); {
		c := rails[i]
		k := 1
		if c == session.RailNone || c == session.RailLine {
			for i+k < len(rails) && rails[i+k] == c {
				k++
			}
		}
		var class string
		switch c {
		case session.RailLine:
			class = "v"
		case session.RailTee:
			class = "t"
		case session.RailElbow:
			class = "l"
		}
		if k > 1 {
			class = strings.TrimSpace(class + " k" + strconv.Itoa(k))
		}
		out = append(out, class)
		i += k
	}
	return out
}
