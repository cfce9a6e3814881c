package page

import (
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

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
	// Home is the reader's home directory, shown as ~. Empty: guessed
	// from the session's working directory (see session.HomeOf).
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
	// ParentName, when set, is how the header names that session: its
	// title, known to an archive and the server. ParentPath, when set
	// instead, is its file on this machine, which a single export finds.
	// Else the header names the file the session's header does, by its
	// name alone unless it lies under Home: the path is of the machine
	// the session was written on (see parentLine).
	ParentName, ParentPath string
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
	// Embed makes a page to show inside another, in an iframe: a
	// one-line header in place of the facts and the charts, the tree
	// closed, and the page's height posted to the page around it
	// whenever it changes ({piexport: "height", height: N}).
	// EmbedLink, when set, is where the header's "Open the full
	// session" link goes.
	Embed     bool
	EmbedLink string
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

// WebLink says whether link can be Options.EmbedLink: an http or https
// URL, or one relative to the page.
func WebLink(link string) bool {
	u, err := url.Parse(link)
	if err != nil || strings.ContainsAny(link, " \t\n\r") {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.Host != ""
	case "":
		return true
	}
	return false
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
	v      *pageView
	r      *sessionRenderer // the session's renderer; nil for a made-up page
	blocks []block
	// render renders the article of the i-th entry in tree order; panels
	// the sub-agents' transcripts.
	render func(i int) *entryView
	panels func() []subAgentPanel
	jsonl  []byte
	// nodes are the session's entries in tree order.
	nodes []session.Node
	// progress is told how far writing is (see Tell).
	progress func(done, total int)
}

// Tell makes Write (and WriteEncrypted) tell progress how many of the
// articles the page carries are written, of total, after each: writing
// the page of a large session takes seconds.
func (p *Page) Tell(progress func(done, total int)) { p.progress = progress }

// NewPage prepares the page of s: everything but the entries' articles,
// which Write renders as it writes them.
func NewPage(s *session.Session, opt Options) (*Page, error) {
	if opt.Theme == "" {
		opt.Theme = "auto"
	}
	if !slices.Contains(Themes, opt.Theme) {
		return nil, fmt.Errorf("unknown theme %q (want auto, light or dark)", opt.Theme)
	}
	if opt.EmbedLink != "" && !opt.Embed {
		return nil, fmt.Errorf("a link to the full session goes with an embedded page")
	}
	if opt.EmbedLink != "" && !WebLink(opt.EmbedLink) {
		return nil, fmt.Errorf("the link to the full session must be an http or https URL or a relative one, not %q", opt.EmbedLink)
	}
	view := s.Leaf
	if opt.Leaf != "" {
		view = s.Entry(opt.Leaf)
		if view == nil {
			return nil, fmt.Errorf("%s: no entry has the id %q", s.File, opt.Leaf)
		}
	}
	cwd := ""
	if s.Header != nil {
		cwd = s.Header.Cwd
	}
	r := &sessionRenderer{s: s, home: session.HomeOf(cwd, opt.Home), agents: opt.SubAgents, problems: &problems{}}
	nodes := s.Flatten()
	path := s.Path(view)
	r.pos = make(map[*session.Entry]int, len(nodes))
	for i, n := range nodes {
		r.pos[n.Entry] = i
	}
	facts := factsOf(s, nodes, r.home, r.problems)
	r.previews = make([]session.Preview, len(facts))
	r.kinds = make([]string, len(facts))
	for i := range facts {
		r.previews[i] = facts[i].preview
		r.kinds[i] = facts[i].kind
	}
	var results []*session.Message
	for _, n := range nodes {
		if n.Entry.Role() == "toolResult" {
			results = append(results, n.Entry.Message)
		}
	}
	r.repeats = countRepeats(results)
	r.badges = editBadges(s, path)
	r.ownedBadges = map[*session.Entry][]editBadge{}
	for i, n := range nodes {
		e, list := n.Entry, r.badges[n.Entry]
		if !facts[i].absorbed || len(list) == 0 {
			continue
		}
		// A result shown in its call's card has no head of its own: its
		// badges go on the head of the call's entry.
		owner, call := s.CallOf(e)
		for _, b := range list {
			b.Text = call.Name + " result " + b.Text
			r.ownedBadges[owner] = append(r.ownedBadges[owner], b)
		}
	}

	sum := s.Summarize()
	// A name is as the user typed it: the title, in a tab and a link's
	// preview, is one line.
	title := strings.Join(strings.Fields(sum.Title), " ")
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
		Empty:     len(nodes) == 0,
		Embed:     opt.Embed,
		EmbedLink: opt.EmbedLink,
		Excerpt:   excerptOf(s),
	}
	v.Description = description(s, sum)
	v.Index = r.index(nodes, facts, view)
	var pathIdx []int
	for _, e := range path {
		pathIdx = append(pathIdx, r.pos[e])
	}
	absorbed := make([]bool, len(nodes))
	for i := range facts {
		absorbed[i] = facts[i].absorbed
	}
	blocks := planBlocks(pathIdx, absorbed, func(i int) int { return nodes[i].Entry.Size })
	for _, e := range path {
		i := r.pos[e]
		if facts[i].absorbed || !shownByDefault(facts[i].kind) {
			continue
		}
		p := facts[i].preview
		v.TOC = append(v.TOC, tocRow{ID: e.ID, Role: p.Role, Preview: p.Text, Label: e.Label})
	}
	v.Header = r.header(sum, path, opt)
	v.Header.Related = opt.Related
	// The insights take the tool calls' summaries from the facts: in a
	// lean session they would read the path's messages again.
	argsOf := func(e *session.Entry, b *session.Block) string {
		return facts[r.pos[e]].args[b.ToolCallID]
	}
	v.Insights = insights.Of(s, path, r.home, argsOf).Section(entryHref)
	render := func(i int) *entryView { return r.article(nodes[i].Entry, i) }
	return &Page{v: v, r: r, blocks: blocks, render: render, panels: r.subAgentPanels, jsonl: opt.JSONL, nodes: nodes}, nil
}

// Write writes the page to w (see the package doc for what it holds and
// in which order). The page is streamed: entries are rendered in parallel
// a little ahead of the writer and dropped once written, so memory stays
// near one block of the page, not the page. On an error w may hold part
// of a page; write to a temporary file and rename it, or to a buffer. A
// Page is written once.
func (p *Page) Write(w io.Writer) error {
	return writePage(w, p)
}

// index makes the script's index of nodes, the path in view ending at
// view.
func (r *sessionRenderer) index(nodes []session.Node, facts []entryFacts, view *session.Entry) pageIndex {
	s := r.s
	ix := newPageIndex(len(nodes))
	for i, n := range nodes {
		e := n.Entry
		f := &facts[i]
		parent := -1
		if e.Parent != nil {
			parent = r.pos[e.Parent]
		}
		ix.set(i, e.ID, parent, f.kind, f.preview.Role, f.preview.Text, e.Label, f.absorbed, f.lines)
		if u, _, ok := e.UsageRecord(); ok && u != (session.Usage{}) {
			ix.Usage[i] = [5]float64{float64(u.Input), float64(u.Output), float64(u.CacheRead), float64(u.CacheWrite), u.Cost}
		}
	}
	for target, list := range r.badges {
		for _, b := range list {
			ix.Edits[r.pos[target]] = append(ix.Edits[r.pos[target]], r.pos[s.Entry(b.Edit)])
		}
	}
	if s.Leaf != nil {
		ix.Leaf = r.pos[s.Leaf]
	}
	if view != nil {
		ix.View = r.pos[view]
	}
	return ix
}

func (r *sessionRenderer) header(sum session.Summary, path []*session.Entry, opt Options) headerView {
	s := r.s
	h := headerView{
		EntryCount: sum.Entries, MessageCount: sum.Messages, ToolCalls: sum.ToolCalls,
		Models: sum.Models, Start: sum.Start, End: sum.End,
	}
	if s.Header != nil {
		h.Cwd = session.ShortenHome(s.Header.Cwd, r.home)
		h.SessionID = s.Header.ID
		if s.Header.ParentSession != "" {
			h.Parent, h.ParentURL, h.ParentRole, h.ParentIsPath = parentLine(s, r.home, opt)
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
			h.Breakdown = append(h.Breakdown, costRow{Key: humanize.Model(row.Key), Tokens: humanize.Tokens(row.Tokens), Cost: humanize.Cost(row.Cost)})
		}
	}
	return h
}
