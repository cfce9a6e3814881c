package archive

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/piexport/piexport/gfm"
	"github.com/piexport/piexport/internal/imagefiles"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/site"
)

// format is how an archive's files are written.
type format struct {
	name, ext string
	// index is the index's file name.
	index string
	// target is the Markdown's engine (gfm.Targets).
	target string
	// page writes a session's file and returns what went wrong that did
	// not stop it (an entry shown unformatted).
	page   func(w io.Writer, s *session.Session, raw []byte, opt Options, parent page.Link, related []page.Related, docs pageDocs) ([]session.Warning, error)
	indexW func(io.Writer, []site.IndexItem, site.IndexOptions, Options) error
}

// pageDocs is what a page links and keeps besides its session (a
// Markdown page: its sub-agents' documents and its images), and where it
// tells how far its writing is.
type pageDocs struct {
	index  string
	agents map[string]string
	images *imagefiles.Dir
	// progress, when set, is told how many of the page's entries are
	// written, of total, as they are.
	progress func(done, total int)
}

// pageURL is the link from a page to the page of the session named stem;
// indexURL the link from the index. Hugo serves NAME.md at NAME/, in
// lower case, and _index.md at the directory itself.
func (f format) pageURL(stem string) string {
	if f.target == "hugo" {
		return "../" + strings.ToLower(url.PathEscape(stem)) + "/"
	}
	return url.PathEscape(stem + f.ext)
}

func (f format) indexURL(stem string) string {
	if f.target == "hugo" {
		return strings.ToLower(url.PathEscape(stem)) + "/"
	}
	return url.PathEscape(stem + f.ext)
}

// toIndex is the link from a page to the index.
func (f format) toIndex() string {
	if f.target == "hugo" {
		return "../"
	}
	return f.index
}

// assetsLink is how a page links the archive's images directory.
func (f format) assetsLink() string {
	switch f.target {
	case "hugo":
		return "../" + assetsDir
	case "docusaurus":
		return "./" + assetsDir
	}
	return assetsDir
}

// assetsDir holds the images of a Markdown archive's pages.
const assetsDir = "assets"

var formats = map[string]format{
	"html": {name: "html", ext: ".html", index: "index.html", page: writePage, indexW: func(w io.Writer, items []site.IndexItem, o site.IndexOptions, _ Options) error {
		return site.WriteIndex(w, items, o)
	}},
	"md": {name: "md", ext: ".md", index: "index.md", page: writeMarkdown, indexW: writeIndexMarkdown},
}

// writePage writes a session's page, with its links to the index, to the
// session it came from (parent, by title, when the archive has it) and
// to the others it has to do with; raw is the session file, which the
// page carries when opt.EmbedJSONL says so.
func writePage(w io.Writer, s *session.Session, raw []byte, opt Options, parent page.Link, related []page.Related, docs pageDocs) ([]session.Warning, error) {
	po := page.Options{Theme: opt.Theme, Home: opt.Home, Generator: opt.Generator,
		ParentURL: parent.URL, ParentName: parent.Title, Related: related, IndexURL: "index.html"}
	if opt.EmbedJSONL {
		po.JSONL, po.JSONLName = raw, filepath.Base(s.File)
	}
	p, err := page.NewPage(s, po)
	if err != nil {
		return nil, err
	}
	p.Tell(docs.progress)
	err = p.Write(w)
	return p.Warnings(), err
}

// writeMarkdown writes a session's Markdown document for the archive's
// engine: linked to the index, to the session it came from and the
// others it has to do with, its images kept in the archive's assets.
func writeMarkdown(w io.Writer, s *session.Session, _ []byte, opt Options, parent page.Link, related []page.Related, docs pageDocs) ([]session.Warning, error) {
	o := gfm.Options{Home: opt.Home, Generator: opt.Generator, Target: opt.MarkdownTarget, FrontMatter: opt.FrontMatter,
		IndexURL: docs.index, AgentLinks: docs.agents, Progress: docs.progress}
	if docs.images != nil {
		o.Images = docs.images
	}
	if parent.URL != "" {
		label := "Forked from"
		if _, role := s.ParentOf(opt.Home); role != "" {
			label = role
		}
		o.Parent = gfm.MarkdownRelated{Label: label, Links: []gfm.MarkdownLink{{Title: parent.Title, Link: parent.URL}}}
	}
	for _, r := range related {
		mr := gfm.MarkdownRelated{Label: r.Label}
		for _, l := range r.Links {
			mr.Links = append(mr.Links, gfm.MarkdownLink{Title: l.Title, Link: l.URL})
		}
		o.Related = append(o.Related, mr)
	}
	return nil, gfm.WriteMarkdown(w, s, o)
}

// Formats lists the values Options.Format accepts.
var Formats = []string{"html", "md"}

// formatOf is the format name names; target is the engine of a Markdown
// archive (gfm.Targets, "" for GitHub), whose index Hugo wants named
// _index.md: an index.md would make the directory one page (a leaf
// bundle), and no session would be built.
func formatOf(name, target string) (format, error) {
	if name == "" {
		name = "html"
	}
	f, ok := formats[name]
	if !ok {
		return format{}, fmt.Errorf("unknown archive format %q (want html or md)", name)
	}
	if name == "md" {
		if target == "" {
			target = "github"
		}
		if !gfm.ValidTarget(target) {
			return format{}, fmt.Errorf("unknown Markdown target %q (want %s)", target, strings.Join(gfm.Targets, ", "))
		}
		f.target = target
		if target == "hugo" {
			f.index = "_index.md"
		}
	}
	return f, nil
}

// writeIndexMarkdown writes the index of a Markdown archive, newest
// first, and the files that failed to load last, unlinked, with their
// errors.
func writeIndexMarkdown(w io.Writer, items []site.IndexItem, opt site.IndexOptions, aopt Options) error {
	var rows []gfm.MarkdownIndexItem
	var failed []site.IndexItem
	for _, it := range items {
		if it.Err != nil {
			failed = append(failed, it)
			continue
		}
		row := gfm.MarkdownIndexItem{Title: it.Title(), Link: it.URL, Date: it.Summary.Start,
			Project: session.ShortenHome(it.Cwd, session.HomeOf(it.Cwd, opt.Home)), Messages: it.Summary.Messages, Cost: it.Summary.Usage.Cost}
		for _, r := range it.Related {
			mr := gfm.MarkdownRelated{Label: r.Label}
			for _, l := range r.Links {
				mr.Links = append(mr.Links, gfm.MarkdownLink{Title: l.Title, Link: l.URL})
			}
			row.Related = append(row.Related, mr)
		}
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b gfm.MarkdownIndexItem) int { return b.Date.Compare(a.Date) })
	slices.SortStableFunc(failed, func(a, b site.IndexItem) int { return strings.Compare(a.Path, b.Path) })
	for _, it := range failed {
		msg := it.Err.Error()
		if h := opt.Home; h != "" && h != "/" {
			msg = strings.ReplaceAll(msg, h+"/", "~/")
		}
		rows = append(rows, gfm.MarkdownIndexItem{Title: "Could not be read: " + msg, Project: session.ShortenHome(it.Path, opt.Home)})
	}
	return gfm.WriteMarkdownIndex(w, rows, gfm.IndexOptions{Title: opt.Title, Target: aopt.MarkdownTarget, FrontMatter: aopt.FrontMatter,
		Usage: opt.Usage, Project: func(cwd string) string {
			return session.ShortenHome(cwd, session.HomeOf(cwd, opt.Home))
		}})
}
